"""The actions' group writer, one path on every database (SQLAlchemy Core): a random script
of batches (taken sequence numbers, skipped versions, stale owner epochs, take-overs,
finishing actions) is stored and refused exactly alike on SQLite and PostgreSQL, item by
item; and an action waiting for SQLite's one connection lands once it is free."""

from __future__ import annotations

import asyncio
import random
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from app.db.models import GameTable
from app.db.repository import Repository
from app.db.session import make_engine, make_sessionmaker, migrate
from app.db.writer import PendingAction

pytestmark = pytest.mark.asyncio

TABLES = 6
AT = datetime(2026, 5, 4, 3, 2, 1, 123456, tzinfo=UTC)


async def make_repo(url: str) -> Repository:
    await asyncio.to_thread(migrate, url)
    repo = Repository(make_sessionmaker(make_engine(url)))
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


async def dump(repo: Repository) -> dict[str, list[tuple[Any, ...]]]:
    """What the database holds of the tables and their logs, read back through the
    repository (the same types from either database)."""
    tables, actions = [], []
    for i in range(TABLES):
        t = await repo.table(f"t{i}")
        assert t is not None
        tables.append((t.id, t.version, t.status, t.outcome, t.finished_at, t.owner_epoch))
        actions += [(f"t{i}", a.seq, a.seat, a.action, a.source, a.at)
                    for a in await repo.actions(f"t{i}")]
    return {"tables": tables, "actions": actions}


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
async def test_the_writer_stores_and_refuses_alike_on_sqlite_and_postgresql(
        tmp_path, postgres_cluster, seed: int) -> None:
    steps = script(seed, 120)
    seen: dict[str, Any] = {}
    for kind, url in (("sqlite", f"sqlite+aiosqlite:///{tmp_path / 'w.db'}"),
                      ("postgres", postgres_cluster.new_database(f"w_{seed}_{id(steps)}"))):
        repo = await make_repo(url)
        results = await play(repo, steps)
        counts = (repo.writer.batches, repo.writer.actions)
        seen[kind] = (results, counts, await dump(repo))
        await done(repo)
    sqlite, postgres = seen["sqlite"], seen["postgres"]
    assert postgres[0] == sqlite[0]  # every caller's result
    assert postgres[1] == sqlite[1]  # commits made, actions in them (retries included)
    assert postgres[2] == sqlite[2]  # what each holds
    # and the script exercised what it is meant to: refusals, finishes, shared batches
    flat = [r for batch in sqlite[0] for r in batch]
    assert sum(r is None for r in flat) > len(flat) // 2
    assert any(r is not None and r.startswith("StaleOwner") for r in flat)
    assert any(row[2] == "finished" for row in sqlite[2]["tables"])
    assert any(len(b) > 1 and None in b and any(r is not None for r in b) for b in sqlite[0])


async def test_an_action_waits_for_a_held_connection_then_lands(tmp_path) -> None:
    repo = await make_repo(f"sqlite+aiosqlite:///{tmp_path / 'w.db'}")
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
