"""What both group writers share (the actions' in ``writer.py``, the chat lines' in
``chat_writer.py``): one background task per process takes whatever has queued while the
previous commit was in flight, up to ``max_batch`` items, and hands it to ``_store`` in one
go. The task starts with the first item and is cancelled by ``close``."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Callable, Mapping
from typing import Any, Generic, TypeVar

from sqlalchemy import Table, insert
from sqlalchemy.exc import DBAPIError, MissingGreenlet
from sqlalchemy.ext.asyncio import AsyncEngine
from sqlalchemy.util import await_only, greenlet_spawn

from app import metrics
from app.db.session import in_transaction

Item = TypeVar("Item")
Result = TypeVar("Result")


class BatchWriter(Generic[Item]):
    name = "batch-writer"

    def __init__(self, engine: AsyncEngine, max_batch: int) -> None:
        self.engine = engine
        self.max_batch = max_batch
        self._queue: asyncio.Queue[Item] = asyncio.Queue()
        self._task: asyncio.Task[None] | None = None
        self._lingering: list[Item] = []  # a batch waiting for more (see ``_linger``)
        self._waker: asyncio.Future[None] | None = None

    def _put(self, item: Item) -> None:
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._run(), name=self.name)
        self._queue.put_nowait(item)

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            try:
                await self._task
            except asyncio.CancelledError:
                pass

    async def _run(self) -> None:
        while True:
            batch = [await self._queue.get()]
            self._take(batch)
            wait = self._linger(batch)
            if wait:
                self._lingering = batch  # (a close meanwhile stores it: ChatWriter.close)
                loop = asyncio.get_running_loop()
                self._waker = woken = loop.create_future()
                timer = loop.call_later(wait, _wake, woken)
                try:
                    await woken  # the time is up, or ``_end_linger`` was called
                finally:
                    timer.cancel()
                    self._waker = None
                self._lingering = []
                self._take(batch)
                if not batch:  # another writer's transaction took it meanwhile (ChatWriter)
                    continue
            await self._store(batch)
            metrics.batch_committed(self.name, len(batch))

    def _take(self, batch: list[Item]) -> None:
        """Add what has queued meanwhile, up to ``max_batch``."""
        while len(batch) < self.max_batch and not self._queue.empty():
            batch.append(self._queue.get_nowait())

    def _linger(self, batch: list[Item]) -> float:
        """Seconds to wait for more before storing ``batch`` (0: store it at once)."""
        return 0.0

    def _end_linger(self) -> None:
        """Store the lingering batch now (with what has queued)."""
        if self._waker is not None:
            _wake(self._waker)

    def _queued(self) -> list[Item]:
        """Everything still queued (taken out of the queue)."""
        items = []
        while not self._queue.empty():
            items.append(self._queue.get_nowait())
        return items

    async def _store(self, batch: list[Item]) -> None:
        raise NotImplementedError


def _wake(future: asyncio.Future[None]) -> None:
    if not future.done():
        future.set_result(None)


# ---------------------------------------------------------------------- SQLite: one hop


def one_hop(engine: AsyncEngine) -> bool:
    """Whether this engine's writes can be made in one hop to the database's thread: SQLite
    through aiosqlite, whose connection runs every call in a thread of its own. SQLAlchemy
    makes ~3 such hops per statement (cursor, execute, close) and one per commit; a batch
    run as one function in that thread makes one. Anything else (PostgreSQL) keeps the
    SQLAlchemy path."""
    if engine.dialect.name != "sqlite" or engine.dialect.driver != "aiosqlite":
        return False
    import aiosqlite

    return callable(getattr(aiosqlite.Connection, "_execute", None))


class RawStatement:
    """A Core statement compiled once for SQLite: its SQL (``?`` placeholders), the names of
    its parameters in order and each one's bind processor (the column type's own: datetimes
    as SQLAlchemy stores them, JSON encoded, booleans as integers), so the raw ``sqlite3``
    connection stores exactly what SQLAlchemy would."""

    def __init__(self, statement: Any, dialect: Any) -> None:
        compiled = statement.compile(dialect=dialect)
        self.sql = str(compiled)
        self.names: tuple[str, ...] = tuple(compiled.positiontup or ())
        self.processors = tuple(
            compiled.binds[name].type.dialect_impl(dialect).bind_processor(dialect)
            for name in self.names)
        # (position, processor) of the parameters that have one (a datetime, JSON): the
        # others are passed as they are, without a call per value
        self._processed = tuple((i, process) for i, process in enumerate(self.processors)
                                if process is not None)

    def params(self, values: Mapping[str, Any]) -> tuple[Any, ...]:
        out = [values[name] for name in self.names]
        for i, process in self._processed:
            out[i] = process(out[i])
        return tuple(out)


class RawInsert(RawStatement):
    """``INSERT`` of every column of ``table``. A row may leave out a column with a scalar
    Python default (given here, as SQLAlchemy would) or a nullable one without a server
    default (NULL, as SQLAlchemy's insert leaving it out stores: not passed through the
    column's processor, which would make JSON ``null`` of it)."""

    def __init__(self, table: Table, dialect: Any) -> None:
        super().__init__(insert(table), dialect)
        self.defaults: dict[str, Any] = {}
        self.nullable: set[str] = set()
        for column in table.columns:
            default = column.default
            if default is not None and getattr(default, "is_scalar", False):
                self.defaults[column.key] = default.arg  # type: ignore[attr-defined]
            elif column.nullable and column.server_default is None:
                self.nullable.add(column.key)

    def params(self, values: Mapping[str, Any]) -> tuple[Any, ...]:
        if len(values) >= len(self.names):
            return super().params(values)
        out: list[Any] = []
        for name, process in zip(self.names, self.processors, strict=True):
            if name in values:
                value = values[name]
            elif name in self.defaults:
                value = self.defaults[name]
            elif name in self.nullable:
                out.append(None)
                continue
            else:
                raise KeyError(f"no value for {name!r}")
            out.append(value if process is None else process(value))
        return tuple(out)


def transaction(db: sqlite3.Connection, work: Callable[[sqlite3.Connection], Result]
                ) -> Result:
    """``work(db)`` in one transaction, committed (durable: the connection runs with
    ``synchronous=FULL``) or rolled back if it raises. Runs in the database's thread."""
    if not db.in_transaction:
        db.execute("BEGIN")
    try:
        result = work(db)
        db.commit()
    except BaseException:
        db.rollback()
        raise
    return result


async def insert_rows(engine: AsyncEngine, table: Table, raw: RawInsert | None,
                      rows: list[Mapping[str, Any]]) -> None:
    """``rows`` inserted into ``table`` in one transaction, durable when this returns: in one
    hop to SQLite's thread with ``raw`` (``one_hop``), else through SQLAlchemy Core."""
    if raw is not None:
        params = [raw.params(row) for row in rows]
        await run_in_thread(engine, lambda db: transaction(
            db, lambda db: db.executemany(raw.sql, params)))
    else:
        async with engine.begin() as conn:
            await conn.execute(insert(table), rows)


async def run_in_thread(engine: AsyncEngine, work: Callable[[sqlite3.Connection], Result]
                        ) -> Result:
    """``work(db)`` on the pool's SQLite connection, in aiosqlite's thread: one hop there and
    back for all of it. ``work`` leaves no transaction open (see ``transaction``). A
    ``sqlite3`` error comes back as SQLAlchemy's (``IntegrityError``, ``OperationalError``
    ...), as the same statements through SQLAlchemy would raise it."""
    # the pool's own connection, without an engine-level Connection around it. When it is
    # free and open (nearly always), checking it out and giving it back need no I/O, so no
    # greenlet: each one a write costs a new Python data stack (an mmap, its page faults and
    # an munmap) and two switches. Waiting for it (in use) or (re)connecting does need one:
    # SQLAlchemy's pool says so by raising MissingGreenlet before it has changed anything
    # (the await it would make is the first thing it does), and then it all runs in one.
    pool_connection = engine.sync_engine.raw_connection
    try:
        pooled = pool_connection()
    except MissingGreenlet:
        return await _run_in_greenlet(pool_connection, work)
    try:
        driver = pooled.driver_connection
        return await driver._execute(work, driver._conn)  # type: ignore[union-attr]
    except sqlite3.Error as exc:
        raise DBAPIError.instance(None, None, exc, sqlite3.Error) from exc
    finally:
        if in_transaction(pooled.dbapi_connection):
            # a transaction left open (a cancelled caller's work is still running): the
            # pool's reset rolls it back (app/db/session.py), which is I/O, in a greenlet,
            # as before; the connection is given to no one else meanwhile
            await greenlet_spawn(pooled.close)
        else:
            pooled.close()


async def _run_in_greenlet(pool_connection: Callable[[], Any],
                           work: Callable[[sqlite3.Connection], Result]) -> Result:
    """``run_in_thread`` when the pool must wait or connect: the pool's connection checked
    out, used and given back in one greenlet."""

    def run() -> Result:
        pooled = pool_connection()
        try:
            driver = pooled.driver_connection
            return await_only(driver._execute(work, driver._conn))  # type: ignore[union-attr]
        finally:
            pooled.close()

    try:
        return await greenlet_spawn(run)
    except sqlite3.Error as exc:
        raise DBAPIError.instance(None, None, exc, sqlite3.Error) from exc
