"""The table actor in-process: ordering, storage before push, slow clients, turn timers,
and a broken engine that must not take other tables down."""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, datetime
from types import SimpleNamespace
from typing import Any

import pytest

from app.errors import AppError
from app.games import ENGINES
from app.tables.actor import Act, Connect, Join, Start, TableActor, TableInfo
from app.tables.connections import Connection

pytestmark = pytest.mark.asyncio


class MemoryRepo:
    """Stands in for the database; ``fail_next`` makes the next action write fail."""

    def __init__(self) -> None:
        self.actions: list[tuple[int, int, dict, str]] = []
        self.fail_next = False
        self.pushed_before_store: list[int] = []
        self.chat: list[dict[str, Any]] = []
        self.outcome: Any = None
        self.deleted = False

    async def save_seats(self, *args: Any, **kwargs: Any) -> None:
        return None

    async def create_bot(self, name: str) -> Any:
        self.bots = getattr(self, "bots", 0) + 1
        return SimpleNamespace(id=f"bot{self.bots}", name=name, bot=True)

    async def set_status(self, *args: Any, **kwargs: Any) -> None:
        return None

    async def append_action(self, table_id: str, seq: int, seat: int, action: dict,
                            source: str, outcome: Any, epoch: int = 0) -> None:
        await asyncio.sleep(0)
        if self.fail_next:
            self.fail_next = False
            raise OSError("disk full")
        self.actions.append((seq, seat, action, source))
        self.outcome = outcome

    def queue_chat_line(self, table_id: str, seq: int, *, at: Any, **line: Any) -> Any:
        self.chat.append(line)
        done = asyncio.get_running_loop().create_future()
        done.set_result(None)
        return done

    async def delete_table(self, *args: Any, **kwargs: Any) -> None:
        self.deleted = True


class Recorder:
    """A fake socket: records what the writer sends."""

    def __init__(self) -> None:
        self.sent: list[dict] = []
        self.closed: tuple[int, str] | None = None
        self.gate = asyncio.Event()
        self.gate.set()

    async def send_text(self, text: str) -> None:
        await self.gate.wait()
        self.sent.append(json.loads(text))

    async def close(self, code: int, reason: str) -> None:
        self.closed = (code, reason)


def make_actor(repo: MemoryRepo, options: dict | None = None, game: str = "hanabi") -> TableActor:
    engine = ENGINES[game]
    opts = {o.name: o.default for o in engine.options} | {"turn_seconds": 0} | (options or {})
    info = TableInfo(id="t1", game=game, seat_count=2, options=opts, private=False,
                     invite_token="inv", host_id="a", status="waiting", seed=42, version=1,
                     created_at=datetime.now(UTC), seats=["a", None], names={"a": "Ana"})
    actor = TableActor(info, engine, repo)  # type: ignore[arg-type]
    actor.start()
    return actor


async def connect(actor: TableActor, player: str | None, queue: int = 64):
    sock = Recorder()
    conn = Connection(player, sock.send_text, sock.close, queue)
    writer = asyncio.get_running_loop().create_task(conn.writer())
    await actor.submit(Connect(conn))
    return conn, sock, writer


async def started(repo: MemoryRepo, options: dict | None = None) -> TableActor:
    actor = make_actor(repo, options)
    await actor.submit(Join("b", "Beto"))
    await actor.submit(Start("a"))
    return actor


async def test_actions_are_stored_in_order_before_they_are_pushed() -> None:
    repo = MemoryRepo()
    actor = await started(repo)
    conn, sock, _ = await connect(actor, "b")
    for _ in range(5):
        seat = next(iter(actor.engine.to_act(actor.state)))
        action = actor.engine.legal_actions(actor.state, seat)[-1]
        version = await actor.submit(Act("ab"[seat], action, actor.info.version))
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
    before = actor.engine.dump(actor.state), actor.info.version
    repo.fail_next = True
    with pytest.raises(AppError) as err:
        await actor.submit(Act("ab"[seat], action, actor.info.version))
    assert err.value.code == "storage_error"
    assert (actor.engine.dump(actor.state), actor.info.version) == before
    # the same action goes through once storage is back
    await actor.submit(Act("ab"[seat], action, actor.info.version))
    assert actor.info.version == before[1] + 1 and len(repo.actions) == 1
    await actor.stop()


async def test_a_client_that_cannot_keep_up_is_dropped_not_waited_for() -> None:
    repo = MemoryRepo()
    actor = await started(repo)
    slow, slow_sock, _ = await connect(actor, "a", queue=3)
    slow_sock.gate.clear()  # this socket never drains
    fast, fast_sock, _ = await connect(actor, "b")
    for _ in range(10):
        seat = next(iter(actor.engine.to_act(actor.state)))
        action = actor.engine.legal_actions(actor.state, seat)[-1]
        await actor.submit(Act("ab"[seat], action, actor.info.version))
    await asyncio.sleep(0.05)
    assert slow.dropped and slow_sock.closed is not None and slow_sock.closed[0] == 4008
    assert fast_sock.sent[-1]["version"] == actor.info.version
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
        actor.engine.setup(2, {k: v for k, v in actor.info.options.items()
                               if k != "turn_seconds"}, 42), first)
    await actor.stop()


async def test_an_engine_bug_is_reported_and_other_tables_keep_going() -> None:
    repo = MemoryRepo()
    broken = await started(repo)
    healthy = await started(MemoryRepo())
    conn, sock, _ = await connect(broken, "a")

    def explode(*_args: Any) -> Any:
        raise ZeroDivisionError("bug")

    broken.engine = type("Broken", (), {"apply": staticmethod(explode),
                                        "to_act": broken.engine.to_act})()  # type: ignore[assignment]
    seat = next(iter(healthy.engine.to_act(healthy.state)))
    with pytest.raises(AppError) as err:
        await broken.submit(Act("ab"[seat], {"type": "discard", "card": 0}, broken.info.version))
    assert err.value.code == "internal_error"
    await asyncio.sleep(0.05)
    assert any(m["type"] == "error" and m["code"] == "internal_error" for m in sock.sent)
    action = healthy.engine.legal_actions(healthy.state, seat)[0]
    assert await healthy.submit(Act("ab"[seat], action, healthy.info.version)) == 4
    await broken.stop()
    await healthy.stop()


async def test_simultaneous_turn_timer_only_presses_the_seats_still_missing() -> None:
    repo = MemoryRepo()
    actor = make_actor(repo, {"turn_seconds": 1}, game="ajolocracia")
    await actor.submit(Join("b", "Beto"))
    await actor.submit(Start("a"))
    engine = actor.engine
    turn = engine.turn_marker(actor.state)  # type: ignore[attr-defined]
    pick = engine.legal_actions(actor.state, 0)[0]
    await actor.submit(Act("a", pick, actor.info.version))
    for _ in range(40):
        await asyncio.sleep(0.1)
        if engine.turn_marker(actor.state) != turn:  # type: ignore[attr-defined]
            break
    assert engine.turn_marker(actor.state) != turn, "the timer did not complete the turn"  # type: ignore[attr-defined]
    assert [(seat, source) for _, seat, _, source in repo.actions[:2]] == [
        (0, "player"), (1, "timeout")]
    await actor.stop()


async def test_connect_sends_the_whole_history_redacted_for_that_seat() -> None:
    repo = MemoryRepo()
    actor = await started(repo)
    for _ in range(4):
        seat = next(iter(actor.engine.to_act(actor.state)))
        action = actor.engine.legal_actions(actor.state, seat)[-1]
        await actor.submit(Act("ab"[seat], action, actor.info.version))
    conn, sock, _ = await connect(actor, "a")
    watcher, wsock, _ = await connect(actor, None)
    await asyncio.sleep(0.05)
    mine = next(m for m in sock.sent if m["type"] == "state" and "history" in m)
    assert [h["version"] for h in mine["history"]] == [4, 5, 6, 7]
    theirs = next(m for m in wsock.sent if m["type"] == "state" and "history" in m)
    for entry in [*mine["history"], *theirs["history"]]:
        for event in entry["events"]:
            if event["type"] == "draw" and (event["seat"] == 0 or entry in theirs["history"]):
                assert set(event["card"]) == {"id"}  # own and spectators' draws stay hidden
    await actor.stop()
