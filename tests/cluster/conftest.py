"""A Redis server for the multi-process tests (Debian's redis-server, started here)."""

from __future__ import annotations

import pytest

from tests.support.redis import RedisServer


@pytest.fixture(scope="session")
def redis_server():
    server = RedisServer.find()
    if server is None:
        pytest.fail("redis-server is not installed; `python3 -m app test` installs it")
    server.start()
    yield server
    server.stop()
