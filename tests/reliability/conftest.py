"""The server the storm tests share: its own process on SQLite, with a short first-request
timeout (``LUDOTECA_FIRST_REQUEST_SECONDS``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.server import LiveServer

# a connection that sends no request is closed after this; the timer also holds uvicorn's
# HTTP protocol object of a socket upgraded to a WebSocket until it fires (app/idle.py)
FIRST_REQUEST_SECONDS = 2


@pytest.fixture
def server(tmp_path: Path):
    live = LiveServer(f"sqlite+aiosqlite:///{tmp_path / 'storm.db'}", tmp_path / "data",
                      env={"LUDOTECA_FIRST_REQUEST_SECONDS": str(FIRST_REQUEST_SECONDS)})
    live.start()
    yield live
    live.stop()
