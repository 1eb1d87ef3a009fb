"""Tables' own rows written in shared transactions: a new table, its seats after a join or a
leave, its status (started, finished), from every table whose writes queue while a commit is
in flight (one commit, one fsync for many), like the actions' group commit.

Each write is a function of a connection (SQLAlchemy's); on SQLite it also comes as a
function of the raw ``sqlite3`` connection, and the whole batch then runs in one hop to the
database's thread (app/db/batching.py ``run_in_thread``). A write refused by its fence
(``StaleOwner``: another process owns the table now) has written nothing, so it fails alone
and the others commit. Anything else that fails rolls the whole batch back and every write
is then made in a transaction of its own, so each fails or succeeds as it did before it
shared one.

On SQLite the chat lines waiting in the chat writer (app/db/chat_writer.py: system lines
linger there for company) ride along with a batch: inserted in the same transaction, stored
by the same commit, instead of a commit of their own. A join's or a leave's own system line
does not wait there at all: it is part of its seat write (app/db/repository.py
``save_seats``'s ``chat``).
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

from sqlalchemy import Table, bindparam, delete, update
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from app.db.batching import (
    BatchWriter,
    RawInsert,
    RawStatement,
    one_hop,
    run_in_thread,
    transaction,
)
from app.db.models import GameTable, TableSeat
from app.db.writer import StaleOwner

if TYPE_CHECKING:
    from app.db.chat_writer import ChatWriter

log = logging.getLogger(__name__)

TABLES = cast(Table, GameTable.__table__)
SEATS = cast(Table, TableSeat.__table__)


@dataclass(frozen=True, slots=True)
class Write:
    """One write, two ways: through SQLAlchemy (``run``) and, on SQLite, on the raw
    connection in the database's thread (``raw``; None: this write has no raw form)."""

    run: Callable[[AsyncConnection], Awaitable[None]]
    raw: Callable[[sqlite3.Connection], None] | None = None


Item = tuple[Write, "asyncio.Future[None]"]


class RawTables:
    """The table writer's statements compiled for SQLite (app/db/batching.py)."""

    def __init__(self, dialect: Any) -> None:
        self.dialect = dialect
        self.insert_table = RawInsert(TABLES, dialect)
        self.insert_seat = RawInsert(SEATS, dialect)
        self.delete_seats = RawStatement(
            delete(SEATS).where(SEATS.c.table_id == bindparam("w_id", type_=SEATS.c.table_id.type)),
            dialect)
        self._updates: dict[tuple[tuple[str, ...], bool], RawStatement] = {}

    def update(self, keys: tuple[str, ...], fenced: bool) -> RawStatement:
        """``UPDATE tables SET <keys> WHERE id = :w_id [AND owner_epoch = :w_epoch]`` (the
        new values as ``v_<key>``)."""
        statement = self._updates.get((keys, fenced))
        if statement is None:
            where = [TABLES.c.id == bindparam("w_id", type_=TABLES.c.id.type)]
            if fenced:
                where.append(TABLES.c.owner_epoch
                             == bindparam("w_epoch", type_=TABLES.c.owner_epoch.type))
            statement = RawStatement(update(TABLES).where(*where).values(
                {key: bindparam(f"v_{key}", type_=TABLES.c[key].type) for key in keys}),
                self.dialect)
            self._updates[(keys, fenced)] = statement
        return statement

    def fenced_update(self, db: sqlite3.Connection, table_id: str, epoch: int | None,
                      values: dict[str, Any]) -> None:
        """Update a table's row, refused (``StaleOwner``, nothing written) if another process
        has taken the table over since ``epoch`` (None: no fence)."""
        keys = tuple(values)
        statement = self.update(keys, epoch is not None)
        params = {f"v_{key}": value for key, value in values.items()}
        params["w_id"], params["w_epoch"] = table_id, epoch
        cursor = db.execute(statement.sql, statement.params(params))
        if epoch is not None and cursor.rowcount != 1:
            raise StaleOwner(f"table {table_id} is owned by another process now")


class TableWriter(BatchWriter[Item]):
    name = "table-writer"

    def __init__(self, engine: AsyncEngine, max_batch: int = 200,
                 chat: ChatWriter | None = None) -> None:
        super().__init__(engine, max_batch)
        # SQLite: the statements each write's raw form runs (None: SQLAlchemy's path)
        self.raw = RawTables(engine.dialect) if one_hop(engine) else None
        # the chat writer whose waiting lines ride along with a batch (SQLite)
        self.chat = chat

    def write(self, write: Write) -> asyncio.Future[None]:
        """Queue one write; the future is done once it is committed (or failed)."""
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._put((write, done))
        return done

    async def _store(self, batch: list[Item]) -> None:
        if self.raw is not None and all(write.raw is not None for write, _ in batch):
            await self._store_raw(batch)
            return
        if len(batch) > 1:
            refused: list[StaleOwner | None] = []
            try:
                async with self.engine.begin() as conn:
                    for write, _ in batch:
                        try:
                            await write.run(conn)
                        except StaleOwner as exc:  # fenced before it wrote anything
                            refused.append(exc)
                        else:
                            refused.append(None)
            except Exception:  # noqa: BLE001 - each on its own below
                log.debug("a shared table write failed; writing one by one", exc_info=True)
            else:
                for (_, done), error in zip(batch, refused, strict=True):
                    _settle(done, error)
                return
        for write, done in batch:
            try:
                async with self.engine.begin() as conn:
                    await write.run(conn)
            except Exception as exc:  # noqa: BLE001 - the waiter hears it
                _settle(done, exc)
            else:
                _settle(done, None)

    async def _store_raw(self, batch: list[Item]) -> None:
        """The batch in one transaction, in one hop to SQLite's thread, with the chat lines
        waiting meanwhile; as ``_store``: a fenced write fails alone, any other failure
        sends the chat lines back to their writer and every write to a transaction of its
        own (one hop each)."""
        writes = [write.raw for write, _ in batch]
        chat = self.chat
        riders = chat.take_waiting() if chat is not None else []
        chat_sql, chat_rows = "", []
        if riders:
            assert chat is not None and chat.raw is not None
            chat_sql = chat.raw.sql
            chat_rows = [chat.raw.params(row) for row, _ in riders]

        def run(db: sqlite3.Connection) -> list[StaleOwner | None]:
            refused: list[StaleOwner | None] = []
            for raw in writes:
                try:
                    raw(db)  # type: ignore[misc]
                except StaleOwner as exc:  # fenced before it wrote anything
                    refused.append(exc)
                else:
                    refused.append(None)
            if chat_rows:
                db.executemany(chat_sql, chat_rows)
            return refused

        if len(batch) > 1 or riders:
            try:
                outcomes = await run_in_thread(self.engine, lambda db: transaction(db, run))
            except Exception:  # noqa: BLE001 - each on its own below
                log.debug("a shared table write failed; writing one by one", exc_info=True)
                if riders:
                    chat.give_back(riders)  # type: ignore[union-attr]
            else:
                if riders:
                    chat.settle(riders, shared=True)  # type: ignore[union-attr]
                for (_, done), exc in zip(batch, outcomes, strict=True):
                    _settle(done, exc)
                return
        for write, done in batch:
            raw = write.raw
            try:
                await run_in_thread(self.engine, lambda db, raw=raw: transaction(db, raw))  # type: ignore[misc]
            except Exception as exc:  # noqa: BLE001 - the waiter hears it
                _settle(done, exc)
            else:
                _settle(done, None)


def _settle(done: asyncio.Future[None], exc: BaseException | None) -> None:
    if done.done():
        return
    if exc is None:
        done.set_result(None)
    else:
        done.set_exception(exc)
