"""Shared fixtures: databases (SQLite and PostgreSQL) and a real server in a subprocess."""

from __future__ import annotations

import os
import secrets
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
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


def slow_files_first(items: list[pytest.Item]) -> list[pytest.Item]:
    """The files that hold a slow test first, the others after them, each in collection
    order and each file's tests together: the longest tests (a soak, an image build, the
    cluster's restarts) start at once on the workers while the rest fill the others in,
    instead of starting last and making the whole run wait for them; and tests/browser's
    files stay one run, so a worker launches its Chromium once (tests/browser/conftest.py)."""
    slow_files = {item.nodeid.split("::")[0] for item in items
                  if item.get_closest_marker("slow")}
    return sorted(items, key=lambda item: item.nodeid.split("::")[0] not in slow_files)


@pytest.hookimpl(tryfirst=True)  # before ``-m`` deselects
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    items[:] = slow_files_first(items)


@pytest.fixture(autouse=True)
def umask_kept() -> Iterator[None]:
    """Each test leaves the next one the umask it found: ``serve`` and ``backup`` make their
    process create private files (umask 077, app/datadir.py), and a test that runs them in
    the worker's own process (tests/cluster/test_forward_keepalive.py calls ``cli.serve``)
    would otherwise make every later file of that worker 0600, the image test's included
    (its app user could no longer run what it installed)."""
    mask = os.umask(0o022)
    os.umask(mask)
    yield
    os.umask(mask)


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


def fresh_database(request: pytest.FixtureRequest, kind: str, where: Path) -> str:
    """The URL of a new, empty database: an SQLite file in ``where``, or a database of the
    session's PostgreSQL."""
    if kind == "sqlite":
        return f"sqlite+aiosqlite:///{where / 'test.db'}"
    cluster: PostgresCluster = request.getfixturevalue("postgres_cluster")
    return cluster.new_database(f"t_{secrets.token_hex(6)}")


def serving(database_url: str, where: Path) -> Iterator[LiveServer]:
    """A real uvicorn server on a free port, migrated, serving ``database_url``, for as
    long as the fixture that yields from this lives."""
    live = LiveServer(database_url, where / "data")
    live.start()
    yield live
    live.stop()


@pytest.fixture(params=["sqlite", "postgres"])
def database_url(request: pytest.FixtureRequest, tmp_path) -> str:
    """A fresh, empty database of each kind."""
    return fresh_database(request, request.param, tmp_path)


@pytest.fixture
def server(database_url: str, tmp_path):
    """A real uvicorn server on a free port, migrated, serving ``database_url``."""
    yield from serving(database_url, tmp_path)


@pytest.fixture(scope="module")
def shared_server(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory):
    """One SQLite-backed server for a whole module of REST tests."""
    tmp = tmp_path_factory.mktemp("srv")
    yield from serving(fresh_database(request, "sqlite", tmp), tmp)


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def shared_server_each_db(request: pytest.FixtureRequest,
                          tmp_path_factory: pytest.TempPathFactory):
    """One server per module on each database, for the tests of what a game stores and
    reads back (its actions, its record, its replay): each database keeps those its own
    way. Each test makes its own players and tables; a test that lists every match or
    restarts its server takes ``server`` (a fresh one of its own) instead."""
    tmp = tmp_path_factory.mktemp("srv")
    yield from serving(fresh_database(request, request.param, tmp), tmp)


@pytest.fixture(scope="session")
def worker_server(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory):
    """One SQLite-backed server for every test of a worker (a pytest-xdist process) that
    needs none of its own: each makes its own players and tables, lists nothing it did not
    make, and neither restarts nor configures the server."""
    tmp = tmp_path_factory.mktemp("worker-srv")
    yield from serving(fresh_database(request, "sqlite", tmp), tmp)
