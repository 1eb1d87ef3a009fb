"""Faults between the real parts, on loopback: two app processes (A and B) sharing
PostgreSQL and Redis (Debian's), short leases, games played through real sockets.

- Redis unreachable for A alone (its connection goes through a TCP forwarder that is
  paused): A gives its table up before the lease runs out, B takes it over, the game goes
  on through B with every accepted action; when A reaches Redis again the table keeps its
  one owner.
- A paused (SIGSTOP) for longer than the lease, then resumed: B has taken its table over;
  A notices, closes its sockets with "reconnect" (1012) and writes nothing.
- PostgreSQL restarted under load: clear retryable errors (storage_error over sockets, 503
  over REST), never a 500 or an internal error, and no accepted action lost.

Ownership is read from Redis itself (``ludoteca:owner:<table>`` and the node keys), not
from any page of the server.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import time
from typing import Any

import httpx
import pytest

from app.db.repository import Repository
from app.db.session import make_engine, make_sessionmaker
from tests.cluster.helpers import Owners, play_some, reconnect, start_pair, until_closed
from tests.support.client import ApiClient, SeatClient, play_to_end, seat_players
from tests.support.server import LiveServer
from tests.support.tcpproxy import TcpProxy

LEASE = 2.0

pytestmark = pytest.mark.postgres


def stored(base: str, table_id: str) -> list[int]:
    record = httpx.get(f"{base}/api/matches/{table_id}", timeout=10).json()
    return [r["seq"] for r in record["actions"]]


def log_of(server: LiveServer) -> str:
    return server.log_path.read_text(errors="replace")


async def test_redis_cut_off_from_one_process_moves_its_table_with_nothing_lost(
        postgres_cluster, redis_server, tmp_path) -> None:
    proxy = TcpProxy(redis_server.port)
    proxy.start()
    database = postgres_cluster.new_database(f"redis_cut_{int(time.time() * 1000) % 10**9}")
    a, b = start_pair(database, tmp_path, proxy.url(), redis_server.url, LEASE)
    owners = Owners(redis_server.url)
    rng = random.Random(21)
    try:
        players, table, _ = seat_players(a.url, "hanabi", 3)
        table_id = table["id"]
        await owners.wait_owner(table_id, a, 5)
        clients = [SeatClient(a.ws_url, table_id, players[0].token),
                   SeatClient(b.ws_url, table_id, players[1].token),
                   SeatClient(b.ws_url, table_id, players[2].token)]
        for c in clients:
            await c.open()
        assert players[0].start(table_id).status_code == 200
        for c in clients:
            await c.wait_status("playing")
        seen: set[int] = set()
        await play_some(clients, rng, 8, seen)
        before = max(c.state["version"] for c in clients)

        proxy.pause()  # A's Redis connections hang; B's still work
        for c in clients:  # A gives the table up: every socket is told to reconnect
            assert await until_closed(c) == 1012
        deadline = time.monotonic() + LEASE * 10
        for c in clients:
            await reconnect(c, [b.ws_url, a.ws_url], deadline)
            assert c.state["version"] == before  # nothing accepted was lost
        await owners.wait_owner(table_id, b, LEASE * 5)
        await play_some(clients, rng, 6, seen)

        proxy.resume()  # A reaches Redis again: B keeps the table, A forwards to it
        deadline = time.monotonic() + LEASE * 5
        while owners.node(a) is None:
            assert time.monotonic() < deadline, "A never came back to Redis"
            await asyncio.sleep(0.1)
        via_a = httpx.get(f"{a.url}/api/tables/{table_id}", timeout=10)
        assert via_a.status_code == 200 and via_a.json()["version"] == max(seen)
        assert owners.owner(table_id) == owners.node(b)
        final = await play_to_end(clients, rng)
        for c in clients:
            await c.close()
        seqs = stored(b.url, table_id)
        assert seqs == list(range(seqs[0], final["version"] + 1)) and seen <= set(seqs)
        text = log_of(a)
        assert f"giving table {table_id} up" in text
        assert f"table {table_id} taken over" not in text  # A never took it back
        assert "could not be stored" not in text  # no write of A's reached the log late
        assert owners.owner(table_id) == owners.node(b)
    finally:
        proxy.kill()
        a.stop()
        b.stop()


async def test_a_process_paused_past_its_lease_hands_its_sockets_over_and_never_writes(
        postgres_cluster, redis_server, tmp_path) -> None:
    database = postgres_cluster.new_database(f"paused_{int(time.time() * 1000) % 10**9}")
    a, b = start_pair(database, tmp_path, redis_server.url, redis_server.url, LEASE)
    owners = Owners(redis_server.url)
    rng = random.Random(8)
    try:
        players, table, _ = seat_players(a.url, "hanabi", 2)
        table_id = table["id"]
        await owners.wait_owner(table_id, a, 5)
        on_a = [SeatClient(a.ws_url, table_id, p.token) for p in players]
        for c in on_a:
            await c.open()
        assert players[0].start(table_id).status_code == 200
        for c in on_a:
            await c.wait_status("playing")
        seen: set[int] = set()
        await play_some(on_a, rng, 6, seen)
        before = max(c.state["version"] for c in on_a)

        assert a.process is not None
        os.kill(a.process.pid, signal.SIGSTOP)
        try:
            # B takes the table over once A's lease has run out
            await owners.wait_owner(table_id, b, LEASE * 10)
            on_b = [SeatClient(b.ws_url, table_id, p.token) for p in players]
            for c in on_b:
                await c.open()
                assert c.state["version"] == before
            await play_some(on_b, rng, 4, seen)
            # a move sent to the sleeping A waits in its socket
            mover = next(c for c in on_a if c.my_turn())
            await mover.act(mover.state["legal_actions"][0])
        finally:
            os.kill(a.process.pid, signal.SIGCONT)
        # A wakes up: it gives the table up and tells its sockets to reconnect
        for c in on_a:
            assert await until_closed(c) == 1012
        refused = [m for c in on_a for m in c.received[-3:] if m["type"] == "error"]
        assert all(m["code"] == "table_moving" for m in refused), refused
        final = await play_to_end(on_b, rng)
        for c in on_b:
            await c.close()
        seqs = stored(b.url, table_id)
        assert seqs == list(range(seqs[0], final["version"] + 1)) and seen <= set(seqs)
        text = log_of(a)
        assert (f"giving table {table_id} up" in text
                or f"table {table_id}: write refused here" in text)
        # nothing A tried reached the database (its fence refused first)
        assert "could not be stored" not in text
        assert f"table {table_id} is owned by another process" not in text
        assert owners.owner(table_id) == owners.node(b)
    finally:
        a.stop()
        b.stop()


RETRYABLE = {"storage_error", "storage_unavailable", "table_moving", "stale_version",
             "rate_limited"}


@pytest.mark.slow  # a few processes stopped and started again under load
async def test_postgres_restarted_under_load_in_two_processes(
        postgres_cluster, redis_server, tmp_path) -> None:
    database = postgres_cluster.new_database(f"pg_restart_{int(time.time() * 1000) % 10**9}")
    a, b = start_pair(database, tmp_path, redis_server.url, redis_server.url, LEASE)
    owners = Owners(redis_server.url)
    games: list[tuple[str, list[SeatClient]]] = []
    try:
        for host, other in ((a, b), (b, a)):  # one table owned by each process
            players, table, _ = seat_players(host.url, "hanabi", 2)
            await owners.wait_owner(table["id"], host, 5)
            clients = [SeatClient(host.ws_url, table["id"], players[0].token),
                       SeatClient(other.ws_url, table["id"], players[1].token)]
            for c in clients:
                await c.open()
            assert players[0].start(table["id"]).status_code == 200
            for c in clients:
                await c.wait_status("playing")
            games.append((table["id"], clients))
        acked: dict[str, set[int]] = {t: set() for t, _ in games}
        errors: list[dict[str, Any]] = []
        statuses: list[tuple[int, str]] = []
        stop = asyncio.Event()

        async def play(table_id: str, clients: list[SeatClient], rng: random.Random) -> None:
            """Moves as fast as the server takes them; a refused one is tried again."""
            while not stop.is_set():
                version = max(c.state["version"] for c in clients)
                if clients[0].state["table"]["status"] == "finished":
                    return
                mover = next((c for c in clients if c.my_turn()
                              and c.state["version"] == version), None)
                if mover is None:
                    await asyncio.gather(*(c.wait_version(version, 30) for c in clients))
                    continue
                legal = mover.state["legal_actions"]
                await mover.act([x for x in legal if x["type"] != "play"][0]
                                if any(x["type"] != "play" for x in legal) else legal[0])
                while True:
                    message = await mover.recv(30)
                    if message["type"] == "state" and message["version"] > version:
                        acked[table_id].add(message["version"])
                        break
                    if message["type"] == "error":
                        errors.append(message)
                        await asyncio.sleep(0.2)
                        break
                await asyncio.sleep(0.02 * rng.random())

        async def poll_rest() -> None:
            reader = ApiClient(a.url, "Lector")
            paths = [f"/api/tables/{t}" for t, _ in games] + ["/api/tables", "/api/matches"]
            while not stop.is_set():
                for base in (a.url, b.url):
                    for path in paths:
                        try:
                            r = await asyncio.to_thread(
                                httpx.get, base + path, headers=reader.headers, timeout=30)
                        except httpx.HTTPError as exc:
                            statuses.append((0, str(exc)))
                            continue
                        statuses.append((r.status_code, r.text[:200]))
                await asyncio.sleep(0.1)

        tasks = [asyncio.create_task(play(t, c, random.Random(i)))
                 for i, (t, c) in enumerate(games)]
        tasks.append(asyncio.create_task(poll_rest()))
        await asyncio.sleep(1.0)
        await asyncio.to_thread(postgres_cluster.pause)  # a restart: every connection drops
        await asyncio.sleep(2.0)
        await asyncio.to_thread(postgres_cluster.resume)
        target = {t: max(acked[t], default=0) + 6 for t, _ in games}
        deadline = time.monotonic() + 60
        while any(max(acked[t], default=0) < target[t] for t, _ in games) and not all(
                task.done() for task in tasks[:-1]):
            assert time.monotonic() < deadline, (acked, errors[-5:])
            await asyncio.sleep(0.2)
        stop.set()
        await asyncio.gather(*tasks)

        assert all(e["code"] in RETRYABLE for e in errors), errors
        assert any(e["code"] in ("storage_error", "storage_unavailable") for e in errors) or \
            any(s == 503 for s, _ in statuses), "the restart was never noticed"
        for status, body in statuses:
            assert status in (200, 503), (status, body)
            if status == 503:
                assert json.loads(body)["code"] in ("storage_unavailable", "table_moving")
        # every accepted action is in the log, without a gap
        engine = make_engine(database)
        repo = Repository(make_sessionmaker(engine))
        try:
            for table_id, clients in games:
                seqs = [x.seq for x in await repo.actions(table_id)]
                assert seqs == list(range(seqs[0], seqs[-1] + 1))
                assert acked[table_id] <= set(seqs), (table_id, acked[table_id] - set(seqs))
                version = max(c.state["version"] for c in clients)
                assert seqs[-1] == version
        finally:
            await repo.close()
            await engine.dispose()
        for _, clients in games:
            for c in clients:
                await c.close()
    finally:
        a.stop()
        b.stop()
