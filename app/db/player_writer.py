"""New players stored in batches: the players created while a commit is in flight share the
next transaction (one commit, one fsync for many), like the chat lines and the actions.

Creating a player is the first call of every new visitor and of every script; each in a
transaction of its own made SQLite's single connection the limit of how fast people arrive.
The caller waits until its row is stored (or hears why not): a token is handed out only for
a stored player.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any, cast

from sqlalchemy import Table
from sqlalchemy.ext.asyncio import AsyncEngine

from app.db.batching import BatchWriter, insert_rows
from app.db.models import Player

log = logging.getLogger(__name__)

PLAYERS = cast(Table, Player.__table__)

Item = tuple[dict[str, Any], "asyncio.Future[None]"]


class PlayerWriter(BatchWriter[Item]):
    name = "player-writer"

    def __init__(self, engine: AsyncEngine, max_batch: int = 500) -> None:
        super().__init__(engine, max_batch)

    def append(self, row: dict[str, Any]) -> asyncio.Future[None]:
        """Queue one ``players`` row; the future is done once it is stored (or failed)."""
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._put((row, done))
        return done

    async def _store(self, batch: list[Item]) -> None:
        try:
            await insert_rows(self.engine, PLAYERS, [row for row, _ in batch])
        except Exception as exc:  # noqa: BLE001 - tell the waiters, keep running
            if len(batch) > 1:  # one bad row must not cost the others theirs: one by one
                for item in batch:
                    await self._store([item])
                return
            log.warning("a new player was not stored", exc_info=True)
            for _, done in batch:
                if not done.done():
                    done.set_exception(exc)
            return
        for _, done in batch:
            if not done.done():
                done.set_result(None)
