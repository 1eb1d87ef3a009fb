"""The group-commit writer on a real SQLite database: many tables' actions share commits,
each actor is released only once its action is durable, and one bad write (a stale owner's
or a taken sequence number) fails alone without touching the others."""

from __future__ import annotations

import asyncio

import pytest

from app.db.models import GameTable
from app.db.repository import Repository, now
from app.db.session import make_engine, make_sessionmaker, migrate

pytestmark = pytest.mark.asyncio


async def make_repo(tmp_path, tables: int) -> Repository:
    url = f"sqlite+aiosqlite:///{tmp_path / 'w.db'}"
    await asyncio.to_thread(migrate, url)
    repo = Repository(make_sessionmaker(make_engine(url)))
    await repo.create_player("p", "Ana", "token")
    for i in range(tables):
        await repo.create_table(GameTable(
            id=f"t{i}", game="hanabi", seat_count=2, options={}, private=False,
            invite_token=f"inv{i}", host_id="p", status="playing", seed=1, version=3,
            created_at=now()), host_seat=0)
    return repo


async def test_many_tables_share_commits_and_every_action_is_stored(tmp_path) -> None:
    repo = await make_repo(tmp_path, 40)
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


async def test_a_stale_or_duplicate_write_fails_alone(tmp_path) -> None:
    repo = await make_repo(tmp_path, 3)
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
