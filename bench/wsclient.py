"""A lean WebSocket client for load generators: an asyncio protocol, no library.

A Python load generator built on a full WebSocket library spends more CPU per message than
the server it measures (bench/README.md: the generator's own loop lagged 300 ms at 1,000
actions/s). This one does the least a client may: the opening handshake, unmasked server
frames read in place, masked client frames with an all-zero key (a valid mask: the payload is
sent as is), a pong for each ping, a close answered. It does not fragment, compress or check
UTF-8; it is for benchmarks against our own server only.
"""

from __future__ import annotations

import asyncio
import base64
import os
import struct
from collections.abc import Callable
from urllib.parse import urlsplit

OP_TEXT, OP_BINARY, OP_CLOSE, OP_PING, OP_PONG = 0x1, 0x2, 0x8, 0x9, 0xA


def client_frame(opcode: int, payload: bytes) -> bytes:
    """A final client frame, masked with the key 0 (so the payload needs no XOR)."""
    n = len(payload)
    if n < 126:
        head = struct.pack("!BB", 0x80 | opcode, 0x80 | n)
    elif n < 65536:
        head = struct.pack("!BBH", 0x80 | opcode, 0x80 | 126, n)
    else:
        head = struct.pack("!BBQ", 0x80 | opcode, 0x80 | 127, n)
    return head + b"\0\0\0\0" + payload


class LeanSocket(asyncio.Protocol):
    """One client WebSocket; ``on_message(payload)`` is called for each text frame."""

    def __init__(self, on_message: Callable[[bytes], None]) -> None:
        self.on_message = on_message
        self.transport: asyncio.Transport | None = None
        self.opened: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.closed: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._buffer = bytearray()
        self._handshaken = False
        self._request = b""

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]
        transport.write(self._request)  # type: ignore[attr-defined]

    def data_received(self, data: bytes) -> None:
        buffer = self._buffer
        buffer += data
        if not self._handshaken:
            end = buffer.find(b"\r\n\r\n")
            if end < 0:
                return
            status = bytes(buffer[:end]).split(b"\r\n", 1)[0]
            if b" 101 " not in status:
                self._fail(ConnectionError(f"handshake refused: {status!r}"))
                return
            del buffer[:end + 4]
            self._handshaken = True
            self.opened.set_result(None)
        at = 0
        size = len(buffer)
        while size - at >= 2:
            b0, b1 = buffer[at], buffer[at + 1]
            n = b1 & 0x7F
            start = at + 2
            if n == 126:
                if size - at < 4:
                    break
                n = (buffer[at + 2] << 8) | buffer[at + 3]
                start = at + 4
            elif n == 127:
                if size - at < 10:
                    break
                n = struct.unpack_from("!Q", buffer, at + 2)[0]
                start = at + 10
            end = start + n
            if end > size:
                break
            opcode = b0 & 0x0F
            if opcode == OP_TEXT or opcode == OP_BINARY:
                self.on_message(bytes(buffer[start:end]))
            elif opcode == OP_PING:
                self.send_frame(OP_PONG, bytes(buffer[start:end]))
            elif opcode == OP_CLOSE:
                self.send_frame(OP_CLOSE, bytes(buffer[start:start + 2]))
                if self.transport is not None:
                    self.transport.close()
            at = end
        if at:
            del buffer[:at]

    def send_frame(self, opcode: int, payload: bytes) -> None:
        if self.transport is not None and not self.transport.is_closing():
            self.transport.write(client_frame(opcode, payload))

    def send_text(self, text: str | bytes) -> None:
        self.send_frame(OP_TEXT, text.encode() if isinstance(text, str) else text)

    def close(self) -> None:
        if self.transport is not None and not self.transport.is_closing():
            self.send_frame(OP_CLOSE, struct.pack("!H", 1000))
            self.transport.close()

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.opened.done():
            self.opened.set_exception(exc or ConnectionError("closed during the handshake"))
        if not self.closed.done():
            self.closed.set_result(None)

    def _fail(self, exc: Exception) -> None:
        if not self.opened.done():
            self.opened.set_exception(exc)
        if self.transport is not None:
            self.transport.close()


async def open_socket(url: str, on_message: Callable[[bytes], None],
                      headers: dict[str, str] | None = None) -> LeanSocket:
    """Connect to ``ws://host:port/path?query`` and complete the handshake."""
    parts = urlsplit(url)
    path = parts.path + (f"?{parts.query}" if parts.query else "")
    key = base64.b64encode(os.urandom(16)).decode()
    lines = [f"GET {path} HTTP/1.1", f"Host: {parts.netloc}", "Upgrade: websocket",
             "Connection: Upgrade", f"Sec-WebSocket-Key: {key}", "Sec-WebSocket-Version: 13",
             *(f"{k}: {v}" for k, v in (headers or {}).items())]
    protocol = LeanSocket(on_message)
    protocol._request = ("\r\n".join(lines) + "\r\n\r\n").encode()
    loop = asyncio.get_running_loop()
    await loop.create_connection(lambda: protocol, parts.hostname, parts.port)
    await protocol.opened
    return protocol
