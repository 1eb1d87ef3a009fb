"""What each seat of an Allegra table may see (``AllegraEngine.view``).

Everything on the table is public except the deck's order and the values of face-down cards,
which nobody knows, their owners included, and the card an accepted knocker holds in hand
between steps a and c of a knock, which only that knocker knows. So every seat gets the same
picture but for ``you``, ``legal`` and the knocker's ``knock.held``. No card id ever
appears: cells are shown by position, face-up cards by their value alone.
"""

from __future__ import annotations

from typing import Any, Protocol

from app.games.allegra.data import MAX_ROUNDS_WITH_TARGET
from app.games.allegra.geometry import display_slots
from app.games.allegra.state import (
    AllegraState,
    can_knock,
    cards_in_display,
    copy_json,
    face_down_count,
    lines_of,
    totals,
)
from app.games.base import JSON, Action, Outcome, Window


class AllegraEngine(Protocol):
    """What the view asks of the engine (rules.py imports this module, not the reverse)."""

    id: str

    def window(self, state: AllegraState) -> Window | None: ...
    def outcome(self, state: AllegraState) -> Outcome | None: ...
    def legal_actions(self, state: AllegraState, seat: int) -> list[Action]: ...


SUMMARY_KEYS = ("round", "trigger", "base", "bonus", "penalty", "points", "totals")


def _cell(state: AllegraState, owner: int, index: int) -> JSON | None:
    card = state.grid[owner][index]
    if card is None:
        return None
    if not state.up[owner][index]:
        return {"up": False}
    return {"up": True, "value": state.values[card]}


def _value(state: AllegraState, card: int | None) -> int | None:
    return None if card is None else state.values[card]


def build_view(engine: AllegraEngine, state: AllegraState, seat: int | None) -> JSON:
    n = state.seats
    me = seat if isinstance(seat, int) and 0 <= seat < n else None
    window = engine.window(state)
    target = int(state.options["target_score"])
    players: list[JSON] = []
    for s in range(n):
        players.append({
            "seat": s,
            "grid": [_cell(state, s, i) for i in range(len(state.grid[s]))],
            "display": [[o, i] for o, i in display_slots(n, s)],
            "face_down": face_down_count(state, s),
            "cards": cards_in_display(state, s),
            "reveals": state.reveals[s],
            "can_knock": not state.over and can_knock(state, s),
            "done": state.done[s],
            "total": totals(state)[s],
        })
    knock: JSON | None = None
    if state.phase in ("knock", "accept", "knock_place", "knock_take") or (
            state.phase == "clear" and state.after_clear == "knock_take"):
        knock = {
            "window": window.id if window is not None else None,
            "eligible": list(state.eligible),
            "knocked": list(state.knocked),
            "passed": list(state.passed),
            "knockers": list(state.knockers),
            "accepted": state.knocker,
            # the card in the knocker's hand: its value for the knocker alone
            "holding": state.held is not None,
            "held": _value(state, state.held) if me is not None and me == state.knocker
            else None,
        }
    results: list[Any] = [{k: r[k] for k in SUMMARY_KEYS} for r in state.results]
    outcome = engine.outcome(state)
    return {
        "game": engine.id,
        "seats": n,
        "you": me,
        "options": dict(state.options),
        "round": state.round,
        "rounds": None if target else state.options["rounds"],
        "max_rounds": MAX_ROUNDS_WITH_TARGET if target else state.options["rounds"],
        "target_score": target,
        "phase": "over" if state.over else state.phase,
        "dealer": state.dealer,
        "current": None if state.over or state.phase == "reveal" else state.current,
        "deck": len(state.deck),
        "discard": {"size": len(state.discard),
                    "top": _value(state, state.discard[-1]) if state.discard else None},
        "hand": _value(state, state.hand),
        "source": state.source,
        "outgoing": _value(state, state.outgoing),
        "knock": knock,
        "clearer": state.clearer,
        "lines": lines_of(state, state.clearer) if state.clearer is not None
        and state.phase == "clear" else [],
        "trigger": state.trigger,
        "players": players,
        "results": results,
        "last_round": copy_json(state.results[-1]) if state.results else None,
        "totals": totals(state),
        "legal": engine.legal_actions(state, me) if me is not None else [],
        "outcome": outcome.to_json() if outcome is not None else None,
    }
