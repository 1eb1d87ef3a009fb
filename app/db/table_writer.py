"""Tables' own rows written in shared transactions: a new table, its seats after a join or a
leave, its status (started, finished), from every table whose writes queue while a commit is
in flight (one commit, one fsync for many), like the actions' group commit.

Each write is a function of a connection. A write refused by its fence (``StaleOwner``:
another process owns the table now) has written nothing, so it fails alone and the others
commit. Anything else that fails rolls the whole batch back and every write is then made
in a transaction of its own, so each fails or succeeds as it did before it shared one.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from app.db.batching import BatchWriter
from app.db.writer import StaleOwner

log = logging.getLogger(__name__)

Write = Callable[[AsyncConnection], Awaitable[None]]
Item = tuple[Write, "asyncio.Future[None]"]


class TableWriter(BatchWriter[Item]):
    name = "table-writer"

    def __init__(self, engine: AsyncEngine, max_batch: int = 200) -> None:
        super().__init__(engine, max_batch)

    def write(self, write: Write) -> asyncio.Future[None]:
        """Queue one write; the future is done once it is committed (or failed)."""
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._put((write, done))
        return done

    async def _store(self, batch: list[Item]) -> None:
        if len(batch) > 1:
            refused: list[StaleOwner | None] = []
            try:
                async with self.engine.begin() as conn:
                    for write, _ in batch:
                        try:
                            await write(conn)
                        except StaleOwner as exc:  # fenced before it wrote anything
                            refused.append(exc)
                        else:
                            refused.append(None)
            except Exception:  # noqa: BLE001 - each on its own below
                log.debug("a shared table write failed; writing one by one", exc_info=True)
            else:
                for (_, done), exc in zip(batch, refused, strict=True):
                    _settle(done, exc)
                return
        for write, done in batch:
            try:
                async with self.engine.begin() as conn:
                    await write(conn)
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
