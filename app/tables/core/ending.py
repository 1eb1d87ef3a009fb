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
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from app.games.base import (
    ABANDON,
    RESIGN,
    SYSTEM_SEAT,
    Event,
    IllegalAction,
    apply_any,
    engine_options,
)


def is_early_end(seat: int, action: Mapping[str, Any]) -> bool:
    return seat == SYSTEM_SEAT and action.get("type") in (RESIGN, ABANDON)


def current_scores(engine: Any, state: Any, seats: int) -> list[int]:
    hook = getattr(engine, "current_scores", None)
    return [int(x) for x in hook(state)] if hook is not None else [0] * seats


def early_outcome(engine: Any, state: Any, seats: int,
                  action: Mapping[str, Any]) -> dict[str, Any]:
    """The outcome of a game ended by ``action`` (a resignation or an abandon)."""
    everyone = list(range(seats))
    scores = current_scores(engine, state, seats)
    if action["type"] == RESIGN:
        resigner = int(action["seat"])
        if getattr(engine, "cooperative", False):
            return {"scores": [0] * seats, "ranking": [everyone], "winners": [],
                    "details": {"end": "resigned", "seat": resigner, "cooperative": True,
                                "score_at_end": scores[0] if scores else 0}}
        others = [s for s in everyone if s != resigner]
        return {"scores": scores, "ranking": [others, [resigner]], "winners": others,
                "details": {"end": "resigned", "seat": resigner}}
    return {"scores": scores, "ranking": [everyone], "winners": [],
            "details": {"end": "abandoned", "reason": action["reason"]}}


@dataclass
class Replayed:
    """A game rebuilt from its seed and log: the final state, each step's events, the
    outcome (None while the game goes on) and, for a replay, every intermediate state."""

    state: Any
    history: list[tuple[int, list[Event]]] = field(default_factory=list)
    outcome: dict[str, Any] | None = None
    states: list[Any] | None = None


def replay(engine: Any, seats: int, options: Mapping[str, Any], seed: int,
           actions: Iterable[tuple[int, int, Mapping[str, Any]]],
           keep_states: bool = False,
           on_step: Callable[[int, Any], None] | None = None) -> Replayed:
    """Set the game up and apply ``(seq, seat, action)`` in order. Raises ``IllegalAction``
    (with the step in its message) if the log is not legal: an action the rules refuse, an
    action after the end, or a version out of sequence. ``on_step(i, state)`` sees the state
    after the set-up (``i == 0``) and after the i-th action."""
    state = engine.setup(seats, engine_options(options), seed)
    if on_step is not None:
        on_step(0, state)
    out = Replayed(state, states=[state] if keep_states else None)
    expected = None
    for seq, seat, action in actions:
        if expected is not None and seq != expected:
            raise IllegalAction("bad_log", f"step {seq}: expected step {expected}")
        expected = seq + 1
        if out.outcome is not None:
            raise IllegalAction("bad_log", f"step {seq}: the game had already ended")
        try:
            state, events = apply_any(engine, state, seat, dict(action))
        except IllegalAction as exc:
            raise IllegalAction(exc.code, f"step {seq}: {exc.message}") from None
        if is_early_end(seat, action):
            out.outcome = early_outcome(engine, state, seats, action)
        else:
            result = engine.outcome(state)
            out.outcome = result.to_json() if result is not None else None
        out.state = state
        out.history.append((seq, events))
        if out.states is not None:
            out.states.append(state)
        if on_step is not None:
            on_step(len(out.history), state)
    return out
