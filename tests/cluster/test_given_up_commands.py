"""A table given up (its lease lost, its process frozen past it) while commands wait for
its actor: each is answered ``table_moving``, so its socket's handler goes on.

Before, ``TableActor.stop`` cancelled the actor's task and left the replies of the command
it was handling and of those queued behind it unanswered for ever: the socket handlers
awaiting them never ended. That was the frozen owner's drift of ``ludoteca_websockets_open``
(issue 47, 7b): after SIGCONT, the moves and leavings its sockets had queued while it was
stopped met the table being given up, and those sockets were counted open for good although
their clients had gone (tests/cluster/test_frozen_owner.py plays the whole scenario)."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest

from app.errors import AppError
from app.tables.core.commands import Act, Disconnect
from tests.tables.support import MemoryRepo, connect, started

pytestmark = pytest.mark.asyncio


class HeldRepo(MemoryRepo):
    """Holds each action's write until ``release`` is set (a commit that takes a while)."""

    def __init__(self) -> None:
        super().__init__()
        self.writing = asyncio.Event()
        self.release = asyncio.Event()

    async def append_action(self, *args: Any, **kwargs: Any) -> None:
        self.writing.set()
        await self.release.wait()
        await super().append_action(*args, **kwargs)


@pytest.mark.parametrize("moved", [True, False], ids=["lease-lost", "stopped"])
async def test_commands_waiting_when_the_table_stops_are_answered_table_moving(moved) -> None:
    repo = HeldRepo()
    repo.release.set()
    actor, _, _ = await started("hanabi", 2, clock=time.monotonic, repo=repo)
    conn, _sock = await connect(actor, "b")
    repo.release.clear()
    seat = next(iter(actor.engine.to_act(actor.state)))
    action = actor.engine.legal_actions(actor.state, seat)[0]
    in_flight = asyncio.create_task(actor.submit(Act("ab"[seat], action, actor.table.version)))
    await asyncio.wait_for(repo.writing.wait(), 5)
    queued = asyncio.create_task(actor.disconnect(conn))  # a socket that has gone, leaving
    await asyncio.sleep(0)
    await actor.stop(moved=moved)
    for task in (in_flight, queued):
        with pytest.raises(AppError) as refused:
            await asyncio.wait_for(task, 5)  # before: never answered
        assert refused.value.code == "table_moving"
    with pytest.raises(AppError) as later:  # and nothing waits once it has stopped
        await asyncio.wait_for(actor.submit(Disconnect(conn.id)), 5)
    assert later.value.code == "table_moving"
