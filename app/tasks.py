"""Background tasks nobody awaits: held until they end, and their failures logged.

``asyncio`` keeps only a weak reference to a task, so one started and forgotten can be
collected before it has run; and an exception nobody retrieves is reported by asyncio, at
ERROR and without saying what the task was for, only when the task is collected. ``spawn``
holds the task until it ends and logs a failure itself, at the level its caller chose (a
socket that cannot be closed because its client has gone is routine: DEBUG).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine
from typing import Any

log = logging.getLogger(__name__)

_running: set[asyncio.Task[Any]] = set()


def spawn(coro: Coroutine[Any, Any, Any], what: str,
          level: int = logging.WARNING) -> asyncio.Task[Any]:
    """Run ``coro`` in a task of its own; if it fails, log ``what`` failed at ``level``."""
    task = asyncio.get_running_loop().create_task(coro)
    _running.add(task)

    def ended(done: asyncio.Task[Any]) -> None:
        _running.discard(done)
        if not done.cancelled() and (exc := done.exception()) is not None:
            log.log(level, "%s failed", what, exc_info=exc)

    task.add_done_callback(ended)
    return task


def running() -> int:
    """How many spawned tasks have not ended yet."""
    return len(_running)
