"""Stay above the libraries (ARCHITECTURE.md, "Boundaries we keep"): app/ reaches uvicorn,
websockets, FastAPI, Starlette, SQLAlchemy (and the database drivers under SQLAlchemy)
through their public APIs only. Read from the source (ast), so a new reach under any of them
fails here:

- a module or name imported from them that starts with ``_`` (``fastapi.routing
  ._IncludedRouter``, ``sqlalchemy.util._concurrency_py3k``), or a module known to be their
  internals (uvicorn's protocol implementations);
- an ``_``-prefixed attribute read on a name bound from them (``starlette.routing._x``,
  ``Route._y``);
- any attribute of the known internals used so far, on any object (a route's
  ``original_router``, aiosqlite's ``_execute``/``_conn``, the pool's ``_pool``...).

The one place still allowed is listed in ``ALLOWED`` with why; nothing else may join it."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LIBRARIES = ("uvicorn", "websockets", "fastapi", "starlette", "sqlalchemy", "aiosqlite",
             "asyncpg")
# modules of theirs an application has no business importing (their implementations)
INTERNAL_MODULES = ("uvicorn.protocols",)
# the internals used so far, flagged on whatever object they are read from: FastAPI's
# included-router layout (app/api/fastpath.py), aiosqlite's thread hop and SQLAlchemy's pool
# queue (app/db/batching.py, tests' pool peeks), uvicorn's and websockets' protocol state
# (the removed direct_sender of app/tables/connections.py)
KNOWN_INTERNALS = frozenset({
    "original_router", "effective_candidates", "include_context", "original_route",
    "_execute", "_conn", "_pool", "_queue", "_IncludedRouter",
    "close_sent", "handshake_complete", "initial_response", "expect_continuation_frame",
    "data_to_send",
})

# (file, what) pairs found today and not yet removed. Each is one reach under a library,
# kept here so that the test fails for anything new, never a place to add to.
ALLOWED = frozenset({
    # FirstRequestTimeout (app/idle.py) subclasses uvicorn's HTTP protocol to close a
    # connection whose first request never comes; uvicorn takes a protocol class through
    # its public ``http=`` setting, but the class subclassed is its implementation's
    ("app/idle.py", "import uvicorn.protocols.http.auto"),
})


def _library(module: str) -> bool:
    return module.split(".")[0] in LIBRARIES


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def offences(source: str) -> Iterator[str]:
    """What ``source`` reaches under the libraries, one line each."""
    tree = ast.parse(source)
    bound: set[str] = set()  # local names bound from a library (modules and their names)
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if not _library(alias.name):
                    continue
                bound.add((alias.asname or alias.name).split(".")[0])
                if any(_private(part) for part in alias.name.split(".")) or \
                        alias.name.startswith(INTERNAL_MODULES):
                    yield f"import {alias.name}"
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0 \
                and _library(node.module):
            if any(_private(part) for part in node.module.split(".")) or \
                    node.module.startswith(INTERNAL_MODULES):
                yield f"import {node.module}"
            for alias in node.names:
                bound.add(alias.asname or alias.name)
                if _private(alias.name):
                    yield f"import {node.module}.{alias.name}"
    for node in ast.walk(tree):
        if not isinstance(node, ast.Attribute):
            continue
        root: ast.expr = node.value
        while isinstance(root, ast.Attribute):
            root = root.value
        rooted = isinstance(root, ast.Name) and root.id in bound
        if rooted and _private(node.attr):
            yield f"private attribute {ast.unparse(node)}"
        elif node.attr in KNOWN_INTERNALS and not (
                isinstance(root, ast.Name) and root.id in ("self", "cls")):
            yield f"attribute {node.attr}"
    for node in ast.walk(tree):  # getattr(x, "original_router") reads it all the same
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
                node.func.id in ("getattr", "hasattr") and len(node.args) >= 2 and \
                isinstance(node.args[1], ast.Constant) and node.args[1].value in KNOWN_INTERNALS:
            yield f"attribute {node.args[1].value}"


def _found() -> set[tuple[str, str]]:
    out = set()
    for path in sorted((ROOT / "app").rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        out |= {(rel, what) for what in offences(path.read_text(encoding="utf-8"))}
    return out


def test_app_uses_the_libraries_public_apis_only() -> None:
    found = _found()
    new = sorted(found - ALLOWED)
    assert not new, "reaches under a library (use its public API): " + "; ".join(
        f"{path}: {what}" for path, what in new)


def test_the_allowlist_holds_only_what_is_still_there() -> None:
    """A reach removed leaves the allowlist too (so it cannot come back unseen)."""
    gone = sorted(ALLOWED - _found())
    assert not gone, f"no longer in app/, remove from ALLOWED: {gone}"


@pytest.mark.parametrize(("source", "expected"), [
    ("from fastapi.routing import _IncludedRouter", ["import fastapi.routing._IncludedRouter"]),
    ("from sqlalchemy.util._concurrency_py3k import greenlet_spawn",
     ["import sqlalchemy.util._concurrency_py3k"]),
    ("import starlette._utils", ["import starlette._utils"]),
    ("from uvicorn.protocols.http.auto import AutoHTTPProtocol",
     ["import uvicorn.protocols.http.auto"]),
    ("import starlette.routing as r\nr._x", ["private attribute r._x"]),
    ("from starlette.routing import Route\nRoute._compile", ["private attribute Route._compile"]),
    ("for r in app.router.routes:\n    getattr(r, 'original_router', None)",
     ["attribute original_router"]),
    ("x = route.effective_candidates()", ["attribute effective_candidates"]),
    ("await driver._execute(work, driver._conn)", ["attribute _execute", "attribute _conn"]),
    ("self._queue.get_nowait()", []),  # our own object's
    ("from fastapi import __version__, FastAPI\nFastAPI.__name__", []),
    ("from fastapi import FastAPI\napp = FastAPI()\napp.router.routes", []),
    ("from app.tables import _mine\nregistry._by_invite", []),  # not a library
])
def test_the_scan_finds_each_kind_of_reach(source: str, expected: list[str]) -> None:
    assert sorted(offences(source)) == sorted(expected)
