"""What both group writers share (the actions' in ``writer.py``, the chat lines' in
``chat_writer.py``): one background task per process takes whatever has queued while the
previous commit was in flight, up to ``max_batch`` items, and hands it to ``_store`` in one
go. The task starts with the first item and is cancelled by ``close``."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import Any, Generic, TypeVar

from sqlalchemy import Table, insert
from sqlalchemy.ext.asyncio import AsyncEngine

from app import metrics

Item = TypeVar("Item")


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


async def insert_rows(engine: AsyncEngine, table: Table, rows: list[Mapping[str, Any]]) -> None:
    """``rows`` inserted into ``table`` in one transaction (one executemany through
    SQLAlchemy Core), durable when this returns."""
    async with engine.begin() as conn:
        await conn.execute(insert(table), rows)
