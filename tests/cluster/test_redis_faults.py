"""Redis failing under a cluster, with the real Redis (Debian's redis-server) and short
leases: two registries (as two processes would be) share one database; process one
reaches Redis through a TCP forwarder that the test pauses (SIGSTOP: its connections hang)
or kills (they break), process two reaches Redis directly.

What must hold (issue 21): the process cut off stops acting for its tables before another
can take them over (at the moment it gives a table up, its lease still stands in Redis);
the owner-epoch fence refuses its writes once the other has taken over, even a write that
skips the lease check; the game goes on at the other process with every accepted action;
when Redis comes back, no table has two owners. And when Redis itself dies and comes back
empty, every table ends up with exactly one owner.
"""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import Callable
from typing import Any

import pytest
from redis.asyncio import Redis

from app.db.repository import Repository, StaleOwner
from app.db.session import make_engine, make_sessionmaker, migrate
from app.errors import AppError
from app.tables.cluster import Cluster, owner_key
from app.tables.connections import Connection
from app.tables.core.commands import Act, Join, Start
from app.tables.registry import Registry
from tests.support.redis import RedisServer
from tests.support.tcpproxy import TcpProxy

LEASE = 2.0


@pytest.fixture
async def database(database_url: str) -> str:
    await asyncio.to_thread(migrate, database_url)
    return database_url


class Socket:
    def __init__(self) -> None:
        self.sent: list[str] = []
        self.closed: tuple[int, str] | None = None

    async def send_text(self, text: str) -> None:
        self.sent.append(text)

    async def close(self, code: int, reason: str) -> None:
        self.closed = (code, reason)


async def start_process(database: str, redis_url: str, name: str) -> tuple[Registry, Cluster]:
    cluster = Cluster(redis_url, f"http://{name}.invalid", lease_seconds=LEASE,
                      node_id=f"{name}-{secrets.token_hex(3)}")
    await cluster.start()
    return Registry(Repository(make_sessionmaker(make_engine(database))), cluster), cluster


async def stop_process(registry: Registry, cluster: Cluster) -> None:
    await registry.shutdown()
    try:
        await asyncio.wait_for(cluster.stop(), 10)
    except TimeoutError:
        pass
    await registry.repo.close()
    await registry.repo.sessions.kw["bind"].dispose()


async def until(check: Callable[[], Any], timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not await _value(check()):
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.05)


async def _value(value: Any) -> Any:
    return await value if asyncio.iscoroutine(value) else value


async def seated_table(registry: Registry) -> Any:
    host, guest = secrets.token_hex(4), secrets.token_hex(4)
    await registry.repo.create_player(host, "Ana", secrets.token_hex(8))
    await registry.repo.create_player(guest, "Ben", secrets.token_hex(8))
    actor = await registry.create(host, "Ana", "hanabi", 2, {}, private=False)
    await actor.submit(Join(guest, "Ben"))
    await actor.submit(Start(host))
    return actor


async def move(actor: Any) -> int:
    """One calm legal move (no Hanabi play: three wrong ones end the game) by whoever is to
    act; the new version."""
    seat = next(iter(actor.engine.to_act(actor.state)))
    player = actor.info.seats[seat]
    legal = actor.engine.legal_actions(actor.state, seat)
    action = next((a for a in legal if a["type"] != "play"), legal[0])
    return await actor.submit(Act(player, action, actor.info.version))


async def adopt_when_free(registry: Registry, table_id: str) -> Any:
    """Take the table over as soon as its lease has run out (as the sweep would)."""
    deadline = time.monotonic() + LEASE * 5
    while True:
        try:
            adopted = await registry.adopt(table_id)
            assert adopted is not None
            return adopted
        except AppError as exc:
            assert exc.code == "table_moving", exc
            if time.monotonic() > deadline:
                raise
            await asyncio.sleep(0.05)


@pytest.mark.parametrize("fault", ["pause", "kill"])
async def test_an_owner_cut_off_from_redis_stops_before_another_takes_its_tables(
        database: str, redis_server: Any, fault: str) -> None:
    proxy = TcpProxy(redis_server.port)
    proxy.start()
    one, c1 = await start_process(database, proxy.url(), "one")
    two, c2 = await start_process(database, redis_server.url, "two")
    watch = Redis.from_url(redis_server.url, decode_responses=True)  # the test's own eye
    given_up: list[tuple[str, str | None, int]] = []
    drop = c1.on_lost
    assert drop is not None

    async def on_lost(table_id: str) -> None:
        # at the moment process one gives the table up, its own lease must still stand
        given_up.append((table_id, await watch.get(owner_key(table_id)),
                         await watch.pttl(owner_key(table_id))))
        await drop(table_id)

    c1.on_lost = on_lost
    try:
        actor = await seated_table(one)
        table_id = actor.info.id
        socket = Socket()
        conn = Connection(actor.info.seats[0], socket.send_text, socket.close, 64)
        writer = asyncio.get_running_loop().create_task(conn.writer())
        await actor.connect(conn)
        for _ in range(3):
            await move(actor)
        accepted = actor.info.version

        proxy.pause() if fault == "pause" else proxy.kill()
        await until(lambda: table_id not in one.actors, LEASE * 3, "process one to give up")
        assert given_up and given_up[0][0] == table_id
        assert given_up[0][1] == c1.node_id, "the lease had already run out"
        assert given_up[0][2] > 0  # milliseconds of lease left when it stopped
        print(f"\n{fault}: gave the table up with {given_up[0][2]} ms of a "
              f"{LEASE * 1000:.0f} ms lease left")
        await asyncio.wait_for(writer, 5)
        assert socket.closed == (1012, "table_moving")  # the client reconnects elsewhere
        with pytest.raises(AppError) as moved:
            await move(actor)
        assert moved.value.code == "table_moving"

        # process two takes the table over once the lease has run out, with every move
        adopted = await adopt_when_free(two, table_id)
        assert adopted.info.version == accepted
        assert adopted.info.epoch == actor.info.epoch + 1
        # the owner-epoch fence under this case: a write of process one that skipped the
        # lease check (its repository itself, the old epoch) is refused by the log
        seat = next(iter(adopted.engine.to_act(adopted.state)))
        action = next(a for a in adopted.engine.legal_actions(adopted.state, seat)
                      if a["type"] != "play")
        with pytest.raises(StaleOwner):
            await one.repo.append_action(table_id, accepted + 1, seat, action, "player", None,
                                         actor.info.epoch)
        # the game goes on at process two, nothing lost
        assert await move(adopted) == accepted + 1
        stored = [a.seq for a in await two.repo.actions(table_id)]
        assert stored == list(range(stored[0], accepted + 2))

        # Redis comes back for process one: the table keeps its one owner
        proxy.resume() if fault == "pause" else proxy.start()
        await until(c1.leases_fresh, LEASE * 5, "process one to reach Redis again")
        assert not await c1.claim(table_id)
        assert await one.sweep() == 0
        assert await watch.get(owner_key(table_id)) == c2.node_id
        assert table_id in two.actors and table_id not in one.actors
        assert table_id not in c1.owned and table_id in c2.owned
    finally:
        proxy.kill()
        await watch.aclose()
        await stop_process(one, c1)
        await stop_process(two, c2)


@pytest.mark.slow  # a few processes stopped and started again under load
async def test_redis_dying_and_coming_back_empty_leaves_every_table_one_owner(
        database: str) -> None:
    redis = RedisServer.find()
    assert redis is not None
    redis.start()
    one, c1 = await start_process(database, redis.url, "one")
    two, c2 = await start_process(database, redis.url, "two")
    try:
        tables = [await seated_table(one) for _ in range(3)]
        tables += [await seated_table(two) for _ in range(3)]
        ids = [a.info.id for a in tables]
        for actor in tables:
            await move(actor)
        versions = {a.info.id: a.info.version for a in tables}

        redis.process.kill()  # type: ignore[union-attr]  # SIGKILL: every lease is gone
        redis.process.wait()  # type: ignore[union-attr]
        await until(lambda: not one.actors and not two.actors, LEASE * 3,
                    "both processes to stop serving")
        redis.start()  # the same port, empty
        # both sweep at once; each table is claimed by exactly one of them
        await until(lambda: c1.leases_fresh() and c2.leases_fresh(), LEASE * 5,
                    "both processes to reach Redis again")
        await asyncio.gather(one.sweep(), two.sweep())
        watch = Redis.from_url(redis.url, decode_responses=True)
        try:
            for table_id in ids:
                owner = await watch.get(owner_key(table_id))
                holders = [c.node_id for r, c in ((one, c1), (two, c2)) if table_id in r.actors]
                assert holders == [owner], (table_id, owner, holders)
                registry = one if owner == c1.node_id else two
                actor = registry.actors[table_id]
                assert actor.info.version == versions[table_id]  # nothing lost
                assert await move(actor) == versions[table_id] + 1  # and it plays on
        finally:
            await watch.aclose()
    finally:
        await stop_process(one, c1)
        await stop_process(two, c2)
        redis.stop()


async def test_a_process_that_wakes_past_its_lease_refuses_its_first_write(
        database: str, redis_server: Any) -> None:
    """As after a SIGSTOP longer than the lease: the process's clock has jumped. Even before
    its keep-alive runs (stopped here), the first write it would make is refused by the lease
    fence without reaching the database; the actor gives the table up and tells its socket
    to reconnect."""
    now = [1000.0]
    cluster = Cluster(redis_server.url, "http://one.invalid", lease_seconds=LEASE,
                      node_id=f"one-{secrets.token_hex(3)}", clock=lambda: now[0])
    await cluster.start()
    registry = Registry(Repository(make_sessionmaker(make_engine(database))), cluster)
    try:
        actor = await seated_table(registry)
        table_id = actor.info.id
        await move(actor)
        stored = [a.seq for a in await registry.repo.actions(table_id)]
        socket = Socket()
        conn = Connection(actor.info.seats[0], socket.send_text, socket.close, 64)
        writer = asyncio.get_running_loop().create_task(conn.writer())
        await actor.connect(conn)
        assert cluster._task is not None
        cluster._task.cancel()  # the keep-alive has not run since the wake-up
        now[0] += LEASE * 5  # the pause
        assert not cluster.may_write(table_id)
        with pytest.raises(AppError) as refused:
            await move(actor)
        assert refused.value.code == "table_moving"
        await asyncio.wait_for(writer, 5)
        assert socket.closed == (1012, "table_moving")
        assert table_id not in registry.actors and table_id not in cluster.owned
        assert [a.seq for a in await registry.repo.actions(table_id)] == stored
        # a chat line is not written either
        with pytest.raises(StaleOwner):
            await cluster.fence(registry.repo, table_id).queue_chat_line(
                table_id, 99, at=actor.info.created_at, kind="system", seat=None,
                player_id=None, name="", text=None, code="joined", params={})
    finally:
        await stop_process(registry, cluster)
