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

Built with SQLAlchemy Core, one statement form per database: on PostgreSQL the whole batch
is one statement (``_PG_APPEND``: arrays bound as parameters, the fence inside it), one
round trip; elsewhere (SQLite) the batch's actions in one executemany and each table's
fenced update, in one transaction of the pool's connection.
"""

from __future__ import annotations

import asyncio
import json
import logging
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


def _pg_append() -> Any:
    """The batch as one statement (PostgreSQL), built with SQLAlchemy Core from arrays bound
    as parameters (one compiled form for every batch size): ``u`` moves each table of the
    batch from the version its oldest action follows to its newest, only where the owner
    epoch is still the writer's (finishing tables also take their result); ``i`` inserts the
    actions (the log's primary key refuses a taken sequence number: the whole statement
    fails). The outer SELECT divides by "every table was fenced through": when one was not,
    it raises division_by_zero and the statement, a transaction of its own, leaves nothing
    behind. All of it sees one snapshot and runs to completion."""
    from sqlalchemy import (
        JSON,
        Boolean,
        Integer,
        String,
        Text,
        case,
        cast,
        column,
        func,
        literal,
        select,
    )
    from sqlalchemy.dialects.postgresql import ARRAY

    def array(name: str, item: Any) -> Any:
        return bindparam(name, type_=ARRAY(item))

    at_type = TABLES.c.finished_at.type
    b = func.unnest(
        array("t_id", String), array("t_prev", Integer), array("t_version", Integer),
        array("t_epoch", Integer), array("t_finish", Boolean), array("t_outcome", Text),
        array("t_at", at_type),
    ).table_valued(column("id", String), column("prev", Integer), column("version", Integer),
                   column("epoch", Integer), column("finish", Boolean),
                   column("outcome", Text), column("at", at_type), name="b").render_derived()
    u = (update(TABLES)
         .where(TABLES.c.id == b.c.id, TABLES.c.version == b.c.prev,
                TABLES.c.owner_epoch == b.c.epoch)
         .values(version=b.c.version,
                 status=case((b.c.finish, literal("finished")), else_=TABLES.c.status),
                 outcome=case((b.c.finish, cast(b.c.outcome, JSON)), else_=TABLES.c.outcome),
                 finished_at=case((b.c.finish, b.c.at), else_=TABLES.c.finished_at))
         .returning(TABLES.c.id)
         .cte("u"))
    a = func.unnest(
        array("a_table", String), array("a_seq", Integer), array("a_seat", Integer),
        array("a_action", Text), array("a_source", String), array("a_at", at_type),
    ).table_valued(column("table_id", String), column("seq", Integer), column("seat", Integer),
                   column("action", Text), column("source", String), column("at", at_type),
                   name="a").render_derived()
    i = (insert(ACTIONS)
         .from_select(["table_id", "seq", "seat", "action", "source", "created_at"],
                      select(a.c.table_id, a.c.seq, a.c.seat, cast(a.c.action, JSON),
                             a.c.source, a.c.at))
         .returning(ACTIONS.c.seq)
         .cte("i"))
    fenced = select(func.count()).select_from(u).scalar_subquery() == bindparam("n", type_=Integer)
    return select(literal(1, Integer) / cast(fenced, Integer),
                  select(func.count()).select_from(i).scalar_subquery())


_PG_APPEND = _pg_append()


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
        # PostgreSQL: a batch is one statement (``_PG_APPEND``) on a connection the writer
        # keeps from batch to batch (no pool check-out, liveness ping and reset per commit).
        # SQLite has one connection for everyone, taken and given back each time.
        self._keeps_connection = engine.dialect.name == "postgresql"
        self._held: AsyncConnection | None = None

    async def close(self) -> None:
        await super().close()
        held, self._held = self._held, None
        if held is not None:
            try:
                await held.close()
            except Exception:  # noqa: BLE001 - a broken connection is dropped by the pool
                log.debug("the writer's connection did not close cleanly", exc_info=True)

    async def _held_connection(self) -> AsyncConnection:
        """The writer's own PostgreSQL connection, in autocommit: each append is one
        statement, a transaction of its own."""
        held = self._held
        if held is None or held.closed or held.invalidated:
            held = await self.engine.connect()
            await held.execution_options(isolation_level="AUTOCOMMIT")
            self._held = held
        return held

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
        if self._keeps_connection:
            await self._commit_one_statement(batch)
        else:
            await self._commit_statements(batch)
        self.batches += 1
        self.actions += len(batch)

    async def _commit_one_statement(self, batch: list[PendingAction]) -> None:
        """PostgreSQL: ``_PG_APPEND``, one round trip on the writer's own connection."""
        newest, oldest = _spans(batch)
        tables = list(newest.values())
        params = {
            "t_id": [i.table_id for i in tables],
            "t_prev": [oldest[i.table_id] - 1 for i in tables],
            "t_version": [i.seq for i in tables], "t_epoch": [i.epoch for i in tables],
            "t_finish": [i.outcome is not None for i in tables],
            "t_outcome": [None if i.outcome is None else _json(i.outcome) for i in tables],
            "t_at": [i.at for i in tables],
            "a_table": [i.table_id for i in batch], "a_seq": [i.seq for i in batch],
            "a_seat": [i.seat for i in batch], "a_action": [_json(i.action) for i in batch],
            "a_source": [i.source for i in batch], "a_at": [i.at for i in batch],
            "n": len(tables),
        }
        held = await self._held_connection()
        try:
            await held.execute(_PG_APPEND, params)
            await held.commit()  # (autocommit: ends SQLAlchemy's own record of it only)
        except DBAPIError as exc:
            if exc.connection_invalidated or held.invalidated:
                self._held = None  # broken: a fresh one next time
            if getattr(exc.orig, "sqlstate", None) == "22012":  # the fence's division
                raise StaleOwner(_FENCE_REFUSED) from None
            raise
        except BaseException:
            if held.invalidated:
                self._held = None
            raise

    async def _commit_statements(self, batch: list[PendingAction]) -> None:
        """SQLite (and any other database): the inserts and each table's fenced update, in
        one transaction of the pool's connection."""
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
                    for one in params:  # counted one by one where executemany cannot
                        changed += conn.execute(statement, one).rowcount
                elif params:
                    changed += conn.execute(statement, params).rowcount
            if changed != tables:
                raise StaleOwner(_FENCE_REFUSED)

        async with self.engine.begin() as conn:
            await conn.run_sync(work)

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


def _json(value: Any) -> str:
    """JSON text as the JSON columns hold it (SQLAlchemy's ``json.dumps``: keys that are not
    strings become strings)."""
    return json.dumps(value)


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
