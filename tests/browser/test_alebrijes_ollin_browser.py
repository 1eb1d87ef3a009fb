"""Alebrijes in Chromium at an Ollin choice (two cards played, one with Ollin): the other
players read who is choosing what, not only whose turn it is; the chooser who selects two
cards is told why "discard the selected card" stays greyed out, and with one card selected
the button works and the hint is gone. With the deck empty nobody can draw: the chooser is
told so, not offered the draw. After a single card with Ollin the choice is only whether the
others draw: the chooser's hand cannot be picked from, and the choice keeps the focus in the
hand. The tables are reached by replaying a pinned deal's moves over
the API (three players)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from app.games import ENGINES
from tests.browser.comfort import act, connect, open_as, run, seeded_table, settle
from tests.support.client import ApiClient

pytestmark = pytest.mark.browser

ENGINE = ENGINES["alebrijes"]
SEED = 2
NAMES = ("Ana", "Beto", "Celia")
CATALOGUES = Path(__file__).resolve().parents[2] / "app" / "i18n"


def moves_to_an_ollin(seed: int, empty_deck: bool = False, size: int = 2
                      ) -> tuple[list[tuple[int, dict]], int]:
    """Random legal moves of a pinned deal until an Ollin choice of `size` cards (with the
    deck empty: passes that exchange cards preferred, to drain it); the choice's chooser."""
    state = ENGINE.setup(3, {"first_seat": 0}, seed)
    rng = random.Random(seed)
    moves = []
    while not (state.phase == "ollin" and state.ollin["size"] == size
               and (not empty_deck or not state.deck)):
        assert state.phase != "over" and len(moves) < 3000, "no such choice in this deal"
        seat = state.current
        legal = ENGINE.legal_actions(state, seat)
        drains = [a for a in legal if a.get("type") == "pass" and a.get("cards")]
        if empty_deck and drains and rng.random() < 0.7:
            action = rng.choice(drains)
        else:
            action = rng.choice(legal)
        moves.append((seat, action))
        state, _ = ENGINE.apply(state, seat, action)
    return moves, state.current


def table_at(base: str, ws_url: str, seed: int, moves: list[tuple[int, dict]]
             ) -> tuple[list[ApiClient], str]:
    """A started three-player table of the pinned deal, the moves played through the API."""
    players = [ApiClient(base, name) for name in NAMES]
    table_id = seeded_table(players, "alebrijes", seed, {"first_seat": 0})

    async def replay() -> None:
        clients = await connect(ws_url, players, table_id)
        try:
            for seat, action in moves:
                await settle(clients)
                await act(clients[seat], action)
            state = await settle(clients)
            assert state["view"]["phase"] == "ollin", state["view"]
        finally:
            for c in clients:
                await c.close()

    run(replay())
    return players, table_id


def test_an_ollin_choice_reads_right_for_the_chooser_and_the_others(worker_server,
                                                                     browser) -> None:
    base = worker_server.url
    moves, chooser = moves_to_an_ollin(2)
    players, table_id = table_at(base, worker_server.ws_url, 2, moves)
    name = NAMES[chooser]
    errors: list[str] = []
    for lang, viewport in (("es", {"width": 390, "height": 844}),
                           ("en", {"width": 1280, "height": 800})):
        words = json.loads((CATALOGUES / f"{lang}.json").read_text())
        # another player: who is choosing, and what
        other = open_as(browser, base, players[(chooser + 1) % 3], viewport, lang).new_page()
        other.goto(f"{base}/tables/{table_id}")
        other.wait_for_selector("#ab-prompt")
        assert other.locator("#ab-prompt").inner_text().strip() == \
            words["alebrijes.turn.ollin_other"].replace("{player}", name)
        other.context.close()
        # the chooser: two cards selected, the discard greyed out and why; one, it works
        page = open_as(browser, base, players[chooser], viewport, lang).new_page()
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(f"{base}/tables/{table_id}")
        discard = page.locator("#game button[data-focus-key=ollin-discard]")
        discard.wait_for()
        cards = page.locator("#my-hand .ab-card")
        assert cards.count() >= 2
        cards.nth(0).click()
        cards.nth(1).click()
        page.wait_for_selector("#ab-hint")
        assert page.locator("#ab-hint").inner_text().strip() == \
            words["alebrijes.hint.ollin_one_card"]
        assert discard.is_disabled()
        cards.nth(1).click()
        page.wait_for_function("() => !document.getElementById('ab-hint')")
        assert discard.is_enabled()
        if lang == "en":  # the choice made (the Spanish look came first): the discard
            card = cards.nth(0).locator("svg.ucard").get_attribute("aria-label")
            discard.click()
            page.wait_for_function("() => !document.querySelector("
                                   "'[data-focus-key=ollin-discard]')")
            own = page.locator("#log li").all_inner_texts()
            # the play that brought the choice says it had Ollin in it
            ollin = words["alebrijes.combo.ollin"].split("}", 1)[1].format(n=1)
            assert any(line.startswith(f"{name} (you) leads") and line.endswith(ollin)
                       for line in own), own
            # the discarder reads the card; the others only that a card went (hidden)
            assert words["alebrijes.log.ollin_discard_card"].format(player=f"{name} (you)",
                                                                    card=card) in own, own
            seen = open_as(browser, base, players[(chooser + 1) % 3], viewport,
                           lang).new_page()
            seen.goto(f"{base}/tables/{table_id}")
            seen.wait_for_function("() => document.querySelectorAll('#log li').length > 0")
            lines = seen.locator("#log li").all_inner_texts()
            assert words["alebrijes.log.ollin_discard"].format(player=name) in lines, lines
            assert not any(card in line for line in lines), lines
            seen.context.close()
        assert errors == []
        page.context.close()


def test_with_the_deck_empty_the_chooser_is_told_nobody_can_draw(worker_server,
                                                                browser) -> None:
    base = worker_server.url
    moves, chooser = moves_to_an_ollin(4, empty_deck=True)
    players, table_id = table_at(base, worker_server.ws_url, 4, moves)
    for lang, viewport in (("es", {"width": 390, "height": 844}),
                           ("en", {"width": 1280, "height": 800})):
        words = json.loads((CATALOGUES / f"{lang}.json").read_text())
        page = open_as(browser, base, players[chooser], viewport, lang).new_page()
        page.goto(f"{base}/tables/{table_id}")
        page.wait_for_selector("#game button[data-focus-key=ollin-discard]")
        assert page.locator("#ab-prompt").inner_text().strip() == \
            words["alebrijes.prompt.ollin_two_empty"]
        assert page.locator("#game button[data-focus-key=ollin-draw]").is_disabled()
        page.context.close()


def test_a_one_card_ollin_leaves_the_hand_alone(worker_server, browser) -> None:
    base = worker_server.url
    moves, chooser = moves_to_an_ollin(2, size=1)
    players, table_id = table_at(base, worker_server.ws_url, 2, moves)
    name = NAMES[chooser]
    for lang, viewport in (("es", {"width": 390, "height": 844}),
                           ("en", {"width": 1280, "height": 800})):
        words = json.loads((CATALOGUES / f"{lang}.json").read_text())
        page = open_as(browser, base, players[chooser], viewport, lang).new_page()
        page.goto(f"{base}/tables/{table_id}")
        draw = page.locator("#game button[data-focus-key=ollin-draw]")
        draw.wait_for()
        assert page.locator("#ab-prompt").inner_text().strip() == \
            words["alebrijes.prompt.ollin_one"]
        assert page.locator("#game [data-focus-key=ollin-discard]").count() == 0
        cards = page.locator("#my-hand .ab-card")
        assert cards.count() > 0
        assert all(cards.nth(i).is_disabled() for i in range(cards.count()))
        if lang == "en":  # the choice made (the Spanish look came first): everyone draws
            draw.focus()
            page.keyboard.press("Enter")
            page.wait_for_function("() => !document.querySelector("
                                   "'[data-focus-key=ollin-draw]')")
            assert page.evaluate("() => document.activeElement.id") == "my-hand"
            lines = page.locator("#log li").all_inner_texts()
            assert words["alebrijes.log.ollin_draw"].format(player=f"{name} (you)") in lines, \
                lines
        page.context.close()
