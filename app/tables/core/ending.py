"""How a game ends when the rules did not end it, and replaying a stored log to its end.

Two platform actions end a game early; both are stored in the log as actions of
``SYSTEM_SEAT`` (always the last action), so a restart, a replay and an import reach the same
result from the seed and the log alone:

- ``{"type": "resign", "seat": s}``: seat ``s`` gives up. In a cooperative game (Hanabi) the
  game ends for everyone as a loss: no winner, every score 0. In a competitive game the game
  ends; the resigning seat is ranked last, alone, and every other seat shares the win (one
  rule for every game, whatever its scoring: no engine has to say who "was leading").
  Scores are each seat's score at that moment (``current_scores``), for the record.
- ``{"type": "abandon", "reason": "vote" | "empty"}``: the others voted to end it after a
  seat stayed away past the grace period, or everyone left and the table was closed. No
  winner: everyone shares one place; scores as they stood.

Every such outcome carries ``details.end`` (``"resigned"`` or ``"abandoned"``) so the lobby,
the history and the replays can say how the game ended; a game the rules ended has no
``end``.

Also here: resigning, the janitor's round (expiring a table nobody came to, closing one
everyone left) and the rematch of a finished table.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from app.errors import forbidden
from app.games.base import ABANDON, RESIGN, SYSTEM_SEAT, Engine, Event, IllegalAction
from app.tables.core import presence, seating
from app.tables.core.commands import Housekeep, Resign, SetRematch
from app.tables.core.effects import Broadcast, Reply, SystemLine
from app.tables.core.play import Decision, accept, not_playing, opening
from app.tables.core.state import (
    TableState,
    TableStatus,
    evolve,
    name_of_seat,
    seat_of,
    seats_of,
)
from app.tables.engine import EngineAdapter, adapt


def is_early_end(seat: int, action: Mapping[str, Any]) -> bool:
    return seat == SYSTEM_SEAT and action.get("type") in (RESIGN, ABANDON)


def early_outcome(engine: EngineAdapter, state: Any, seats: int,
                  action: Mapping[str, Any]) -> dict[str, Any]:
    """The outcome of a game ended by ``action`` (a resignation or an abandon)."""
    everyone = list(range(seats))
    scores = engine.current_scores(state, seats)
    if action["type"] == RESIGN:
        resigner = int(action["seat"])
        if engine.cooperative:
            return {"scores": [0] * seats, "ranking": [everyone], "winners": [],
                    "details": {"end": "resigned", "seat": resigner, "cooperative": True,
                                "score_at_end": scores[0] if scores else 0}}
        others = [s for s in everyone if s != resigner]
        return {"scores": scores, "ranking": [others, [resigner]], "winners": others,
                "details": {"end": "resigned", "seat": resigner}}
    return {"scores": scores, "ranking": [everyone], "winners": [],
            "details": {"end": "abandoned", "reason": action["reason"]}}


# --------------------------------------------------------------------------- at the table


def end_early(table: TableState, action: dict[str, Any], source: str, now: float) -> Decision:
    """Store a platform action that ends the game and tell everyone; the engine's state
    stays as it was."""
    outcome = early_outcome(table.engine, table.game_state, table.seat_count, action)
    table, effects = accept(table, SYSTEM_SEAT, action, source, now, outcome=outcome)
    details = outcome["details"]
    if details["end"] == "resigned":
        line = SystemLine("resigned", details["seat"],
                          {"name": name_of_seat(table, details["seat"])})
    else:
        line = SystemLine("abandoned", None, {"reason": details.get("reason")})
    return table, [*effects, line]


def resign(table: TableState, cmd: Resign, now: float) -> Decision:
    seat = seat_of(table, cmd.player_id)
    if seat is None:
        raise forbidden("only seated players can do that")
    if cmd.seat is not None:  # the hot seat: the seat being played gives up, not the first
        if cmd.seat not in seats_of(table, cmd.player_id):
            raise forbidden("you do not hold that seat")
        seat = cmd.seat
    if table.status is not TableStatus.PLAYING:
        raise not_playing()
    table, effects = end_early(table, {"type": RESIGN, "seat": seat}, "resign", now)
    return table, [*effects, Reply(table.version)]


def housekeep(table: TableState, cmd: Housekeep, now: float) -> Decision:
    idle = presence.idle_for(table, now)
    if table.status is TableStatus.WAITING and idle >= cmd.waiting_after and not table.conns:
        table, effects = seating.delete_table(table, "table_expired",
                                              "nobody came to this table: it expired")
        return table, [*effects, Reply("expired")]
    if table.status is TableStatus.PLAYING and idle >= cmd.empty_after and \
            not presence.connected_seats(table):
        table, effects = end_early(table, {"type": ABANDON, "reason": "empty"}, "empty", now)
        return table, [*effects, Reply("closed")]
    return table, [Reply(None)]


def set_rematch(table: TableState, cmd: SetRematch, now: float) -> Decision:
    # the API holds a lock per finished table and only sends this when there is no live
    # rematch yet (none, or the last one was deleted)
    table = evolve(table, rematch=(cmd.table_id, cmd.invite))
    return table, [SystemLine("rematch", None, {"name": table.names.get(cmd.by, "")}),
                   Broadcast(), Reply(cmd.table_id)]


# --------------------------------------------------------------------------- replaying


@dataclass
class Replayed:
    """A game rebuilt from its seed and log: the final state, each step's events, the
    outcome (None while the game goes on) and, for a replay, every intermediate state;
    ``opening``, the events the log opened with at the deal (the engine's ``opening``)."""

    state: Any
    history: list[tuple[int, list[Event]]] = field(default_factory=list)
    opening: list[Event] = field(default_factory=list)
    outcome: dict[str, Any] | None = None
    states: list[Any] | None = None


def replay(engine: Engine | EngineAdapter, seats: int, options: Mapping[str, Any], seed: int,
           actions: Iterable[tuple[int, int, Mapping[str, Any]]],
           keep_states: bool = False,
           on_step: Callable[[int, Any], None] | None = None,
           position: Mapping[str, Any] | None = None) -> Replayed:
    """Set the game up (from ``seed``, or from a stored ``position``) and apply
    ``(seq, seat, action)`` in order. Raises ``IllegalAction`` (with the step in its
    message) if the log is not legal: an action the rules refuse, an action after the end,
    or a version out of sequence. ``on_step(i, state)`` sees the state after the set-up
    (``i == 0``) and after the i-th action."""
    adapter = engine if isinstance(engine, EngineAdapter) else adapt(engine)
    state = adapter.setup(seats, options, seed, position)
    if on_step is not None:
        on_step(0, state)
    out = Replayed(state, states=[state] if keep_states else None,
                   opening=opening(adapter, state, position))
    expected = None
    for seq, seat, action in actions:
        if expected is not None and seq != expected:
            raise IllegalAction("bad_log", f"step {seq}: expected step {expected}")
        expected = seq + 1
        if out.outcome is not None:
            raise IllegalAction("bad_log", f"step {seq}: the game had already ended")
        try:
            state, events = adapter.apply(state, seat, dict(action))
        except IllegalAction as exc:
            raise IllegalAction(exc.code, f"step {seq}: {exc.message}") from None
        if is_early_end(seat, action):
            out.outcome = early_outcome(adapter, state, seats, action)
        else:
            out.outcome = adapter.outcome_json(state)
        out.state = state
        out.history.append((seq, events))
        if out.states is not None:
            out.states.append(state)
        if on_step is not None:
            on_step(len(out.history), state)
    return out
