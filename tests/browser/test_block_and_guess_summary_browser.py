"""Block and Guess's end of game in Chromium, es and en at 390 px: each build's summary said
"missed (0) · Already wrong: 3. piano, 5. ladder · 4. tent" on one line, and the results by
round "Ana's build: 4. tent — missed (0)". Now each fact is a line of its own (what was built,
how it went and its points in words, the wrong guesses with "guess" / "guesses" as their
count asks), with no "(0)"-style fragments and no line for what did not happen.

The game is played through the API to its end: in every round the lower seat's build is
guessed wrong twice (not guessed, 2 wrong guesses) and the other's wrong then right (guessed
the second time, 1 wrong guess), so both forms show."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.browser.bg_pages import ARTIFACTS, PHONE, open_seat, pinned_table
from tests.browser.comfort import act, connect, run, settle

pytestmark = pytest.mark.browser

WORDS = {
    "es": {"missed": "No acertada: sin puntos", "right2": "Acertada a la segunda: 1 punto",
           "wrong": "Respuestas fallidas:", "wrong_one": "Respuesta fallida:",
           "built": "Construía:"},
    "en": {"missed": "Not guessed: no points", "right2": "Guessed right the second time: 1 point",
           "wrong": "Wrong guesses:", "wrong_one": "Wrong guess:", "built": "Was building:"},
}


async def play_to_the_end(ws_base: str, players: list[Any], table_id: str) -> dict:
    clients = await connect(ws_base, players, table_id)
    try:
        for _ in range(2000):
            state = await settle(clients)
            if state["table"]["status"] == "finished":
                return state
            mover = next(c for c in clients if c.state["seat"] in c.state["to_act"]
                         and c.state["legal_actions"])
            actions = mover.state["legal_actions"]
            guesses = [a for a in actions if a["type"] == "guess"]
            if not guesses:
                await act(mover, actions[0])
                continue
            view = mover.state["view"]
            builder = guesses[0]["build"]
            # the target as its builder sees it
            target = next(b["target"] for b in clients[builder].state["view"]["builds"]
                          if b["builder"] == builder)
            right = builder != min(view["builders"]) and view["stage"] == 2
            pick = next(a for a in guesses if a["build"] == builder
                        and (a["object"] == target) == right)
            await act(mover, pick)
        raise AssertionError("the game did not end")
    finally:
        for c in clients:
            await c.close()


def test_the_end_of_game_summary_reads_as_sentences(worker_server, browser) -> None:
    players, table_id = pinned_table(worker_server.url, 4, 3, ["Ana", "Beto", "Cleo", "Dani"])
    state = run(play_to_the_end(worker_server.ws_url, players, table_id))
    builds = {b["builder"]: b for b in state["view"]["builds"]}
    low, high = sorted(builds)
    assert builds[low]["result"] == "missed" and len(builds[low]["wrong"]) == 2
    assert builds[high]["result"] == "right2" and len(builds[high]["wrong"]) == 1
    for lang in ("es", "en"):
        words = WORDS[lang]
        page = open_seat(browser, worker_server.url, players[0], table_id, PHONE, lang)
        try:
            page.wait_for_selector(".bg-final")
            lines = "(b) => [...document.querySelectorAll(" \
                "`.bg-build[data-builder='${b}'] .bg-build-status li`)].map((n) => n.innerText)"
            missed, right = page.evaluate(lines, low), page.evaluate(lines, high)
            assert len(missed) == 3 and len(right) == 3, (missed, right)
            assert missed[0].startswith(words["built"] + " "), missed
            assert missed[1] == words["missed"], missed
            assert missed[2].startswith(words["wrong"] + " ") and missed[2].count(",") == 1, missed
            assert right[0].startswith(words["built"] + " ") and right[1] == words["right2"], right
            assert right[2].startswith(words["wrong_one"] + " "), right
            assert "," not in right[2], right
            results = page.locator(".bg-results").inner_text()
            assert words["missed"] in results and words["right2"] in results, results
            summary = page.locator("#game").inner_text()
            assert not re.search(r"\(\d\)", summary), summary
            assert " · " + words["wrong"] not in summary, summary
            assert not page.errors, page.errors
            ARTIFACTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(ARTIFACTS / f"summary-{lang}.png"), full_page=True)
        finally:
            page.context.close()
