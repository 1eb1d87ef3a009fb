"""Tables' own rows written in shared transactions: a new table, its seats after a join or a
leave, its status (started, finished), from every table whose writes queue while a commit is
in flight (one commit, one fsync for many), like the actions' group commit.

Each write is one function of a SQLAlchemy connection (Core statements); a batch's writes
run in one ``run_sync`` (one greenlet for them all, not one per statement). A write refused by
its fence (``StaleOwner``: another process owns the table now) has written nothing, so it
fails alone and the others commit. Anything else that fails rolls the whole batch back and
every write is then made in a transaction of its own, so each fails or succeeds as it did
before it shared one.

On SQLite the chat lines waiting in the chat writer (app/db/chat_writer.py: system lines
linger there for company) ride along with a batch: inserted in the same transaction, stored
by the same commit, instead of a commit of their own. A join's or a leave's own system line
does not wait there at all: it is part of its seat write (app/db/repository.py
``save_seats``'s ``chat``).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING

from sqlalchemy import Connection, insert
from sqlalchemy.ext.asyncio import AsyncEngine

from app.db.batching import BatchWriter
from app.db.writer import StaleOwner

if TYPE_CHECKING:
    from app.db.chat_writer import ChatWriter

log = logging.getLogger(__name__)

# one write: what it does on a connection, in the batch's transaction
Write = Callable[[Connection], None]

Item = tuple[Write, "asyncio.Future[None]"]


class TableWriter(BatchWriter[Item]):
    name = "table-writer"

    def __init__(self, engine: AsyncEngine, max_batch: int = 200,
                 chat: ChatWriter | None = None) -> None:
        super().__init__(engine, max_batch)
        # the chat writer whose waiting lines ride along with a batch (SQLite)
        self.chat = chat

    def write(self, write: Write) -> asyncio.Future[None]:
        """Queue one write; the future is done once it is committed (or failed)."""
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._put((write, done))
        return done

    async def _store(self, batch: list[Item]) -> None:
        chat = self.chat
        riders = chat.take_waiting() if chat is not None else []
        if len(batch) > 1 or riders:
            refused: list[StaleOwner | None] = []
            lines = [row for row, _ in riders]

            def run(conn: Connection) -> None:
                for write, _ in batch:
                    try:
                        write(conn)
                    except StaleOwner as exc:  # fenced before it wrote anything
                        refused.append(exc)
                    else:
                        refused.append(None)
                if lines:
                    assert chat is not None
                    conn.execute(insert(chat.table), lines)

            try:
                async with self.engine.begin() as conn:
                    await conn.run_sync(run)
            except Exception:  # noqa: BLE001 - each on its own below
                log.debug("a shared table write failed; writing one by one", exc_info=True)
                refused.clear()
                if riders:
                    chat.give_back(riders)  # type: ignore[union-attr]
            else:
                if riders:
                    chat.settle(riders, shared=True)  # type: ignore[union-attr]
                for (_, done), error in zip(batch, refused, strict=True):
                    _settle(done, error)
                return
        for write, done in batch:
            try:
                async with self.engine.begin() as conn:
                    await conn.run_sync(write)
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
