"""The REST side of the repository on a real SQLite database: a bearer token's player
remembered by one process (and forgotten the moment its name changes), new players and
tables' rows written in shared commits, a fenced write refused alone."""

from __future__ import annotations

import asyncio

import pytest

from app.db.models import GameTable
from app.db.repository import Repository, StaleOwner, now
from app.db.session import make_engine, make_sessionmaker, migrate

pytestmark = pytest.mark.asyncio


async def make_repo(tmp_path, cache: bool = True) -> Repository:
    url = f"sqlite+aiosqlite:///{tmp_path / 'r.db'}"
    await asyncio.to_thread(migrate, url)
    return Repository(make_sessionmaker(make_engine(url)), cache_identities=cache)


async def done(repo: Repository) -> None:
    await repo.close()
    await repo.engine.dispose()


def table(i: int) -> GameTable:
    return GameTable(id=f"t{i}", game="hanabi", seat_count=4, options={"a": 1}, private=False,
                     invite_token=f"inv{i}", host_id="p0", status="waiting", seed=7,
                     version=1, created_at=now())


async def test_a_token_is_remembered_and_a_rename_is_seen_at_once(tmp_path) -> None:
    repo = await make_repo(tmp_path)
    await repo.create_player("p1", "Ana", "tok-1")
    first = await repo.player_by_token("tok-1")
    assert first is not None and (first.id, first.name, first.bot) == ("p1", "Ana", False)
    assert await repo.player_by_token("tok-1") is first  # from memory
    assert await repo.player_by_token("nobody's") is None
    await repo.rename_player("p1", "Bea")
    again = await repo.player_by_token("tok-1")
    assert again is not None and again.name == "Bea"
    await done(repo)


async def test_a_look_up_that_read_before_a_rename_is_not_remembered(tmp_path) -> None:
    repo = await make_repo(tmp_path)
    player = await repo.create_player("p1", "Ana", "tok-1")
    cache = repo.identities
    assert cache is not None
    cache.by_hash.clear()
    started = cache.generation  # a look-up reads the row ("Ana")...
    await repo.rename_player("p1", "Bea")  # ...the name changes meanwhile...
    cache.put(player.token_hash, player, started)  # ...what it read is not kept
    assert cache.by_hash == {}
    seen = await repo.player_by_token("tok-1")
    assert seen is not None and seen.name == "Bea"
    await done(repo)


async def test_without_the_cache_every_look_up_reads_the_database(tmp_path) -> None:
    # a cluster's processes: a rename made by another process (another repository on the
    # same database here) is seen by the next call
    repo = await make_repo(tmp_path, cache=False)
    other = Repository(make_sessionmaker(repo.engine))
    await repo.create_player("p1", "Ana", "tok-1")
    assert (await repo.player_by_token("tok-1")).name == "Ana"
    await other.rename_player("p1", "Bea")
    assert (await repo.player_by_token("tok-1")).name == "Bea"
    await other.close()
    await done(repo)


async def test_the_cache_is_bounded(tmp_path) -> None:
    repo = await make_repo(tmp_path)
    assert repo.identities is not None
    repo.identities.limit = 10
    for i in range(25):
        await repo.create_player(f"p{i}", "N", f"tok-{i}")
    assert len(repo.identities.by_hash) <= 10
    assert (await repo.player_by_token("tok-0")).id == "p0"  # dropped, read again
    await done(repo)


async def test_players_and_tables_created_at_once_are_all_stored(tmp_path) -> None:
    repo = await make_repo(tmp_path)
    await asyncio.gather(*(repo.create_player(f"p{i}", f"N{i}", f"tok-{i}") for i in range(30)))
    assert repo.player_writer is not None
    stored = await repo.players_by_id([f"p{i}" for i in range(30)])
    assert sorted(stored) == sorted(f"p{i}" for i in range(30))
    await asyncio.gather(*(repo.create_table(table(i), host_seat=0) for i in range(20)))
    await asyncio.gather(*(repo.save_seats(f"t{i}", ["p0", f"p{i + 1}", None, "p29"], "p0", 3,
                                           epoch=0) for i in range(20)))
    row = await repo.table("t7")
    assert row is not None and row.version == 3 and row.options == {"a": 1}
    assert [(s.seat, s.player_id) for s in row.seats] == [(0, "p0"), (1, "p8"), (3, "p29")]
    await done(repo)


async def test_a_fenced_write_fails_alone_in_a_shared_commit(tmp_path) -> None:
    repo = await make_repo(tmp_path)
    await repo.create_player("p0", "Host", "tok-0")
    await asyncio.gather(*(repo.create_table(table(i), host_seat=0) for i in range(3)))
    results = await asyncio.gather(
        repo.set_status("t0", "playing", 2, epoch=0),
        repo.set_status("t1", "playing", 2, epoch=5),  # another process owns it now
        repo.save_seats("t2", ["p0", "nobody"], "p0", 2, epoch=0),  # no such player
        repo.set_status("t2", "playing", 3, epoch=0),
        return_exceptions=True)
    assert results[0] is None and results[3] is None
    assert isinstance(results[1], StaleOwner)
    assert isinstance(results[2], Exception)  # the foreign key: refused, nothing written
    assert (await repo.table("t0")).status == "playing"
    assert (await repo.table("t1")).status == "waiting"
    t2 = await repo.table("t2")
    assert t2.status == "playing" and [s.player_id for s in t2.seats] == ["p0"]
    await done(repo)
