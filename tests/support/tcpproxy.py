"""A TCP forwarder in its own process, to cut one client off a server (Redis, say) while
others still reach it: SIGSTOP it and its connections hang (as with a paused server or a
silent network), kill it and they break (as with a dead one).

Run: ``python -m tests.support.tcpproxy LISTEN_PORT TARGET_PORT`` (both on 127.0.0.1).
"""

from __future__ import annotations

import asyncio
import signal
import subprocess
import sys
import time
from socket import create_connection

from tests.support.server import ROOT, free_port


async def _pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    try:
        while data := await reader.read(65536):
            writer.write(data)
            await writer.drain()
    except (ConnectionError, OSError):
        pass
    finally:
        writer.close()


async def _serve(listen: int, target: int) -> None:
    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            up_reader, up_writer = await asyncio.open_connection("127.0.0.1", target)
        except OSError:
            writer.close()
            return
        await asyncio.gather(_pipe(reader, up_writer), _pipe(up_reader, writer))

    server = await asyncio.start_server(handle, "127.0.0.1", listen)
    async with server:
        await server.serve_forever()


class TcpProxy:
    """The forwarder as a child process of the test: ``pause``, ``resume``, ``kill``,
    ``start`` again on the same port."""

    def __init__(self, target_port: int) -> None:
        self.target_port = target_port
        self.port = free_port()
        self.process: subprocess.Popen | None = None

    def url(self, path: str = "/0") -> str:
        return f"redis://127.0.0.1:{self.port}{path}"

    def start(self) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "tests.support.tcpproxy", str(self.port),
             str(self.target_port)], cwd=ROOT)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            try:
                create_connection(("127.0.0.1", self.port), timeout=1).close()
                return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("the TCP proxy did not start")

    def pause(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGSTOP)

    def resume(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGCONT)

    def kill(self) -> None:
        if self.process is not None:
            self.process.send_signal(signal.SIGCONT)  # a stopped process dies on SIGKILL too
            self.process.kill()
            self.process.wait(timeout=10)
            self.process = None


if __name__ == "__main__":
    asyncio.run(_serve(int(sys.argv[1]), int(sys.argv[2])))
