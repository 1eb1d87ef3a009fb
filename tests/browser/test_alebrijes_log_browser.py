"""Alebrijes in Chromium: what the log and the playable combinations say (pinned deal, three
players, Ana in seat 0 starts).

- Your own exchange names the cards you gave away and the ones you drew (before, the log only
  said "you exchange 2 cards" and the drawn cards vanished into the sorted hand); the other
  players still read only how many.
- A combination of one card reads as that card ("un comodín 4 como azul"), not as
  "1 × 4 azul, 1 de ellas comodín"; wild cards alone say which suit they play as."""

from __future__ import annotations

import random
import re

import pytest

from app.games import ENGINES
from tests.browser.comfort import (
    LAPTOP,
    PHONE,
    act,
    connect,
    load_table,
    open_as,
    play_moves,
    run,
    seeded_table,
    settle,
)
from tests.support.client import ApiClient

pytestmark = pytest.mark.browser

ENGINE = ENGINES["alebrijes"]

SEED = 3  # Ana's hand: blue 2, blue 3, green 5*, pink 4, orange 2, 4, 5*, wild 2, 2, 4
WORDS = {
    "es": {"mine": r"^Ana \(tú\) cambia 2 azul \(roedores\) y 3 azul \(roedores\) por \S.+ y \S.+$",
           "theirs": "Ana cambia 2 cartas", "round": "Ronda 1: empieza Ana (tú)",
           "single_wild": "un comodín 4 como azul (roedores)",
           "two_wilds": "2 × comodín 2 como verde (aves)",
           "led": "Ana (tú) abre con un comodín 4 como azul (roedores)",
           "beat": "Para superar un comodín 4 como azul (roedores): 1 × azul (roedores) de más"
                   " de 4 o 1 × verde (aves) de cualquier número. O pasa"},
    "en": {"mine": r"^Ana \(you\) exchanges blue \(rodents\) 2 and blue \(rodents\) 3 "
                   r"for \S.+ and \S.+$",
           "theirs": "Ana exchanges 2 cards", "round": "Round 1 begins: Ana (you) starts",
           "single_wild": "a single wild 4 as blue (rodents)",
           "two_wilds": "2 × wild 2 as green (birds)",
           "led": "Ana (you) leads a single wild 4 as blue (rodents)",
           "beat": "To beat a single wild 4 as blue (rodents): 1 × blue (rodents) above 4 or"
                   " 1 × green (birds) of any number. Or pass"},
}


async def the_others_keep(ws_base: str, players: list[ApiClient], table_id: str) -> None:
    clients = await connect(ws_base, players, table_id)
    try:
        for seat in (1, 2):
            await settle(clients)
            await act(clients[seat], {"type": "exchange", "cards": []})
        assert (await settle(clients))["view"]["phase"] == "trick"
    finally:
        for c in clients:
            await c.close()


def log_lines(page) -> list[str]:
    return [line.strip() for line in page.locator("#log li").all_inner_texts()]


@pytest.mark.parametrize(("viewport", "lang"), [(PHONE, "es"), (LAPTOP, "en")],
                         ids=["phone-es", "laptop-en"])
def test_own_exchange_and_single_cards_read_right(worker_server, browser, viewport,
                                                  lang) -> None:
    words = WORDS[lang]
    base = worker_server.url
    players = [ApiClient(base, name) for name in ("Ana", "Beto", "Celia")]
    table_id = seeded_table(players, "alebrijes", SEED, {"first_seat": 0})
    page = open_as(browser, base, players[0], viewport, lang).new_page()
    other = open_as(browser, base, players[1], viewport, lang).new_page()
    try:
        load_table(page, base, table_id)
        load_table(other, base, table_id)
        cards = page.locator("#my-hand .ab-card")
        cards.nth(0).click()
        cards.nth(1).click()
        # the log opens with round 1's line; the exchange's comes after it
        assert log_lines(page) == [words["round"]]
        page.locator("[data-focus-key=exchange]").click()
        page.wait_for_function("() => document.querySelectorAll('#log li').length >= 2")
        mine = log_lines(page)[-1]
        assert re.match(words["mine"], mine), mine
        other.wait_for_function("() => document.querySelectorAll('#log li').length >= 2")
        assert log_lines(other)[-1] == words["theirs"]  # the others learn no card

        run(the_others_keep(worker_server.ws_url, players, table_id))
        page.wait_for_selector(".ab-suggest summary")
        page.locator(".ab-suggest summary").click()
        offers = [o.strip() for o in page.locator(".ab-suggest-list button").all_inner_texts()]
        assert not [o for o in offers if o.startswith("1 ×")], offers
        assert words["single_wild"] in offers and words["two_wilds"] in offers, offers
        page.locator(".ab-suggest-list button", has_text=words["single_wild"]).first.click()
        page.wait_for_function("(text) => [...document.querySelectorAll('#log li')]"
                               ".some((li) => li.textContent.includes(text))", arg=words["led"])
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
        page.screenshot(path=f"/tmp/eb-review/log-{lang}.png", full_page=True)
        # Beto answers: his prompt says what beats a blue 4 (a newcomer does not know the
        # chain), where it said only "beat the combination or pass"
        other.wait_for_function("(text) => document.getElementById('ab-prompt')"
                                ".textContent.includes(text)", arg=words["beat"])
        other.screenshot(path=f"/tmp/eb-review/beat-{lang}.png")
    finally:
        page.context.close()
        other.context.close()


def moves_to_no_beat(seed: int) -> list[tuple[int, dict]]:
    """Everyone keeps their hand, takes no Ollin effect and plays the first listed
    combination (Ana passes when answering), until Ana must answer a combination that
    nothing in her hand beats."""
    state = ENGINE.setup(3, {"first_seat": 0}, seed)
    moves: list[tuple[int, dict]] = []
    while True:
        seat = state.current
        legal = ENGINE.legal_actions(state, seat)
        plays = [a for a in legal if a["type"] == "play"]
        if seat == 0 and state.phase == "trick" and state.best is not None and not plays:
            return moves
        assert state.phase != "over" and len(moves) < 200
        if state.phase == "exchange":
            action = {"type": "exchange", "cards": []}
        elif state.phase == "ollin":
            action = {"type": "ollin", "effect": "none"}
        elif plays and (seat != 0 or state.best is None):
            action = plays[0]
        else:
            action = {"type": "pass", "cards": []}
        moves.append((seat, action))
        state, _ = ENGINE.apply(state, seat, action)


NO_BEAT = {
    "es": {"prompt": "Nada de tu mano supera ", "pass": "Pasar y cambiar 2"},
    "en": {"prompt": "Nothing in your hand beats ", "pass": "Pass and exchange 2"},
}


@pytest.mark.parametrize(("viewport", "lang"), [(PHONE, "es"), (LAPTOP, "en")],
                         ids=["phone-es", "laptop-en"])
def test_nothing_beats_the_table_says_so(worker_server, browser, viewport, lang) -> None:
    """With nothing in your hand that beats the table the page said "beat the combination or
    pass" over a greyed-out "select cards to play"; now it says nothing beats it and offers
    the pass, and cards selected for the pass's exchange raise no "does not beat" hint."""
    words = NO_BEAT[lang]
    base = worker_server.url
    players = [ApiClient(base, name) for name in ("Ana", "Beto", "Celia")]
    table_id = seeded_table(players, "alebrijes", 19, {"first_seat": 0})

    play_moves(worker_server.ws_url, players, table_id, moves_to_no_beat(19))
    page = open_as(browser, base, players[0], viewport, lang).new_page()
    try:
        load_table(page, base, table_id)
        prompt = page.locator("#ab-prompt").inner_text().strip()
        assert prompt.startswith(words["prompt"]), prompt
        assert page.locator("#game button[data-focus-key=play]").count() == 0
        cards = page.locator("#my-hand .ab-card")
        cards.nth(0).click()
        cards.nth(1).click()
        assert page.locator("#ab-hint").count() == 0
        pass_button = page.locator("#game button[data-focus-key=pass]")
        assert pass_button.inner_text().strip() == words["pass"] and pass_button.is_enabled()
        page.screenshot(path=f"/tmp/eb-review/nobeat-{lang}.png", full_page=True)
    finally:
        page.context.close()


def moves_to_last_answer(seed: int) -> tuple[list[tuple[int, dict]], int]:
    """Random legal moves of a pinned deal until Ana answers last in a trick and can beat it
    without going out and without an Ollin card; the index of such a play among the
    playable combinations (the suggestions list, in the same order)."""
    state = ENGINE.setup(3, {"first_seat": 0}, seed)
    rng = random.Random(seed)
    moves: list[tuple[int, dict]] = []
    while True:
        seat = state.current
        legal = ENGINE.legal_actions(state, seat)
        last = state.phase == "trick" and state.best is not None and len(state.trick) == 2
        if seat == 0 and last:
            plays = [a for a in legal if a["type"] == "play"]
            fit = [i for i, a in enumerate(plays)
                   if a["ollin"] == 0 and a["count"] < len(state.hands[0])]
            if fit:
                return moves, fit[0]
        assert state.phase != "over" and len(moves) < 300
        action = rng.choice(legal)
        moves.append((seat, action))
        state, _ = ENGINE.apply(state, seat, action)


def test_a_suggestion_that_wins_the_trick_keeps_the_focus_in_the_hand(worker_server,
                                                                     browser) -> None:
    """Ana plays one of the playable combinations (the list under her hand) as the last to
    answer: she wins the trick and leads the next, so the list is drawn again, closed. The
    focus went to a hidden button of that list with the same key and fell to the page's
    body (Tab started over from the top); now it is in her hand."""
    base = worker_server.url
    players = [ApiClient(base, name) for name in ("Ana", "Beto", "Celia")]
    table_id = seeded_table(players, "alebrijes", 6, {"first_seat": 0})
    moves, index = moves_to_last_answer(6)

    play_moves(worker_server.ws_url, players, table_id, moves)
    page = open_as(browser, base, players[0], PHONE, "es").new_page()
    try:
        load_table(page, base, table_id)
        page.locator(".ab-suggest summary").click()
        before = page.locator("#table-app").get_attribute("data-version")
        page.locator(".ab-suggest-list button").nth(index).click()
        page.wait_for_function("(v) => document.getElementById('table-app').dataset.version"
                               " !== v", arg=before)
        page.wait_for_timeout(300)
        assert page.locator("#ab-prompt").inner_text().startswith("Abres la baza")
        inside = page.evaluate("() => !!document.activeElement.closest('#my-hand')")
        assert inside, page.evaluate("() => document.activeElement.outerHTML.slice(0, 120)")
    finally:
        page.context.close()
