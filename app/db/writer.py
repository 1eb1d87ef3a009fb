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

One path for every database (``_commit``): SQLAlchemy Core, the batch's actions in one
executemany and each table's fenced update, in one transaction of the engine.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, cast

from sqlalchemy import Connection, Table, and_, bindparam, insert, update
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from app.db.batching import BatchWriter
from app.db.models import ActionRecord, GameTable

log = logging.getLogger(__name__)

ACTIONS = cast(Table, ActionRecord.__table__)
TABLES = cast(Table, GameTable.__table__)

_INSERT = insert(ACTIONS)
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


class StaleOwner(Exception):
    """The table's log or owner epoch moved past this write: another process owns the table
    now, and this one may no longer write it."""


_FENCE_REFUSED = "a table's version or owner epoch is not the one this write follows"


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
        # a server database (PostgreSQL) gives the writer a connection of its own, kept
        # from batch to batch: no pool check-out, liveness ping and reset per commit. SQLite
        # has one connection for everyone, taken and given back each time.
        self._keeps_connection = engine.dialect.name != "sqlite"
        self._held: AsyncConnection | None = None

    async def close(self) -> None:
        await super().close()
        held, self._held = self._held, None
        if held is not None:
            try:
                await held.close()
            except Exception:  # noqa: BLE001 - a broken connection is dropped by the pool
                log.debug("the writer's connection did not close cleanly", exc_info=True)

    async def _transaction(self, work: Callable[[Connection], None]) -> None:
        """``work`` run in one transaction, committed before this returns."""
        if not self._keeps_connection:
            async with self.engine.begin() as conn:
                await conn.run_sync(work)
            return
        if self._held is None or self._held.closed or self._held.invalidated:
            self._held = await self.engine.connect()
        held = self._held
        try:
            async with held.begin():
                await held.run_sync(work)
        except DBAPIError as exc:
            if exc.connection_invalidated or held.invalidated:
                self._held = None  # broken: a fresh one next time
            raise
        except BaseException:
            if held.invalidated:
                self._held = None
            raise

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
        """The batch in one transaction: its actions inserted (the log's primary key refuses
        a taken sequence number) and each table moved to its newest version, fenced; durable
        when this returns, or nothing of it stored."""
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
        tables = len(newest)

        def work(conn: Connection) -> None:
            # one greenlet for the whole transaction's statements (``run_sync``), not one per
            # statement; a single action is a plain insert, not an executemany
            conn.execute(_INSERT, rows[0] if len(rows) == 1 else rows)
            # the fence: every table must have been exactly one version behind this write,
            # and still be held with the owner epoch its actor took it with (the primary key
            # of the log refuses a taken sequence number in any case)
            changed = 0
            for statement, params in ((_ADVANCE, advance), (_FINISH, finish)):
                if len(params) == 1 or (params and not conn.dialect.supports_sane_multi_rowcount):
                    for one in params:  # (asyncpg: no executemany row count) one by one
                        changed += conn.execute(statement, one).rowcount
                elif params:
                    changed += conn.execute(statement, params).rowcount
            if changed != tables:
                raise StaleOwner(_FENCE_REFUSED)

        await self._transaction(work)
        self.batches += 1
        self.actions += len(batch)

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
