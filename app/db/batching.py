"""What both group writers share (the actions' in ``writer.py``, the chat lines' in
``chat_writer.py``): one background task per process takes whatever has queued while the
previous commit was in flight, up to ``max_batch`` items, and hands it to ``_store`` in one
go. The task starts with the first item and is cancelled by ``close``."""

from __future__ import annotations

import asyncio
from typing import Generic, TypeVar

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
            while len(batch) < self.max_batch and not self._queue.empty():
                batch.append(self._queue.get_nowait())
            await self._store(batch)
            metrics.batch_committed(self.name, len(batch))

    async def _store(self, batch: list[Item]) -> None:
        raise NotImplementedError
