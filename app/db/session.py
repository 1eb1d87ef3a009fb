"""The async engine and session factory, and running migrations at start."""

from __future__ import annotations

from typing import Any

from sqlalchemy import event
from sqlalchemy.ext.asyncio import AsyncEngine, async_sessionmaker, create_async_engine

from app.config import MIGRATIONS


def make_engine(url: str) -> AsyncEngine:
    if url.startswith("sqlite"):
        # one connection: SQLite has a single writer, and queueing writers here is far
        # cheaper than SQLite's busy-wait back-off (which sleeps up to 100 ms per retry)
        # a connection handed back to the pool is rolled back only if a transaction is
        # open on it (the ``reset`` below): SQLAlchemy's default rolls back every time, one
        # more trip to aiosqlite's thread per use, while every transaction it began is
        # committed or rolled back already
        engine = create_async_engine(url, connect_args={"timeout": 30}, pool_size=1,
                                     max_overflow=0, pool_timeout=60,
                                     pool_reset_on_return=None)

        @event.listens_for(engine.sync_engine.pool, "reset")
        def _reset(dbapi_conn, _record, state):  # noqa: ANN001
            if state.terminate_only or not state.asyncio_safe:
                return  # closed without a reset (SQLAlchemy's own rule)
            if in_transaction(dbapi_conn):
                dbapi_conn.rollback()

        @event.listens_for(engine.sync_engine, "connect")
        def _sqlite_pragmas(dbapi_conn, _record):  # noqa: ANN001
            cursor = dbapi_conn.cursor()
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=FULL")
            cursor.close()

        return engine
    return create_async_engine(url, pool_pre_ping=True)


def in_transaction(dbapi_conn: Any) -> bool:
    """Whether a transaction is open on SQLAlchemy's aiosqlite connection (aiosqlite's own
    ``in_transaction``: the ``sqlite3`` connection's flag, no trip to its thread). Unknown:
    True."""
    driver = getattr(dbapi_conn, "driver_connection", None)
    try:
        return bool(driver.in_transaction)  # type: ignore[union-attr]
    except Exception:  # noqa: BLE001 - closed, or not aiosqlite: roll back to be sure
        return True


def make_sessionmaker(engine: AsyncEngine) -> async_sessionmaker:
    return async_sessionmaker(engine, expire_on_commit=False)


def alembic_config(url: str = "") -> Any:
    """Alembic's configuration of our migrations (``url``: the database they run against)."""
    from alembic.config import Config

    cfg = Config(str(MIGRATIONS / "alembic.ini"))
    cfg.set_main_option("script_location", str(MIGRATIONS))
    # the ini's prepend_sys_path serves alembic's own command line in a checkout; here `app`
    # is imported already (and in an installed package, `..` is the package itself)
    cfg.set_main_option("prepend_sys_path", "")
    if url:
        cfg.attributes["database_url"] = url
    return cfg


def migrate(url: str, revision: str = "head") -> None:
    """``alembic upgrade head`` against ``url`` (run before the app serves anything); an
    older ``revision`` makes a database as an older version left it (tests, app/backup.py)."""
    from alembic import command

    command.upgrade(alembic_config(url), revision)
