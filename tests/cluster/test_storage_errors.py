"""Which exceptions mean "the storage is unavailable" (app/errors.py ``storage_down``):
503 ``storage_unavailable`` with ``Retry-After`` on every route and on the socket, for both
drivers, whether SQLAlchemy wraps them or not; any other database error is a bug (500).

Before, ``GET /api/tables/{id}`` answered 500 during a PostgreSQL restart on the process
forwarding it: asyncpg's ``CannotConnectNowError`` raised while taking the table over
(outside the app's exception handlers), and only Redis and app errors were mapped there.
The exceptions are made through the drivers' public constructors, SQLAlchemy's wrapping
through ``DBAPIError.instance`` (as SQLAlchemy wraps a driver's error), and a few are real:
a refused connection, a locked SQLite file, a file that cannot be opened."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import aiosqlite
import asyncpg
import pytest
import redis.exceptions
from sqlalchemy import exc as sa
from sqlalchemy import text
from sqlalchemy.dialects.postgresql.asyncpg import dialect as asyncpg_dialect
from sqlalchemy.ext.asyncio import create_async_engine

from app.errors import AppError, storage_down, storage_refusal, storage_unavailable
from tests.support.server import free_port

ASYNCPG = asyncpg_dialect.import_dbapi()  # SQLAlchemy's DB-API adapter over asyncpg


def wrapped(error: Exception, kind: type[Exception] | None = None) -> sa.DBAPIError:
    """``error`` as SQLAlchemy raises it from asyncpg: its adapter's exception raised from
    it, wrapped in a ``DBAPIError`` (``kind``: which adapter exception; None: a sqlite3
    error, wrapped as is)."""
    try:
        try:
            raise error
        except Exception as raw:
            if kind is None:
                raise
            raise kind(f"{type(raw)}: {raw}") from raw
    except Exception as adapted:
        base = ASYNCPG.Error if kind is not None else sqlite3.Error
        return sa.DBAPIError.instance("SELECT 1", {}, adapted, base)


PG = asyncpg.exceptions
DOWN = {
    # asyncpg's own, unwrapped (raised while connecting)
    "cannot-connect-now": PG.CannotConnectNowError("the database system is starting up"),
    "admin-shutdown": PG.AdminShutdownError("terminating connection due to administrator "
                                            "command"),
    "crash-shutdown": PG.CrashShutdownError("terminating connection because of crash"),
    "no-connection": PG.ConnectionDoesNotExistError("connection was closed in the middle "
                                                    "of operation"),
    "too-many": PG.TooManyConnectionsError("sorry, too many clients already"),
    "disk-full": PG.DiskFullError("could not extend file"),
    "read-only": PG.ReadOnlySQLTransactionError("cannot execute INSERT in a read-only "
                                                "transaction"),
    "interface": asyncpg.InterfaceError("connection is closed"),
    "refused": ConnectionRefusedError(111, "Connect call failed"),
    "connect-timeout": TimeoutError(),
    # SQLAlchemy's wrapping of asyncpg's
    "sa-cannot-connect-now": wrapped(PG.CannotConnectNowError("starting up"), ASYNCPG.Error),
    "sa-admin-shutdown": wrapped(PG.AdminShutdownError("terminating"), ASYNCPG.Error),
    "sa-interface": wrapped(asyncpg.InterfaceError("connection is closed"),
                            ASYNCPG.InterfaceError),
    "sa-operational": sa.OperationalError("SELECT 1", {}, Exception("server closed")),
    "sa-invalidated": sa.DBAPIError("SELECT 1", {}, Exception("gone"),
                                    connection_invalidated=True),
    "sa-pool-timeout": sa.TimeoutError("QueuePool limit of size 5 overflow 10 reached"),
    # SQLite's, through aiosqlite (its exceptions are sqlite3's) or SQLAlchemy
    "locked": aiosqlite.OperationalError("database is locked"),
    "cannot-open": sqlite3.OperationalError("unable to open database file"),
    "io-error": sqlite3.OperationalError("disk I/O error"),
    "full": sqlite3.OperationalError("database or disk is full"),
    "sa-locked": wrapped(sqlite3.OperationalError("database is locked")),
    "sa-io-error": wrapped(sqlite3.OperationalError("disk I/O error")),
    # Redis
    "redis": redis.exceptions.ConnectionError("Error 111 connecting"),
    "redis-timeout": redis.exceptions.TimeoutError("Timeout reading from socket"),
}
BUGS = {
    "unique": PG.UniqueViolationError("duplicate key value"),
    "no-table": PG.UndefinedTableError('relation "x" does not exist'),
    "sa-unique": wrapped(PG.UniqueViolationError("duplicate key"), ASYNCPG.IntegrityError),
    "sa-syntax": wrapped(PG.PostgresSyntaxError("syntax error"), ASYNCPG.ProgrammingError),
    "sqlite-no-table": sqlite3.OperationalError("no such table: players"),
    "sqlite-syntax": wrapped(sqlite3.OperationalError('near "SELEC": syntax error')),
    "sqlite-unique": wrapped(sqlite3.IntegrityError("UNIQUE constraint failed: players.id")),
    "sa-not-wrapping": sa.InvalidRequestError("this transaction is inactive"),
    "app": ValueError("a bug"),
}


@pytest.mark.parametrize("exc", DOWN.values(), ids=DOWN.keys())
def test_an_unavailable_storage_is_a_503_to_try_again(exc) -> None:
    assert storage_down(exc)
    refusal = storage_refusal(exc)
    assert refusal is not None
    assert (refusal.code, refusal.status) == ("storage_unavailable", 503)
    assert refusal.headers == {"Retry-After": "1"}


@pytest.mark.parametrize("exc", BUGS.values(), ids=BUGS.keys())
def test_any_other_database_error_is_not_mistaken_for_one(exc) -> None:
    assert not storage_down(exc)
    assert storage_refusal(exc) is None


def test_every_503_says_when_to_try_again_and_other_errors_do_not() -> None:
    assert storage_unavailable().headers == {"Retry-After": "1"}
    assert AppError("table_moving", "moving", 503).headers == {"Retry-After": "1"}
    assert AppError("not_found", "no such table", 404).headers is None


@pytest.mark.asyncio
async def test_real_driver_errors_of_a_storage_out_of_reach(tmp_path: Path) -> None:
    refused: list[BaseException] = []
    nobody = free_port()  # PostgreSQL not listening: asyncpg itself, then through SQLAlchemy
    with pytest.raises(OSError) as raw:
        await asyncpg.connect(host="127.0.0.1", port=nobody, user="x", timeout=5)
    refused.append(raw.value)
    engine = create_async_engine(f"postgresql+asyncpg://x@127.0.0.1:{nobody}/x")
    try:
        with pytest.raises(Exception) as through:  # noqa: PT011 - whatever SQLAlchemy raises
            async with engine.connect() as conn:
                await conn.execute(text("SELECT 1"))
        refused.append(through.value)
    finally:
        await engine.dispose()
    # a SQLite file that cannot be opened, through SQLAlchemy
    engine = create_async_engine(f"sqlite+aiosqlite:///{tmp_path / 'missing' / 'x.db'}")
    try:
        with pytest.raises(sa.OperationalError) as unopened:
            async with engine.connect() as conn:
                await conn.execute(text("SELECT 1"))
        refused.append(unopened.value)
    finally:
        await engine.dispose()
    # a SQLite file another connection holds locked, through aiosqlite
    path = tmp_path / "locked.db"
    async with aiosqlite.connect(path) as holder, aiosqlite.connect(path, timeout=0) as other:
        await holder.execute("CREATE TABLE t (x)")
        await holder.commit()
        await holder.execute("BEGIN EXCLUSIVE")
        with pytest.raises(aiosqlite.OperationalError) as locked:
            await other.execute("INSERT INTO t VALUES (1)")
        refused.append(locked.value)
        await holder.rollback()
    assert [storage_down(e) for e in refused] == [True] * 4, refused
    # and a real bug is not one
    async with aiosqlite.connect(path) as conn:
        with pytest.raises(aiosqlite.OperationalError) as bug:
            await conn.execute("SELECT * FROM nowhere")
    assert not storage_down(bug.value)
