"""The log opens with round 1 (the engines' ``opening`` hook, app/tables/core/play.py
``begin``): the lines a later round's start gives (who starts; in Block and Guess who builds
with which cards, and each builder's object to the builders alone) reach every seat as it may
know them when the game starts, stay the first entry of the history a reconnecting client
rebuilds its log from (after a restart too, rebuilt from the seed: nothing of it is stored),
and open a finished game's replay."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from app.games import ENGINES
from app.games.base import event_for
from app.tables.core.commands import Join, Start
from app.tables.core.ending import replay
from app.tables.engine import adapt
from tests.support.matches import stored_match
from tests.tables.support import close_registry, connect, open_registry

PLAYERS = ("p0", "p1", "p2", "p3")
OPENS_WITH_A_ROUND = ("ajolocracia", "alebrijes", "allegra", "block-and-guess", "ikebana")


def seats_for(game: str) -> int:
    return max(3, ENGINES[game].min_players)


def start_state(message: dict[str, Any]) -> bool:
    return message["type"] == "state" and message["table"]["status"] == "playing"


async def until(sent: list[dict[str, Any]], found: Any) -> dict[str, Any]:
    """The first message ``found`` accepts, once the connection's writer has sent it."""
    for _ in range(500):
        message = next((m for m in sent if found(m)), None)
        if message is not None:
            return message
        await asyncio.sleep(0.01)
    raise AssertionError(f"never sent: {sent}")


@pytest.mark.asyncio
@pytest.mark.parametrize("game", sorted(ENGINES))
async def test_each_seat_sees_round_one_open_the_log_as_it_may_know_it(tmp_path,
                                                                       game: str) -> None:
    repo, registry = await open_registry(tmp_path)
    seats = seats_for(game)
    for p in PLAYERS[:seats]:
        await repo.create_player(p, p.upper(), f"tok-{p}")
    actor = await registry.create("p0", "P0", game, seats, {}, False)
    for p in PLAYERS[1:seats]:
        await actor.submit(Join(p, p.upper()))
    socks = [(await connect(actor, p, p.upper()))[1] for p in PLAYERS[:seats]]
    await actor.submit(Start("p0"))
    table_id, start = actor.table.id, actor.table.version
    engine = adapt(ENGINES[game])
    dealt = engine.setup(seats, actor.table.options, actor.table.seed)
    opening = engine.opening(dealt)

    for seat, sock in enumerate(socks):
        first = await until(sock.sent, start_state)
        assert first["version"] == start
        assert first["events"] == event_for(opening, seat), seat
    if game not in OPENS_WITH_A_ROUND:
        assert opening == [] and len(actor.table.history) == 0
    else:
        assert [e["type"] for e in event_for(opening, None)] == ["round_started"]
        assert event_for(opening, None)[0]["round"] == 1
    if game == "block-and-guess":
        builders = set(dealt["builders"])
        for seat, sock in enumerate(socks):
            got = [e["type"] for e in (await until(sock.sent, start_state))["events"]]
            # each builder's object, to the builders alone
            assert got == (["round_started", "targets"] if seat in builders
                           else ["round_started"]), (seat, builders)

    # a restart rebuilds it from the seed: a seat that reconnects reads it first
    await close_registry(repo, registry)
    repo, registry = await open_registry(tmp_path)
    actor = registry.actors[table_id]
    for seat in range(seats):
        _conn, sock = await connect(actor, PLAYERS[seat], PLAYERS[seat].upper())
        history = (await until(sock.sent, lambda m: m["type"] == "state"))["history"]
        if opening:
            assert history[0] == {"version": start, "events": event_for(opening, seat),
                                  "source": "start", "by": None}
        else:
            assert history == []
    await close_registry(repo, registry)


def test_a_game_started_from_a_position_opens_with_nothing() -> None:
    """A branch of a replay starts mid-game: its log does not claim a round 1 began."""
    engine = ENGINES["ikebana"]
    fresh = replay(engine, 3, {}, 7, [])
    assert [e.type for e in fresh.opening] == ["round_started"]
    branched = replay(engine, 3, {}, 7, [], position=engine.dump(fresh.state))
    assert branched.opening == []


def test_a_replay_opens_with_round_one_as_the_viewpoint_saw_it(shared_server) -> None:
    match_id, states, importer = stored_match(shared_server.url, "block-and-guess", 11)
    builders = set(states[0]["builders"])
    guesser = next(s for s in range(3) if s not in builders)

    def opening(point: str) -> list[dict[str, Any]]:
        r = importer.request("GET", f"/api/matches/{match_id}/replay?seat={point}")
        assert r.status_code == 200, r.text
        return r.json()["opening"]

    builder = min(builders)
    seen = opening(str(builder))
    assert [e["type"] for e in seen] == ["round_started", "targets"]
    assert seen[0]["round"] == 1 and sorted(seen[0]["builders"]) == sorted(builders)
    assert set(seen[1]["targets"]) == {str(b) for b in builders}
    for point in (str(guesser), "spectator"):  # the objects stay the builders'
        assert [e["type"] for e in opening(point)] == ["round_started"], point
    assert [e["type"] for e in opening("all")] == ["round_started", "targets"]
