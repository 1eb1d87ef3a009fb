"""The table actor (the shell around the table core) in-process: ordering, storage before
push, slow clients, turn timers, and a broken engine that must not take other tables down."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest

from app.errors import AppError
from app.tables.core.commands import Act
from app.tables.core.state import evolve
from app.tables.engine import EngineAdapter
from tests.tables.support import MemoryRepo, connect
from tests.tables.support import started as started_game

pytestmark = pytest.mark.asyncio


async def started(repo: MemoryRepo, options: dict | None = None, game: str = "hanabi") -> Any:
    actor, _, _ = await started_game(game, 2, options, clock=time.monotonic, repo=repo)
    return actor


async def test_actions_are_stored_in_order_before_they_are_pushed() -> None:
    repo = MemoryRepo()
    actor = await started(repo)
    conn, sock = await connect(actor, "b")
    for _ in range(5):
        seat = next(iter(actor.engine.to_act(actor.state)))
        action = actor.engine.legal_actions(actor.state, seat)[-1]
        version = await actor.submit(Act("ab"[seat], action, actor.table.version))
        assert repo.actions[-1][0] == version  # stored by the time the reply comes
    await asyncio.sleep(0.05)
    versions = [m["version"] for m in sock.sent if m["type"] == "state"]
    assert versions == sorted(versions)
    assert [a[0] for a in repo.actions] == list(range(4, 9))
    await actor.stop()


async def test_a_failed_write_changes_nothing_and_loses_nothing() -> None:
    repo = MemoryRepo()
    actor = await started(repo)
    seat = next(iter(actor.engine.to_act(actor.state)))
    action = actor.engine.legal_actions(actor.state, seat)[0]
    before = actor.engine.dump(actor.state), actor.table.version
    repo.fail_next = True
    with pytest.raises(AppError) as err:
        await actor.submit(Act("ab"[seat], action, actor.table.version))
    assert err.value.code == "storage_unavailable"  # (a disk full)
    assert (actor.engine.dump(actor.state), actor.table.version) == before
    # the same action goes through once storage is back
    await actor.submit(Act("ab"[seat], action, actor.table.version))
    assert actor.table.version == before[1] + 1 and len(repo.actions) == 1
    await actor.stop()


async def test_a_client_that_cannot_keep_up_is_dropped_not_waited_for() -> None:
    repo = MemoryRepo()
    actor = await started(repo)
    slow, slow_sock = await connect(actor, "a", queue=3)
    slow_sock.gate.clear()  # this socket never drains
    fast, fast_sock = await connect(actor, "b")
    for _ in range(10):
        seat = next(iter(actor.engine.to_act(actor.state)))
        action = actor.engine.legal_actions(actor.state, seat)[-1]
        await actor.submit(Act("ab"[seat], action, actor.table.version))
    await asyncio.sleep(0.05)
    assert slow.dropped and slow_sock.closed is not None and slow_sock.closed[0] == 4008
    assert fast_sock.sent[-1]["version"] == actor.table.version
    await actor.stop()


async def test_turn_timer_plays_for_a_seat_that_runs_out_of_time() -> None:
    repo = MemoryRepo()
    actor = await started(repo, {"turn_seconds": 1})
    first = next(iter(actor.engine.to_act(actor.state)))
    for _ in range(40):
        await asyncio.sleep(0.1)
        if repo.actions:
            break
    assert repo.actions, "the timer did not fire"
    seq, seat, action, source = repo.actions[0]
    assert (seat, source) == (first, "timeout")
    assert action in actor.engine.legal_actions(
        actor.engine.setup(2, {k: v for k, v in actor.table.options.items()
                               if k != "turn_seconds"}, 42), first)
    await actor.stop()


async def test_an_engine_bug_is_reported_and_other_tables_keep_going() -> None:
    repo = MemoryRepo()
    broken = await started(repo)
    healthy = await started(MemoryRepo())
    conn, sock = await connect(broken, "a")

    def explode(*_args: Any) -> Any:
        raise ZeroDivisionError("bug")

    wrecked = type("Broken", (type(broken.engine.engine),), {"apply": staticmethod(explode)})()
    broken.table = evolve(broken.table, engine=EngineAdapter(wrecked))  # type: ignore[arg-type]
    seat = next(iter(healthy.engine.to_act(healthy.state)))
    with pytest.raises(AppError) as err:
        await broken.submit(Act("ab"[seat], {"type": "discard", "card": 0}, broken.table.version))
    assert err.value.code == "internal_error"
    await asyncio.sleep(0.05)
    assert any(m["type"] == "error" and m["code"] == "internal_error" for m in sock.sent)
    action = healthy.engine.legal_actions(healthy.state, seat)[0]
    assert await healthy.submit(Act("ab"[seat], action, healthy.table.version)) == 4
    await broken.stop()
    await healthy.stop()


async def test_simultaneous_turn_timer_only_presses_the_seats_still_missing() -> None:
    repo = MemoryRepo()
    actor = await started(repo, {"turn_seconds": 1}, game="ajolocracia")
    engine = actor.engine
    turn = engine.turn_marker(actor.state)
    pick = engine.legal_actions(actor.state, 0)[0]
    await actor.submit(Act("a", pick, actor.table.version))
    for _ in range(40):
        await asyncio.sleep(0.1)
        if engine.turn_marker(actor.state) != turn:  # type: ignore[attr-defined]
            break
    assert engine.turn_marker(actor.state) != turn, "the timer did not complete the turn"
    assert [(seat, source) for _, seat, _, source in repo.actions[:2]] == [
        (0, "player"), (1, "timeout")]
    await actor.stop()


async def test_connect_sends_the_whole_history_redacted_for_that_seat() -> None:
    repo = MemoryRepo()
    actor = await started(repo)
    for _ in range(4):
        seat = next(iter(actor.engine.to_act(actor.state)))
        action = actor.engine.legal_actions(actor.state, seat)[-1]
        await actor.submit(Act("ab"[seat], action, actor.table.version))
    conn, sock = await connect(actor, "a")
    watcher, wsock = await connect(actor, None)
    await asyncio.sleep(0.05)
    mine = next(m for m in sock.sent if m["type"] == "state" and "history" in m)
    assert [h["version"] for h in mine["history"]] == [4, 5, 6, 7]
    theirs = next(m for m in wsock.sent if m["type"] == "state" and "history" in m)
    for entry in [*mine["history"], *theirs["history"]]:
        for event in entry["events"]:
            if event["type"] == "draw" and (event["seat"] == 0 or entry in theirs["history"]):
                assert set(event["card"]) == {"id"}  # own and spectators' draws stay hidden
    await actor.stop()
