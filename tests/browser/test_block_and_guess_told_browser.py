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
import re
from pathlib import Path

import pytest

from tests.browser.bg_pages import ARTIFACTS, LAPTOP, PHONE, open_seat, pinned_table, sync
from tests.browser.comfort import play_moves, run
from tests.browser.test_block_and_guess_ground_label_browser import play_until

pytestmark = pytest.mark.browser

CATALOGUES = Path(__file__).resolve().parents[2] / "app" / "i18n"


def second_round(state: dict) -> bool:
    return state["view"]["round"] == 2 and state["view"]["phase"] == "draft"


@pytest.mark.parametrize("viewport,lang", [(PHONE, "es"), (LAPTOP, "en")],
                         ids=["390-es", "1280-en"])
def test_the_round_before_and_the_targets_are_told(worker_server, browser, viewport,
                                                   lang) -> None:
    words = json.loads((CATALOGUES / f"{lang}.json").read_text())
    P = "block-and-guess.label."
    players, table_id = pinned_table(worker_server.url, 4, 3, ["Ana", "Beto", "Cleo", "Dani"])
    state = run(play_until(worker_server.ws_url, players, table_id, second_round))
    picker = state["view"]["draft"]["picker"]
    names = ["Ana", "Beto", "Cleo", "Dani"]
    page = open_seat(browser, worker_server.url, players[picker], table_id, viewport, lang)
    try:
        # how round 1 went: each build, its object and its result, in the status card
        last = page.locator(".bg-status .bg-last")
        assert last.count() == 1, "the status card does not say how round 1 went"
        text = last.inner_text()
        assert words[P + "last_round"].replace("{round}", "1") in text, text
        seen = run_results(worker_server, players[picker], table_id)
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
        # and the picker's log says it in words, from round 2's card ("Objects: Ana: 5,
        # Beto: 3" before); round 1's line is not in any log (the table's start is no step)
        L = "block-and-guess.log."
        said = andList([words[L + "target"].replace("{player}", names[b["builder"]]).replace(
            "{object}", f"{b['target']}. {clue[b['target'] - 1][lang]}")
            for b in sorted(seen["now"], key=lambda b: b["builder"])],
            lang)
        lines = page.locator("#log li").all_inner_texts()
        assert words[L + "targets"].replace("{targets}", said) in lines, lines
        assert not page.errors, page.errors
    finally:
        page.context.close()
    # a guesser sees the draft, and round 1's outcome, but not the targets
    guesser = next(s for s in range(4) if s not in state["view"]["builders"])
    page = open_seat(browser, worker_server.url, players[guesser], table_id, viewport, lang)
    try:
        assert page.locator(".bg-draft").count() == 1
        assert page.locator(".bg-draft-targets").count() == 0
        assert page.locator(".bg-status .bg-last").count() == 1
    finally:
        page.context.close()


def andList(items: list[str], lang: str) -> str:
    return items[0] if len(items) == 1 else \
        f"{', '.join(items[:-1])} {'y' if lang == 'es' else 'and'} {items[-1]}"


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


def test_a_lone_winner_is_named_in_the_singular(worker_server, browser) -> None:
    """Three players each play alone: one of them wins, "Winner: Cleo" ("Gana: Cleo"), not
    "Winners: Cleo" ("Ganan: Cleo"). (A team still wins in the plural: the count is of
    seats.)"""
    players, table_id = pinned_table(worker_server.url, 3, 3, ["Ana", "Beto", "Cleo"])
    state = run(play_to_the_end(worker_server.ws_url, players, table_id))
    points = state["view"]["points"]
    assert points.count(max(points)) == 1, points  # the pinned game has one winner
    winner = ["Ana", "Beto", "Cleo"][points.index(max(points))]
    for viewport, lang, verdict in ((PHONE, "es", f"Gana: {winner}"),
                                    (LAPTOP, "en", f"Winner: {winner}")):
        page = open_seat(browser, worker_server.url, players[0], table_id, viewport, lang)
        try:
            assert page.locator(".bg-final .verdict").inner_text() == verdict
            assert not page.errors, page.errors
        finally:
            page.context.close()


# ------------------------------------------------------------------ the log, a missed guess

def _first_place(state: dict, other_than: int | None = None) -> dict:
    return next(a for a in state["legal_actions"]
                if a["type"] == "place" and a["block"] != other_than)


def _nudged(place: dict, dx: float) -> dict:
    return dict(place, x=round(place["x"] - dx, 2))


def _log(page) -> list[str]:
    return page.locator("#log li").all_inner_texts()


def _template(words: dict, key: str, **params: str) -> re.Pattern:
    """A catalogue line as a pattern: the given parameters filled in, the others any text."""
    text = re.escape(words[key])
    for name, value in params.items():
        text = text.replace(re.escape("{" + name + "}"), re.escape(value))
    return re.compile("^" + re.sub(r"\\\{\w+\\\}", ".+", text) + "$")


def test_adjustments_fold_into_one_line_and_a_missed_guess_is_told(worker_server,
                                                                   browser) -> None:
    """A builder's nudges of a block read as one log line per run, "Ana adjusts their build:
    3 moves (…)", updated in place while other lines come between (the log had a line per
    nudge: 153 in one 4-player game); placing a block keeps its own line and ends the run;
    the live region does not read a line again because its count changed; a reloaded page
    folds the same lines. And a guesser whose answer missed in stage 1 is told, while the
    build goes on, that they will guess again (the banner said only whom the table waits
    for)."""
    ws, base = worker_server.ws_url, worker_server.url
    players, table_id = pinned_table(base, 4, 3, ["Ana", "Beto", "Cleo", "Dani"])
    run(play_until(ws, players, table_id, lambda s: s["view"]["phase"] == "build"))
    states = play_moves(ws, players, table_id, [])
    assert states[0]["view"]["builders"] == [0, 1], states[0]["view"]["builders"]
    es = json.loads((CATALOGUES / "es.json").read_text())
    en = json.loads((CATALOGUES / "en.json").read_text())
    L = "block-and-guess.log."
    # Cleo guesses Ana's build (a phone, es); Ana builds on a laptop (en)
    cleo = open_seat(browser, base, players[2], table_id, PHONE, "es")
    ana = open_seat(browser, base, players[0], table_id, LAPTOP, "en")
    try:
        a1 = _first_place(states[0])
        b1 = _first_place(states[1])
        states = play_moves(ws, players, table_id, [
            (0, a1), (0, _nudged(a1, 1)), (0, _nudged(a1, 2))])
        sync([cleo, ana], states[0]["version"])
        lines = _log(cleo)
        adjusted = _template(es, L + "adjusted", player="Ana", n="2")
        assert adjusted.match(lines[-1]), lines
        assert not any(_template(es, L + "moved", player="Ana").match(x) for x in lines), lines
        # the first nudge was read out; the count going up is not read again
        assert _template(es, L + "moved", player="Ana").match(
            cleo.locator("#live").inner_text()), cleo.locator("#live").inner_text()
        states = play_moves(ws, players, table_id, [(1, b1), (0, _nudged(a1, 3))])
        sync([cleo, ana], states[0]["version"])
        a2 = _first_place(states[0], other_than=a1["block"])
        states = play_moves(ws, players, table_id, [(0, a2), (0, _nudged(a2, 1))])
        sync([cleo, ana], states[0]["version"])
        for page, words in ((cleo, es), (ana, en)):
            lines = _log(page)
            at = next(i for i, x in enumerate(lines)
                      if _template(words, L + "placed", player="Ana").match(x))
            assert _template(words, L + "adjusted", player="Ana", n="3").match(lines[at + 1]), \
                lines
            assert _template(words, L + "placed", player="Beto").match(lines[at + 2]), lines
            assert _template(words, L + "placed", player="Ana").match(lines[at + 3]), lines
            assert _template(words, L + "moved", player="Ana").match(lines[at + 4]), lines
            assert len(lines) == at + 5, lines
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        cleo.locator("#log").screenshot(path=str(ARTIFACTS / "adjusted-log-390-es.png"))
        ana.locator("#log").screenshot(path=str(ARTIFACTS / "adjusted-log-1280-en.png"))
        before = _log(cleo)
        cleo.reload()
        cleo.wait_for_selector("#conn-status.ok", timeout=15_000)
        sync([cleo], states[0]["version"])
        assert _log(cleo) == before

        # both builds submitted; Cleo answers Ana's build wrong, Dani answers Beto's
        state = run(play_until(ws, players, table_id, lambda s: s["view"]["phase"] == "guess"))
        target = next(b["target"] for b in states[0]["view"]["builds"] if b["builder"] == 0)
        wrong = 1 if target != 1 else 2
        states = play_moves(ws, players, table_id, [
            (2, {"type": "guess", "build": 0, "object": wrong}),
            (3, {"type": "guess", "build": 1, "object": 1})])
        assert states[2]["view"]["stage"] == 2, state["view"]["stage"]
        sync([cleo], states[2]["version"])
        again = es["block-and-guess.label.guess_again_one"].replace("{builders}", "Ana")
        cleo.wait_for_function("(t) => document.getElementById('banner').textContent === t",
                               arg=again, timeout=10_000)
        cleo.screenshot(path=str(ARTIFACTS / "guess-again-390-es.png"))
        assert not cleo.errors and not ana.errors, (cleo.errors, ana.errors)
    finally:
        cleo.context.close()
        ana.context.close()
    cleo = open_seat(browser, base, players[2], table_id, LAPTOP, "en")
    try:
        again = en["block-and-guess.label.guess_again_one"].replace("{builders}", "Ana")
        assert cleo.locator("#banner").inner_text() == again
        cleo.screenshot(path=str(ARTIFACTS / "guess-again-1280-en.png"))
    finally:
        cleo.context.close()
