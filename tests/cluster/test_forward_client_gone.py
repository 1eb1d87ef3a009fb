"""A socket piped to a table's owner (app/api/forward.py) whose client has gone.

uvicorn's ``send`` raises ``ClientDisconnected`` (an ``OSError``) once the client has left.
Before, the pipe let it escape: uvicorn logged "Exception in ASGI application" at ERROR, and
a client that left while the owner was being reached left the socket to the owner open, so
the owner went on counting that player as at the table."""

from __future__ import annotations

import asyncio
import collections
import types
from typing import Any

import pytest
from uvicorn.protocols.utils import ClientDisconnected
from websockets.asyncio.server import ServerConnection, serve

from app.api import forward
from app.errors import AppError
from tests.support.server import free_port

pytestmark = pytest.mark.asyncio


class GoneClient:
    """The ASGI side of a client: ``receive`` gives the connect, then waits for a disconnect
    that comes after ``gone``; ``send`` raises as uvicorn's does once ``gone`` is set (from
    the message numbered ``gone_at``, counting from 0)."""

    def __init__(self, gone_at: int) -> None:
        self.gone_at = gone_at
        self.sent: list[dict[str, Any]] = []
        self.gone = asyncio.Event()
        self._connected = False

    async def receive(self) -> dict[str, Any]:
        if not self._connected:
            self._connected = True
            return {"type": "websocket.connect"}
        await self.gone.wait()
        return {"type": "websocket.disconnect", "code": 1006}

    async def send(self, message: dict[str, Any]) -> None:
        if len(self.sent) >= self.gone_at:
            self.gone.set()
        if self.gone.is_set():
            raise ClientDisconnected()
        self.sent.append(message)


class Owner:
    """A stand-in for the owning process: counts the sockets open to it and greets each."""

    def __init__(self) -> None:
        self.open = 0
        self.closed = asyncio.Event()

    async def handler(self, connection: ServerConnection) -> None:
        self.open += 1
        try:
            await connection.send('{"type":"state"}')
            await connection.wait_closed()
        finally:
            self.open -= 1
            if self.open == 0:
                self.closed.set()


def _scope(port: int) -> dict[str, Any]:
    return {"type": "websocket", "raw_path": b"/ws/tables/t1", "query_string": b"",
            "headers": [(b"host", f"127.0.0.1:{port}".encode())], "path": "/ws/tables/t1"}


@pytest.fixture(autouse=True)
def _unsigned(monkeypatch) -> None:
    monkeypatch.setattr(forward, "forward_signature", lambda table_id: "signed")


async def _pipe(client: GoneClient, port: int) -> None:
    cluster = types.SimpleNamespace(counts=collections.Counter(), lease_seconds=10.0)
    await asyncio.wait_for(forward._pipe_websocket(
        _scope(port), client.receive, client.send, f"http://127.0.0.1:{port}", "t1",
        cluster), 10)  # type: ignore[arg-type]


@pytest.mark.parametrize("gone_at", [0, 1], ids=["before-accept", "before-first-frame"])
async def test_a_client_gone_closes_the_owners_socket_and_raises_nothing(gone_at) -> None:
    owner, port = Owner(), free_port()
    async with serve(owner.handler, "127.0.0.1", port):
        client = GoneClient(gone_at)
        await _pipe(client, port)  # raised ClientDisconnected before
        await asyncio.wait_for(owner.closed.wait(), 5)  # before: left open (gone_at 0)
        assert owner.open == 0
    assert [m["type"] for m in client.sent] == ["websocket.accept"][:gone_at]


async def test_a_frame_reaches_a_client_still_there_and_its_leaving_closes_the_pipe() -> None:
    owner, port = Owner(), free_port()
    async with serve(owner.handler, "127.0.0.1", port):
        client = GoneClient(gone_at=10)
        piping = asyncio.create_task(_pipe(client, port))
        for _ in range(200):
            if len(client.sent) == 2:
                break
            await asyncio.sleep(0.01)
        assert client.sent == [{"type": "websocket.accept"},
                               {"type": "websocket.send", "text": '{"type":"state"}'}]
        client.gone.set()
        await piping
        await asyncio.wait_for(owner.closed.wait(), 5)


async def test_an_owner_that_refuses_a_client_gone_raises_nothing() -> None:
    client = GoneClient(gone_at=0)
    await _pipe(client, free_port())  # nobody listens there: the owner "refuses"
    assert client.sent == []


async def test_a_refusal_to_a_client_gone_raises_nothing() -> None:
    client = GoneClient(gone_at=0)
    await forward._refuse(_scope(1), client.receive, client.send,  # type: ignore[arg-type]
                          AppError("storage_unavailable", "down", 503))
    assert client.sent == []
