"""A table socket refused (unknown table, wrong token) by a client that has already left: the
refusal has nobody to go to, and that is no error of the server's. Before, Starlette's
WebSocketDisconnect escaped the handler and uvicorn logged "Exception in ASGI application"
at ERROR (the soak counts any server ERROR as a failure)."""

from __future__ import annotations

import asyncio
import socket

import pytest

from tests.support.server import LiveServer

pytestmark = pytest.mark.asyncio

HANDSHAKE = ("GET /ws/tables/{table} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
             "Upgrade: websocket\r\nConnection: Upgrade\r\n"
             "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
             "{auth}\r\n")


async def _hit_and_leave(port: int, table: str, auth: str) -> bool:
    """Open a socket, read the handshake's answer, then reset the connection at once."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(HANDSHAKE.format(table=table, port=port, auth=auth).encode())
    await writer.drain()
    status = await reader.readline()
    sock = writer.get_extra_info("socket")
    # an RST, not a polite close: the server's next write fails as a vanished client's does
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
    writer.close()
    return b" 101 " in status


async def test_refusing_a_client_that_has_gone_logs_no_error(tmp_path) -> None:
    live = LiveServer(f"sqlite+aiosqlite:///{tmp_path / 'gone.db'}", tmp_path / "data")
    live.start()
    try:
        hits = [_hit_and_leave(live.port, f"no-such-table-{i}",
                               "Authorization: Bearer wrong-token\r\n" if i % 2 else "")
                for i in range(60)]
        upgraded = await asyncio.gather(*hits)
        assert all(upgraded)  # each was accepted, then refused by the handler
        await asyncio.sleep(1.5)  # the handlers finish answering nobody
    finally:
        live.stop()
    log = live.log_path.read_text(errors="replace")
    errors = [line for line in log.splitlines() if " ERROR " in line or "Traceback" in line
              or line.startswith("ERROR")]
    assert errors == [], "\n".join(e[:400] for e in errors[:3])
