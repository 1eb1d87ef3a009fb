"""Hidden information never leaves the server, for every registered game (new ones too).

A whole random game is played over WebSockets with a connection for every seat, a
spectator (no token) and a stranger (a player with a token but no seat). Afterwards the
stored log is replayed, and every message each connection received is checked against what
that seat may know: its view, legal actions, events and history must be exactly the
engine's for that seat at that version (nothing more), and the view must not change when
everything hidden from that seat is re-dealt (``scramble``), so it depends only on what the
seat may see. REST reads made during the game (table summary, the match record of a game
still in progress) must hold nothing from the game state.

Simultaneous picks: another seat's pick must not change a single byte of what the others
receive before the reveal (so neither content nor message size tells who picked what).
"""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

import httpx
import pytest

from app.games import ENGINES
from app.games.base import Rng, engine_options, event_for
from app.tables.engine import apply_any
from tests.support.client import ApiClient, SeatClient, play_to_end, seat_players

SUMMARY_KEYS = {"id", "game", "status", "version", "seat_count", "options", "private", "host",
                "seats", "created_at", "outcome", "url", "invite_url", "watch_url",
                "spectators", "rematch_of", "branch_of"}


def _json(value: Any) -> Any:
    return json.loads(json.dumps(value))


async def _keep_reading(client: SeatClient) -> None:
    try:
        while True:
            await client.recv(timeout=600)
    except Exception:  # noqa: BLE001 - the connection closes at the end of the test
        return


def _replay(engine: Any, match: dict) -> tuple[dict[int, Any], dict[int, list]]:
    state = engine.setup(len(match["seats"]), engine_options(match["options"]), match["seed"])
    first = match["actions"][0]["seq"]
    # the start's version: the log's opening lines (round 1's), if the game has any
    opening = getattr(engine, "opening", None)
    states, events = {first - 1: state}, {first - 1: opening(state) if opening else []}
    for record in match["actions"]:
        state, evs = apply_any(engine, state, record["seat"], record["action"])
        states[record["seq"]], events[record["seq"]] = state, evs
    return states, events


def _check_connection(engine: Any, client: SeatClient, seat: int | None,
                      states: dict[int, Any], events: dict[int, list], rng: Rng) -> int:
    checked = 0
    scramble = getattr(engine, "scramble", None)
    for message in client.received:
        assert message["type"] != "ephemeral" or message["event"]
        if message["type"] == "error":
            assert message["code"] != "internal_error", message
        if message["type"] != "state" or message["version"] not in states:
            continue
        assert message["seat"] == seat
        state = states[message["version"]]
        assert message["view"] == _json(engine.view(state, seat)), "view beyond the seat's"
        expected_legal = engine.legal_actions(state, seat) if seat is not None else []
        assert message["legal_actions"] == _json(expected_legal)
        if message["events"]:
            assert message["events"] == _json(event_for(events[message["version"]], seat))
        for entry in message.get("history", []):
            assert entry["events"] == _json(event_for(events[entry["version"]], seat))
        if scramble is not None and engine.outcome(state) is None:
            other = scramble(state, seat, rng)
            assert _json(engine.view(other, seat)) == message["view"], (
                "the view depends on something hidden from this seat")
        assert set(message["table"]) <= SUMMARY_KEYS
        checked += 1
    return checked


def _cases() -> list[tuple[str, int]]:
    cases = []
    for game_id, engine in sorted(ENGINES.items()):
        cases.append((game_id, engine.min_players))
        if engine.max_players != engine.min_players:
            cases.append((game_id, min(engine.max_players, engine.min_players + 2)))
    return cases


@pytest.mark.asyncio
@pytest.mark.parametrize(("game_id", "seats"), _cases())
async def test_every_message_holds_only_what_its_receiver_may_know(shared_server, game_id: str,
                                                                    seats: int) -> None:
    server = shared_server
    engine = ENGINES[game_id]
    players, table, _ = seat_players(server.url, game_id, seats)
    stranger = ApiClient(server.url, "Mallory")
    clients = [SeatClient(server.ws_url, table["id"], p.token) for p in players]
    watchers = [SeatClient(server.ws_url, table["id"], None),
                SeatClient(server.ws_url, table["id"], stranger.token)]
    for c in [*clients, *watchers]:
        await c.open()
    readers = [asyncio.get_running_loop().create_task(_keep_reading(w)) for w in watchers]
    assert players[0].start(table["id"]).status_code == 200
    for c in clients:
        await c.wait_status("playing")

    # REST reads during the game: summaries only, and no match record yet
    for who in (players[1], stranger):
        got = who.request("GET", f"/api/tables/{table['id']}").json()
        assert set(got) <= SUMMARY_KEYS
        assert who.request("GET", f"/api/matches/{table['id']}").status_code == 404
    assert httpx.get(f"{server.url}/api/matches/{table['id']}", timeout=10).status_code == 404

    final = await play_to_end(clients, random.Random(seats * 7 + len(game_id)))
    for w in watchers:  # let the watchers catch up with the last version
        await w.send({"type": "ping"})
    await asyncio.sleep(0.3)
    for c in [*clients, *watchers]:
        await c.close()
    for r in readers:
        await r

    match = httpx.get(f"{server.url}/api/matches/{table['id']}", timeout=10).json()
    states, events = _replay(engine, match)
    assert engine.outcome(states[final["version"]]).to_json() == _json(final["table"]["outcome"])
    rng = Rng.from_seed(99)
    for seat, client in enumerate(clients):
        assert _check_connection(engine, client, seat, states, events, rng) > 0
    for watcher in watchers:
        assert _check_connection(engine, watcher, None, states, events, rng) > 0


def _simultaneous_cases() -> list[str]:
    return sorted(g for g, e in ENGINES.items() if getattr(e, "secret_picks", False))


@pytest.mark.parametrize("game_id", _simultaneous_cases())
def test_a_pick_changes_no_byte_of_what_the_others_receive(game_id: str) -> None:
    engine = ENGINES[game_id]
    seats = engine.min_players + 1
    compared = 0
    for seed in range(30):
        state = engine.setup(seats, {}, seed)
        chooser = random.Random(seed)
        for _ in range(200):
            if engine.outcome(state) is not None:
                break
            waiting = sorted(getattr(engine, "waiting_for", engine.to_act)(state))
            seat = chooser.choice(sorted(engine.to_act(state)))
            legal = engine.legal_actions(state, seat)
            if len(waiting) > 1 and seat in waiting and len(legal) > 1:
                a, b = chooser.sample(legal, 2)
                after_a, events_a = engine.apply(state, seat, a)
                after_b, events_b = engine.apply(state, seat, b)
                for observer in [None, *(s for s in range(seats) if s != seat)]:
                    seen_a = json.dumps([engine.view(after_a, observer),
                                         event_for(events_a, observer)], sort_keys=True)
                    seen_b = json.dumps([engine.view(after_b, observer),
                                         event_for(events_b, observer)], sort_keys=True)
                    assert seen_a == seen_b, f"seat {observer} can tell {a} from {b}"
                    compared += 1
            state, _ = engine.apply(state, seat, chooser.choice(legal))
    assert compared > 50
