"""A socket piped to a table's owner (app/api/forward.py) learns that the table has moved.

Before, the pipe sent no ping and never looked at the table's owner again: a client piped
to an owner that froze heard nothing until the owner woke up, although another process had
taken the table over (tests/cluster/test_frozen_owner.py plays that with two servers).
Here, in one process: :class:`OwnerWatch` over a real Redis notices the owner change, and
the pipe then closes its client with 1012 (the browser's "reconnect", static/js/socket.js)
and its socket to the old owner."""

from __future__ import annotations

import asyncio
import collections
import types
from typing import Any

import pytest
from websockets.asyncio.server import ServerConnection, serve

from app.api import forward
from app.tables.cluster import Cluster, owner_key
from tests.support.server import free_port

pytestmark = pytest.mark.asyncio


class StayingClient:
    """The ASGI side of a client that stays until it is closed."""

    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []
        self.closed = asyncio.Event()
        self._connected = False

    async def receive(self) -> dict[str, Any]:
        if not self._connected:
            self._connected = True
            return {"type": "websocket.connect"}
        await self.closed.wait()
        return {"type": "websocket.disconnect", "code": 1012}

    async def send(self, message: dict[str, Any]) -> None:
        self.sent.append(message)
        if message["type"] == "websocket.close":
            self.closed.set()


@pytest.fixture(autouse=True)
def _unsigned(monkeypatch) -> None:
    monkeypatch.setattr(forward, "forward_signature", lambda table_id: "signed")


async def test_a_pipe_whose_table_moved_tells_its_client_to_reconnect() -> None:
    gone = asyncio.Event()

    async def owner(connection: ServerConnection) -> None:
        await connection.send('{"type":"state"}')
        await connection.wait_closed()
        gone.set()

    port = free_port()
    cluster = types.SimpleNamespace(counts=collections.Counter(), lease_seconds=10.0)
    moved: asyncio.Future[None] = asyncio.get_running_loop().create_future()
    client = StayingClient()
    async with serve(owner, "127.0.0.1", port):
        scope = {"type": "websocket", "raw_path": b"/ws/tables/t1", "query_string": b"",
                 "headers": [(b"host", f"127.0.0.1:{port}".encode())],
                 "path": "/ws/tables/t1"}
        piping = asyncio.create_task(forward._pipe_websocket(
            scope, client.receive, client.send, f"http://127.0.0.1:{port}", "t1",
            cluster, moved))  # type: ignore[arg-type]
        while len(client.sent) < 2:
            await asyncio.sleep(0.01)
        moved.set_result(None)
        await asyncio.wait_for(piping, 10)  # before: piped on until either side closed
        await asyncio.wait_for(gone.wait(), 5)
    assert client.sent == [{"type": "websocket.accept"},
                           {"type": "websocket.send", "text": '{"type":"state"}'},
                           {"type": "websocket.close", "code": 1012, "reason": "table_moving"}]


async def test_the_watch_tells_the_pipes_of_a_table_whose_owner_changed(redis_server) -> None:
    cluster = Cluster(redis_server.url, "http://127.0.0.1:1", lease_seconds=0.4)
    watch = forward.OwnerWatch(cluster)
    try:
        await cluster.redis.set(owner_key("moving"), "n1")
        await cluster.redis.set(owner_key("staying"), "n1")
        moving = watch.moved("moving", "n1")
        staying = watch.moved("staying", "n1")
        await asyncio.sleep(0.3)  # a few readings: nothing changed
        assert not moving.done() and not staying.done()
        await cluster.redis.set(owner_key("moving"), "n2")  # taken over by another node
        await asyncio.wait_for(moving, 5)
        assert not staying.done()
        await cluster.redis.delete(owner_key("staying"))  # its lease ran out: nobody's
        await asyncio.wait_for(staying, 5)
    finally:
        await cluster.redis.delete(owner_key("moving"), owner_key("staying"))
        await cluster.redis.aclose()
    assert watch._task is not None
    await asyncio.wait_for(watch._task, 5)  # no pipe left: the watch's loop ends
