"""Hanabi's final round in Chromium, reached in a real game (two players discard and clue
until the deck runs out): the status bar said "Final round! 2 turns left." and no more, so
a player had to count seats to learn whether they would play again. It names the players
still to play, in turn order, and tells each player whether this is their last turn or
they have already played it, in both languages."""

from __future__ import annotations

import pytest

from tests.browser.comfort import act, connect, load_table, open_as, run, settle
from tests.support.client import ApiClient

pytestmark = pytest.mark.browser


def play_until(ws_url: str, players: list[ApiClient], table_id: str, turns_left: int) -> int:
    """Discard (or clue when every token is in hand) until the final round has
    ``turns_left`` turns to go; returns the seat whose turn it is then."""
    async def go() -> int:
        clients = await connect(ws_url, players, table_id)
        try:
            while True:
                state = await settle(clients)
                view = state["view"]
                if view["final_turns_left"] == turns_left:
                    return view["turn"]
                assert view["over"] is None, view["over"]
                seat = view["turn"]
                legal = clients[seat].state["legal_actions"]
                discards = [a for a in legal if a["type"] == "discard"]
                clues = [a for a in legal if a["type"] == "clue" and "rank" in a]
                await act(clients[seat], discards[0] if discards else clues[0])
        finally:
            for c in clients:
                await c.close()

    return run(go())


def status(browser, base: str, player: ApiClient, table_id: str, lang: str, width: int) -> str:
    context = open_as(browser, base, player, {"width": width, "height": 844}, lang)
    page = context.new_page()
    load_table(page, base, table_id)
    text = page.locator("#game .status-bar .final-round").inner_text()
    # the status bar keeps to the page's width at 390 px
    assert page.evaluate("() => document.documentElement.scrollWidth") <= width
    context.close()
    return text


def test_the_final_round_says_who_still_plays(worker_server, browser) -> None:
    base = worker_server.url
    ana, beto = ApiClient(base, "Ana"), ApiClient(base, "Beto")
    table = ana.create_table("hanabi", 2, {"first_seat": 0})
    invite = table["invite_url"].rsplit("/", 1)[1]
    assert beto.join(table["id"], invite=invite, seat=1).status_code == 200
    assert ana.start(table["id"]).status_code == 200
    players = [ana, beto]

    # the last card drawn: both still play, the drawer last
    turn = play_until(worker_server.ws_url, players, table["id"], 2)
    names = [players[turn].name, players[1 - turn].name]
    assert status(browser, base, players[turn], table["id"], "es", 390) == (
        f"¡Última ronda! Quedan 2 turnos: {names[0]} y {names[1]}. Es tu último turno.")
    assert status(browser, base, players[1 - turn], table["id"], "en", 1280) == (
        f"Final round! 2 turns left: {names[0]} and {names[1]}.")

    # one turn later: the drawer's is the last; the other player has had theirs
    turn = play_until(worker_server.ws_url, players, table["id"], 1)
    drawer, other = players[turn], players[1 - turn]
    assert status(browser, base, drawer, table["id"], "en", 1280) == (
        f"Final round! 1 turn left: {drawer.name}. This is your last turn.")
    assert status(browser, base, other, table["id"], "es", 390) == (
        f"¡Última ronda! Queda 1 turno: {drawer.name}. Ya has jugado tu último turno.")
