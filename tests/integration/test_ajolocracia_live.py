"""Ajolocracia over a real server (SQLite and PostgreSQL): whole games played by the generic
client and replayed from the stored log, the secrecy of picks over real sockets, changing and
taking back a pick, stale versions, and the turn timer picking for seats that run out."""

from __future__ import annotations

import asyncio
import copy
import random
import time
from typing import Any

import httpx
import pytest

from app.games import ENGINES
from app.games.base import engine_options
from tests.support.client import ApiClient, SeatClient, play_to_end, seat_players

pytestmark = pytest.mark.asyncio

GAME = "ajolocracia"


def seat_up(server, seats: int, options: dict | None = None):
    players, table, _ = seat_players(server.url, GAME, seats, options)
    return players, table


async def start(players, table, clients: list[SeatClient]) -> int:
    """Open every connection, start the game; return the version everyone then sees."""
    for c in clients:
        await c.open()
    assert players[0].start(table["id"]).status_code == 200
    for c in clients:
        await c.wait_status("playing")
    version = max(c.state["version"] for c in clients)
    for c in clients:
        await c.wait_version(version)
    return version


async def close_all(clients: list[SeatClient]) -> None:
    for c in clients:
        await c.close()


def stored_match(server, table_id: str) -> dict[str, Any]:
    r = httpx.get(f"{server.url}/api/matches/{table_id}", timeout=10)
    assert r.status_code == 200, r.text
    return r.json()


def replay(match: dict[str, Any]) -> dict[str, Any]:
    """Rebuild the game from its seed and stored actions; return the outcome it reaches."""
    engine = ENGINES[GAME]
    options = engine_options(match["options"])
    state = engine.setup(len(match["seats"]), options, match["seed"])
    for record in match["actions"]:
        state, _ = engine.apply(state, record["seat"], record["action"])
    outcome = engine.outcome(state)
    assert outcome is not None, "the stored actions do not finish the game"
    return outcome.to_json()


def hand_ids(message: dict[str, Any]) -> list[int]:
    return [c["id"] for c in message["view"]["hand"]]


def without_pick_flags(message: dict[str, Any]) -> dict[str, Any]:
    """A state message minus what a pick may change for everyone else: the version, the
    picked flags, the waiting list, the timers and the events."""
    out = copy.deepcopy(message)
    for key in ("version", "events", "deadlines", "history", "waiting_for"):
        out.pop(key, None)
    out["table"].pop("version")
    out["view"]["waiting_for"] = None
    for player in out["view"]["players"]:
        player["picked"] = None
    return out


async def act_and_wait(actor: SeatClient, action: dict[str, Any],
                       everyone: list[SeatClient]) -> list[dict[str, Any]]:
    """Send an action, return every connection's next state (one version later)."""
    version = actor.state["version"]
    await actor.act(action)
    return [await c.wait_version(version + 1) for c in everyone]


def assert_learned_only_the_flag(before: dict, after: dict, seat: int, picked: bool,
                                 event: str) -> None:
    assert after["version"] == before["version"] + 1
    assert without_pick_flags(after) == without_pick_flags(before)
    assert after["view"]["players"][seat]["picked"] is picked
    assert (seat in after["view"]["waiting_for"]) is not picked
    assert after["events"] == [{"type": event, "seat": seat}]


# --------------------------------------------------------------------------- whole games


@pytest.mark.parametrize("seats", [2, 5])
async def test_whole_game_by_the_generic_client_is_stored_and_replays(shared_server_each_db,
                                                                      seats) -> None:
    players, table = seat_up(shared_server_each_db, seats)
    clients = [SeatClient(shared_server_each_db.ws_url, table["id"], p.token) for p in players]
    try:
        await start(players, table, clients)
        final = await play_to_end(clients, random.Random(seats), max_moves=20_000)
        assert final["table"]["status"] == "finished"
        outcome = final["table"]["outcome"]
        assert len(outcome["scores"]) == seats
        assert len(outcome["details"]["rounds"]) == 3
        for c in clients:
            view = c.state["view"]
            assert view["phase"] == "over" and c.state["legal_actions"] == []
            assert [p["score"] for p in view["players"]] == outcome["scores"]
        match = stored_match(shared_server_each_db, table["id"])
        assert match["outcome"] == outcome
        assert {a["source"] for a in match["actions"]} == {"player"}
        assert replay(match) == outcome
    finally:
        await close_all(clients)


# --------------------------------------------------------------------------- secrecy


async def test_a_pick_stays_secret_until_everyone_has_picked(shared_server) -> None:
    players, table = seat_up(shared_server, 3)
    seats = [SeatClient(shared_server.ws_url, table["id"], p.token) for p in players]
    spectator = SeatClient(shared_server.ws_url, table["id"],
                           ApiClient(shared_server.url, "Mallory").token)
    everyone = [*seats, spectator]
    try:
        await start(players, table, everyone)
        first_hands = [hand_ids(c.state) for c in seats]
        assert spectator.state["view"]["hand"] is None

        def others(picker: int) -> list[SeatClient]:
            return [c for c in everyone if c is not seats[picker]]

        async def secretly(picker: int, action: dict, picked: bool, event: str) -> None:
            before = [c.state for c in others(picker)]
            await act_and_wait(seats[picker], action, everyone)
            for old, c in zip(before, others(picker), strict=True):
                assert_learned_only_the_flag(old, c.state, picker, picked, event)

        # seat 0 picks, changes its mind, takes the pick back and picks again: the others
        # only ever learn whether it has picked
        a, b = first_hands[0][0], first_hands[0][-1]
        await secretly(0, {"type": "pick", "card": a}, True, "picked")
        mine = seats[0].state
        assert mine["view"]["my_pick"] == [a]
        [own] = mine["events"]
        assert own["type"] == "picked" and [c["id"] for c in own["cards"]] == [a]
        # the history sent on (re)connect or sync is redacted the same way
        for c in everyone:
            await c.send({"type": "sync"})
            synced = await c.next_of("state")
            [entry] = [h for h in synced["history"] if h["events"]
                       and h["events"][0]["type"] == "picked"]
            if c is seats[0]:
                assert [card["id"] for card in entry["events"][0]["cards"]] == [a]
            else:
                assert entry["events"] == [{"type": "picked", "seat": 0}]
        await secretly(0, {"type": "pick", "card": b}, True, "picked")
        assert seats[0].state["view"]["my_pick"] == [b]
        await secretly(0, {"type": "unpick"}, False, "unpicked")
        assert seats[0].state["view"]["my_pick"] == []
        await secretly(0, {"type": "pick", "card": a}, True, "picked")
        # seat 1 picks: seat 0, seat 2 and the spectator learn only the flag
        c1 = first_hands[1][1]
        await secretly(1, {"type": "pick", "card": c1}, True, "picked")
        for c in everyone:
            assert c.state["view"]["last_reveal"] is None
            assert c.state["view"]["turn"] == 1
        kinds = {s: {card["id"]: card["kind"] for card in seats[s].state["view"]["hand"]}
                 for s in range(3)}

        # the last pick reveals every pick at once, to everyone, and hands pass on
        c2 = first_hands[2][0]
        await act_and_wait(seats[2], {"type": "pick", "card": c2}, everyone)
        chosen = {0: a, 1: c1, 2: c2}
        for c in everyone:
            view = c.state["view"]
            reveal = view["last_reveal"]
            assert (reveal["round"], reveal["turn"], reveal["automatic"]) == (1, 1, False)
            assert [p["seat"] for p in reveal["picks"]] == [0, 1, 2]
            for p in reveal["picks"]:
                [card] = p["cards"]
                assert card["id"] == chosen[p["seat"]]
                assert card["kind"] == kinds[p["seat"]][card["id"]]
            assert view["turn"] == 2 and view["waiting_for"] == [0, 1, 2]
            assert [e["type"] for e in c.state["events"]][-2:] == ["revealed", "passed"]
        for s in range(3):  # passed to the left: seat s now holds what s - 1 kept
            kept = sorted(set(first_hands[s - 1]) - {chosen[(s - 1) % 3]})
            assert sorted(hand_ids(seats[s].state)) == kept
    finally:
        await close_all(everyone)


async def test_changing_a_pick_and_stale_or_illegal_picks(shared_server) -> None:
    players, table = seat_up(shared_server, 2)
    a, b = (SeatClient(shared_server.ws_url, table["id"], p.token) for p in players)
    try:
        await start(players, table, [a, b])
        hand = hand_ids(a.state)
        assert {"type": "unpick"} not in a.state["legal_actions"]
        await act_and_wait(a, {"type": "pick", "card": hand[0]}, [a, b])
        assert a.state["view"]["my_pick"] == [hand[0]]
        assert {"type": "unpick"} in a.state["legal_actions"]
        await act_and_wait(a, {"type": "pick", "card": hand[1]}, [a, b])
        assert a.state["view"]["my_pick"] == [hand[1]]
        assert b.state["view"]["players"][0]["picked"] is True
        await act_and_wait(a, {"type": "unpick"}, [a, b])
        assert a.state["view"]["my_pick"] == []
        assert {"type": "unpick"} not in a.state["legal_actions"]
        assert b.state["view"]["players"][0]["picked"] is False

        # a stale version: a fresh state, then the error; nothing changed
        version = a.state["version"]
        await a.act({"type": "pick", "card": hand[2]}, version=version - 1)
        fresh = await a.next_of("state")
        assert fresh["version"] == version and fresh["view"]["my_pick"] == []
        assert (await a.next_of("error"))["code"] == "stale_version"
        # a card that is not in the hand, or a second pick without an INE in front
        await a.act({"type": "pick", "card": hand_ids(b.state)[0]})
        assert (await a.next_of("error"))["code"] == "no_such_card"
        await a.act({"type": "pick", "card": hand[0], "second": hand[1]})
        assert (await a.next_of("error"))["code"] == "no_ine"
        await a.send({"type": "sync"})
        assert (await a.next_of("state"))["version"] == version

        # the pick that counts is the last one made
        await act_and_wait(a, {"type": "pick", "card": hand[2]}, [a, b])
        await act_and_wait(b, {"type": "pick", "card": hand_ids(b.state)[0]}, [a, b])
        reveal = b.state["view"]["last_reveal"]
        assert reveal["picks"][0]["cards"][0]["id"] == hand[2]
    finally:
        await close_all([a, b])


# --------------------------------------------------------------------------- turn timer


async def test_turn_timer_picks_for_the_seats_that_run_out(shared_server) -> None:
    players, table = seat_up(shared_server, 3, {"turn_seconds": 2})
    clients = [SeatClient(shared_server.ws_url, table["id"], p.token) for p in players]
    try:
        await start(players, table, clients)
        deadlines = clients[0].state["deadlines"]
        assert set(deadlines) == {"0", "1", "2"}
        assert all(0 < left <= 2 for left in deadlines.values())
        card = hand_ids(clients[0].state)[0]
        await act_and_wait(clients[0], {"type": "pick", "card": card}, clients)
        # the clock now presses only the seats that have not picked
        assert set(clients[1].state["deadlines"]) == {"1", "2"}

        began = time.monotonic()
        while clients[0].state["view"]["turn"] == 1:
            assert time.monotonic() - began < 10, "the turn timer did not pick"
            await clients[0].recv(timeout=10)
        reveal = clients[0].state["view"]["last_reveal"]
        assert [p["seat"] for p in reveal["picks"]] == [0, 1, 2]
        assert reveal["picks"][0]["cards"][0]["id"] == card  # a pick made is kept
        assert all(len(p["cards"]) == 1 for p in reveal["picks"])
        # a new turn, a new clock for everyone
        assert set(clients[0].state["deadlines"]) == {"0", "1", "2"}

        version = clients[0].state["version"]
        for c in clients:
            await c.wait_version(version)
        final = await play_to_end(clients, random.Random(4), max_moves=20_000)
        match = stored_match(shared_server, table["id"])
        first_turn = match["actions"][:3]
        assert [(a["seat"], a["source"]) for a in first_turn] in (
            [(0, "player"), (1, "timeout"), (2, "timeout")],
            [(0, "player"), (2, "timeout"), (1, "timeout")])
        assert replay(match) == final["table"]["outcome"] == match["outcome"]
    finally:
        await close_all(clients)


async def test_the_turn_clock_is_off_by_default(shared_server) -> None:
    players, table = seat_up(shared_server, 2)
    clients = [SeatClient(shared_server.ws_url, table["id"], p.token) for p in players]
    try:
        version = await start(players, table, clients)
        assert clients[0].state["deadlines"] == {}
        await asyncio.sleep(1.5)  # nothing happens on its own
        await clients[0].send({"type": "sync"})
        synced = await clients[0].next_of("state")
        assert synced["version"] == version and synced["view"]["waiting_for"] == [0, 1]
    finally:
        await close_all(clients)
