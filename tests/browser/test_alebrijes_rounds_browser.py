"""Alebrijes in Chromium at the end of a game (pinned deal, three players, random legal
moves): the page showed only the last round's points, so a player could not check the
totals, nor see why a hand was worth what it was. Now every round is listed with each
player's points, running total and the highest card of each suit that made the points;
the numbers add up to the totals in the players' table."""

from __future__ import annotations

import random
import re

import pytest

from app.games import ENGINES
from tests.browser.comfort import (
    LAPTOP,
    PHONE,
    finish,
    load_table,
    open_as,
    play_moves,
    run,
    seeded_table,
)
from tests.support.client import ApiClient

pytestmark = pytest.mark.browser

ENGINE = ENGINES["alebrijes"]
NAMES = ("Ana", "Beto", "Celia")
LINE = {"es": re.compile(r"^(.+?)(?: \(tú\))?: (-?\d+) \(total (-?\d+)\)$"),
        "en": re.compile(r"^(.+?)(?: \(you\))?: (-?\d+) \(total (-?\d+)\)$")}
STARTS = {"es": "Ronda 2: empieza Celia, que va con la peor puntuación",
          "en": "Round 2 begins: Celia starts, with the worst total"}
WHY = {"es": "La carta más alta de cada pinta: ", "en": "Highest card of each suit: "}


@pytest.fixture(scope="module")
def finished(worker_server) -> tuple[list[ApiClient], str]:
    players = [ApiClient(worker_server.url, name) for name in NAMES]
    table_id = seeded_table(players, "alebrijes", 5, {"first_seat": 0})
    run(finish(worker_server.ws_url, players, table_id, random.Random(5)))
    return players, table_id


@pytest.mark.parametrize(("viewport", "lang"), [(PHONE, "es"), (LAPTOP, "en")],
                         ids=["phone-es", "laptop-en"])
def test_every_round_is_shown_and_adds_up(worker_server, browser, finished, viewport,
                                          lang) -> None:
    players, table_id = finished
    page = open_as(browser, worker_server.url, players[0], viewport, lang).new_page()
    try:
        load_table(page, worker_server.url, table_id)
        page.wait_for_selector(".ab-final")
        rounds = page.locator(".ab-rounds .ab-round")
        assert rounds.count() == 3
        summed = dict.fromkeys(NAMES, 0)
        for r in range(3):
            for item in rounds.nth(r).locator("li").all():
                line = item.locator(".ab-round-points").inner_text().strip()
                name, points, total = LINE[lang].match(line).groups()
                why = item.locator(".ab-breakdown").inner_text().strip()
                assert why.startswith(WHY[lang]), why
                values = [int(n) for n in re.findall(r"\d+", why[len(WHY[lang]):])]
                assert -sum(values) == int(points), (line, why)
                summed[name] += int(points)
                assert summed[name] == int(total), (line, summed)
        table = {row.locator("th").inner_text().split("(")[0].strip():
                 int(row.locator("td").nth(0).inner_text()) for row in
                 page.locator(".ab-table tbody tr").all()}
        assert table == summed, (table, summed)
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
        page.screenshot(path=f"/tmp/eb-review/rounds-{lang}.png", full_page=True)
    finally:
        page.context.close()


def moves_to_round_two(seed: int) -> list[tuple[int, dict]]:
    """Random legal moves of a pinned deal until the exchange that opens round 2."""
    state = ENGINE.setup(3, {"first_seat": 0}, seed)
    rng = random.Random(seed)
    moves: list[tuple[int, dict]] = []
    while state.round == 1:
        assert len(moves) < 400
        seat = state.current
        action = rng.choice(ENGINE.legal_actions(state, seat))
        moves.append((seat, action))
        state, _ = ENGINE.apply(state, seat, action)
    return moves


@pytest.mark.parametrize(("viewport", "lang"), [(PHONE, "es"), (LAPTOP, "en")],
                         ids=["phone-es", "laptop-en"])
def test_the_round_just_scored_comes_before_the_players(worker_server, browser, viewport,
                                                        lang) -> None:
    """When a player goes out the next round opens with its exchange; how the last round
    ended was drawn under the players' table, at the bottom of a phone's page, where
    nobody looks while choosing cards to exchange. Now it comes right after the
    exchange panel; once the first trick is led it goes back below the players."""
    base = worker_server.url
    players = [ApiClient(base, name) for name in NAMES]
    table_id = seeded_table(players, "alebrijes", 7, {"first_seat": 0})

    play_moves(worker_server.ws_url, players, table_id, moves_to_round_two(7))
    page = open_as(browser, base, players[0], viewport, lang).new_page()
    try:
        load_table(page, base, table_id)
        order = page.evaluate("""() => [...document.querySelectorAll('#game > section')]
            .map((s) => s.classList.contains('ab-rounds') ? 'rounds'
              : s.classList.contains('ab-players') ? 'players'
              : s.classList.contains('ab-trick') ? 'trick' : 'other')
            .filter((k) => k !== 'other')""")
        assert order == ["trick", "rounds", "players"], order
        # the log says why that player starts ("Empieza la ronda 2: empieza Celia" before)
        assert page.locator("#log li").last.inner_text().strip() == STARTS[lang]
        page.screenshot(path=f"/tmp/eb-review/round2-{lang}.png", full_page=True)
    finally:
        page.context.close()
