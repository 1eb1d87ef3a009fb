"""The actor's general mechanisms for games beyond plain turns, on a toy engine:

- timed windows (an engine opens one; several seats may answer; the actor keeps the clock,
  closes the window at its deadline as a stored SYSTEM_SEAT action, refuses late answers,
  and a restart replays the close from the log);
- ephemeral updates (checked by the engine, relayed by visibility, rate-limited, not stored);
- chat closed by the engine to some seats.

Time is a fake clock the tests move by hand: nothing here waits for a deadline, except one
test that checks the real timer is wired (it polls, it asserts no duration).
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, replace
from typing import Any

import pytest

from app.errors import AppError
from app.games.base import (
    CLOSE_WINDOW,
    SYSTEM_SEAT,
    BaseEngine,
    Event,
    IllegalAction,
    Outcome,
    Window,
)
from app.tables.actor import TableActor
from app.tables.connections import Connection
from app.tables.core.buckets import LIVE_BURST
from app.tables.core.commands import Act, Chat, Ephemeral, Wake
from app.tables.engine import apply_any
from tests.tables.support import FakeClock, MemoryRepo, Recorder
from tests.tables.support import started as started_game


@dataclass(frozen=True)
class Toy:
    """Seat 0 draws; seats 1 and 2 may knock within a window; seat 0 then finishes."""

    phase: str = "draw"  # draw | window | finish | over
    turn: int = 0
    answered: tuple[int, ...] = ()
    knockers: tuple[int, ...] = ()
    closed_by_clock: int = 0


class ToyEngine(BaseEngine):
    id = "toy"
    name = "Toy"
    min_players = 3
    max_players = 3
    simultaneous = True
    SECONDS = 5.0

    def setup(self, seats: int, options: Any, seed: int) -> Toy:
        return Toy()

    def to_act(self, state: Toy) -> set[int]:
        if state.phase == "window":
            return {1, 2} - set(state.answered)
        return {0} if state.phase in ("draw", "finish") else set()

    def legal_actions(self, state: Toy, seat: int) -> list[dict]:
        if seat not in self.to_act(state):
            return []
        if state.phase == "window":
            return [{"type": "knock"}, {"type": "no_knock"}]
        return [{"type": state.phase}]

    def window(self, state: Toy) -> Window | None:
        if state.phase != "window":
            return None
        return Window(f"knock-{state.turn}", self.SECONDS,
                      frozenset({1, 2} - set(state.answered)))

    def close_window(self, state: Toy, window_id: str) -> tuple[Toy, list[Event]]:
        if state.phase != "window" or window_id != f"knock-{state.turn}":
            raise IllegalAction("window_closed", "no such window")
        return (replace(state, phase="finish", closed_by_clock=state.closed_by_clock + 1),
                [Event("window_closed", {"knockers": list(state.knockers)})])

    def apply(self, state: Toy, seat: int, action: dict) -> tuple[Toy, list[Event]]:
        kind = action.get("type") if isinstance(action, dict) else None
        if state.phase != "window" and kind in ("knock", "no_knock"):
            raise IllegalAction("knock_closed", "the knock window has closed")
        if seat not in self.to_act(state) or action not in self.legal_actions(state, seat):
            raise IllegalAction("illegal", "not now")
        if kind == "draw":
            return replace(state, phase="window", answered=(), knockers=()), [Event("drew")]
        if kind == "finish":
            nxt = "over" if state.turn == 1 else "draw"
            return replace(state, phase=nxt, turn=state.turn + 1), [Event("finished")]
        answered = (*state.answered, seat)
        knockers = (*state.knockers, seat) if kind == "knock" else state.knockers
        phase = "finish" if set(answered) == {1, 2} else "window"
        return replace(state, phase=phase, answered=answered, knockers=knockers), [
            Event(kind, {"seat": seat})]

    def view(self, state: Toy, seat: int | None) -> dict:
        return {"phase": state.phase, "turn": state.turn}

    def outcome(self, state: Toy) -> Outcome | None:
        return Outcome((0, 0, 0), ((0, 1, 2),), (0, 1, 2)) if state.phase == "over" else None

    def dump(self, state: Toy) -> dict:
        return {"seats": 3, **state.__dict__}

    def load(self, data: dict) -> Toy:
        return Toy(**{k: (tuple(v) if isinstance(v, list) else v)
                      for k, v in data.items() if k != "seats"})

    # live updates: a seat may move its pointer; seat 2 never sees seat 1's
    def ephemeral(self, state: Toy, seat: int, data: dict) -> Event:
        if not isinstance(data.get("x"), int):
            raise IllegalAction("bad_update", "x must be an integer")
        hidden = frozenset({0, 1}) if seat == 1 else None
        return Event("pointer", {"x": data["x"]}, visible_to=hidden)

    def chat_allowed(self, state: Toy, seat: int) -> bool:
        return not (state.phase == "window" and seat == 0)


async def started_toy(repo: MemoryRepo, clock: Any = None) -> TableActor:
    actor, _, _ = await started_game("toy", 3, clock=clock or time.monotonic,
                                     engine=ToyEngine(), repo=repo, seed=1)
    return actor


async def connect(actor: TableActor, player: str | None) -> tuple[Connection, Recorder]:
    sock = Recorder()
    conn = Connection(player, sock.send_text, sock.close, 64)
    asyncio.get_running_loop().create_task(conn.writer())
    await actor.connect(conn)
    return conn, sock


async def act(actor: TableActor, player: str, kind: str) -> int:
    return await actor.submit(Act(player, {"type": kind}, actor.table.version))


@pytest.mark.asyncio
async def test_the_deadline_closes_the_window_as_a_stored_system_action() -> None:
    repo, clock = MemoryRepo(), FakeClock()
    actor = await started_toy(repo, clock)
    conn, sock = await connect(actor, "b")
    await act(actor, "a", "draw")
    message = actor.state_message(1)
    assert message["window"] == {"id": "knock-0", "seconds": 5.0, "seats": [1, 2],
                                 "remaining": 5.0}
    await act(actor, "b", "knock")
    assert actor.state_message(1)["window"]["seats"] == [2]  # same window, same clock
    clock.now += 2
    await actor.submit(Wake("window:knock-0"))  # woken too early: nothing happens
    assert actor.state.phase == "window" and actor.state_message(1)["window"]["remaining"] == 3.0
    clock.now += 3
    await actor.submit(Wake("window:knock-0"))
    assert actor.state.phase == "finish" and actor.state_message(1)["window"] is None
    assert repo.actions[-1][1:] == (SYSTEM_SEAT, {"type": CLOSE_WINDOW, "window": "knock-0"},
                                    "window")
    await asyncio.sleep(0.02)
    assert any(m["type"] == "state" and any(e["type"] == "window_closed" for e in m["events"])
               for m in sock.sent)
    await actor.stop()


@pytest.mark.asyncio
async def test_an_answer_after_the_deadline_is_refused_clearly_and_changes_nothing() -> None:
    repo, clock = MemoryRepo(), FakeClock()
    actor = await started_toy(repo, clock)
    await act(actor, "a", "draw")
    version = actor.table.version
    clock.now += 5.01  # the deadline passed, the timer has not been handled yet
    with pytest.raises(AppError) as err:
        await actor.submit(Act("c", {"type": "knock"}, version))
    assert err.value.code == "knock_closed" and err.value.status == 422
    assert [a[1] for a in repo.actions] == [0, SYSTEM_SEAT]  # the close, not the knock
    assert actor.state.knockers == () and actor.state.phase == "finish"
    # the timer that was already on its way finds nothing left to close
    await actor.submit(Wake("window:knock-0"))
    assert len(repo.actions) == 2
    await actor.stop()


@pytest.mark.asyncio
async def test_everyone_answering_closes_the_window_early_without_the_clock() -> None:
    repo, clock = MemoryRepo(), FakeClock()
    actor = await started_toy(repo, clock)
    await act(actor, "a", "draw")
    await act(actor, "b", "no_knock")
    await act(actor, "c", "knock")
    assert actor.state.phase == "finish" and actor.state.closed_by_clock == 0
    assert actor.table.window is None and actor.state_message(0)["window"] is None
    assert not [k for k in actor._timers if k.startswith("window")]
    clock.now += 60
    await actor.submit(Wake("window:knock-0"))  # a stale wake-up changes nothing
    assert SYSTEM_SEAT not in [a[1] for a in repo.actions]
    await actor.stop()


@pytest.mark.asyncio
async def test_a_new_window_gets_a_new_clock_and_the_log_replays_closes() -> None:
    repo, clock = MemoryRepo(), FakeClock()
    actor = await started_toy(repo, clock)
    await act(actor, "a", "draw")
    clock.now += 6
    await actor.submit(Wake("window:knock-0"))
    await act(actor, "a", "finish")
    await act(actor, "a", "draw")  # the second window: five fresh seconds
    assert actor.state_message(2)["window"] == {"id": "knock-1", "seconds": 5.0,
                                                "seats": [1, 2], "remaining": 5.0}
    # a restart rebuilds the same state from the log, system closes included
    engine = ToyEngine()
    rebuilt = engine.setup(3, {}, 1)
    for _, seat, action, _ in repo.actions:
        rebuilt, _ = apply_any(engine, rebuilt, seat, action)
    assert rebuilt == actor.state
    with pytest.raises(IllegalAction):
        apply_any(engine, rebuilt, SYSTEM_SEAT, {"type": "draw"})
    with pytest.raises(IllegalAction):
        apply_any(engine, rebuilt, SYSTEM_SEAT, {"type": CLOSE_WINDOW, "window": "knock-0"})
    await actor.stop()


@pytest.mark.asyncio
async def test_the_real_timer_closes_a_window_by_itself() -> None:
    repo = MemoryRepo()
    ToyEngine.SECONDS = 0.2
    try:
        actor = await started_toy(repo)
        await act(actor, "a", "draw")
        for _ in range(100):
            if actor.state.phase == "finish":
                break
            await asyncio.sleep(0.02)
        assert actor.state.closed_by_clock == 1
        assert repo.actions[-1][3] == "window"
        await actor.stop()
    finally:
        ToyEngine.SECONDS = 5.0


@pytest.mark.asyncio
async def test_ephemeral_updates_are_relayed_by_visibility_rate_limited_and_not_stored() -> None:
    repo, clock = MemoryRepo(), FakeClock()
    actor = await started_toy(repo, clock)
    conns = {p: await connect(actor, p) for p in "abc"}
    watcher = await connect(actor, None)
    stored = len(repo.actions)
    await actor.submit(Ephemeral(conns["b"][0].id, {"x": 3}))
    await actor.submit(Ephemeral(conns["a"][0].id, {"x": 4}))
    with pytest.raises(AppError) as err:
        await actor.submit(Ephemeral(conns["a"][0].id, {"x": "left"}))
    assert err.value.code == "bad_update"
    with pytest.raises(AppError):
        await actor.submit(Ephemeral(watcher[0].id, {"x": 1}))  # spectators only watch
    await asyncio.sleep(0.02)

    def pointers(sock: Recorder) -> list[tuple[int, int]]:
        return [(m["seat"], m["event"]["x"]) for m in sock.sent if m["type"] == "ephemeral"]

    assert pointers(conns["a"][1]) == [(1, 3)]
    assert pointers(conns["b"][1]) == [(0, 4)]  # not its own back
    assert pointers(conns["c"][1]) == [(0, 4)]  # seat 1's pointer is hidden from seat 2
    assert pointers(watcher[1]) == [(0, 4)]
    assert len(repo.actions) == stored
    # a flood: a burst gets through, the rest is dropped until the bucket refills
    for i in range(100):
        await actor.submit(Ephemeral(conns["a"][0].id, {"x": i}))
    await asyncio.sleep(0.02)
    relayed = len(pointers(conns["b"][1]))
    # seat 0 had spent 2 of its burst (one relayed, one refused: refusals count too)
    assert relayed == 1 + LIVE_BURST - 2
    clock.now += 1
    await actor.submit(Ephemeral(conns["a"][0].id, {"x": 999}))
    await asyncio.sleep(0.02)
    assert pointers(conns["b"][1])[-1] == (0, 999)
    await actor.stop()


@pytest.mark.asyncio
async def test_the_engine_can_close_the_chat_to_a_seat() -> None:
    repo, clock = MemoryRepo(), FakeClock()
    actor = await started_toy(repo, clock)
    conn_a, _ = await connect(actor, "a")
    conn_b, _ = await connect(actor, "b")
    await act(actor, "a", "draw")
    assert actor.state_message(0)["chat_allowed"] is False
    assert actor.state_message(1)["chat_allowed"] is True
    with pytest.raises(AppError) as err:
        await actor.submit(Chat(conn_a.id, "knock, please"))
    assert err.value.code == "chat_closed"
    await actor.submit(Chat(conn_b.id, "thinking"))
    assert actor.chat[-1]["text"] == "thinking"
    await actor.stop()


def test_conformance_playouts_close_windows_like_the_actor() -> None:
    from tests.games.conformance import playout, replay

    closed = 0
    for seed in range(20):
        final, log = playout(ToyEngine(), 3, {}, seed)
        assert replay(ToyEngine(), 3, {}, seed, log) == final
        closed += sum(1 for seat, _ in log if seat == SYSTEM_SEAT)
    assert closed > 0
