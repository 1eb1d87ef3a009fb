"""docker-compose's "scale" profile: two processes on one PostgreSQL, one Redis and ONE
data volume. Both start (each holds the data directory's lock shared, app/datadir.py), and
``restore`` is refused while either of them runs, the database left as it was; once both
are stopped it goes ahead."""

from __future__ import annotations

import secrets
from pathlib import Path

import httpx
import pytest

from tests.support.cli import ludoteca, one_line_refusal
from tests.support.client import seat_players
from tests.support.server import LiveServer

pytestmark = pytest.mark.postgres


def test_replicas_share_a_data_dir_and_keep_restore_out(postgres_cluster, redis_server,
                                                         tmp_path: Path) -> None:
    url = postgres_cluster.new_database(f"shared_{secrets.token_hex(4)}")
    plain = url.replace("postgresql+asyncpg://", "postgresql://")
    data = tmp_path / "data"
    env = {"LUDOTECA_REDIS_URL": redis_server.url}
    a = LiveServer(url, data, env=env)
    b = LiveServer(url, data, env=env)
    a.start()  # migrates first, as app-b waits for app-a in docker-compose.yml
    try:
        b.start()
        _, table, _ = seat_players(a.url, "hanabi", 2)
        dump = tmp_path / "ludoteca.dump"
        assert ludoteca("backup", dump, data, database_url=plain).returncode == 0
        for running in ([a, b], [b]):
            refusal = one_line_refusal(ludoteca("restore", dump, data, "--force",
                                                database_url=plain))
            assert "server" in refusal, refusal
            got = httpx.get(f"{running[-1].url}/api/tables/{table['id']}", timeout=10)
            assert got.status_code == 200, got.text
            a.stop()  # then only b runs: still refused
    finally:
        a.stop()
        b.stop()
    done = ludoteca("restore", dump, data, "--force", database_url=plain)
    assert done.returncode == 0, done.stderr
