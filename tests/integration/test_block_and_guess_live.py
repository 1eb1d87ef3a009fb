"""Block and Guess over a real server: complete 3-, 4- and 6-player games played by the generic
legal-actions client (stored and replayable), live drags relayed to every other connection
and never stored, engine errors and the chat gate, and no target number ever reaching a
guesser's or a spectator's connection before that build is done."""

from __future__ import annotations

import asyncio
import html
import json
import random
from pathlib import Path
from typing import Any

import httpx
import pytest

from app.games import ENGINES
from app.games.base import engine_options
from tests.support.client import ApiClient, SeatClient, seat_players

pytestmark = pytest.mark.asyncio

ENGINE = ENGINES["block-and-guess"]
ROOT = Path(__file__).resolve().parents[2]


async def play_to_end(clients: list[SeatClient], rng: random.Random,
                      max_moves: int = 5000) -> dict[str, Any]:
    """tests.support.client.play_to_end, paced under the server's 30 messages a second per
    connection: here one seat often acts many times in a row (the draft, its build), and
    against a fast server the unpaced client gets ``rate_limited`` and waits forever."""
    for _ in range(max_moves):
        newest = max((c.state for c in clients if c.state), key=lambda s: s["version"])
        if newest["table"]["status"] == "finished":
            for c in clients:
                await c.wait_version(newest["version"])
            return newest
        movers = [c for c in clients if c.state["version"] == newest["version"] and c.my_turn()]
        if not movers:
            lagging = [c for c in clients if c.state["version"] < newest["version"]]
            if lagging:
                await asyncio.gather(*(c.wait_version(newest["version"]) for c in lagging))
            else:
                await asyncio.gather(*(c.wait_version(newest["version"] + 1) for c in clients))
            continue
        mover = rng.choice(movers)
        await mover.act(rng.choice(mover.state["legal_actions"]))
        await asyncio.gather(*(c.wait_version(newest["version"] + 1) for c in clients))
        await asyncio.sleep(0.04)
    raise AssertionError("the game did not finish")


def replay(match: dict[str, Any]) -> dict[int, Any]:
    """The engine state at every table version, from the stored seed and actions."""
    state = ENGINE.setup(len(match["seats"]), engine_options(match["options"]), match["seed"])
    actions = match["actions"]
    states = {actions[0]["seq"] - 1: state}
    for record in actions:
        state, _ = ENGINE.apply(state, record["seat"], record["action"])
        states[record["seq"]] = state
    return states


async def open_all(server, seats: int) -> tuple[list[ApiClient], dict, list[SeatClient],
                                                 list[SeatClient]]:
    players, table, _ = seat_players(server.url, "block-and-guess", seats)
    clients = [SeatClient(server.ws_url, table["id"], p.token) for p in players]
    stranger = ApiClient(server.url, "Mallory")
    watchers = [SeatClient(server.ws_url, table["id"], stranger.token),
                SeatClient(server.ws_url, table["id"], None)]
    for c in [*clients, *watchers]:
        await c.open()
    return players, table, clients, watchers


@pytest.mark.parametrize("seats", [3, 4, 6])
async def test_whole_games_with_the_generic_client(shared_server_each_db, seats: int) -> None:
    players, table, clients, watchers = await open_all(shared_server_each_db, seats)
    assert players[0].start(table["id"]).status_code == 200
    final = await play_to_end([*clients, *watchers], random.Random(seats))
    outcome = final["table"]["outcome"]
    assert final["table"]["status"] == "finished" and len(outcome["scores"]) == seats
    assert len(outcome["details"]["rounds"]) >= ENGINE.setup(seats, {}, 0)["rounds"]
    for c in clients:
        assert c.state["view"]["phase"] == "over" and c.state["legal_actions"] == []
        assert c.state["chat_allowed"] is True
    match = httpx.get(f"{shared_server_each_db.url}/api/matches/{table['id']}").json()
    states = replay(match)
    last = states[max(states)]
    assert ENGINE.outcome(last).to_json() == outcome
    check_no_target_leaks([*clients, *watchers], states)
    for c in [*clients, *watchers]:
        await c.close()


def check_no_target_leaks(connections: list[SeatClient], states: dict[int, Any]) -> None:
    """Every message each connection received, checked against the replayed state."""
    checked = 0
    for c in connections:
        for message in c.received:
            if message["type"] == "ephemeral":
                assert "target" not in json.dumps(message)
                continue
            if message["type"] != "state" or message["view"] is None:
                continue
            state = states[message["version"]]
            seat = message["seat"]
            if seat in state["builders"]:
                continue
            hidden = {b["builder"]: b["target"] for b in state["builds"] if not b["revealed"]}
            for build in message["view"]["builds"]:
                if build["builder"] in hidden:
                    assert build["target"] is None, (seat, message["version"])
            for event in message.get("events") or []:
                assert event["type"] != "targets", (seat, event)
            assert "target" not in json.dumps(message["legal_actions"])
            checked += 1
    assert checked > 50


async def test_drags_are_relayed_not_stored_and_guessers_never_see_targets(shared_server) -> None:
    players, table, clients, watchers = await open_all(shared_server, 4)
    assert players[0].start(table["id"]).status_code == 200
    everyone = [*clients, *watchers]
    for c in everyone:
        await c.wait_status("playing")
    rng = random.Random(5)
    relayed = acted = 0
    start_version = clients[0].state["version"]
    for _ in range(400):
        newest = max((c.state for c in everyone), key=lambda s: s["version"])
        if newest["view"] is None or newest["table"]["status"] == "finished":
            break
        if newest["view"]["phase"] == "guess" and newest["view"]["stage"] == 1:
            break
        movers = [c for c in clients if c.state["version"] == newest["version"] and c.my_turn()]
        if not movers:
            await asyncio.gather(*(c.wait_version(newest["version"]) for c in everyone))
            continue
        mover = rng.choice(movers)
        action = rng.choice(mover.state["legal_actions"])
        if action["type"] == "place":
            drag = {k: action[k] for k in ("block", "x", "y", "angle", "flip")}
            await mover.send({"type": "ephemeral", "data": drag})
            for other in everyone:
                if other is mover:
                    continue
                message = await other.next_of("ephemeral")
                assert message["seat"] == mover.state["seat"]
                assert message["event"] == {"type": "dragging", "builder": mover.state["seat"],
                                            **drag}
                relayed += 1
        await mover.act(action)
        acted += 1
        await asyncio.gather(*(c.wait_version(newest["version"] + 1) for c in everyone))
        await asyncio.sleep(0.04)
    assert relayed >= 5 * 4
    # a guesser may not send drags, and a builder may not chat
    view = clients[0].state["view"]
    guesser = next(c for c in clients if c.state["seat"] not in view["builders"])
    builder = next(c for c in clients if c.state["seat"] in view["builders"])
    await guesser.send({"type": "ephemeral", "data": {"block": 0, "x": 100, "y": 100,
                                                      "angle": 0, "flip": False}})
    error = await guesser.next_of("error")
    assert error["code"] in ("not_builder", "wrong_phase")
    await builder.send({"type": "chat", "text": "it is a trumpet!"})
    assert (await builder.next_of("error"))["code"]
    assert builder.state["chat_allowed"] is False and guesser.state["chat_allowed"] is True
    # drags are not stored: the table's version counts the actions only
    assert builder.state["version"] == start_version + acted
    for c in everyone:
        await c.close()


async def test_overlapping_placement_is_refused_with_its_code(shared_server) -> None:
    players, table, clients, watchers = await open_all(shared_server, 3)
    assert players[0].start(table["id"]).status_code == 200
    everyone = [*clients, *watchers]
    for c in everyone:
        await c.wait_status("playing")
    rng = random.Random(1)
    while True:  # draft until the first construction
        newest = max((c.state for c in everyone), key=lambda s: s["version"])
        if newest["view"]["phase"] == "build":
            break
        (mover,) = [c for c in clients if c.state["version"] == newest["version"]
                    and c.my_turn()]
        await mover.act(rng.choice(mover.state["legal_actions"]))
        await asyncio.gather(*(c.wait_version(newest["version"] + 1) for c in everyone))
        await asyncio.sleep(0.04)
    builder = next(c for c in clients if c.my_turn())
    seat = builder.state["seat"]
    held = next(b for b in builder.state["view"]["builds"] if b["builder"] == seat)["held"]
    place = {"type": "place", "block": held[0], "x": 200, "y": 100, "angle": 0, "flip": False}
    version = builder.state["version"]
    await builder.act(place)
    await builder.wait_version(version + 1)
    await builder.act({**place, "block": held[1]})
    error = await builder.next_of("error")
    assert error["code"] == "overlap"
    for c in everyone:
        await c.close()


async def test_huge_numbers_over_the_wire_are_a_bad_move_and_the_table_goes_on(
        shared_server) -> None:
    """10**400 in a placement or a drag: the sender is told the point is off the board (not
    "the server hit a bug"), nobody else hears of it, and the builder goes on building."""
    players, table, clients, watchers = await open_all(shared_server, 3)
    assert players[0].start(table["id"]).status_code == 200
    everyone = [*clients, *watchers]
    for c in everyone:
        await c.wait_status("playing")
    rng = random.Random(2)
    while True:
        newest = max((c.state for c in everyone), key=lambda s: s["version"])
        if newest["view"]["phase"] == "build":
            break
        (mover,) = [c for c in clients if c.state["version"] == newest["version"]
                    and c.my_turn()]
        await mover.act(rng.choice(mover.state["legal_actions"]))
        await asyncio.gather(*(c.wait_version(newest["version"] + 1) for c in everyone))
        await asyncio.sleep(0.04)
    builder = next(c for c in clients if c.my_turn())
    seat = builder.state["seat"]
    held = next(b for b in builder.state["view"]["builds"] if b["builder"] == seat)["held"]
    place = {"type": "place", "block": held[0], "x": 200, "y": 100, "angle": 0, "flip": False}
    version = builder.state["version"]
    for field in ("x", "y"):
        await builder.act({**place, field: 10**400})
        error = await builder.next_of("error")
        # the shape check every engine shares refuses it before the rules see it
        assert error["code"] == "bad_action" and "out of range" in error["message"], error
        drag = {k: v for k, v in place.items() if k != "type"}
        await builder.send({"type": "ephemeral", "data": {**drag, field: -(10**400)}})
        error = await builder.next_of("error")
        assert error["code"] == "out_of_board", error
    for c in everyone:
        assert c.state["version"] == version
        assert not any(m["type"] == "error" for m in c.received if c is not builder)
    await builder.act({**place, "y": geo_half_height(held[0])})
    await builder.wait_version(version + 1)
    for c in everyone:
        await c.close()


def geo_half_height(block: int) -> float:
    return next(t for t in ENGINE.view(ENGINE.setup(3, {}, 0), None)["block_types"]
                if t["id"] == block)["h"] / 2


@pytest.mark.parametrize("lang", ["es", "en"])
async def test_the_rules_page_carries_the_card_rulings(shared_server, lang: str) -> None:
    catalogue = json.loads((ROOT / "app" / "i18n" / f"{lang}.json").read_text())
    async with httpx.AsyncClient(cookies={"lang": lang}, timeout=10) as http:
        page = html.unescape((await http.get(f"{shared_server.url}/rules/block-and-guess")).text)
    for ruling in ("contact", "card4", "card5", "card6", "card9", "reveal"):
        assert catalogue[f"block-and-guess.rules.ruling_{ruling}"] in page, ruling
