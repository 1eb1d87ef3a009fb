"""Shared fixtures: databases (SQLite and PostgreSQL) and a real server in a subprocess."""

from __future__ import annotations

import os
import secrets
from collections import Counter
from typing import Any

import pytest

from tests.support.postgres import PostgresCluster
from tests.support.server import LiveServer

IN_CI = os.environ.get("CI", "").lower() == "true"


def duplicate_ids(ids: list[str]) -> list[str]:
    """Node ids that more than one collected test carries."""
    seen = Counter(ids)
    return sorted(nodeid for nodeid, n in seen.items() if n > 1)


@pytest.hookimpl(optionalhook=True)  # a run without pytest-xdist (-p no:xdist) has no such hook
def pytest_xdist_node_collection_finished(node: Any, ids: list[str]) -> None:
    """A spread run (app/cli.py ``spread``) keeps one test per node id: tests sharing an id
    (schemathesis gives all of a test's operations one) would go untested without a word.
    Refused instead; such tests run in a pytest of their own (tests/api/test_schemathesis.py)."""
    if twins := duplicate_ids(ids):
        raise pytest.UsageError(f"tests sharing a node id in a spread run: {twins[:5]}")


@pytest.fixture(scope="session")
def postgres_cluster():
    cluster = PostgresCluster.find()
    if cluster is None:
        if IN_CI:
            pytest.fail("PostgreSQL is not installed; `python3 -m app test` installs it")
        pytest.skip("PostgreSQL is not installed here")
    cluster.start()
    yield cluster
    cluster.stop()


@pytest.fixture(params=["sqlite", "postgres"])
def database_url(request: pytest.FixtureRequest, tmp_path) -> str:
    """A fresh, empty database of each kind."""
    if request.param == "sqlite":
        return f"sqlite+aiosqlite:///{tmp_path / 'test.db'}"
    cluster: PostgresCluster = request.getfixturevalue("postgres_cluster")
    return cluster.new_database(f"t_{secrets.token_hex(6)}")


@pytest.fixture
def server(database_url: str, tmp_path):
    """A real uvicorn server on a free port, migrated, serving ``database_url``."""
    live = LiveServer(database_url, tmp_path / "data")
    live.start()
    yield live
    live.stop()


@pytest.fixture(scope="module")
def shared_server(tmp_path_factory: pytest.TempPathFactory):
    """One SQLite-backed server for a whole module of REST tests."""
    tmp = tmp_path_factory.mktemp("srv")
    live = LiveServer(f"sqlite+aiosqlite:///{tmp / 'test.db'}", tmp / "data")
    live.start()
    yield live
    live.stop()
