"""The replay page's list of moves says what each move was, as the log says it: "P1 juega
azul 3", not "P1: juega" (the card was named only in the log beside it). Each line is the
first line the step's events make for the point of view chosen, so a seat's list names no
card that seat could not see. (The page's log, which said each move again, is now the lines
under each move: test_replay_one_list_browser.py checks them against the table's log.)"""

from __future__ import annotations

import random
import re

import pytest

from app.games import ENGINES
from tests.browser.comfort import run
from tests.support.client import connect_and_start, play_to_end, seat_players

pytestmark = pytest.mark.browser


def _finished(base: str, ws: str, game: str) -> str:
    async def play() -> str:
        players, table, _ = seat_players(base, game, ENGINES[game].min_players)
        clients = await connect_and_start(ws, players, table)
        await play_to_end(clients, random.Random(5))
        for c in clients:
            await c.close()
        return table["id"]

    return run(play())


@pytest.mark.parametrize("game", ["hanabi", "ikebana", "block-and-guess"])
def test_each_move_in_the_list_reads_as_its_line_of_the_log(worker_server, browser, game) -> None:
    base = worker_server.url
    match = _finished(base, worker_server.ws_url, game)
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.add_cookies([{"name": "lang", "value": "es", "url": base}])
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"{base}/matches/{match}")
    page.wait_for_selector("#replay-actions button[data-step='1']")
    page.keyboard.press("End")
    page.wait_for_selector("#replay-actions button[aria-current='step']:not([data-step='0'])")
    # each move's own line (a line the move set off may follow it: Ikebana's draw)
    # (the deal's entry, step 0, is not a move)
    buttons = page.locator(
        "#replay-actions button:not([data-step='0']) .replay-move").all_inner_texts()
    # a replay has no seats to fill: Block and Guess's "no bots" note is for live tables
    no_bots = page.locator(".bg-no-bots").count()
    page.context.close()
    assert errors == []
    assert no_bots == 0
    assert buttons, "no moves listed"
    moves = []
    for k, text in enumerate(buttons, start=1):
        number, _, line = text.partition(". ")
        assert number == str(k), text
        moves.append(line.strip())
    if game == "hanabi":  # each move names its card (a colour) or its clue's target
        assert all(re.search(r"→|rojo|verde|azul|blanco|amarillo|negro|multicolor", m)
                   for m in moves), moves[:5]
        # a play or a discard says which slot its card left, as the log does
        cards = [m for m in moves if "→" not in m]
        assert cards and all(re.search(r" de la posición [1-5]\b", m) for m in cards), cards[:5]
    if game == "block-and-guess":  # the blocks by their names, not their numbers
        assert not any(re.search(r"#\d", m) for m in moves), [m for m in moves if "#" in m][:5]
