"""A table screen's socket (``?screen=1``) over the wire: a spectator whoever opens it (the
host's own cookie or token gives it no seat), never the "all hands" view a cooperative table
may allow its spectators, and no moves or chat. The audit is the spectator audit of
test_secrecy_all_games.py: every state it receives is exactly the engine's spectator view at
that version, nothing more."""

from __future__ import annotations

import asyncio
import random

import httpx
import pytest

from app.games import ENGINES
from app.games.base import Rng
from tests.integration.test_secrecy_all_games import _check_connection, _keep_reading, _replay
from tests.support.client import SeatClient, play_to_end, seat_players


class ScreenClient(SeatClient):
    def __init__(self, ws_base: str, table_id: str, token: str | None,
                 watch: str | None = None) -> None:
        super().__init__(ws_base, table_id, token)
        query = "?screen=1" + (f"&watch={watch}" if watch else "")
        self.url = f"{ws_base}/ws/tables/{table_id}{query}"


async def test_a_screen_never_gets_the_all_hands_view(shared_server) -> None:
    server = shared_server
    engine = ENGINES["hanabi"]
    players, table, _ = seat_players(server.url, "hanabi", 3, {"spectators_see_all": True},
                                     private=True)
    watch = table["watch_url"].rsplit("/", 1)[1]
    clients = [SeatClient(server.ws_url, table["id"], p.token) for p in players]
    spectator = SeatClient(server.ws_url, table["id"], None)
    spectator.url += f"?watch={watch}"
    # the host's own identity, and no identity at all: both screens are spectators
    screens = [ScreenClient(server.ws_url, table["id"], players[0].token, watch),
               ScreenClient(server.ws_url, table["id"], None, watch)]
    for c in [*clients, spectator, *screens]:
        await c.open()
    readers = [asyncio.get_running_loop().create_task(_keep_reading(w))
               for w in [spectator, *screens]]
    assert players[0].start(table["id"]).status_code == 200
    for c in clients:
        await c.wait_status("playing")
    final = await play_to_end(clients, random.Random(3))
    for w in [spectator, *screens]:
        await w.send({"type": "ping"})
    await asyncio.sleep(0.3)

    # the screens can neither move nor chat
    for screen in screens:
        await screen.send({"type": "action", "action": {"type": "discard", "card": 0},
                           "version": final["version"]})
        await screen.send({"type": "chat", "text": "psst: your red 5 is in slot 2"})
    await asyncio.sleep(0.3)
    for c in [*clients, spectator, *screens]:
        await c.close()
    for r in readers:
        await r

    # (a private table's match: read by its players)
    match = players[0].request("GET", f"/api/matches/{table['id']}").json()
    states, events = _replay(engine, match)
    rng = Rng.from_seed(5)
    for screen in screens:
        assert _check_connection(engine, screen, None, states, events, rng) > 10
        refusals = [m for m in screen.received if m["type"] == "error"]
        assert {m["code"] for m in refusals} == {"forbidden"} and len(refusals) == 2
    assert not any(m["type"] == "chat" and m.get("kind") == "spectator"
                   for c in clients for m in c.received)
    # the plain spectator of this table does see every hand (the host allowed it): what the
    # screen never got
    playing = [m for m in spectator.received if m["type"] == "state"
               and m["table"]["status"] == "playing" and m["view"]]
    assert playing and all(
        any("color" in card for hand in m["view"]["hands"] for card in hand) for m in playing)
    for screen in screens:
        shown = [m for m in screen.received if m["type"] == "state"
                 and m["table"]["status"] == "playing" and m["view"]]
        assert shown and not any("color" in card for m in shown
                                 for hand in m["view"]["hands"] for card in hand)


@pytest.mark.parametrize("game_id", sorted(ENGINES))
async def test_a_screen_receives_only_what_a_spectator_may_know(shared_server,
                                                                game_id: str) -> None:
    server = shared_server
    engine = ENGINES[game_id]
    seats = engine.min_players
    players, table, _ = seat_players(server.url, game_id, seats)
    clients = [SeatClient(server.ws_url, table["id"], p.token) for p in players]
    screen = ScreenClient(server.ws_url, table["id"], players[0].token)
    for c in [*clients, screen]:
        await c.open()
    reader = asyncio.get_running_loop().create_task(_keep_reading(screen))
    assert players[0].start(table["id"]).status_code == 200
    for c in clients:
        await c.wait_status("playing")
    await play_to_end(clients, random.Random(len(game_id)))
    await screen.send({"type": "ping"})
    await asyncio.sleep(0.3)
    for c in [*clients, screen]:
        await c.close()
    await reader
    match = httpx.get(f"{server.url}/api/matches/{table['id']}", timeout=10).json()
    states, events = _replay(engine, match)
    assert _check_connection(engine, screen, None, states, events, Rng.from_seed(7)) > 0
