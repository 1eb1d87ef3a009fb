"""A connection leaves its table when its socket ends, whatever ends it (issue 47).

Against a real server subprocess over real sockets: 1,000 connect/close cycles (spectators
and seated players; polite close frames, TCP resets after the first view, resets during the
handshake, clients that read nothing and then go) must leave the server as it was: its
gauges back to their baseline, its memory within 5 % of what the same storm's warm-up left,
and the next push reaching the live sockets only. A client that stops reading while the
table keeps pushing is closed with 4008 (docs/api.md) and leaves the table.
"""

from __future__ import annotations

import asyncio
import base64
import os
import random
import re
import socket
import struct
import time
from pathlib import Path

import httpx

# the server (conftest.py) has a short first-request timeout: the memory is measured once
# its timers have fired (each holds the HTTP protocol object of a socket upgraded to a
# WebSocket until then: app/idle.py), on what outlives a socket's end only
from tests.reliability.conftest import FIRST_REQUEST_SECONDS
from tests.reliability.test_storms import rss_mb
from tests.support.client import SeatClient, connect_and_start, play_to_end, seat_players
from tests.support.server import OPERATOR, LiveServer

CYCLES = 1_000
AT_ONCE = 8  # cycles under way together (a seated player's are one at a time)
SLOW_CLIENT = 4008


def gauges(server: LiveServer) -> dict[str, float]:
    """``ludoteca_table_connections`` and ``ludoteca_websockets_open`` from /metrics."""
    text = httpx.get(f"{server.url}/metrics", headers=OPERATOR, timeout=10).text
    found = {}
    for name in ("ludoteca_table_connections", "ludoteca_websockets_open"):
        match = re.search(rf"^{name} (\S+)$", text, re.MULTILINE)
        assert match, f"{name} not in /metrics"
        found[name] = float(match.group(1))
    return found


async def settled(server: LiveServer, want: dict[str, float], seconds: float = 60) -> None:
    """Wait until the gauges read ``want`` (a socket's end reaches the server a moment after
    the client is done with it); fail with what they read after ``seconds``."""
    deadline = time.monotonic() + seconds
    while (now := await asyncio.to_thread(gauges, server)) != want:
        assert time.monotonic() < deadline, f"gauges {now}, expected {want}"
        await asyncio.sleep(0.2)


def spectators(server: LiveServer, table_id: str) -> int:
    """How many spectators the table's summary counts (the table's own record of them)."""
    summary = httpx.get(f"{server.url}/api/tables/{table_id}", timeout=10).json()
    return int(summary["spectators"]["count"])


class RawSocket:
    """A WebSocket client written out by hand, for the ends a polite client never makes: a
    TCP reset, a close in the middle of the handshake, a client that reads nothing."""

    def __init__(self, server: LiveServer, table_id: str, token: str | None = None,
                 receive_buffer: int | None = None) -> None:
        self.sock = socket.socket()
        if receive_buffer is not None:  # before connecting: the window is agreed then
            self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
        self.sock.connect(("127.0.0.1", server.port))
        key = base64.b64encode(os.urandom(16)).decode()
        auth = f"Authorization: Bearer {token}\r\n" if token else ""
        self.sock.sendall(
            f"GET /ws/tables/{table_id} HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n"
            f"Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
            f"Sec-WebSocket-Version: 13\r\n{auth}\r\n".encode())
        self.buffer = b""

    def read_response(self) -> None:
        while b"\r\n\r\n" not in self.buffer:
            chunk = self.sock.recv(65536)
            assert chunk, "closed before the handshake's answer"
            self.buffer += chunk
        head, self.buffer = self.buffer.split(b"\r\n\r\n", 1)
        assert head.startswith(b"HTTP/1.1 101"), head

    def frames(self, timeout: float = 30) -> list[tuple[int, bytes]]:
        """Every frame the server sends until it closes the connection (opcode, payload)."""
        self.sock.settimeout(timeout)
        while chunk := self.sock.recv(1 << 20):
            self.buffer += chunk
        out, data = [], self.buffer
        while len(data) >= 2:
            n, start = data[1] & 0x7F, 2
            if n == 126:
                n, start = struct.unpack("!H", data[2:4])[0], 4
            elif n == 127:
                n, start = struct.unpack("!Q", data[2:10])[0], 10
            if len(data) < start + n:
                break
            out.append((data[0] & 0x0F, data[start:start + n]))
            data = data[start + n:]
        return out

    def first_frame(self) -> None:
        while len(self.buffer) < 2:
            chunk = self.sock.recv(65536)
            assert chunk, "closed before the first view"
            self.buffer += chunk

    def send(self, text: bytes) -> None:
        """One text frame, masked as a client's are."""
        mask = os.urandom(4)
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(text))
        assert len(text) < 126
        self.sock.sendall(bytes((0x81, 0x80 | len(text))) + mask + masked)

    def close_politely(self) -> None:
        """A close frame (masked, as a client's are), then the socket closed."""
        mask = os.urandom(4)
        payload = struct.pack("!H", 1000)
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        self.sock.sendall(bytes((0x88, 0x80 | len(payload))) + mask + masked)
        self.sock.close()

    def reset(self) -> None:
        """Abort: linger zero, so closing sends a TCP reset, no close frame, no FIN."""
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        self.sock.close()


async def one_cycle(server: LiveServer, table_id: str, kind: int, token: str | None) -> None:
    """Connect and end one socket, the ``kind`` of end chosen by the caller."""
    if kind == 0:  # polite: a close frame after the first view
        async with SeatClient(server.ws_url, table_id, token):
            pass
        return

    def raw() -> None:
        client = RawSocket(server, table_id, token,
                           receive_buffer=4096 if kind == 3 else None)
        if kind == 1:  # a reset after the first view
            client.read_response()
            client.first_frame()
            client.reset()
        elif kind == 2:  # a reset in the middle of the handshake
            client.reset()
        else:  # reads nothing at all while the table pushes, then goes politely
            time.sleep(0.05)
            client.close_politely()

    await asyncio.to_thread(raw)


async def storm(server: LiveServer, table_id: str, tokens: list[str]) -> None:
    """``CYCLES`` connect/close cycles, ``AT_ONCE`` at a time: every kind of end, each as a
    spectator and as a seated player (each player one cycle at a time: at most 5
    connections per player to one table)."""
    queue: asyncio.Queue[int] = asyncio.Queue()
    for i in range(CYCLES):
        queue.put_nowait(i)
    players = asyncio.Queue[str]()
    for token in tokens:
        players.put_nowait(token)

    async def worker() -> None:
        while not queue.empty():
            i = queue.get_nowait()
            kind = i % 4
            if (i // 4) % 2:  # seated
                token = await players.get()
                try:
                    await one_cycle(server, table_id, kind, token)
                finally:
                    players.put_nowait(token)
            else:
                await one_cycle(server, table_id, kind, None)

    await asyncio.gather(*(worker() for _ in range(AT_ONCE)))


async def test_a_connect_close_storm_leaves_nothing_behind(server: LiveServer) -> None:
    players, table, _ = seat_players(server.url, "hanabi", 4)
    seated = await connect_and_start(server.ws_url, players, table)
    watcher = SeatClient(server.ws_url, table["id"], None)
    await watcher.open()
    live = [*seated, watcher]
    baseline = {"ludoteca_table_connections": len(live),
                "ludoteca_websockets_open": len(live)}
    assert gauges(server) == baseline
    tokens = [p.token for p in players]

    async def keep_reading(client: SeatClient) -> None:
        """The live sockets read all along (one that did not would be dropped as slow)."""
        while True:
            await client.recv(timeout=600)
            del client.received[:-1]

    readers = [asyncio.get_running_loop().create_task(keep_reading(c)) for c in live]
    try:
        await storm(server, table["id"], tokens)  # the warm-up: the allocator grows here
        await settled(server, baseline)
        await asyncio.sleep(FIRST_REQUEST_SECONDS + 1)
        warm = rss_mb(server)
        await storm(server, table["id"], tokens)
        await settled(server, baseline)
        await asyncio.sleep(FIRST_REQUEST_SECONDS + 1)
        after = rss_mb(server)
    finally:
        for reader in readers:
            reader.cancel()
        await asyncio.gather(*readers, return_exceptions=True)
    print(f"\nRSS after a warm-up of {CYCLES} cycles: {warm:.1f} MB; after {CYCLES} more: "
          f"{after:.1f} MB")
    assert after <= warm * 1.05

    # a push now reaches the live sockets, and only those are the table's
    version = max(c.state["version"] for c in seated)
    for client in live:
        await client.wait_version(version)
    mover = next(c for c in seated if c.my_turn() and c.state["version"] == version)
    legal = mover.state["legal_actions"]
    await mover.act_until_accepted(next((a for a in legal if a["type"] != "play"), legal[0]))
    for client in live:
        assert (await client.wait_version(version + 1))["version"] == version + 1
    summary = httpx.get(f"{server.url}/api/tables/{table['id']}", timeout=10).json()
    assert summary["spectators"]["count"] == 1
    assert all(s["connected"] for s in summary["seats"])
    assert gauges(server) == baseline
    for client in live:
        await client.close()
    await settled(server, {"ludoteca_table_connections": 0, "ludoteca_websockets_open": 0})


def unsent_bytes(server: LiveServer, client: socket.socket) -> int:
    """What the server's kernel holds unsent for ``client`` (/proc/net/tcp ``tx_queue``)."""
    port = client.getsockname()[1]
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        if int(fields[1].split(":")[1], 16) == server.port and \
                int(fields[2].split(":")[1], 16) == port:
            return int(fields[4].split(":")[0], 16)
    raise AssertionError("no such connection")


SYNC = b'{"type":"sync"}'


async def test_a_client_that_stops_reading_is_closed_with_4008_and_leaves(
        server: LiveServer) -> None:
    """It asks for the table's state over and over and reads none of it. Once the server's
    buffers for it are full it is dropped as too slow: while the table pushes slowly from
    then on (a full queue alone would take minutes) and before the server's keepalive (a
    ping every 20 s, 20 s to answer) gives up on it with 1011."""
    players, table, _ = seat_players(server.url, "allegra", 2)
    seated = await connect_and_start(server.ws_url, players, table)
    # a finished game: its state, with the whole history, is ~47 KB
    await play_to_end(seated, random.Random(7))
    deaf = await asyncio.to_thread(RawSocket, server, table["id"], None, 4096)
    try:
        await asyncio.to_thread(deaf.read_response)
        # from here on it reads nothing; it asks for the state (25 times a second: under
        # the message rate) until the server's kernel holds no more for it; the server's
        # own buffer for it fills meanwhile
        deadline, last, same = time.monotonic() + 30, -1, 0
        while same < 3:
            assert time.monotonic() < deadline, "the server's buffers never filled"
            for _ in range(10):
                await asyncio.to_thread(deaf.send, SYNC)
            await asyncio.sleep(0.4)
            unsent = unsent_bytes(server, deaf.sock)
            same, last = (same + 1 if unsent == last else 0), unsent
        # then the table pushes slowly: a state every 2 s
        deadline = time.monotonic() + 30
        while (await asyncio.to_thread(spectators, server, table["id"])) > 0:
            assert time.monotonic() < deadline, "the client that reads nothing is still there"
            await asyncio.to_thread(deaf.send, SYNC)
            await asyncio.sleep(2)
        assert (await asyncio.to_thread(gauges, server))["ludoteca_table_connections"] == 2
        # it reads again: everything sent before the drop, then the close with 4008
        frames = await asyncio.to_thread(deaf.frames)
    finally:
        deaf.sock.close()
        for client in seated:
            await client.close()
    assert frames and frames[-1][0] == 0x8, [op for op, _ in frames[-3:]]
    assert struct.unpack("!H", frames[-1][1][:2])[0] == SLOW_CLIENT
    await settled(server, {"ludoteca_table_connections": 0, "ludoteca_websockets_open": 0})
