"""Driving the table core by hand: ``decide`` calls with a clock that is just a number."""

from __future__ import annotations

import copy
from typing import Any

from app.errors import AppError
from app.tables.core.commands import Connect, Join, Start
from app.tables.core.decide import decide
from app.tables.core.effects import Effect, Refuse, Reply
from app.tables.core.state import TableState
from tests.tables.support import PLAYERS, table_for


def run(table: TableState, command: Any, now: float = 1000.0) -> tuple[TableState, list[Effect]]:
    """``decide``, checking on the way that it left the table it was given as it was."""
    before = snapshot(table)
    after, effects = decide(table, command, now)
    assert snapshot(table) == before, f"decide changed its input on {command!r}"
    return after, effects


def ok(table: TableState, command: Any, now: float = 1000.0) -> tuple[TableState, Any]:
    """Decide a command that must be accepted; (new table, its reply)."""
    after, effects = run(table, command, now)
    refused = [e.error for e in effects if isinstance(e, Refuse)]
    assert not refused, f"{command!r} refused: {refused[0].code}: {refused[0].message}"
    replies = [e.value for e in effects if isinstance(e, Reply)]
    return after, replies[0] if replies else None


def refused(table: TableState, command: Any, now: float = 1000.0) -> tuple[TableState, AppError]:
    after, effects = run(table, command, now)
    errors = [e.error for e in effects if isinstance(e, Refuse)]
    assert errors, f"{command!r} was not refused"
    return after, errors[0]


def kinds(effects: list[Effect]) -> list[str]:
    return [type(e).__name__ for e in effects]


def started(game: str, seats: int, options: dict[str, Any] | None = None, seed: int = 42,
            now: float = 1000.0, connected: bool = True) -> TableState:
    """A table of ``game`` with every seat taken (players "a", "b"...) and the game started;
    every player connected (connection ids 0, 1...) unless ``connected`` is False."""
    table = table_for(game, seats, options, seed=seed, now=now)
    for p in PLAYERS[1:seats]:
        table, _ = ok(table, Join(p, p.upper()), now)
    table, _ = ok(table, Start("a"), now)
    if connected:
        for seat in range(seats):
            table, _ = ok(table, Connect(seat, PLAYERS[seat], PLAYERS[seat].upper()), now)
    return table


def snapshot(table: TableState) -> Any:
    """Everything a decision could change by mistake, copied deeply (engines' states are
    compared through their dumps)."""
    fields = {k: v for k, v in table.__dict__.items()
              if k not in ("engine", "game_state", "history", "clock")}
    dump = table.engine.dump(table.game_state) if table.game_state is not None else None
    return (copy.deepcopy(fields), dump, len(table.history), copy.deepcopy(table.clock.__dict__))
