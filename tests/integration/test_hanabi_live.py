"""Hanabi over a real server (SQLite and PostgreSQL): full games, reconnects, bad input,
hidden information, and a restart in the middle of a game."""

from __future__ import annotations

import json
import random

import httpx
import pytest

from app.games import ENGINES
from app.games.base import engine_options
from tests.support.client import (
    ApiClient,
    SeatClient,
    connect_and_start,
    play_to_end,
    seat_players,
)

pytestmark = pytest.mark.asyncio


def seat_up(server, seats: int = 2, options: dict | None = None, private: bool = False):
    return seat_players(server.url, "hanabi", seats, options, private)


async def start_and_connect(server, players, table) -> list[SeatClient]:
    return await connect_and_start(server.ws_url, players, table)


async def play_moves(clients: list[SeatClient], rng: random.Random, moves: int) -> None:
    """A few random legal moves, each seen by every client before the next."""
    for _ in range(moves):
        mover = next(c for c in clients if c.my_turn())
        version = mover.state["version"]
        await mover.act(rng.choice(mover.state["legal_actions"]))
        for c in clients:
            await c.wait_version(version + 1)


async def test_two_players_play_a_whole_game_and_it_is_stored(server) -> None:
    players, table, _ = seat_up(server)
    clients = [SeatClient(server.ws_url, table["id"], p.token) for p in players]
    for c in clients:
        await c.open()
    assert players[0].start(table["id"]).status_code == 200
    final = await play_to_end(clients, random.Random(7))
    assert final["table"]["status"] == "finished"
    outcome = final["table"]["outcome"]
    assert outcome["details"]["verdict"]
    # the finished game is listed and holds everything needed to replay it
    listed = httpx.get(f"{server.url}/api/matches").json()
    assert [m["id"] for m in listed] == [table["id"]]
    match = httpx.get(f"{server.url}/api/matches/{table['id']}").json()
    assert [s["player"]["id"] for s in match["seats"]] == [p.id for p in players]
    assert match["outcome"] == outcome
    engine = ENGINES["hanabi"]
    state = engine.setup(2, engine_options(match["options"]),
                         match["seed"])
    for record in match["actions"]:
        assert record["at"] and record["source"] == "player"
        state, _ = engine.apply(state, record["seat"], record["action"])
    assert engine.outcome(state).to_json() == outcome
    for c in clients:
        await c.close()


async def test_reconnect_gets_the_full_current_view(shared_server) -> None:
    players, table, _ = seat_up(shared_server)
    a, b = await start_and_connect(shared_server, players, table)
    rng = random.Random(3)
    await play_moves([a, b], rng, 6)
    before = b.state
    await b.close()
    again = SeatClient(shared_server.ws_url, table["id"], players[1].token)
    await again.open()
    assert again.state["version"] == before["version"]
    assert again.state["seat"] == 1
    assert again.state["view"] == before["view"]
    assert again.state["legal_actions"] == before["legal_actions"]
    await again.close()
    await a.close()


async def test_bad_input_gets_clear_errors_and_changes_nothing(shared_server) -> None:
    players, table, _ = seat_up(shared_server)
    a = SeatClient(shared_server.ws_url, table["id"], players[0].token)
    b = SeatClient(shared_server.ws_url, table["id"], players[1].token)
    await a.open()
    await b.open()
    players[0].start(table["id"])
    await a.wait_status("playing")
    await b.wait_status("playing")
    mover, other = (a, b) if a.my_turn() else (b, a)
    version = mover.state["version"]
    view = mover.state["view"]

    async def expect_error(client: SeatClient, message, code: str) -> dict:
        await client.send(message)
        reply = await client.next_of("error")
        assert reply["code"] == code, reply
        assert reply["message"]
        return reply

    await expect_error(mover, "{not json", "bad_message")
    await expect_error(mover, json.dumps({"type": "teleport"}), "bad_message")
    await expect_error(mover, json.dumps({"type": "action", "action": {}, "version": "x"}),
                       "bad_message")
    await expect_error(mover, json.dumps({"type": "chat", "text": "x" * 20000}), "too_large")
    await expect_error(mover, json.dumps({"type": "action", "version": version,
                                          "action": {"type": "play", "card": 999}}),
                       "no_such_card")
    # the other seat cannot act: the seat comes from its token, whatever the payload says
    await expect_error(other, json.dumps({"type": "action", "version": version, "seat": 0,
                                          "action": mover.state["legal_actions"][0]}),
                       "bad_message")
    await expect_error(other, json.dumps({"type": "action", "version": version,
                                          "action": mover.state["legal_actions"][0]}),
                       "not_your_turn")
    # a stale version: an error and a fresh view
    await mover.send({"type": "action", "version": version - 1,
                      "action": mover.state["legal_actions"][0]})
    fresh = await mover.next_of("state")
    assert fresh["version"] == version
    assert (await mover.next_of("error"))["code"] == "stale_version"
    # nothing changed, and the connection still works
    await mover.send({"type": "sync"})
    synced = await mover.next_of("state")
    assert synced["version"] == version and synced["view"] == view
    await mover.act(mover.state["legal_actions"][0])
    assert (await other.wait_version(version + 1))["version"] == version + 1
    await a.close()
    await b.close()


async def test_no_hidden_card_reaches_anyone_who_may_not_see_it(shared_server) -> None:
    players, table, invite = seat_up(shared_server, seats=3)
    clients = [SeatClient(shared_server.ws_url, table["id"], p.token) for p in players]
    stranger = ApiClient(shared_server.url, "Mallory")
    spectator = SeatClient(shared_server.ws_url, table["id"], stranger.token)
    anonymous = SeatClient(shared_server.ws_url, table["id"], None)
    for c in [*clients, spectator, anonymous]:
        await c.open()
    players[0].start(table["id"])
    for c in [*clients, spectator, anonymous]:
        await c.wait_status("playing")
    rng = random.Random(11)
    for _ in range(15):
        newest = max(c.state["version"] for c in clients)
        for c in [*clients, spectator, anonymous]:
            await c.wait_version(newest)
        for c in clients:
            view = c.state["view"]
            for card in view["hands"][c.state["seat"]]:
                assert "color" not in card and "rank" not in card
            for event in c.state["events"]:
                if event["type"] == "draw" and event["seat"] == c.state["seat"]:
                    assert set(event["card"]) == {"id"}
        for watcher in (spectator, anonymous):
            assert watcher.state["seat"] is None and watcher.state["legal_actions"] == []
            for hand in watcher.state["view"]["hands"]:
                for card in hand:
                    assert "color" not in card and "rank" not in card
            for event in watcher.state["events"]:
                assert event["type"] != "draw" or set(event["card"]) == {"id"}
        mover = next(c for c in clients if c.my_turn())
        await mover.act(rng.choice(mover.state["legal_actions"]))
    # a spectator cannot act
    await spectator.send({"type": "action", "version": spectator.state["version"],
                          "action": {"type": "discard", "card": 0}})
    assert (await spectator.next_of("error"))["code"] == "forbidden"
    for c in [*clients, spectator, anonymous]:
        await c.close()


async def test_private_table_and_bad_tokens(shared_server) -> None:
    players, table, invite = seat_up(shared_server, private=True)
    stranger = ApiClient(shared_server.url, "Eve")
    # not listed, not joinable and not watchable without the invite
    assert table["id"] not in [t["id"] for t in httpx.get(f"{shared_server.url}/api/tables").json()]
    assert stranger.join(table["id"]).status_code == 403
    peek = SeatClient(shared_server.ws_url, table["id"], stranger.token)
    with pytest.raises(Exception):  # noqa: B017 - closed with an error message first
        await peek.open()
    assert peek.received[0]["code"] == "forbidden"
    watcher = SeatClient(shared_server.ws_url, table["id"], stranger.token, invite=invite)
    await watcher.open()
    assert watcher.state["seat"] is None
    await watcher.close()
    # a wrong token is refused outright
    bad = SeatClient(shared_server.ws_url, table["id"], "not-a-token")
    with pytest.raises(Exception):  # noqa: B017
        await bad.open()
    assert bad.received[0]["code"] == "bad_token"
    unknown = SeatClient(shared_server.ws_url, "no-such-table", players[0].token)
    with pytest.raises(Exception):  # noqa: B017
        await unknown.open()
    assert unknown.received[0]["code"] == "not_found"


async def test_restart_mid_game_brings_the_table_back(server) -> None:
    players, table, _ = seat_up(server)
    a, b = await start_and_connect(server, players, table)
    rng = random.Random(5)
    await play_moves([a, b], rng, 8)
    before = {c.state["seat"]: c.state for c in (a, b)}
    server.restart(kill=True)  # no graceful shutdown: only what was stored survives
    a2 = SeatClient(server.ws_url, table["id"], players[0].token)
    b2 = SeatClient(server.ws_url, table["id"], players[1].token)
    await a2.open()
    await b2.open()
    for c in (a2, b2):
        old = before[c.state["seat"]]
        assert c.state["version"] == old["version"]
        assert c.state["view"] == old["view"]
        assert c.state["legal_actions"] == old["legal_actions"]
    final = await play_to_end([a2, b2], rng)
    assert final["table"]["status"] == "finished"
    await a2.close()
    await b2.close()
    # a finished table is still there after another restart, from storage
    server.restart(kill=False)
    assert httpx.get(table["invite_url"]).status_code == 200  # the invite link still works
    table_now = httpx.get(f"{server.url}/api/tables/{table['id']}").json()
    assert table_now["status"] == "finished" and table_now["outcome"] == final["table"]["outcome"]
    async with SeatClient(server.ws_url, table["id"], players[0].token) as again:
        assert again.state["view"]["over"] and again.state["legal_actions"] == []
        assert again.state["view"] == final["view"] or again.state["seat"] != final["seat"]
