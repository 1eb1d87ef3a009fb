"""Block and Guess in Chromium: what a player is told between rounds and while choosing.
The last guess of a round starts the next one at once: the page of the player who made it
turned to the new round (to the draft, when they build next) and said nowhere near the top
whether they were right; the round's outcome was only in the results at the foot of the
page. Now the status card says how the round before went while the next one is in its
first stage. And a builder choosing a block to give sees what each build in play is to be
(the rules let builders know both numbers: the choice depends on them); a guesser, who must
not know them, is not told."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.browser.bg_pages import LAPTOP, PHONE, open_seat, pinned_table
from tests.browser.comfort import run
from tests.browser.test_block_and_guess_ground_label_browser import play_until
from tests.support.browser import launch_chromium

pytestmark = pytest.mark.browser

CATALOGUES = Path(__file__).resolve().parents[2] / "app" / "i18n"


@pytest.fixture(scope="module")
def browser():
    with launch_chromium() as chromium:
        yield chromium


def second_round(state: dict) -> bool:
    return state["view"]["round"] == 2 and state["view"]["phase"] == "draft"


@pytest.mark.parametrize("viewport,lang", [(PHONE, "es"), (LAPTOP, "en")],
                         ids=["390-es", "1280-en"])
def test_the_round_before_and_the_targets_are_told(shared_server, browser, viewport,
                                                   lang) -> None:
    words = json.loads((CATALOGUES / f"{lang}.json").read_text())
    P = "block-and-guess.label."
    players, table_id = pinned_table(shared_server.url, 4, 3, ["Ana", "Beto", "Cleo", "Dani"])
    state = run(play_until(shared_server.ws_url, players, table_id, second_round))
    picker = state["view"]["draft"]["picker"]
    names = ["Ana", "Beto", "Cleo", "Dani"]
    page = open_seat(browser, shared_server.url, players[picker], table_id, viewport, lang)
    try:
        # how round 1 went: each build, its object and its result, in the status card
        last = page.locator(".bg-status .bg-last")
        assert last.count() == 1, "the status card does not say how round 1 went"
        text = last.inner_text()
        assert words[P + "last_round"].replace("{round}", "1") in text, text
        seen = run_results(shared_server, players[picker], table_id)
        for b in seen["builds"]:
            assert words[P + "board_of"].replace("{player}", names[b["builder"]]) in text, text
            assert f"{b['target']}. {b['name'][lang]}" in text, text
            assert words[P + f"result.{b['result']}"] in text, text
        # the picker's dock: what each build in play is to be
        targets = page.locator("#my-hand.bg-draft .bg-draft-targets")
        assert targets.count() == 1, "the draft does not say what the builds are"
        told = targets.inner_text()
        clue = seen["clue"]
        assert len(seen["now"]) == 2, seen["now"]
        for b in seen["now"]:
            obj = f"{b['target']}. {clue[b['target'] - 1][lang]}"
            line = words[P + "draft_you_build"] if b["builder"] == picker else \
                words[P + "draft_builds"].replace("{player}", names[b["builder"]])
            assert line.replace("{object}", obj) in told, told
        assert not page.errors, page.errors
    finally:
        page.context.close()
    # a guesser sees the draft, and round 1's outcome, but not the targets
    guesser = next(s for s in range(4) if s not in state["view"]["builders"])
    page = open_seat(browser, shared_server.url, players[guesser], table_id, viewport, lang)
    try:
        assert page.locator(".bg-draft").count() == 1
        assert page.locator(".bg-draft-targets").count() == 0
        assert page.locator(".bg-status .bg-last").count() == 1
    finally:
        page.context.close()


def run_results(server, player, table_id) -> dict:
    """Round 1's results and round 2's builds as the picker's own view has them."""
    from tests.browser.comfort import connect, settle

    async def look() -> dict:
        (client,) = await connect(server.ws_url, [player], table_id)
        try:
            state = await settle([client])
            view = state["view"]
            return {"builds": view["results"][0]["builds"],
                    "now": [b for b in view["builds"] if b["in_play"] and b["target"] is not None],
                    "clue": view["clue"]["objects"]}
        finally:
            await client.close()
    return run(look())


def over(state: dict) -> bool:
    return state["view"]["phase"] == "over"


async def play_to_the_end(ws_base: str, players: list, table_id: str) -> dict:
    """Each seat to act takes its first legal action until the game is over."""
    from tests.browser.comfort import act, connect, settle

    clients = await connect(ws_base, players, table_id)
    try:
        for _ in range(3000):
            state = await settle(clients)
            if over(state):
                return state
            mover = next(c for c in clients if c.state["seat"] in c.state["to_act"]
                         and c.state["legal_actions"])
            await act(mover, mover.state["legal_actions"][0])
        raise AssertionError("the game never ended")
    finally:
        for c in clients:
            await c.close()


def test_a_lone_winner_is_named_in_the_singular(shared_server, browser) -> None:
    """Three players each play alone: one of them wins, "Winner: Cleo" ("Gana: Cleo"), not
    "Winners: Cleo" ("Ganan: Cleo"). (A team still wins in the plural: the count is of
    seats.)"""
    players, table_id = pinned_table(shared_server.url, 3, 3, ["Ana", "Beto", "Cleo"])
    state = run(play_to_the_end(shared_server.ws_url, players, table_id))
    points = state["view"]["points"]
    assert points.count(max(points)) == 1, points  # the pinned game has one winner
    winner = ["Ana", "Beto", "Cleo"][points.index(max(points))]
    for viewport, lang, verdict in ((PHONE, "es", f"Gana: {winner}"),
                                    (LAPTOP, "en", f"Winner: {winner}")):
        page = open_seat(browser, shared_server.url, players[0], table_id, viewport, lang)
        try:
            assert page.locator(".bg-final .verdict").inner_text() == verdict
            assert not page.errors, page.errors
        finally:
            page.context.close()
