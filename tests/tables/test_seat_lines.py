"""A join's or a leave's system line is stored by the seat write of its step (one commit,
not one for the seats and one for the line): the actor hands it to ``save_seats`` and only
pushes it afterwards; a seat write that fails stores, pushes and numbers no line."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from app.errors import AppError
from app.tables.core.commands import Join, Leave, Start
from tests.tables import support
from tests.tables.support import MemoryRepo

pytestmark = pytest.mark.asyncio


class SeatRepo(MemoryRepo):
    """Records which lines came with a seat write and which were queued on their own."""

    def __init__(self) -> None:
        super().__init__()
        self.with_seats: list[list[dict[str, Any]]] = []
        self.queued: list[tuple[int, str | None]] = []
        self.fail_seats = False

    async def save_seats(self, table_id: str, seats: list[str | None], host_id: str,
                         version: int, epoch: int | None = None,
                         chat: list[dict[str, Any]] | None = None) -> None:
        await asyncio.sleep(0)
        if self.fail_seats:
            self.fail_seats = False
            raise OSError("disk full")
        self.with_seats.append(list(chat or ()))
        await super().save_seats(table_id, seats, host_id, version, epoch, chat)

    def queue_chat_line(self, table_id: str, seq: int, *, at: Any, **line: Any) -> Any:
        self.queued.append((seq, line.get("code")))
        return super().queue_chat_line(table_id, seq, at=at, **line)


def make() -> tuple[Any, SeatRepo]:
    repo = SeatRepo()
    actor, _, _ = support.make("hanabi", 3, repo=repo, seed=11)
    return actor, repo


async def test_join_and_leave_lines_ride_their_seat_writes() -> None:
    actor, repo = make()
    conn, sock = await support.connect(actor, "a")
    await actor.submit(Join("b", "Beto"))
    await actor.submit(Leave("b"))
    await actor.submit(Join("c", "Cata"))
    await actor.submit(Join("b", "Beto"))
    await actor.submit(Start("a"))
    stored = [[(row["seq"], row["code"], row["params"]) for row in rows]
              for rows in repo.with_seats]
    assert stored == [[(1, "joined", {"name": "Beto"})], [(2, "left", {"name": "Beto"})],
                      [(3, "joined", {"name": "Cata"})], [(4, "joined", {"name": "Beto"})]]
    assert all(row["table_id"] == actor.table.id and row["kind"] == "system"
               for rows in repo.with_seats for row in rows)
    assert repo.queued == [(5, "started")]  # no seat write: queued as before
    await asyncio.sleep(0.02)
    pushed = [(m["id"], m["code"]) for m in sock.sent if m["type"] == "chat"]
    assert pushed == [(1, "joined"), (2, "left"), (3, "joined"), (4, "joined"), (5, "started")]
    assert [m["id"] for m in actor.chat] == [1, 2, 3, 4, 5]
    assert not actor._stored_lines
    await actor.stop()


async def test_a_failed_seat_write_stores_pushes_and_numbers_no_line() -> None:
    actor, repo = make()
    conn, sock = await support.connect(actor, "a")
    repo.fail_seats = True
    with pytest.raises(AppError) as refused:
        await actor.submit(Join("b", "Beto"))
    assert refused.value.status == 503
    assert actor.table.seats[1] is None and repo.with_seats == [] and repo.chat == []
    await actor.submit(Join("b", "Beto"))  # again: its line takes the number not used
    assert [[row["seq"] for row in rows] for rows in repo.with_seats] == [[1]]
    await asyncio.sleep(0.02)
    assert [(m["id"], m["code"]) for m in sock.sent if m["type"] == "chat"] == [(1, "joined")]
    await actor.stop()


async def test_a_step_with_two_seat_writes_stores_its_line_once(monkeypatch) -> None:
    """No step has two seat writes today; if one ever has, its lines go with the first."""
    from app.tables import actor as actor_module
    from app.tables.core.effects import SaveSeats, Store

    real = actor_module.decide

    def twice(table: Any, command: Any, now: float) -> Any:
        table, effects = real(table, command, now)
        extra = [e for e in effects if type(e) is Store and isinstance(e.write, SaveSeats)]
        return table, [*extra, *effects]

    monkeypatch.setattr(actor_module, "decide", twice)
    actor, repo = make()
    conn, sock = await support.connect(actor, "a")
    await actor.submit(Join("b", "Beto"))
    assert [[row["seq"] for row in rows] for rows in repo.with_seats] == [[1], []]
    assert [m["id"] for m in actor.chat] == [1]
    await asyncio.sleep(0.02)
    assert [(m["id"], m["code"]) for m in sock.sent if m["type"] == "chat"] == [(1, "joined")]
    await actor.stop()
