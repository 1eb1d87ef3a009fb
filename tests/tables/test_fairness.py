"""No seat can keep another from acting: the table takes commands in arrival order and a
connection has one in the queue at a time (the WebSocket reads its next message once the
last is answered), so a seat flooding from every connection it may open delays another
seat's move by at most one command per flooding connection; and its moves, which change
nothing the other seat acts on, never make that seat's move stale."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest

from app.errors import AppError
from app.tables.core.commands import Act
from app.tables.limits import CONNECTIONS_PER_PLAYER
from tests.tables.support import started

pytestmark = pytest.mark.asyncio


async def test_a_flooding_seat_delays_another_by_one_command_per_connection_at_most() -> None:
    actor, repo, _ = await started("ajolocracia", 3, clock=time.monotonic)
    order: list[str] = []
    step = actor._step

    async def recording(command: Any, follow_ups: list[Any]) -> Any:
        order.append(command.player_id if isinstance(command, Act) else "")
        return await step(command, follow_ups)

    actor._step = recording  # type: ignore[method-assign]
    picks = [a for a in actor.engine.legal_actions(actor.state, 0) if a["type"] == "pick"]
    stop = False

    async def flood(n: int) -> None:  # one connection: the next message once answered
        i = n
        while not stop:
            try:
                await actor.submit(Act("a", picks[i % len(picks)], actor.table.version))
            except AppError:
                pass  # its own earlier pick moved on what it acts on: stale, sent again
            i += 1

    floods = [asyncio.create_task(flood(n)) for n in range(CONNECTIONS_PER_PLAYER)]
    while len(order) < 50:  # the flood is on
        await asyncio.sleep(0)
    sent_for = actor.table.version
    honest = next(a for a in actor.engine.legal_actions(actor.state, 1) if a["type"] == "pick")
    before = len(order)
    version = await actor.submit(Act("b", honest, sent_for))
    handled = order.index("b", before)
    assert handled - before <= CONNECTIONS_PER_PLAYER  # at most one per flooding connection
    assert version > sent_for  # and accepted, though the table moved on meanwhile
    stop = True
    await asyncio.gather(*floods)
    assert actor.state.picks[1] != [] and repo.actions[-1][1] in (0, 1)
    await actor.stop()
