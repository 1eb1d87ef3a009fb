"""A connection's outbound path: every message through the bounded queue and the writer
task's awaited ``send_text`` (the Starlette WebSocket's public API), in order, behind the real
app's middleware chain under uvicorn."""

from __future__ import annotations

import asyncio
import gc
import socket

import pytest
import uvicorn
import websockets
from starlette.websockets import WebSocket, WebSocketDisconnect

from app.main import create_app
from app.tables.connections import Connection

pytestmark = pytest.mark.asyncio


class Sink:
    """A socket whose ``send_text`` (awaited by the writer task) records what it sends and
    waits, while ``open`` is False, as a socket whose buffers are full."""

    def __init__(self) -> None:
        self.open = asyncio.Event()
        self.open.set()
        self.wire: list[str] = []  # what reached the socket, in order
        self.closed: tuple[int, str] | None = None

    async def send_text(self, text: str) -> None:
        await self.open.wait()
        self.wire.append(text)

    async def close(self, code: int, reason: str) -> None:
        self.closed = (code, reason)


async def test_every_message_goes_out_in_order_through_the_writer_and_none_after_finish(
        ) -> None:
    sink = Sink()
    conn = Connection("p", sink.send_text, sink.close, 8)
    conn.push_text("1")
    conn.push_bytes(b"2")
    conn.push({"n": 3})
    assert sink.wire == []  # nothing is written outside the writer task
    writer = asyncio.get_running_loop().create_task(conn.writer())
    await asyncio.sleep(0)
    assert sink.wire == ["1", "2", '{"n":3}']
    sink.open.clear()  # back-pressure: the socket's send waits
    conn.push_text("4")
    conn.push_text("5")
    await asyncio.sleep(0)
    assert sink.wire == ["1", "2", '{"n":3}']
    sink.open.set()
    conn.finish((1000, "bye"))
    conn.push_text("6")  # after finish: nothing goes out past the close
    await asyncio.wait_for(writer, 1)
    assert sink.wire == ["1", "2", '{"n":3}', "4", "5"] and sink.closed == (1000, "bye")


async def test_a_slow_client_is_dropped_when_its_queue_fills() -> None:
    sink = Sink()
    sink.open.clear()
    conn = Connection("p", sink.send_text, sink.close, 2)
    dropped: list[bool] = []
    conn.on_end = lambda: dropped.append(True)
    writer = asyncio.get_running_loop().create_task(conn.writer())
    for i in range(4):  # one taken by the blocked send, two queued, the fourth overflows
        conn.push_text(str(i))
        await asyncio.sleep(0)
    await asyncio.sleep(0)
    assert conn.dropped and dropped == [True] and sink.closed == (4008, "too slow; resync")
    writer.cancel()
    with pytest.raises(asyncio.CancelledError):
        await writer


async def test_a_close_that_fails_because_the_client_has_gone_is_not_reported_as_an_error(
        ) -> None:
    """Dropping a slow client closes its socket in a task; when the client has already gone,
    Starlette's close raises (WebSocketDisconnect, 1006). That must end quietly: the soak
    found asyncio reporting "Task exception was never retrieved" at ERROR for it."""
    reported: list[dict] = []
    loop = asyncio.get_running_loop()
    loop.set_exception_handler(lambda _loop, context: reported.append(context))
    closes: list[tuple[int, str]] = []

    async def gone(code: int, reason: str) -> None:
        closes.append((code, reason))
        raise WebSocketDisconnect(code=1006)

    try:
        for _ in range(3):
            sink = Sink()
            conn = Connection("p", sink.send_text, gone, 1)
            conn.push_text("1")
            conn.push_text("2")  # the queue is full: dropped, its close task started
            full = Connection("q", sink.send_text, gone, 1)
            full.push_text("1")
            full.finish((1000, "bye"))  # no room for the end mark: closed by a task too
            del conn, full
        for _ in range(3):
            await asyncio.sleep(0)
        gc.collect()  # a task's unretrieved exception is reported when it is collected
        await asyncio.sleep(0)
    finally:
        loop.set_exception_handler(None)
    assert closes == [(4008, "too slow; resync"), (1000, "bye")] * 3
    assert reported == []


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


async def test_messages_reach_a_real_client_through_the_apps_middlewares_in_order(
        tmp_path) -> None:
    app = create_app(f"sqlite+aiosqlite:///{tmp_path / 'd.db'}")

    async def probe(websocket: WebSocket) -> None:
        await websocket.accept()
        conn = Connection(None, websocket.send_text, websocket.close, 64)
        writer = asyncio.get_running_loop().create_task(conn.writer())
        for i in range(50):
            conn.push_text(f'{{"n": {i}}}')
        conn.finish((1000, "done"))
        await writer

    app.add_api_websocket_route("/ws/probe", probe)
    port = _free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port,
                                           ws="websockets-sansio", log_config=None,
                                           ws_per_message_deflate=False, lifespan="on"))
    serving = asyncio.get_running_loop().create_task(server.serve())
    try:
        for _ in range(200):
            if server.started:
                break
            await asyncio.sleep(0.05)
        async with websockets.connect(f"ws://127.0.0.1:{port}/ws/probe") as client:
            got = [message async for message in client]
        assert got == [f'{{"n": {i}}}' for i in range(50)]
        assert client.close_code == 1000
    finally:
        server.should_exit = True
        await asyncio.wait_for(serving, 10)
