"""A connection that never sends a whole request is closed after a while.

uvicorn arms its keep-alive timeout only after a first response: a client that opens a TCP
connection and sends nothing (or never finishes its request's headers) is kept forever,
one file descriptor each, until the process has none left and accepts nobody. This HTTP
protocol (uvicorn's own, as ``http="auto"`` picks it) closes such a connection after
``LUDOTECA_FIRST_REQUEST_SECONDS`` (30 s). A connection that has begun a request, or been
upgraded to a WebSocket (the WebSocket protocol's pings watch it from then on), is left
alone.
"""

from __future__ import annotations

import asyncio
from typing import Any

from uvicorn.protocols.http.auto import AutoHTTPProtocol

from app.config import get_settings


class FirstRequestTimeout(AutoHTTPProtocol):  # type: ignore[misc,valid-type]
    """uvicorn's HTTP protocol, closing a connection whose first request never comes."""

    def connection_made(self, transport: Any) -> None:
        super().connection_made(transport)
        loop = asyncio.get_running_loop()
        self._first_request = loop.call_later(get_settings().first_request_seconds,
                                              self._no_request)

    def connection_lost(self, exc: Exception | None) -> None:
        self._first_request.cancel()
        super().connection_lost(exc)

    def _no_request(self) -> None:
        transport = self.transport
        if transport.is_closing() or transport.get_protocol() is not self:
            return  # closed already, or a WebSocket now
        if getattr(self, "cycle", None) is not None:
            return  # a request has begun: uvicorn's own timeouts apply
        transport.close()
