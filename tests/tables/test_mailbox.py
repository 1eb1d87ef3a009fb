"""The actor's mailbox (app/tables/actor.py ``_Mailbox``): commands taken in the order they
came, the sleeping task woken by the next one, and a task cancelled while it waits leaves
the commands for the next taker."""

from __future__ import annotations

import asyncio

import pytest

from app.tables.actor import _Envelope, _Mailbox

pytestmark = pytest.mark.asyncio


def envelope(n: int) -> _Envelope:
    return _Envelope(n, None)


async def test_commands_are_taken_in_order() -> None:
    box = _Mailbox()
    for n in range(5):
        box.put_nowait(envelope(n))
    assert not box.empty()
    assert [(await box.get()).command for _ in range(5)] == [0, 1, 2, 3, 4]
    assert box.empty()


async def test_a_waiting_taker_is_woken_by_the_next_command() -> None:
    box = _Mailbox()
    taker = asyncio.create_task(box.get())
    for _ in range(5):
        await asyncio.sleep(0)
    assert not taker.done()
    box.put_nowait(envelope(1))
    box.put_nowait(envelope(2))
    assert (await asyncio.wait_for(taker, 5)).command == 1
    assert (await box.get()).command == 2


async def test_a_cancelled_taker_leaves_the_commands_for_the_next() -> None:
    box = _Mailbox()
    taker = asyncio.create_task(box.get())
    await asyncio.sleep(0)
    taker.cancel()
    with pytest.raises(asyncio.CancelledError):
        await taker
    box.put_nowait(envelope(7))
    again = asyncio.create_task(box.get())
    box.put_nowait(envelope(8))
    assert (await asyncio.wait_for(again, 5)).command == 7
    assert (await asyncio.wait_for(box.get(), 5)).command == 8
    # and a taker that sleeps after that is woken too
    late = asyncio.create_task(box.get())
    await asyncio.sleep(0)
    box.put_nowait(envelope(9))
    assert (await asyncio.wait_for(late, 5)).command == 9
