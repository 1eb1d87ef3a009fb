"""The group writer's lone commit (PostgreSQL): an action arriving while the writer is idle is
committed in its caller's own task; the writer still runs one statement at a time, in order,
durable before ``append`` returns, and a caller cancelled while its statement is in flight
still has its action stored, once."""

from __future__ import annotations

import asyncio
from typing import Any

import asyncpg
import pytest

from app.db.repository import Repository, StaleOwner
from tests.db.test_writer import make_repo

pytestmark = pytest.mark.asyncio


@pytest.fixture
def pg_url(postgres_cluster) -> str:
    import secrets

    return postgres_cluster.new_database(f"t_{secrets.token_hex(6)}")


class Spy:
    """Wraps the writer's statement: which task ran each, how many ran at once, and a gate
    that holds a statement (before it is sent, or after it has committed) until opened."""

    def __init__(self, repo: Repository) -> None:
        self.writer = repo.writer
        self.real = self.writer._fetch_pg
        self.tasks: list[asyncio.Task[Any] | None] = []
        self.running = 0
        self.most = 0
        self.hold_before: asyncio.Event | None = None
        self.hold_after: asyncio.Event | None = None
        self.holds: dict[int, asyncio.Event] = {}  # the nth statement held before it is sent
        self.tables: list[Any] = []  # each statement's first parameter: a table id or a list
        self.entered = asyncio.Event()
        self.writer._fetch_pg = self.fetch  # type: ignore[method-assign]

    async def fetch(self, statement: str, *args: Any) -> None:
        index = len(self.tasks)
        self.tasks.append(asyncio.current_task())
        self.tables.append(args[0])
        self.running += 1
        self.most = max(self.most, self.running)
        try:
            self.entered.set()
            if self.hold_before is not None:
                await self.hold_before.wait()
            if index in self.holds:
                await self.holds[index].wait()
            await self.real(statement, *args)
            if self.hold_after is not None:
                await self.hold_after.wait()
        finally:
            self.running -= 1


async def _close(repo: Repository) -> None:
    await repo.close()
    await repo.sessions.kw["bind"].dispose()


async def test_a_lone_action_is_committed_in_its_callers_task(pg_url) -> None:
    repo = await make_repo(pg_url, 2)
    await repo.append_action("t0", 4, 0, {"type": "a"}, "player", None)  # opens the connection
    spy = Spy(repo)
    for seq in (5, 6):
        await repo.append_action("t0", seq, 0, {"type": "b", "n": seq}, "player", None)
    assert spy.tasks == [asyncio.current_task()] * 2
    assert [a.seq for a in await repo.actions("t0")] == [4, 5, 6]
    assert (await repo.table("t0")).version == 6
    # refused alone, as in a batch: the fence, and a taken sequence number
    for seq in (6, 8):
        with pytest.raises(StaleOwner):
            await repo.append_action("t0", seq, 0, {"type": "bad"}, "player", None)
    assert spy.tasks == [asyncio.current_task()] * 4
    assert [a.seq for a in await repo.actions("t0")] == [4, 5, 6]
    assert (await repo.table("t0")).version == 6
    # and the writer goes on alone after a refusal
    await repo.append_action("t0", 7, 0, {"type": "end"}, "player", {"score": 3})
    row = await repo.table("t0")
    assert (row.version, row.status, row.outcome) == (7, "finished", {"score": 3})
    assert repo.writer.actions == repo.writer.batches == 4  # the refused ones counted nowhere
    await _close(repo)


async def test_others_wait_for_a_lone_commit_then_go_in_one_batch(pg_url) -> None:
    repo = await make_repo(pg_url, 4)
    await repo.append_action("t0", 4, 0, {"type": "a"}, "player", None)
    spy = Spy(repo)
    spy.hold_before = asyncio.Event()
    alone = asyncio.create_task(repo.append_action("t0", 5, 0, {"type": "b"}, "player", None))
    await spy.entered.wait()
    others = [asyncio.create_task(repo.append_action(f"t{i}", 4, 0, {"type": "c"}, "player",
                                                     None)) for i in (1, 2, 3)]
    for _ in range(20):
        await asyncio.sleep(0)
    assert not alone.done() and not any(task.done() for task in others)
    assert spy.running == 1  # they wait: one statement at a time on the connection
    spy.hold_before.set()
    await asyncio.gather(alone, *others)
    assert spy.most == 1
    assert spy.tasks[0] is alone
    assert len(spy.tasks) == 2 and spy.tasks[1] not in (alone, *others)  # the writer's task
    for i in (1, 2, 3):
        assert [a.seq for a in await repo.actions(f"t{i}")] == [4]
    assert [a.seq for a in await repo.actions("t0")] == [4, 5]
    await _close(repo)


async def test_an_action_arriving_during_a_batch_waits_for_it(pg_url) -> None:
    repo = await make_repo(pg_url, 4)
    await repo.append_action("t0", 4, 0, {"type": "a"}, "player", None)
    spy = Spy(repo)
    spy.holds = {0: asyncio.Event(), 1: asyncio.Event()}
    alone = asyncio.create_task(repo.append_action("t0", 5, 0, {"type": "b"}, "player", None))
    await spy.entered.wait()
    batch = [asyncio.create_task(repo.append_action(f"t{i}", 4, 0, {"type": "c"}, "player",
                                                    None)) for i in (1, 2)]
    for _ in range(20):
        await asyncio.sleep(0)
    spy.holds[0].set()
    await alone
    while len(spy.tasks) < 2:  # the writer's task is storing the batch now (held)
        await asyncio.sleep(0)
    assert spy.tables[1] == ["t1", "t2"]
    late = asyncio.create_task(repo.append_action("t3", 4, 0, {"type": "d"}, "player", None))
    for _ in range(20):
        await asyncio.sleep(0)
    assert spy.running == 1 and not late.done()
    spy.holds[1].set()
    await asyncio.gather(*batch, late)
    assert spy.most == 1
    assert spy.tables == ["t0", ["t1", "t2"], "t3"]
    assert late not in spy.tasks  # queued behind the batch, not run alone beside it
    assert [a.seq for a in await repo.actions("t3")] == [4]
    await _close(repo)


async def test_an_action_queued_first_is_committed_first(pg_url) -> None:
    """Something queued and not yet taken by the writer's task (a cancelled caller's action
    given back to it, say): a lone action arriving meanwhile goes behind it, not alone."""
    from app.db.repository import now
    from app.db.writer import PendingAction

    repo = await make_repo(pg_url, 2)
    await repo.append_action("t0", 4, 0, {"type": "a"}, "player", None)
    spy = Spy(repo)
    queued = PendingAction("t1", 4, 0, {"type": "q"}, "player", None, now())
    repo.writer._put(queued)
    await repo.append_action("t0", 5, 0, {"type": "b"}, "player", None)
    await queued.done
    assert spy.tables == [["t1", "t0"]] or spy.tables == ["t1", "t0"]
    assert asyncio.current_task() not in spy.tasks
    await _close(repo)


async def test_a_caller_cancelled_in_flight_still_has_its_action_stored(pg_url) -> None:
    """The statement blocked in PostgreSQL (the table's row locked by another transaction),
    its caller cancelled: asyncpg cancels the statement, and the writer stores the action
    after the lock is gone, once."""
    repo = await make_repo(pg_url, 2)
    await repo.append_action("t0", 4, 0, {"type": "a"}, "player", None)
    spy = Spy(repo)
    dsn = pg_url.replace("postgresql+asyncpg://", "postgresql://")
    locker = await asyncpg.connect(dsn)
    lock = locker.transaction()
    await lock.start()
    await locker.execute("SELECT 1 FROM tables WHERE id = 't0' FOR UPDATE")
    caller = asyncio.create_task(repo.append_action("t0", 5, 1, {"type": "b"}, "player", None))
    await spy.entered.wait()
    assert spy.tasks == [caller]  # alone, in the caller's task
    await asyncio.sleep(0.2)  # the statement is at the server, waiting for the row
    caller.cancel()
    with pytest.raises(asyncio.CancelledError):
        await caller
    await asyncio.sleep(0.2)
    await lock.rollback()
    await locker.close()
    for _ in range(100):
        if (await repo.table("t0")).version == 5:
            break
        await asyncio.sleep(0.05)
    assert [(a.seq, a.seat, a.action) for a in await repo.actions("t0")] == [
        (4, 0, {"type": "a"}), (5, 1, {"type": "b"})]
    assert (await repo.table("t0")).version == 5
    # the connection is usable, and the next lone action goes alone again
    await repo.append_action("t0", 6, 0, {"type": "c"}, "player", None)
    assert spy.tasks[-1] is asyncio.current_task()
    assert [a.seq for a in await repo.actions("t0")] == [4, 5, 6]
    await _close(repo)


async def test_a_caller_cancelled_after_its_commit_is_stored_once(pg_url) -> None:
    """Cancelled after the statement committed but before its caller saw it: the writer's
    second try is refused by the fence; the action is there once, and nothing else moved."""
    repo = await make_repo(pg_url, 2)
    await repo.append_action("t0", 4, 0, {"type": "a"}, "player", None)
    spy = Spy(repo)
    spy.hold_after = asyncio.Event()
    caller = asyncio.create_task(repo.append_action("t0", 5, 1, {"type": "b"}, "player", None))
    await spy.entered.wait()
    for _ in range(100):  # committed: the spy holds it after the statement
        if (await repo.table("t0")).version == 5:
            break
        await asyncio.sleep(0.02)
    caller.cancel()
    with pytest.raises(asyncio.CancelledError):
        await caller
    spy.hold_after.set()
    for _ in range(100):
        if len(spy.tasks) == 2 and spy.running == 0:
            break
        await asyncio.sleep(0.02)
    assert len(spy.tasks) == 2 and spy.tasks[1] is not caller  # tried again by the writer
    assert [(a.seq, a.action) for a in await repo.actions("t0")] == [
        (4, {"type": "a"}), (5, {"type": "b"})]
    assert (await repo.table("t0")).version == 5
    await repo.append_action("t0", 6, 0, {"type": "c"}, "player", None)
    assert [a.seq for a in await repo.actions("t0")] == [4, 5, 6]
    await _close(repo)
