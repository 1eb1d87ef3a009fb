"""Simultaneous play over real WebSockets, with versions judged per seat (docs/api.md,
"Versions"): a seat that keeps changing its pick never keeps the others from picking, and
the generic random client, every seat playing on its own as people do, finishes every game
at every seat count (Ajolocracia with re-picks and unpicks)."""

from __future__ import annotations

import asyncio
import random

import httpx
import pytest

from app.games import ENGINES
from app.games.ajolocracia.data import HAND_SIZE, ROUNDS
from tests.support.client import (
    SeatClient,
    Tally,
    connect_and_start,
    play_concurrently,
    seat_players,
)

pytestmark = pytest.mark.asyncio
# the answers a move overtaken by another seat's may get: what it acts on changed, or the
# game ended meanwhile
OVERTAKEN = {"stale_version", "not_playing"}


def turn_of(state: dict) -> tuple[int, int]:
    return state["view"]["round"], state["view"]["turn"]


async def test_one_seat_re_picking_never_keeps_the_others_from_picking(shared_server) -> None:
    """Seat 0 changes its pick several times a second (under the message rate), sending each
    new pick for the newest state it has; seats 1 and 2 pick once each, for the state they
    see, while that goes on. Both honest picks are taken at the first try and complete the
    turn; with one version per table every one of them was refused as stale."""
    players, table, _ = seat_players(shared_server.url, "ajolocracia", 3)
    clients = await connect_and_start(shared_server.ws_url, players, table)
    re_picker, honest = clients[0], clients[1:]
    first_turn = turn_of(re_picker.state)
    stop = asyncio.Event()
    re_picks = 0

    async def keep_changing_its_mind() -> None:
        nonlocal re_picks
        picks = [a for a in re_picker.state["legal_actions"] if a["type"] == "pick"]
        while not stop.is_set():
            await re_picker.act(picks[re_picks % len(picks)])  # the newest version it has
            re_picks += 1
            try:  # read what comes in meanwhile (states of everyone's picks)
                while True:
                    await re_picker.recv(0.08)
            except TimeoutError:
                pass

    changing = asyncio.create_task(keep_changing_its_mind())
    for client in honest:  # each honest seat sees the table move under it
        await client.wait_version(client.state["version"] + 3, timeout=30)
    refused = []
    for client in honest:
        version = client.state["version"]
        assert turn_of(client.state) == first_turn
        await client.act(next(a for a in client.state["legal_actions"] if a["type"] == "pick"))
        await client.send({"type": "ping"})
        while (message := await client.recv(30))["type"] != "pong":
            if message["type"] == "error":
                refused.append(message)
        assert client.state["version"] > version
    assert refused == []  # not one honest pick refused while seat 0 kept re-picking

    async def turn_completed(client: SeatClient) -> None:
        while turn_of(client.state) == first_turn:
            await client.recv(30)

    await asyncio.wait_for(asyncio.gather(*(turn_completed(c) for c in honest)), 30)
    stop.set()
    await changing
    assert re_picks >= 3
    revealed = next(m for m in honest[0].received if m["type"] == "state"
                    and any(e["type"] == "revealed" for e in m["events"]))
    assert revealed["source"] == "player"
    for client in clients:
        await client.close()


async def _finish(base: str, ws: str, game: str, seats: int, seed: int,
                  slower: float = 0.0) -> tuple[Tally, dict]:
    players, table, _ = seat_players(base, game, seats)
    clients = await connect_and_start(ws, players, table)
    tally = await play_concurrently(clients, random.Random(seed), slower=slower)
    for client in clients:
        await client.close()
    match = httpx.get(f"{base}/api/matches/{table['id']}", timeout=10).json()
    assert match["outcome"] is not None, (game, seats)
    return tally, match


@pytest.mark.parametrize("seats", [2, 3, 4, 5])
async def test_the_random_client_finishes_ajolocracia_re_picking_and_unpicking(
        shared_server, seats: int) -> None:
    # seats think at different speeds: the quick ones change their minds meanwhile
    tally, match = await _finish(shared_server.url, shared_server.ws_url, "ajolocracia",
                                 seats, seats, slower=3.0)
    kinds = [a["action"]["type"] for a in match["actions"]]
    turns = ROUNDS * (HAND_SIZE[seats] - 1)  # the last card of a hand is placed for you
    # seats changed their minds: picked again and took picks back
    assert "unpick" in kinds and kinds.count("pick") > turns * seats + kinds.count("unpick")
    assert tally.accepted_types.get("unpick", 0) == kinds.count("unpick")
    # the only stale moves are those a turn's reveal overtook, once per seat and turn at most
    # (with one version per table most moves were refused, and the game did not finish);
    # a last one may come after the end
    assert set(tally.errors) <= OVERTAKEN, tally.errors
    assert tally.stale <= turns * (seats - 1), (tally.stale, turns, len(match["actions"]))


OTHERS = [(game, seats) for game, engine in sorted(ENGINES.items()) if game != "ajolocracia"
          for seats in range(engine.min_players, engine.max_players + 1)]


@pytest.mark.parametrize("game", sorted({g for g, _ in OTHERS}))
async def test_the_random_client_finishes_every_other_game_at_every_count(
        shared_server, game: str) -> None:
    counts = [seats for g, seats in OTHERS if g == game]
    results = await asyncio.gather(*(_finish(shared_server.url, shared_server.ws_url, game,
                                             seats, 10 + seats) for seats in counts))
    for seats, (tally, match) in zip(counts, results, strict=True):
        assert match["outcome"]["scores"] and len(match["seats"]) == seats
        assert set(tally.errors) <= OVERTAKEN, (seats, tally.errors)
