"""Group commit: the accepted actions of many tables stored in one transaction.

Every table actor hands its accepted action to the one writer and waits; the writer commits
whatever has gathered as a single transaction (Core inserts and updates, no ORM unit of
work) and releases every waiting actor once that transaction is durable. While a commit is
in flight the next batch gathers, so a quiet server commits each action at once and a busy
one pays one commit (one fsync) for many tables.

Nothing is half-applied: if a batch fails, each of its writes is tried again alone, so one
bad write (a stale owner's, say) fails only its own actor. The log refuses a write whose
sequence number is already taken, does not follow the table's version, or comes from an
owner whose epoch is not the table's (another process has taken the table over since): that
is the fence against two owners of one table.

On PostgreSQL a batch is one statement through asyncpg (``_commit_pg``). On SQLite (the
default deployment) it is the same Core statements as elsewhere (``_commit_core``), run on
the raw ``sqlite3`` connection as one function in aiosqlite's thread (``_commit_raw``): the
inserts, the fence and the commit in one hop there and back, without a greenlet when the
pool's connection is free (app/db/batching.py ``run_in_thread``), instead of SQLAlchemy's
several hops per statement.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, cast

import orjson
from sqlalchemy import Table, and_, bindparam, insert, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from app.db.batching import (
    BatchWriter,
    RawInsert,
    RawStatement,
    one_hop,
    run_in_thread,
    transaction,
)
from app.db.models import ActionRecord, GameTable

try:  # PostgreSQL's driver; absent where only SQLite is used
    import asyncpg
except ImportError:  # pragma: no cover
    asyncpg = None

log = logging.getLogger(__name__)

ACTIONS = cast(Table, ActionRecord.__table__)
TABLES = cast(Table, GameTable.__table__)

# the plain progress of a table; a finishing one also sets its result
_ADVANCE = (update(TABLES)
            .where(and_(TABLES.c.id == bindparam("b_id"),
                        TABLES.c.version == bindparam("b_prev"),
                        TABLES.c.owner_epoch == bindparam("b_epoch")))
            .values(version=bindparam("b_version")))
_FINISH = (update(TABLES)
           .where(and_(TABLES.c.id == bindparam("b_id"),
                       TABLES.c.version == bindparam("b_prev"),
                       TABLES.c.owner_epoch == bindparam("b_epoch")))
           .values(version=bindparam("b_version"), status="finished",
                   outcome=bindparam("b_outcome"), finished_at=bindparam("b_at")))


# The batch in one statement (PostgreSQL). ``u`` moves each table of the batch from the version
# its oldest action follows to its newest, only where the owner epoch is still the writer's
# (finishing tables also take their result); ``i`` inserts the actions (the log's primary key
# refuses a taken sequence number: the whole statement fails). The final SELECT divides by
# "every table was fenced through": when one was not, it raises division_by_zero and the
# statement, a transaction of its own, leaves nothing behind. The divisor reads ``u``, so it
# cannot be folded at planning time. All CTEs see one snapshot and run to completion.
_PG_APPEND = """
WITH u AS (
  UPDATE tables AS t
     SET version = b.version,
         status = CASE WHEN b.finish THEN 'finished' ELSE t.status END,
         outcome = CASE WHEN b.finish THEN b.outcome::json ELSE t.outcome END,
         finished_at = CASE WHEN b.finish THEN b.at ELSE t.finished_at END
    FROM unnest($1::varchar[], $2::int[], $3::int[], $4::int[], $5::bool[], $6::text[],
                $7::timestamptz[]) AS b(id, prev, version, epoch, finish, outcome, at)
   WHERE t.id = b.id AND t.version = b.prev AND t.owner_epoch = b.epoch
  RETURNING 1
), i AS (
  INSERT INTO actions (table_id, seq, seat, action, source, created_at)
  SELECT a.table_id, a.seq, a.seat, a.action::json, a.source, a.created_at
    FROM unnest($8::varchar[], $9::int[], $10::int[], $11::text[], $12::varchar[],
                $13::timestamptz[]) AS a(table_id, seq, seat, action, source, created_at)
  RETURNING 1
)
SELECT 1 / ((SELECT count(*) FROM u) = $14)::int, (SELECT count(*) FROM i)
"""


# The same for a batch of one action (a quiet server's every commit: actions arriving one by
# one each pay their own): plain parameters, no arrays to encode and unnest.
_PG_APPEND_ONE = """
WITH u AS (
  UPDATE tables AS t
     SET version = $3,
         status = CASE WHEN $5 THEN 'finished' ELSE t.status END,
         outcome = CASE WHEN $5 THEN $6::json ELSE t.outcome END,
         finished_at = CASE WHEN $5 THEN $7 ELSE t.finished_at END
   WHERE t.id = $1 AND t.version = $2 AND t.owner_epoch = $4
  RETURNING 1
), i AS (
  INSERT INTO actions (table_id, seq, seat, action, source, created_at)
  VALUES ($1, $3, $8, $9::json, $10, $7)
  RETURNING 1
)
SELECT 1 / ((SELECT count(*) FROM u) = 1)::int, (SELECT count(*) FROM i)
"""


def _json(value: Any) -> str:
    """JSON text as the JSON columns hold it (keys that are not strings become strings, as
    SQLAlchemy's ``json.dumps`` would make them)."""
    try:
        return orjson.dumps(value).decode()
    except TypeError:
        return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()


class StaleOwner(Exception):
    """The table's log or owner epoch moved past this write: another process owns the table
    now, and this one may no longer write it."""


_FENCE_REFUSED = "a table's version or owner epoch is not the one this write follows"


class RawActions:
    """The writer's statements compiled for SQLite (app/db/batching.py): a batch then runs
    as one function of the raw ``sqlite3`` connection, in one hop to the database's thread,
    storing exactly what ``_commit_core``'s SQLAlchemy statements store."""

    def __init__(self, dialect: Any) -> None:
        self.insert = RawInsert(ACTIONS, dialect)
        self.advance = RawStatement(_ADVANCE, dialect)
        self.finish = RawStatement(_FINISH, dialect)
        # _FINISH's literal status is a parameter of its own in the compiled statement
        self.finished = _FINISH.compile(dialect=dialect).binds["status"].value

    def rows(self, batch: list[PendingAction]) -> list[tuple[Any, ...]]:
        params = self.insert.params
        return [params({"table_id": i.table_id, "seq": i.seq, "seat": i.seat,
                        "action": i.action, "source": i.source, "created_at": i.at})
                for i in batch]

    def fences(self, batch: list[PendingAction]
               ) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]], int]:
        """The advance and finish parameters (one per table: the newest version it reached
        in the batch, from the version its oldest action follows) and how many tables."""
        newest, oldest = _spans(batch)
        advance, finish = [], []
        for tid, item in newest.items():
            if item.outcome is None:
                advance.append(self.advance.params(
                    {"b_id": tid, "b_version": item.seq, "b_prev": oldest[tid] - 1,
                     "b_epoch": item.epoch}))
            else:
                finish.append(self.finish.params(
                    {"status": self.finished, "b_id": tid, "b_version": item.seq,
                     "b_prev": oldest[tid] - 1, "b_epoch": item.epoch,
                     "b_outcome": item.outcome, "b_at": item.at}))
        return advance, finish, len(newest)


@dataclass
class PendingAction:
    table_id: str
    seq: int
    seat: int
    action: dict[str, Any]
    source: str
    outcome: dict[str, Any] | None
    at: datetime
    epoch: int = 0  # the owner epoch the table was taken with (the fence)
    done: asyncio.Future[None] = field(
        default_factory=lambda: asyncio.get_running_loop().create_future())


class GroupWriter(BatchWriter[PendingAction]):
    name = "group-writer"

    def __init__(self, engine: AsyncEngine, max_batch: int = 500) -> None:
        super().__init__(engine, max_batch)
        # figures for /metrics: batches committed and actions in them
        self.batches = 0
        self.actions = 0
        self._postgres = engine.dialect.name == "postgresql" and asyncpg is not None and \
            engine.dialect.driver == "asyncpg"
        # SQLite: the statements a batch runs in one hop to the database's thread
        self.raw = RawActions(engine.dialect) if one_hop(engine) else None
        # PostgreSQL: the pool connection this writer holds (and its asyncpg connection)
        self._held: AsyncConnection | None = None
        self._driver: Any = None

    async def close(self) -> None:
        await super().close()
        held, self._held, self._driver = self._held, None, None
        if held is not None:
            try:
                await held.close()
            except Exception:  # noqa: BLE001 - a broken connection is dropped by the pool
                log.debug("the writer's connection did not close cleanly", exc_info=True)

    async def append(self, item: PendingAction) -> None:
        """Queue one action and return once it is durable (or raise why it is not)."""
        self._put(item)
        await item.done

    async def _store(self, batch: list[PendingAction]) -> None:
        try:
            await self._commit(batch)
        except Exception as exc:  # noqa: BLE001 - isolate the bad write, keep the others
            if len(batch) == 1:
                self._fail(batch[0], exc)
                return
            for item in batch:
                try:
                    await self._commit([item])
                except Exception as one:  # noqa: BLE001
                    self._fail(item, one)
                else:
                    self._release([item])
            return
        self._release(batch)

    async def _commit(self, batch: list[PendingAction]) -> None:
        if self._postgres:
            await self._commit_pg(batch)
        elif self.raw is not None:
            await self._commit_raw(batch)
        else:
            await self._commit_core(batch)
        self.batches += 1
        self.actions += len(batch)

    async def _connection(self) -> Any:
        if self._driver is None or self._driver.is_closed():
            if self._held is not None:
                held, self._held, self._driver = self._held, None, None
                try:
                    await held.invalidate()
                except Exception:  # noqa: BLE001
                    log.debug("dropping the writer's broken connection", exc_info=True)
            self._held = await self.engine.connect()
            raw = await self._held.get_raw_connection()
            self._driver = raw.driver_connection
        return self._driver

    async def _commit_pg(self, batch: list[PendingAction]) -> None:
        if len(batch) == 1:
            one = batch[0]
            await self._fetch_pg(
                _PG_APPEND_ONE, one.table_id, one.seq - 1, one.seq, one.epoch,
                one.outcome is not None, None if one.outcome is None else _json(one.outcome),
                one.at, one.seat, _json(one.action), one.source)
            return
        newest, oldest = _spans(batch)
        tables = list(newest.values())
        await self._fetch_pg(
            _PG_APPEND,
            [i.table_id for i in tables], [oldest[i.table_id] - 1 for i in tables],
            [i.seq for i in tables], [i.epoch for i in tables],
            [i.outcome is not None for i in tables],
            [None if i.outcome is None else _json(i.outcome) for i in tables],
            [i.at for i in tables],
            [i.table_id for i in batch], [i.seq for i in batch], [i.seat for i in batch],
            [_json(i.action) for i in batch], [i.source for i in batch],
            [i.at for i in batch],
            len(tables))

    async def _fetch_pg(self, statement: str, *args: Any) -> None:
        """Run one of the append statements (a transaction of its own); a refused fence or
        a taken sequence number is ``StaleOwner``."""
        conn = await self._connection()
        try:
            await conn.fetchrow(statement, *args)
        except asyncpg.DivisionByZeroError:
            raise StaleOwner("a table's version or owner epoch is not the one this write "
                             "follows") from None
        except asyncpg.IntegrityConstraintViolationError as exc:
            raise StaleOwner(f"the log refused the write: {exc}") from None
        except (asyncpg.PostgresError, asyncpg.InterfaceError):
            raise
        except Exception:
            # the connection itself failed (closed, reset): take a fresh one next time
            if self._driver is not None and not self._driver.is_closed():
                self._driver.terminate()
            raise

    async def _commit_raw(self, batch: list[PendingAction]) -> None:
        """SQLite: ``_commit_core``'s statements on the raw connection, the inserts, the
        fence and the commit in one hop to the database's thread (app/db/batching.py
        ``run_in_thread``: no greenlet when the connection is free). A taken sequence number
        is SQLAlchemy's ``IntegrityError``, a refused fence ``StaleOwner``, as there; either
        rolls the whole batch back."""
        raw = self.raw
        assert raw is not None
        rows = raw.rows(batch)
        advance, finish, tables = raw.fences(batch)
        insert_sql, advance_sql, finish_sql = raw.insert.sql, raw.advance.sql, raw.finish.sql

        def work(db: sqlite3.Connection) -> None:
            if len(rows) == 1:
                db.execute(insert_sql, rows[0])
            else:
                db.executemany(insert_sql, rows)
            changed = 0
            for sql, params in ((advance_sql, advance), (finish_sql, finish)):
                if len(params) == 1:
                    changed += db.execute(sql, params[0]).rowcount
                elif params:
                    changed += db.executemany(sql, params).rowcount
            if changed != tables:
                raise StaleOwner(_FENCE_REFUSED)

        await run_in_thread(self.engine, lambda db: transaction(db, work))

    async def _commit_core(self, batch: list[PendingAction]) -> None:
        rows = [{"table_id": i.table_id, "seq": i.seq, "seat": i.seat, "action": i.action,
                 "source": i.source, "created_at": i.at} for i in batch]
        # one update per table: the newest version it reached in this batch
        newest, oldest = _spans(batch)
        advance = [{"b_id": i.table_id, "b_version": i.seq, "b_prev": oldest[i.table_id] - 1,
                    "b_epoch": i.epoch}
                   for i in newest.values() if i.outcome is None]
        finish = [{"b_id": i.table_id, "b_version": i.seq, "b_prev": oldest[i.table_id] - 1,
                   "b_epoch": i.epoch, "b_outcome": i.outcome, "b_at": i.at}
                  for i in newest.values() if i.outcome is not None]
        async with self.engine.begin() as conn:
            await conn.execute(insert(ACTIONS), rows)
            # the fence: every table must have been exactly one version behind this write,
            # and still be held with the owner epoch its actor took it with (the primary key
            # of the log refuses a taken sequence number in any case)
            changed = 0
            for statement, params in ((_ADVANCE, advance), (_FINISH, finish)):
                if not params:
                    continue
                if conn.dialect.supports_sane_multi_rowcount:
                    changed += (await conn.execute(statement, params)).rowcount
                else:  # e.g. asyncpg: count row by row, still one transaction
                    for one in params:
                        changed += (await conn.execute(statement, one)).rowcount
            if changed != len(newest):
                raise StaleOwner("a table's version or owner epoch is not the one this write "
                                 "follows")

    @staticmethod
    def _release(batch: list[PendingAction]) -> None:
        for item in batch:
            if not item.done.done():
                item.done.set_result(None)

    @staticmethod
    def _fail(item: PendingAction, exc: Exception) -> None:
        log.warning("table %s: action %s could not be stored: %s", item.table_id, item.seq, exc)
        if item.done.done():
            return
        if isinstance(exc, StaleOwner | IntegrityError):
            # the sequence number is taken or the epoch moved on: another owner wrote it
            item.done.set_exception(StaleOwner(f"action {item.seq} of table {item.table_id} "
                                               "follows a log another owner has moved on"))
        else:
            failure = RuntimeError(f"action {item.seq} was not stored")
            failure.__cause__ = exc  # why: an unavailable database is told apart from a bug
            item.done.set_exception(failure)


def _spans(batch: list[PendingAction]) -> tuple[dict[str, PendingAction], dict[str, int]]:
    """Each table of a batch (in the order it first appears): its newest action, and the
    sequence number of its oldest (the table's version before the batch is that one less)."""
    newest: dict[str, PendingAction] = {}
    oldest: dict[str, int] = {}
    for item in batch:
        tid = item.table_id
        seen = newest.get(tid)
        if seen is None or item.seq > seen.seq:
            newest[tid] = item
        if seen is None or item.seq < oldest[tid]:
            oldest[tid] = item.seq
    return newest, oldest
