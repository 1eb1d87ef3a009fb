"""A connection's outbound path: messages written straight into the socket while nothing
waits before them, through the queue otherwise, always in order; and the direct sender found
behind the real app's middleware chain under uvicorn's websockets-sansio protocol."""

from __future__ import annotations

import asyncio
import gc
import socket

import pytest
import uvicorn
import websockets
from starlette.websockets import WebSocket, WebSocketDisconnect

from app.main import create_app
from app.tables.connections import Connection, direct_sender, text_frame

pytestmark = pytest.mark.asyncio


class Sink:
    """A socket with both paths: ``direct`` accepts while ``open``; ``send_text`` (the
    awaited path) records what the writer task sends."""

    def __init__(self) -> None:
        self.open = True
        self.wire: list[str] = []  # what reached the socket, in order, by either path
        self.direct_calls = 0
        self.closed: tuple[int, str] | None = None

    def direct(self, payload: bytes) -> bool:
        assert type(payload) is bytes  # the text's UTF-8, as the socket sends it
        self.direct_calls += 1
        if not self.open:
            return False
        self.wire.append(payload.decode())
        return True

    async def send_text(self, text: str) -> None:
        self.wire.append(text)

    async def close(self, code: int, reason: str) -> None:
        self.closed = (code, reason)


async def test_direct_while_idle_queued_behind_anything_waiting_and_never_after_finish(
        ) -> None:
    sink = Sink()
    conn = Connection("p", sink.send_text, sink.close, 8, direct=sink.direct)
    conn.push_text("1")
    conn.push_text("2")
    assert sink.wire == ["1", "2"]  # written at once: no writer task ran
    sink.open = False  # back-pressure: the transport paused
    conn.push_text("3")
    sink.open = True
    conn.push_text("4")  # "3" still waits in the queue: "4" must not overtake it
    assert sink.wire == ["1", "2"]
    writer = asyncio.get_running_loop().create_task(conn.writer())
    await asyncio.sleep(0)
    assert sink.wire == ["1", "2", "3", "4"]
    conn.push_text("5")  # the queue has drained: direct again
    assert sink.wire[-1] == "5"
    conn.finish((1000, "bye"))
    conn.push_text("6")  # after finish: nothing goes out past the close
    await asyncio.wait_for(writer, 1)
    assert sink.wire == ["1", "2", "3", "4", "5"] and sink.closed == (1000, "bye")


async def test_a_slow_client_is_still_dropped_when_the_direct_path_is_paused() -> None:
    sink = Sink()
    sink.open = False
    conn = Connection("p", sink.send_text, sink.close, 2, direct=sink.direct)
    dropped: list[bool] = []
    conn.on_end = lambda: dropped.append(True)
    for i in range(3):
        conn.push_text(str(i))
    await asyncio.sleep(0)
    assert conn.dropped and dropped == [True] and sink.closed == (4008, "too slow; resync")


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
            sink.open = False
            conn = Connection("p", sink.send_text, gone, 1, direct=sink.direct)
            conn.push_text("1")
            conn.push_text("2")  # the queue is full: dropped, its close task started
            full = Connection("q", sink.send_text, gone, 1, direct=sink.direct)
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


@pytest.mark.parametrize("lacking", [False, True])
async def test_the_sender_is_found_behind_the_apps_middlewares_and_writes_in_order(
        tmp_path, monkeypatch, lacking: bool) -> None:
    if lacking:  # a uvicorn without what the sender reads: the awaited path, same messages
        import app.tables.connections as connections
        monkeypatch.setattr(connections, "_PROTOCOL_NEEDS",
                            connections._PROTOCOL_NEEDS + ("no_such_attribute",))
    app = create_app(f"sqlite+aiosqlite:///{tmp_path / 'd.db'}")
    found: list[bool] = []

    async def probe(websocket: WebSocket) -> None:
        await websocket.accept()
        direct = direct_sender(websocket._send)
        found.append(direct is not None)
        conn = Connection(None, websocket.send_text, websocket.close, 64, direct=direct)
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
        assert found == [not lacking]
        assert got == [f'{{"n": {i}}}' for i in range(50)]
        assert client.close_code == 1000
    finally:
        server.should_exit = True
        await asyncio.wait_for(serving, 10)


@pytest.mark.parametrize("size", [0, 1, 125, 126, 127, 65535, 65536, 70000])
async def test_the_text_frame_is_the_one_websockets_makes(size: int) -> None:
    from websockets.frames import Frame, Opcode

    payload = ("é" * size).encode()[:size]
    assert text_frame(payload) == Frame(Opcode.TEXT, payload).serialize(mask=False, extensions=[])
