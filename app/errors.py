"""The one error family of the application: a stable code, a message, an HTTP status; and
the one place that says which exceptions mean "the storage is unavailable" (answered 503
``storage_unavailable`` with ``Retry-After``, on every route, forwarded or not, and on the
socket), rather than each caller guessing."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator

import asyncpg
from redis.exceptions import RedisError
from sqlalchemy import exc as sa

# the exception classes a database or Redis that is down (or restarting) may raise: the app
# hands each to :func:`storage_refusal`, which says which instances mean unavailable (the
# others are bugs, answered 500 as before). asyncpg raises some of its own while connecting,
# unwrapped by SQLAlchemy ("the database system is shutting down")
STORAGE_DOWN: tuple[type[Exception], ...] = (
    sa.SQLAlchemyError, OSError, RedisError, asyncpg.PostgresError, asyncpg.InterfaceError,
    sqlite3.Error)

# seconds a client is asked to wait before trying again after a 503
RETRY_AFTER = 1

# PostgreSQL error classes and codes that mean "not now", not "wrong": connection exceptions
# (08), insufficient resources (53: disk full, out of memory, too many connections), the
# server shutting down or starting (57P01-57P05), a system or I/O error (58), a standby's
# read-only transaction (25006: a failover under way)
_PG_DOWN = ("08", "53", "57P", "58", "25006")
# SQLite's (through aiosqlite or not): the file busy, unreachable or out of room
_SQLITE_DOWN = ("database is locked", "database table is locked", "database is busy",
                "unable to open database file", "disk i/o error", "database or disk is full",
                "attempt to write a readonly database")


class AppError(Exception):
    def __init__(self, code: str, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status

    def to_json(self) -> dict[str, str]:
        return {"code": self.code, "message": self.message}

    @property
    def headers(self) -> dict[str, str] | None:
        """The answer's extra headers: a 503 (unavailable for a moment) says when to try
        again."""
        return {"Retry-After": str(RETRY_AFTER)} if self.status == 503 else None


def not_found(what: str = "table") -> AppError:
    return AppError("not_found", f"no such {what}", 404)


def forbidden(message: str) -> AppError:
    return AppError("forbidden", message, 403)


def storage_unavailable() -> AppError:
    """The database could not be reached or refused a write: nothing changed; try again."""
    return AppError("storage_unavailable",
                    "the game storage is unavailable for a moment: nothing changed, "
                    "try again shortly", 503)


def storage_refusal(exc: BaseException) -> AppError | None:
    """:func:`storage_unavailable` if ``exc`` says the database or Redis is unavailable
    (down, restarting, unreachable, out of connections or room, locked), else None."""
    return storage_unavailable() if storage_down(exc) else None


def storage_down(exc: BaseException) -> bool:
    """Whether ``exc`` (or what it wraps) says the storage is unavailable, for either
    driver: asyncpg's own errors and SQLAlchemy's wrapping of them, SQLite's through
    aiosqlite or SQLAlchemy, a connection refused or timed out, and Redis."""
    return any(_down(e) for e in _chain(exc))


def _chain(exc: BaseException) -> Iterator[BaseException]:
    """``exc``, what SQLAlchemy wrapped in it (``orig``), and the exceptions it was raised
    from, each once."""
    seen: set[int] = set()
    todo: list[BaseException | None] = [exc]
    while todo:
        e = todo.pop()
        if e is None or id(e) in seen:
            continue
        seen.add(id(e))
        yield e
        orig = getattr(e, "orig", None)
        todo += [orig if isinstance(orig, BaseException) else None, e.__cause__]


def _down(e: BaseException) -> bool:
    if isinstance(e, RedisError | asyncpg.InterfaceError | sa.TimeoutError):
        return True  # (sa.TimeoutError: no pooled connection came free in time)
    if isinstance(e, sa.DBAPIError) and e.connection_invalidated:
        return True
    if isinstance(e, sqlite3.OperationalError):
        return str(e).lower().startswith(_SQLITE_DOWN)
    if isinstance(e, sa.OperationalError | sa.InterfaceError):
        # a PostgreSQL driver's "operational" errors are about the connection; SQLite's
        # also cover bugs ("no such table", "syntax error"): those are judged by what they
        # wrap, above
        return not isinstance(getattr(e, "orig", None), sqlite3.Error)
    if isinstance(e, asyncpg.PostgresError):  # (SQLAlchemy raises its own from these)
        return str(getattr(e, "sqlstate", "") or "").startswith(_PG_DOWN)
    # a connection refused, reset or timed out (asyncpg connecting: OSError, TimeoutError)
    return isinstance(e, OSError)
