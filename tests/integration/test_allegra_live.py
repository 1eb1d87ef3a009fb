"""Allegra over a real server: complete 2-, 3- and 6-player games played by the generic
legal-actions client (knocks happen: the clients answer every window, so windows close
early), stored and replayable; and one knock window left unanswered, closed by the table's
clock (a stored SYSTEM_SEAT action), after which a knock is refused as too late."""

from __future__ import annotations

import asyncio
import random
from collections import Counter
from typing import Any

import httpx
import pytest

from app.games import ENGINES
from app.games.base import SYSTEM_SEAT, engine_options
from app.tables.engine import apply_any
from tests.support.client import SeatClient, connect_and_start, seat_players

pytestmark = pytest.mark.asyncio

ENGINE = ENGINES["allegra"]


def replay(match: dict[str, Any]) -> Any:
    state = ENGINE.setup(len(match["seats"]), engine_options(match["options"]), match["seed"])
    for record in match["actions"]:
        state, _ = apply_any(ENGINE, state, record["seat"], record["action"])
    return state


async def play_paced(clients: list[SeatClient], rng: random.Random,
                     max_moves: int = 20_000) -> dict[str, Any]:
    """``play_to_end`` that keeps under the table's message rate (30 a second per
    connection): one seat of a 2-player Allegra game sends a few hundred actions, faster than
    that; a move dropped as ``rate_limited`` is sent again a moment later."""
    for _ in range(max_moves):
        newest = max((c.state for c in clients if c.state), key=lambda s: s["version"])
        if newest["table"]["status"] == "finished":
            for c in clients:
                await c.wait_version(newest["version"])
            return newest
        movers = [c for c in clients if c.state["version"] == newest["version"] and c.my_turn()]
        if not movers:
            await asyncio.gather(*(c.wait_version(newest["version"] + 1) for c in clients))
            continue
        mover = rng.choice(movers)
        action = rng.choice(mover.state["legal_actions"])
        while True:
            seen = len(mover.received)
            await mover.act(action)
            while mover.state["version"] == newest["version"] and not any(
                    m["type"] == "error" for m in mover.received[seen:]):
                await mover.recv()
            errors = [m for m in mover.received[seen:] if m["type"] == "error"]
            if not errors or errors[0]["code"] != "rate_limited":
                break
            await asyncio.sleep(0.5)
        # a knock can arrive just after the window's clock ran out (a slow machine)
        assert not errors or errors[0]["code"] in ("knock_closed", "stale_version"), errors
        await asyncio.gather(*(c.wait_version(newest["version"] + 1) for c in clients))
    raise AssertionError("the game did not finish")


@pytest.mark.parametrize("seats,options", [(2, {}), (3, {}), (6, {})])
async def test_complete_games_with_knocks_are_stored_and_replayable(shared_server, seats: int,
                                                                    options: dict) -> None:
    server = shared_server
    players, table, _ = seat_players(server.url, "allegra", seats, options)
    clients = await connect_and_start(server.ws_url, players, table)
    final = await play_paced(clients, random.Random(seats))
    outcome = final["table"]["outcome"]
    rounds = options.get("rounds", 3)
    assert len(outcome["details"]["rounds"]) == rounds
    assert outcome["details"]["rounds"][-1]["totals"] == outcome["scores"]
    assert outcome["winners"] == outcome["ranking"][0]
    assert min(outcome["scores"]) == outcome["scores"][outcome["winners"][0]]  # lowest wins

    match = httpx.get(f"{server.url}/api/matches/{table['id']}", timeout=10).json()
    kinds = Counter(a["action"]["type"] for a in match["actions"])
    if seats == 2:
        assert kinds["knock"] == kinds["no_knock"] == 0  # no knocking with two players
    else:
        assert kinds["knock"] > 0 and kinds["accept"] > 0 and kinds["exchange"] > 0, kinds
        assert kinds["no_knock"] > 0 and kinds["decline"] > 0
    assert kinds["reveal"] == 2 * seats * rounds
    state = replay(match)
    assert ENGINE.outcome(state).to_json() == outcome
    for c in clients:
        assert c.state["view"] == ENGINE.view(state, c.state["seat"])
        assert c.state["window"] is None
        await c.close()


async def _act(clients: list[SeatClient], client: SeatClient, action: dict) -> dict:
    version = client.state["version"]
    await client.act(action)
    for c in clients:
        await c.wait_version(version + 1)
    return client.state


async def test_an_unanswered_knock_window_closes_at_its_deadline(shared_server) -> None:
    server = shared_server
    players, table, _ = seat_players(server.url, "allegra", 3, {"knock_seconds": 2, "rounds": 1})
    clients = await connect_and_start(server.ws_url, players, table)
    while clients[0].state["view"]["phase"] == "reveal":
        mover = next(c for c in clients if c.my_turn())
        await _act(clients, mover, mover.state["legal_actions"][0])
    active = next(c for c in clients if c.my_turn())
    state = await _act(clients, active, {"type": "draw"})
    others = [c for c in clients if c is not active]
    window = others[0].state["window"]
    assert window["seats"] == sorted(c.state["seat"] for c in others)
    assert window["seconds"] == 2 and 0 < window["remaining"] <= 2
    assert others[0].state["legal_actions"] == [{"type": "knock"}, {"type": "no_knock"}]
    assert active.state["legal_actions"] == []
    # nobody answers: the table's clock closes the window
    closed = await others[0].wait_version(state["version"] + 1, timeout=15)
    assert closed["window"] is None and closed["view"]["phase"] == "place"
    assert closed["events"][0] == {"type": "knock_timeout", "window": window["id"],
                                   "seats": window["seats"]}
    await others[0].act({"type": "knock"})
    error = await others[0].next_of("error")
    assert error["code"] == "knock_closed" and "closed" in error["message"]
    await active.wait_version(closed["version"])
    assert {a["type"] for a in active.state["legal_actions"]} == {"keep", "flip"}
    # play on to the end: the close is in the stored log as the platform's own action
    final = await play_paced(clients, random.Random(5))
    match = httpx.get(f"{server.url}/api/matches/{table['id']}", timeout=10).json()
    closes = [a for a in match["actions"] if a["seat"] == SYSTEM_SEAT]
    assert closes[0]["source"] == "window" and closes[0]["seq"] == closed["version"]
    assert closes[0]["action"] == {"type": "close_window", "window": window["id"]}
    assert ENGINE.outcome(replay(match)).to_json() == final["table"]["outcome"]
    for c in clients:
        await c.close()
