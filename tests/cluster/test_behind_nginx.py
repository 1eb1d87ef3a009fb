"""docker-compose's "scale" profile without Docker: its nginx configuration, run by Debian's
nginx in front of two app processes (PostgreSQL and Redis started by the tests).

A whole game is played through the proxy; the process that owns the table is killed halfway;
the proxy sends the reconnecting sockets to the survivor, which takes the table over, and the
game finishes with every accepted move in the log.
"""

from __future__ import annotations

import random
import re
import time
from pathlib import Path

import httpx
import pytest

from tests.cluster.helpers import play_some, reconnect
from tests.cluster.test_two_processes import LEASE, node_of, owner_of
from tests.support.client import SeatClient, play_to_end, seat_players
from tests.support.nginx import Nginx, compose_nginx_conf
from tests.support.server import LiveServer

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.postgres


@pytest.mark.slow  # a few processes stopped and started again under load
async def test_the_compose_proxy_in_front_of_two_processes_survives_the_owner_dying(
        postgres_cluster, redis_server, tmp_path) -> None:
    url = postgres_cluster.new_database(f"nginx_{int(time.time() * 1000) % 10**9}")
    env = {"LUDOTECA_REDIS_URL": redis_server.url, "LUDOTECA_LEASE_SECONDS": str(LEASE)}
    a = LiveServer(url, tmp_path / "a", env=env)
    a.start()
    b = LiveServer(url, tmp_path / "b", env=env)
    b.start()
    conf = compose_nginx_conf()
    assert "app-a:8000" in conf and "app-b:8000" in conf
    conf = conf.replace("app-a:8000", f"127.0.0.1:{a.port}").replace(
        "app-b:8000", f"127.0.0.1:{b.port}")
    proxy = Nginx(conf, tmp_path / "nginx")
    proxy.check()
    proxy.start()
    try:
        assert httpx.get(f"{proxy.url}/healthz", timeout=10).status_code == 200
        rng = random.Random(3)
        players, table, _ = seat_players(proxy.url, "ikebana", 3)
        clients = [SeatClient(proxy.ws_url, table["id"], p.token) for p in players]
        for c in clients:
            await c.open()
        assert players[0].start(table["id"]).status_code == 200
        for c in clients:
            await c.wait_status("playing")
        seen: set[int] = set()
        await play_some(clients, rng, 6, seen)
        before = max(c.state["version"] for c in clients)

        owner, survivor = (a, b) if owner_of(a, table["id"]) == node_of(a) else (b, a)
        owner.stop(kill=True)
        deadline = time.monotonic() + 30
        for c in clients:
            try:
                while True:
                    await c.recv(timeout=15)
            except Exception:  # noqa: BLE001 - the socket breaks, one way or another
                pass
        for c in clients:
            await reconnect(c, [proxy.ws_url], deadline)
            assert c.state["version"] == before
        final = await play_to_end(clients, rng)
        for c in clients:
            await c.close()
        record = httpx.get(f"{proxy.url}/api/matches/{table['id']}", timeout=10).json()
        stored = [r["seq"] for r in record["actions"]]
        assert stored == list(range(stored[0], final["version"] + 1))
        assert seen <= set(stored) and record["outcome"] is not None
        assert owner_of(survivor, table["id"]) == node_of(survivor)
        log = (tmp_path / "nginx" / "logs" / "error.log").read_text()
        assert not re.search(r"\[(emerg|alert|crit)\]", log), log
    finally:
        proxy.stop()
        a.stop()
        b.stop()
