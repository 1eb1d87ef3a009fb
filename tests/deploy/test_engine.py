"""The image built and run by a real container engine (tests/deploy/engine.py), on SQLite
and on PostgreSQL. Runs where podman, or docker with a running daemon, is installed;
skipped elsewhere (`python3 -m app test` does not install an engine)."""

from __future__ import annotations

import secrets

import pytest

from tests.deploy import engine

ENGINE = engine.find_engine()

pytestmark = pytest.mark.skipif(
    ENGINE is None, reason="no container engine here (podman, or docker with its daemon)")


def test_the_image_built_by_an_engine_runs_on_sqlite_and_postgresql(postgres_cluster) -> None:
    url = postgres_cluster.new_database(f"engine_{secrets.token_hex(4)}")
    try:
        figures = engine.run_all(url.replace("postgresql+asyncpg://", "postgresql://"))
    except engine.NoEngine as exc:
        pytest.skip(str(exc))
    print(figures)
    assert figures["postgres"] is True
    assert figures["image_mb"] > figures["base_mb"]
