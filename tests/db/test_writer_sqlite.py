"""The actions' group writer on SQLite: a batch committed in one hop to aiosqlite's thread
(``_commit_raw``) stores exactly what SQLAlchemy's Core path (``_commit_core``) stores, and
refuses and fails exactly the same writes, item by item; without a greenlet when the pool's
connection is free."""

from __future__ import annotations

import asyncio
import random
import sqlite3
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from app.db.models import GameTable
from app.db.repository import Repository, now
from app.db.session import make_engine, make_sessionmaker, migrate
from app.db.writer import PendingAction

pytestmark = pytest.mark.asyncio

TABLES = 6
AT = datetime(2026, 5, 4, 3, 2, 1, 123456, tzinfo=UTC)


async def make_repo(path, raw: bool) -> Repository:
    path.mkdir()
    url = f"sqlite+aiosqlite:///{path / 'w.db'}"
    await asyncio.to_thread(migrate, url)
    repo = Repository(make_sessionmaker(make_engine(url)))
    assert repo.writer.raw is not None  # SQLite through aiosqlite: the one-hop path
    if not raw:
        repo.writer.raw = None  # SQLAlchemy Core, as before
    await repo.create_player("p", "Ana", "token")
    for i in range(TABLES):
        await repo.create_table(GameTable(
            id=f"t{i}", game="hanabi", seat_count=4, options={}, private=False,
            invite_token=f"inv{i}", host_id="p", status="playing", seed=1, version=3,
            created_at=AT), host_seat=0)
    return repo


async def done(repo: Repository) -> None:
    await repo.close()
    await repo.engine.dispose()


def dump(path) -> dict[str, list[tuple[Any, ...]]]:
    db = sqlite3.connect(path / "w.db")
    try:
        return {name: db.execute(f"SELECT * FROM {name} ORDER BY 1, 2").fetchall()
                for name in ("tables", "actions")}
    finally:
        db.close()


Spec = tuple[str, int, int, dict[str, Any], str, dict[Any, Any] | None, datetime, int]


def script(seed: int, rounds: int) -> list[list[Spec] | tuple[str, str]]:
    """Batches of actions (and take-overs between them), random but the same for both paths:
    mostly each table's next action (several of one table in a batch, finishing ones with
    their outcome), with taken sequence numbers, skipped versions, stale owner epochs and
    actions no JSON column could hold mixed in. The model follows what a correct writer
    does, so most writes are accepted and the refused ones are refused for one reason."""
    rng = random.Random(seed)
    version = [3] * TABLES
    epoch = [0] * TABLES
    steps: list[list[Spec] | tuple[str, str]] = []
    tick = 0
    for _ in range(rounds):
        if rng.random() < 0.1:
            t = rng.randrange(TABLES)
            epoch[t] += 1  # another owner took the table: writes with the old epoch refused
            steps.append(("take_over", f"t{t}"))
        batch: list[Spec] = []
        planned = list(version)  # versions the batch's accepted writes would reach
        for _ in range(rng.choice((1, 1, 2, 3, 5, 8))):
            t = rng.randrange(TABLES)
            kind = rng.random()
            seq, ep = planned[t] + 1, epoch[t]
            if kind < 0.06:
                seq = rng.randint(1, max(1, version[t]))  # taken (or never the next)
            elif kind < 0.12:
                seq = planned[t] + rng.randint(2, 4)  # skips a version
            elif kind < 0.18:
                ep = epoch[t] - 1  # a stale owner's
            elif kind < 0.20:
                ep = epoch[t] + 1  # an epoch the table never had
            outcome = None
            if rng.random() < 0.12:
                outcome = rng.choice(({"scores": [rng.randint(0, 25), 3]},
                                      {"by_seat": {0: 3, 1: None}},  # keys made strings
                                      {"winner": "Ána 😀", "why": None}))
            action = {"type": rng.choice(("play", "clue", "discard")), "card": rng.randint(0, 4),
                      "n": [1, 2.5, None, "ñ"][: rng.randint(0, 4)]}
            tick += 1
            batch.append((f"t{t}", seq, rng.randrange(4), action,
                          rng.choice(("player", "timeout")), outcome,
                          AT + timedelta(microseconds=tick * 1013), ep))
            if seq == planned[t] + 1 and ep == epoch[t]:
                planned[t] = seq
        steps.append(batch)
        # what was stored depends on the writer (a refused write in a shared batch takes
        # only itself out, but a later write of its table then skips): follow the versions
        # a correct writer reaches, as the differential compares them anyway
        for tid, seq, _, _, _, _, _, ep in batch:
            t = int(tid[1:])
            if seq == version[t] + 1 and ep == epoch[t]:
                version[t] = seq
    return steps


async def play(repo: Repository, steps: list[list[Spec] | tuple[str, str]]
               ) -> list[list[str | None]]:
    """Each batch handed to the writer's ``_store`` as one batch; each caller's result."""
    results = []
    for step in steps:
        if isinstance(step, tuple):
            await repo.take_over(step[1])
            continue
        batch = [PendingAction(*spec[:7], epoch=spec[7]) for spec in step]
        await repo.writer._store(batch)
        outcome: list[str | None] = []
        for item in batch:
            assert item.done.done()
            exc = item.done.exception()
            outcome.append(None if exc is None else f"{type(exc).__name__}: {exc}")
        results.append(outcome)
    return results


@pytest.mark.parametrize("seed", [1, 2, 3])
async def test_the_one_hop_writer_stores_and_refuses_exactly_what_sqlalchemy_does(
        tmp_path, seed: int) -> None:
    steps = script(seed, 120)
    seen: dict[str, Any] = {}
    for raw in (False, True):
        path = tmp_path / ("raw" if raw else "core")
        repo = await make_repo(path, raw)
        results = await play(repo, steps)
        counts = (repo.writer.batches, repo.writer.actions)
        await done(repo)
        seen[path.name] = (results, counts, dump(path))
    core, raw_ = seen["core"], seen["raw"]
    assert raw_[0] == core[0]  # every caller's result
    assert raw_[1] == core[1]  # commits made, actions in them (retries included)
    assert raw_[2] == core[2]  # the rows, byte for byte as SQLite holds them
    # and the script exercised what it is meant to: refusals, finishes, shared batches
    flat = [r for batch in core[0] for r in batch]
    assert sum(r is None for r in flat) > len(flat) // 2
    assert any(r is not None and r.startswith("StaleOwner") for r in flat)
    status = [c.name for c in GameTable.__table__.columns].index("status")
    assert any(row[status] == "finished" for row in core[2]["tables"])
    assert any(len(b) > 1 and None in b and any(r is not None for r in b) for b in core[0])


async def test_an_action_batch_on_the_free_connection_is_one_hop_without_a_greenlet(
        tmp_path, monkeypatch) -> None:
    import aiosqlite

    from app.db import batching

    repo = await make_repo(tmp_path / "r", raw=True)
    hops, spawned = [0], [0]
    real_execute, real_spawn = aiosqlite.Connection._execute, batching.greenlet_spawn

    async def execute(self, fn, *args, **kwargs):  # noqa: ANN001, ANN202
        hops[0] += 1
        return await real_execute(self, fn, *args, **kwargs)

    async def spawn(fn, *args, **kwargs):  # noqa: ANN001, ANN202
        spawned[0] += 1
        return await real_spawn(fn, *args, **kwargs)
    monkeypatch.setattr(aiosqlite.Connection, "_execute", execute)
    monkeypatch.setattr(batching, "greenlet_spawn", spawn)
    batch = [PendingAction(f"t{i}", 4, 0, {"type": "x"}, "player",
                           {"s": 1} if i == 0 else None, now()) for i in range(TABLES)]
    batch.append(PendingAction("t1", 5, 1, {"type": "y"}, "player", None, now()))
    await repo.writer._store(batch)
    assert [item.done.exception() for item in batch] == [None] * len(batch)
    assert (hops[0], spawned[0]) == (1, 0)  # inserts, fence and commit: one trip
    hops[0] = 0
    await repo.append_action("t2", 5, 0, {"type": "z"}, "player", None)
    assert (hops[0], spawned[0]) == (1, 0)
    monkeypatch.undo()
    assert repo.engine.sync_engine.pool.checkedout() == 0
    assert [a.seq for a in await repo.actions("t1")] == [4, 5]
    t0 = await repo.table("t0")
    assert (t0.status, t0.outcome, t0.version) == ("finished", {"s": 1}, 4)
    await done(repo)


async def test_an_action_waits_for_a_held_connection_then_lands(tmp_path) -> None:
    repo = await make_repo(tmp_path / "r", raw=True)
    async with repo.engine.connect() as held:  # the pool's one connection, in use
        await held.exec_driver_sql("SELECT 1")
        pending = asyncio.ensure_future(
            repo.append_action("t0", 4, 0, {"type": "x"}, "player", None))
        await asyncio.sleep(0.05)
        assert not pending.done()  # waiting for the connection
    await pending
    assert [a.seq for a in await repo.actions("t0")] == [4]
    assert repo.engine.sync_engine.pool.checkedout() == 0
    await done(repo)
