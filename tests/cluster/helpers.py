"""What the multi-process tests share: two processes started on one database and Redis,
who owns what (read from Redis itself), reconnecting a socket, and calm random play."""

from __future__ import annotations

import asyncio
import random
import time
from pathlib import Path

import httpx
import redis as redis_sync
from websockets.exceptions import ConnectionClosed, InvalidStatus

from tests.support.client import SeatClient
from tests.support.server import OPERATOR, LiveServer


def start_pair(database: str, tmp_path: Path, a_redis: str, b_redis: str, lease: float
               ) -> tuple[LiveServer, LiveServer]:
    """Processes A and B on one database, each reaching Redis at its own URL (a test may
    put a forwarder in front of one), with short leases."""
    def env(redis_url: str) -> dict[str, str]:
        return {"LUDOTECA_REDIS_URL": redis_url, "LUDOTECA_LEASE_SECONDS": str(lease)}

    a = LiveServer(database, tmp_path / "a", env=env(a_redis))
    a.start()  # migrates first: two processes must not migrate at once
    b = LiveServer(database, tmp_path / "b", env=env(b_redis))
    try:
        b.start()
    except BaseException:
        a.stop()
        raise
    return a, b


class Owners:
    """Who owns what, read from Redis."""

    def __init__(self, url: str) -> None:
        self.redis = redis_sync.Redis.from_url(url, decode_responses=True)

    def node(self, server: LiveServer) -> str | None:
        for key in self.redis.scan_iter("ludoteca:node:*"):
            if self.redis.get(key) == server.url:
                return key.rsplit(":", 1)[1]
        return None

    def owner(self, table_id: str) -> str | None:
        return self.redis.get(f"ludoteca:owner:{table_id}")  # type: ignore[return-value]

    async def wait_owner(self, table_id: str, server: LiveServer, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while self.node(server) is None or self.owner(table_id) != self.node(server):
            assert time.monotonic() < deadline, f"{server.url} never owned {table_id}"
            await asyncio.sleep(0.1)


async def until_closed(client: SeatClient, timeout: float = 20) -> int | None:
    """Read until the server closes the socket; its close code (None: still open when
    ``timeout`` ran out)."""
    assert client.ws is not None
    deadline = time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:
            await client.recv(timeout=max(0.1, deadline - time.monotonic()))
    except (ConnectionClosed, TimeoutError):
        pass
    return client.ws.close_code


def websockets_open(server: LiveServer) -> float:
    """The process's own count of its open WebSockets (``ludoteca_websockets_open``)."""
    page = httpx.get(f"{server.url}/metrics", headers=OPERATOR, timeout=10)
    page.raise_for_status()
    for line in page.text.splitlines():
        if line.startswith("ludoteca_websockets_open "):
            return float(line.split()[1])
    raise AssertionError("no ludoteca_websockets_open on /metrics")


async def reconnect(client: SeatClient, urls: list[str], deadline: float) -> None:
    """Open the socket again through any of ``urls`` until a state arrives."""
    table_path = client.url.split("/ws/", 1)[1]
    while True:
        for base in urls:
            client.url = f"{base}/ws/{table_path}"
            try:
                await client.open()
                return
            except (OSError, InvalidStatus, ConnectionClosed, TimeoutError):
                pass
        if time.monotonic() > deadline:
            raise AssertionError("could not reconnect to the table")
        await asyncio.sleep(0.2)


async def play_some(clients: list[SeatClient], rng: random.Random, moves: int,
                     seen: set[int]) -> None:
    """Random moves that rarely end the game (Hanabi: plays only when nothing else is legal)."""
    for _ in range(moves):
        state = max((c.state for c in clients), key=lambda s: s["version"])
        if state["table"]["status"] == "finished":
            return
        mover = next(c for c in clients if c.my_turn() and c.state["version"] == state["version"])
        legal = mover.state["legal_actions"]
        calm = [x for x in legal if x["type"] != "play"] or legal
        await mover.act_until_accepted(rng.choice(calm))
        for c in clients:
            await c.wait_version(state["version"] + 1)
        seen.add(state["version"] + 1)
