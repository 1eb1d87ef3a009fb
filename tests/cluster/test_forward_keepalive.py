"""The forwarder's connections to the other processes of a cluster are dropped when idle
well before those processes close them (app/config.py ``CLIENT_IDLE_SECONDS``).

uvicorn closes an HTTP connection idle ``KEEP_ALIVE_SECONDS``; httpx's default is to keep one
as long. A request sent on a connection just as the owner closes it fails with
``httpx.ReadError`` (seen once in ~40,000 calls of bench.floor), and the forwarder answers a
spurious 503 "did not answer" for a request the owner never saw."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
import uvicorn

from app import cli
from app.api.forward import ForwardMiddleware
from app.config import CLIENT_IDLE_SECONDS, KEEP_ALIVE_SECONDS
from tests.support.server import free_port


async def peer_port(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """Answers with the port the request came from: one port per TCP connection."""
    if scope["type"] != "http":
        return
    await send({"type": "http.response.start", "status": 200, "headers": []})
    await send({"type": "http.response.body", "body": str(scope["client"][1]).encode()})


@pytest.mark.asyncio
async def test_an_idle_connection_to_the_owner_is_dropped_before_the_owner_closes_it() -> None:
    assert CLIENT_IDLE_SECONDS < KEEP_ALIVE_SECONDS - 1  # a margin for a busy loop's lateness
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(peer_port, host="127.0.0.1", port=port,
                                           timeout_keep_alive=KEEP_ALIVE_SECONDS,
                                           log_config=None, lifespan="off"))
    serving = asyncio.create_task(server.serve())
    forwarder = ForwardMiddleware(peer_port)
    try:
        while not server.started:
            await asyncio.sleep(0.01)
        client = forwarder._client()
        url = f"http://127.0.0.1:{port}/"
        first = (await client.get(url)).text
        again = (await client.get(url)).text
        assert again == first  # connections are still kept and reused while busy
        await asyncio.sleep(CLIENT_IDLE_SECONDS + 0.3)  # idle past the forwarder's limit only
        after = (await client.get(url)).text
        assert after != first  # a new connection: the idle one was not reused
    finally:
        if forwarder._http is not None:
            await forwarder._http.aclose()
        server.should_exit = True
        await serving


def test_the_server_closes_idle_connections_after_keep_alive_seconds(monkeypatch) -> None:
    """``python -m app serve`` runs uvicorn with the keep-alive the forwarder counts on."""
    seen: dict[str, Any] = {}
    monkeypatch.setattr(uvicorn, "run", lambda app, **kwargs: seen.update(kwargs))
    monkeypatch.setattr("app.logs.configure", lambda log_format: None)
    monkeypatch.setattr("app.logs.log_start", lambda host, port: None)
    # nor lock and tighten the checkout's own ./data for the rest of this worker's life
    monkeypatch.setattr("app.datadir.open_for_server", lambda settings: [])
    cli.serve("127.0.0.1", 0)
    assert seen["timeout_keep_alive"] == KEEP_ALIVE_SECONDS
