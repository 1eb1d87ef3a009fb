"""The group-commit writer on real SQLite and PostgreSQL databases (PostgreSQL takes the
writer's own one-statement path through asyncpg): many tables' actions share commits,
each actor is released only once its action is durable, and one bad write (a stale owner's
or a taken sequence number) fails alone without touching the others."""

from __future__ import annotations

import asyncio

import pytest

from app.db.models import GameTable
from app.db.repository import Repository, StaleOwner, now
from app.db.session import make_engine, make_sessionmaker, migrate

pytestmark = pytest.mark.asyncio


async def make_repo(url: str, tables: int) -> Repository:
    await asyncio.to_thread(migrate, url)
    repo = Repository(make_sessionmaker(make_engine(url)))
    await repo.create_player("p", "Ana", "token")
    for i in range(tables):
        await repo.create_table(GameTable(
            id=f"t{i}", game="hanabi", seat_count=2, options={}, private=False,
            invite_token=f"inv{i}", host_id="p", status="playing", seed=1, version=3,
            created_at=now()), host_seat=0)
    return repo


async def test_many_tables_share_commits_and_every_action_is_stored(database_url) -> None:
    repo = await make_repo(database_url, 40)
    for seq in range(4, 9):
        await asyncio.gather(*(repo.append_action(f"t{i}", seq, i % 2, {"type": "x", "n": seq},
                                                  "player", None) for i in range(40)))
    assert repo.writer.actions == 200
    assert repo.writer.batches < 200 / 4  # grouped, not one commit per action
    for i in (0, 17, 39):
        stored = await repo.actions(f"t{i}")
        assert [a.seq for a in stored] == [4, 5, 6, 7, 8]
        assert stored[-1].action == {"type": "x", "n": 8} and stored[-1].at.tzinfo is not None
        assert (await repo.table(f"t{i}")).version == 8
    await repo.append_action("t3", 9, 0, {"type": "end"}, "player", {"scores": [1, 2]})
    row = await repo.table("t3")
    assert (row.status, row.outcome, row.version) == ("finished", {"scores": [1, 2]}, 9)
    assert row.finished_at is not None
    await repo.close()
    await repo.sessions.kw["bind"].dispose()


async def test_a_stale_or_duplicate_write_fails_alone(database_url) -> None:
    repo = await make_repo(database_url, 3)
    await repo.append_action("t0", 4, 0, {"type": "a"}, "player", None)
    results = await asyncio.gather(
        repo.append_action("t0", 4, 1, {"type": "again"}, "player", None),  # seq taken
        repo.append_action("t1", 4, 0, {"type": "fine"}, "player", None),
        repo.append_action("t2", 7, 0, {"type": "skips"}, "player", None),  # not the next one
        return_exceptions=True)
    assert isinstance(results[0], Exception)
    assert results[1] is None
    assert isinstance(results[2], Exception)  # the fence: version 3 is not 7 - 1
    assert await repo.actions("t2") == [] and (await repo.table("t2")).version == 3
    assert [a.action for a in await repo.actions("t0")] == [{"type": "a"}]
    assert [a.action for a in await repo.actions("t1")] == [{"type": "fine"}]
    await repo.close()
    await repo.sessions.kw["bind"].dispose()


async def test_a_batch_with_a_stale_epoch_stores_the_others_and_nothing_of_the_stale(
        database_url) -> None:
    """One batch: two actions of one table (the fence spans both), a finishing table, and a
    table written with an owner epoch it no longer holds: only the last is refused, and it
    leaves neither its action nor a version behind."""
    repo = await make_repo(database_url, 3)
    epoch = (await repo.take_over("t2")).owner_epoch
    await repo.take_over("t2")  # another owner since
    results = await asyncio.gather(
        repo.append_action("t0", 4, 0, {"type": "a"}, "player", None),
        repo.append_action("t0", 5, 1, {"type": "b"}, "player", None),
        repo.append_action("t1", 4, 0, {"type": "end"}, "timeout", {"by_seat": {0: 3}}),
        repo.append_action("t2", 4, 0, {"type": "late"}, "player", None, epoch),
        return_exceptions=True)
    assert results[:3] == [None, None, None]
    assert isinstance(results[3], StaleOwner)
    assert [(a.seq, a.action) for a in await repo.actions("t0")] == [
        (4, {"type": "a"}), (5, {"type": "b"})]
    assert (await repo.table("t0")).version == 5
    finished = await repo.table("t1")
    assert (finished.status, finished.version, finished.outcome) == (
        "finished", 4, {"by_seat": {"0": 3}})
    assert [a.source for a in await repo.actions("t1")] == ["timeout"]
    assert await repo.actions("t2") == [] and (await repo.table("t2")).version == 3
    # the writer goes on after a refused write
    await repo.append_action("t0", 6, 0, {"type": "c"}, "player", None)
    assert (await repo.table("t0")).version == 6
    await repo.close()
    await repo.sessions.kw["bind"].dispose()


async def test_actions_stored_one_at_a_time_are_fenced_alike(database_url) -> None:
    """Each write awaited before the next: every commit holds one action (PostgreSQL's
    one-action statement): stored, finished, or refused whole for a taken sequence number,
    a version it does not follow, or an owner epoch the table no longer has."""
    repo = await make_repo(database_url, 2)
    epoch = (await repo.take_over("t1")).owner_epoch
    batches = repo.writer.batches
    await repo.append_action("t0", 4, 0, {"type": "a", "n": 1}, "player", None)
    for seq in (4, 6):  # taken; skips 5
        with pytest.raises(StaleOwner):
            await repo.append_action("t0", seq, 1, {"type": "bad"}, "player", None)
    await repo.append_action("t1", 4, 0, {"type": "b"}, "player", None, epoch)
    await repo.take_over("t1")  # another owner since
    with pytest.raises(StaleOwner):
        await repo.append_action("t1", 5, 0, {"type": "late"}, "player", None, epoch)
    await repo.append_action("t0", 5, 1, {"type": "end"}, "timeout", {"by_seat": {0: 3}})
    assert repo.writer.batches - batches == 3  # one commit per stored action
    assert [(a.seq, a.seat, a.action, a.source) for a in await repo.actions("t0")] == [
        (4, 0, {"type": "a", "n": 1}, "player"), (5, 1, {"type": "end"}, "timeout")]
    finished = await repo.table("t0")
    assert (finished.status, finished.version, finished.outcome) == (
        "finished", 5, {"by_seat": {"0": 3}})
    assert finished.finished_at is not None
    assert [a.action for a in await repo.actions("t1")] == [{"type": "b"}]
    assert (await repo.table("t1")).version == 4
    await repo.close()
    await repo.sessions.kw["bind"].dispose()


async def test_the_writer_connects_again_after_its_connection_is_cut(database_url) -> None:
    """PostgreSQL gives the writer a connection of its own, kept between commits: when the
    server cuts it, the next append fails with a storage error (nothing stored, nobody told
    otherwise) and the one after lands on a fresh connection. SQLite takes the pool's."""
    from sqlalchemy import text

    repo = await make_repo(database_url, 1)
    await repo.append_action("t0", 4, 0, {"type": "a"}, "player", None)
    if database_url.startswith("postgresql"):
        async with repo.engine.connect() as other:  # the writer's backend, ended
            await other.execute(text(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE "
                "datname = current_database() AND pid <> pg_backend_pid()"))
            await other.commit()
        with pytest.raises(RuntimeError, match="was not stored"):
            await repo.append_action("t0", 5, 0, {"type": "lost"}, "player", None)
    await repo.append_action("t0", 5, 1, {"type": "b"}, "player", None)
    assert [(a.seq, a.action) for a in await repo.actions("t0")] == [
        (4, {"type": "a"}), (5, {"type": "b"})]
    assert (await repo.table("t0")).version == 5
    await repo.close()
    await repo.sessions.kw["bind"].dispose()
