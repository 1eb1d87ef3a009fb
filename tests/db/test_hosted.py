"""The number of waiting or playing tables each player hosts, kept by a single process as its
tables' writes commit (app/db/repository.py ``HostedTables``): at every step it is what
going through every live table finds and what the database counts, across creating, a host
leaving (the seat and the hosting pass on), starting, deleting, expiring, closing, a game's
last action, a refused write, and a restart."""

from __future__ import annotations

import pytest

from app.db.repository import HostedTables, Repository, StaleOwner
from app.tables.core.commands import Delete, Join, Leave, Start
from app.tables.core.state import TableStatus
from app.tables.registry import LIVE, Registry
from tests.tables.support import close_registry, open_registry

PLAYERS = ("p0", "p1", "p2")


async def counts(repo: Repository, registry: Registry) -> dict[str, int]:
    """Each player's count three ways (kept, every live table gone through, the database),
    which must agree; answered once checked."""
    kept = {p: await registry.hosted_count(p) for p in PLAYERS}
    scanned = {p: sum(1 for a in registry.actors.values()
                      if a.table.host_id == p and a.table.status in LIVE) for p in PLAYERS}
    stored = {p: await repo.hosted_count(p) for p in PLAYERS}
    assert kept == scanned == stored
    return kept


@pytest.mark.asyncio
async def test_the_count_follows_every_change_of_host_and_status(tmp_path) -> None:
    repo, registry = await open_registry(tmp_path)
    assert repo.hosted is not None  # one process: counted as it goes
    for p in PLAYERS:
        await repo.create_player(p, p.upper(), f"tok-{p}")
    t = [await registry.create("p0", "P0", "hanabi", 2, {}, False) for _ in range(3)]
    mine = await registry.create("p1", "P1", "hanabi", 2, {}, False)
    assert await counts(repo, registry) == {"p0": 3, "p1": 1, "p2": 0}

    # the host leaves a table someone else sits at: the hosting passes to them
    await t[0].submit(Join("p2", "P2"))
    await t[0].submit(Leave("p0"))
    assert t[0].table.host_id == "p2"
    assert await counts(repo, registry) == {"p0": 2, "p1": 1, "p2": 1}
    # a join and a leave that change no host change nothing
    await mine.submit(Join("p0", "P0"))
    await mine.submit(Leave("p0"))
    assert await counts(repo, registry) == {"p0": 2, "p1": 1, "p2": 1}

    # started: still hosted; deleted: no longer
    await t[1].submit(Join("p1", "P1"))
    await t[1].submit(Start("p0"))
    assert t[1].table.status is TableStatus.PLAYING
    await t[2].submit(Delete("p0"))
    assert await counts(repo, registry) == {"p0": 1, "p1": 1, "p2": 1}

    # the last one to leave a waiting table deletes it
    await t[0].submit(Leave("p2"))
    assert t[0].table.status is TableStatus.DELETED
    assert await counts(repo, registry) == {"p0": 1, "p1": 1, "p2": 0}

    # a restart counts the tables it brings back
    await close_registry(repo, registry)
    repo, registry = await open_registry(tmp_path)
    assert await counts(repo, registry) == {"p0": 1, "p1": 1, "p2": 0}

    # the janitor: a waiting table nobody came to expires, a playing one everyone left closes
    done = await registry.housekeep(0, 0)
    assert done == {"expired": 1, "closed": 1}
    assert await counts(repo, registry) == {"p0": 0, "p1": 0, "p2": 0}
    assert repo.hosted.counts == {} and repo.hosted.host_of == {}  # nothing left behind
    await close_registry(repo, registry)


@pytest.mark.asyncio
async def test_a_games_last_action_ends_it_and_a_refused_write_changes_nothing(
        tmp_path) -> None:
    repo, registry = await open_registry(tmp_path)
    await repo.create_player("p0", "P0", "tok-p0")
    actor = await registry.create("p0", "P0", "hanabi", 2, {}, False)
    table_id = actor.table.id
    await registry.shutdown()  # the actor stops: the writes below are this test's own
    hosted = repo.hosted
    assert hosted is not None and hosted.count("p0") == 1

    with pytest.raises(StaleOwner):  # another owner's epoch: refused, nothing written
        await repo.set_status(table_id, "finished", 2, epoch=99)
    with pytest.raises(StaleOwner):
        await repo.delete_table(table_id, epoch=99)
    assert hosted.count("p0") == 1 == await repo.hosted_count("p0")

    await repo.set_status(table_id, "playing", 2, epoch=actor.table.setup.epoch)
    assert hosted.count("p0") == 1 == await repo.hosted_count("p0")
    await repo.append_action(table_id, 3, 0, {"type": "x"}, "player", None,
                             actor.table.setup.epoch)
    assert hosted.count("p0") == 1 == await repo.hosted_count("p0")
    await repo.append_action(table_id, 4, 0, {"type": "x"}, "player", {"score": 1},
                             actor.table.setup.epoch)
    assert hosted.count("p0") == 0 == await repo.hosted_count("p0")
    await repo.close()
    await repo.engine.dispose()


def test_the_kept_count_on_its_own() -> None:
    hosted = HostedTables()
    hosted.note("t1", "a", "waiting")
    hosted.note("t1", "a", "playing")  # the same table again: counted once
    hosted.note("t2", "a", "waiting")
    hosted.host_is("t2", "b")
    hosted.host_is("t9", "b")  # not a live table here: not counted
    assert (hosted.count("a"), hosted.count("b")) == (1, 1)
    hosted.note("t1", "a", "finished")
    hosted.end("t2")
    hosted.end("t2")  # twice: no harm
    assert (hosted.count("a"), hosted.count("b")) == (0, 0) and hosted.counts == {}
