"""The image built and run by a real container engine (tests/deploy/engine.py), on SQLite
and on PostgreSQL. `python3 -m app test` installs podman (and runc, and debootstrap for the
stand-in base image) from Debian when no engine is here; a machine that still has none skips
this test, except under CI=true, where a missing or unusable engine fails it (CI must build
and run the image, not report a skip)."""

from __future__ import annotations

import os
import secrets

import pytest

from tests.deploy import engine

IN_CI = os.environ.get("CI", "").lower() == "true"


def _no_engine(reason: str) -> None:
    if IN_CI:
        pytest.fail(f"{reason}; `python3 -m app test` installs podman from Debian")
    pytest.skip(reason)


@pytest.mark.slow  # the image built from scratch: minutes
def test_the_image_built_by_an_engine_runs_on_sqlite_and_postgresql(
        request: pytest.FixtureRequest) -> None:
    if engine.find_engine() is None:
        _no_engine("no container engine here (podman, or docker with its daemon)")
    # asked for only now: no PostgreSQL started for a test that ends above
    postgres_cluster = request.getfixturevalue("postgres_cluster")
    url = postgres_cluster.new_database(f"engine_{secrets.token_hex(4)}")
    try:
        figures = engine.run_all(url.replace("postgresql+asyncpg://", "postgresql://"))
    except engine.NoEngine as exc:
        _no_engine(str(exc))
    print(figures)
    assert figures["postgres"] is True
    assert figures["image_mb"] > figures["base_mb"]
