"""Chat lines stored in batches: every table's lines that gather while a commit is in flight
share the next transaction (one fsync for many), like the actions' group commit.

Chat is frequent in a way moves are not: every join, leave, reconnect and timed-out move
adds a system line. Storing each in a transaction of its own made SQLite's single writer
connection the bottleneck of a busy server, so lines are queued here instead. A player's
message waits until it is stored (the sender hears if it was not); system lines do not wait
(a lost system line is logged, never a stall).

Each line carries its table's own sequence number (``seq``), given by the table's actor:
clients use it to show a line once, and a restart reads it back.

On SQLite, lines waiting here also ride along with the table writer's next transaction
(app/db/table_writer.py): a system line is then stored by the next table write's commit
instead of one of its own (``take_waiting``, ``settle``). A join's or a leave's own line
never comes here: its seat write stores it (app/db/repository.py ``save_seats``).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any, cast

from sqlalchemy import Table
from sqlalchemy.ext.asyncio import AsyncEngine

from app.db.batching import BatchWriter, insert_rows
from app.db.models import ChatLine

log = logging.getLogger(__name__)

CHAT = cast(Table, ChatLine.__table__)

# how long a batch of system lines waits for more on SQLite (see ChatWriter._linger)
LINGER = 0.005


class ChatWriter(BatchWriter[tuple[dict[str, Any], "asyncio.Future[None]"]]):
    name = "chat-writer"

    def __init__(self, engine: AsyncEngine, max_batch: int = 1000) -> None:
        super().__init__(engine, max_batch)
        # SQLite: one writer at a time, so system lines wait for company (``_linger``) and
        # ride along with the table writer's transactions (``take_waiting``)
        self.sqlite = engine.dialect.name == "sqlite"
        self.table = CHAT
        self.batches = 0
        self.lines = 0

    def _linger(self, batch: list[tuple[dict[str, Any], asyncio.Future[None]]]) -> float:
        """On SQLite, a batch of system lines only (joins, leaves, reconnects: nobody waits
        for them) waits ``LINGER`` seconds for more, so that a busy lobby's lines share a
        commit; a player's message is stored at once, with whatever has gathered."""
        if not self.sqlite or len(batch) >= self.max_batch:
            return 0.0
        return LINGER if all(row["kind"] == "system" for row, _ in batch) else 0.0

    async def close(self) -> None:
        """Stop, storing first the lines still queued or lingering (a shutdown keeps them)."""
        lingering, self._lingering = self._lingering, []
        await super().close()
        pending = [item for item in lingering + self._queued() if not item[1].done()]
        if pending:
            await self._store(pending)

    def append(self, row: dict[str, Any]) -> asyncio.Future[None]:
        """Queue one line (a ``chat_lines`` row as a dict); the future is done once it is
        stored (or failed)."""
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._put((row, done))
        if row["kind"] != "system":  # someone waits for this one: no lingering
            self._end_linger()
        return done

    def take_waiting(self) -> list[tuple[dict[str, Any], asyncio.Future[None]]]:
        """On SQLite: the lines waiting for a commit (the lingering batch and what has queued;
        not a batch being stored), taken out of this writer so that another writer's
        transaction stores them; it must then ``settle`` them, or ``give_back`` them if its
        transaction failed. Elsewhere: none."""
        if not self.sqlite:
            return []
        items = [*self._lingering, *self._queued()]
        # the lingering batch is the very list ``_run`` stores when its wait is over: emptied
        # here, that finds nothing to store (or only what has queued since)
        self._lingering.clear()
        return [item for item in items if not item[1].done()]

    def give_back(self, items: list[tuple[dict[str, Any], asyncio.Future[None]]]) -> None:
        """Lines ``take_waiting`` gave that were not stored after all: queued again."""
        for item in items:
            self._put(item)
        if any(row["kind"] != "system" for row, _ in items):
            self._end_linger()

    def settle(self, batch: list[tuple[dict[str, Any], asyncio.Future[None]]],
               exc: BaseException | None = None, *, shared: bool = False) -> None:
        """Tell the lines' waiters they are stored (``exc``: why not); ``shared``: by another
        writer's transaction (counted as lines, not as a batch of this writer)."""
        if exc is not None:
            log.warning("%d chat line(s) not stored", len(batch), exc_info=exc)
            for _, done in batch:
                if not done.done():
                    done.set_exception(exc)
                    done.exception()  # system lines do not wait: never "unretrieved"
            return
        if not shared:
            self.batches += 1
        self.lines += len(batch)
        for _, done in batch:
            if not done.done():
                done.set_result(None)

    def stored_elsewhere(self, lines: int) -> None:
        """Count ``lines`` stored by another writer's transaction (a seat write's own system
        line: app/db/repository.py ``save_seats``)."""
        self.lines += lines

    async def _store(self, batch: list[tuple[dict[str, Any], asyncio.Future[None]]]) -> None:
        try:
            await insert_rows(self.engine, CHAT, [row for row, _ in batch])
        except Exception as exc:  # noqa: BLE001 - tell every waiter, keep running
            self.settle(batch, exc)
            return
        self.settle(batch)
