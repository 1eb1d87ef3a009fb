"""No table ever has two owners: leases in Redis, and the owner epoch in the database.

Two registries (as two processes would have) share one database and one Redis here, in one
event loop, so the tests can put a process in the bad spot exactly: its lease gone while it
still holds the table in memory.
"""

from __future__ import annotations

import asyncio
import secrets
from typing import Any

import pytest

from app.db.models import GameTable
from app.db.repository import Repository, StaleOwner, now
from app.db.session import make_engine, make_sessionmaker, migrate
from app.errors import AppError
from app.tables.cluster import Cluster, owner_key
from app.tables.connections import Connection
from app.tables.core.commands import Act, Join, Start
from app.tables.registry import Registry


async def new_repo(url: str) -> Repository:
    return Repository(make_sessionmaker(make_engine(url)))


async def close_repo(repo: Repository) -> None:
    await repo.close()
    await repo.sessions.kw["bind"].dispose()


@pytest.fixture
async def database(database_url: str) -> str:
    await asyncio.to_thread(migrate, database_url)
    return database_url


async def test_writes_of_a_stale_owner_are_refused_by_the_log(database: str) -> None:
    first, second = await new_repo(database), await new_repo(database)
    await first.create_player("p", "Ana", "token")
    await first.create_table(GameTable(
        id="t", game="hanabi", seat_count=2, options={}, private=False, invite_token="inv",
        host_id="p", status="playing", seed=1, version=3, created_at=now()), host_seat=0)
    mine = (await first.take_over("t")).owner_epoch
    await first.append_action("t", 4, 0, {"n": 4}, "player", None, mine)
    theirs = (await second.take_over("t")).owner_epoch  # another process takes over
    assert theirs == mine + 1
    with pytest.raises(StaleOwner):  # the old owner's next move, though its seq is free
        await first.append_action("t", 5, 1, {"n": "stale"}, "player", None, mine)
    with pytest.raises(StaleOwner):
        await first.save_seats("t", ["p", None], "p", 5, epoch=mine)
    with pytest.raises(StaleOwner):
        await first.set_status("t", "finished", 5, epoch=mine)
    await second.append_action("t", 5, 1, {"n": 5}, "player", None, theirs)
    assert [a.action for a in await second.actions("t")] == [{"n": 4}, {"n": 5}]
    assert (await second.table("t")).version == 5
    await close_repo(first)
    await close_repo(second)


class Socket:
    def __init__(self) -> None:
        self.sent: list[str] = []
        self.closed: tuple[int, str] | None = None

    async def send_text(self, text: str) -> None:
        self.sent.append(text)

    async def close(self, code: int, reason: str) -> None:
        self.closed = (code, reason)


async def two_processes(database: str, redis_url: str) -> list[tuple[Registry, Cluster]]:
    out = []
    for name in ("one", "two"):
        cluster = Cluster(redis_url, f"http://{name}.invalid", lease_seconds=30,
                          node_id=f"{name}-{secrets.token_hex(3)}")
        await cluster.start()
        out.append((Registry(await new_repo(database), cluster), cluster))
    return out


async def shut(processes: list[tuple[Registry, Cluster]]) -> None:
    for registry, cluster in processes:
        await registry.shutdown()
        await cluster.stop()
        await close_repo(registry.repo)


async def seated_table(registry: Registry) -> Any:
    await registry.repo.create_player("host", "Ana", secrets.token_hex(8))
    await registry.repo.create_player("guest", "Ben", secrets.token_hex(8))
    actor = await registry.create("host", "Ana", "hanabi", 2, {}, private=False)
    await actor.submit(Join("guest", "Ben"))
    await actor.submit(Start("host"))
    return actor


async def test_a_process_whose_lease_was_taken_cannot_act_and_gives_the_table_up(
        database: str, redis_server: Any) -> None:
    processes = await two_processes(database, redis_server.url)
    (one, c1), (two, c2) = processes
    try:
        actor = await seated_table(one)
        table_id = actor.table.id
        # process one stalls past its lease (here: the lease simply disappears) and process
        # two takes the table over, bumping the owner epoch
        await c1.redis.delete(owner_key(table_id))
        adopted = await two.adopt(table_id)
        assert adopted is not None and adopted.table.epoch == actor.table.epoch + 1
        # process one still holds the table in memory: its next write is refused by the log
        mover = next(p for p in ("host", "guest")
                     if actor.seat_of(p) in actor.engine.to_act(actor.state))
        move = actor.engine.legal_actions(actor.state, actor.seat_of(mover))[0]
        with pytest.raises(AppError) as refused:
            await actor.submit(Act(mover, move, actor.table.version))
        assert refused.value.code == "table_moving"
        await asyncio.sleep(0)  # the registry stops the stale actor
        assert table_id not in one.actors
        assert await two.repo.actions(table_id) == []  # nothing of the stale owner's
        # the new owner plays on
        await adopted.submit(Act(mover, move, adopted.table.version))
        assert [a.action for a in await two.repo.actions(table_id)] == [move]
    finally:
        await shut(processes)


async def test_a_lost_lease_closes_the_sockets_so_clients_reach_the_new_owner(
        database: str, redis_server: Any) -> None:
    processes = await two_processes(database, redis_server.url)
    (one, c1), (two, _c2) = processes
    try:
        actor = await seated_table(one)
        socket = Socket()
        conn = Connection("host", socket.send_text, socket.close, 16)
        writer = asyncio.get_running_loop().create_task(conn.writer())
        await actor.connect(conn)
        # another process holds the lease now (as after a long pause of this one)
        await c1.redis.set(owner_key(actor.table.id), "someone-else")
        await c1.tick()
        await asyncio.wait_for(writer, 5)
        assert actor.table.id not in one.actors and actor.table.id not in c1.owned
        assert socket.closed == (1012, "table_moving")  # "service restart": reconnect
        assert '"table_moving"' in socket.sent[-1]
        with pytest.raises(AppError) as gone:
            await actor.submit(Join("x", "X"))
        assert gone.value.code == "table_moving"
        # and a claim by the first process fails while the other one holds the lease
        assert not await c1.claim(actor.table.id)
    finally:
        await shut(processes)


async def test_an_owner_that_cannot_reach_redis_gives_its_tables_up_before_its_leases_expire(
        ) -> None:
    from tests.support.redis import RedisServer

    server = RedisServer.find()
    assert server is not None
    server.start()
    now = [0.0]
    cluster = Cluster(server.url, "http://me.invalid", lease_seconds=10, clock=lambda: now[0])
    lost: list[str] = []

    async def on_lost(table_id: str) -> None:
        lost.append(table_id)

    cluster.on_lost = on_lost
    try:
        await cluster.start()
        assert await cluster.claim("t1") and await cluster.claim("t2")
        server.stop()  # Redis is gone
        now[0] = 3.0
        await cluster.tick()  # a failed renewal, but the leases are still young
        assert lost == [] and cluster.owned == {"t1", "t2"}
        now[0] = 6.5  # past 60 % of the lease since the last renewal: stop serving
        await cluster.tick()
        assert sorted(lost) == ["t1", "t2"] and cluster.owned == set()
    finally:
        server.stop()
        await cluster.redis.aclose()
