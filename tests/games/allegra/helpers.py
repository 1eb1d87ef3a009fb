"""Hand-made Allegra states for scenario tests.

A grid is given as its owner's 12 slots (row-major, 3 rows x 4 columns): an int is a face-up
card of that value, ``D(v)`` a face-down card of value ``v``, ``None`` a cleared space.
Display positions (0..14, 3 rows x 5 columns) are written ``P(row, col)``.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from app.games.allegra import ENGINE, AllegraState
from app.games.base import Event, event_for, resolve_options
from app.tables.engine import apply_any


class D:
    """A face-down card of value ``v``."""

    def __init__(self, value: int) -> None:
        self.value = value


Cell = int | D | None


def P(row: int, col: int) -> int:  # noqa: N802 - reads like the rulebook's diagrams
    return row * 5 + col


def grid(cells: dict[int, Cell] | None = None, base: Cell = None) -> list[Cell]:
    """12 slots, all ``base`` (default: face-down 6s) except ``cells`` (slot -> cell)."""
    filler = D(6) if base is None else base
    return [(cells or {}).get(i, filler) for i in range(12)]


def make(grids: Sequence[Sequence[Cell]], *, current: int = 0, phase: str = "take",
         deck: Sequence[int] = (), discard: Sequence[int] = (9,),
         options: dict[str, Any] | None = None, dealer: int | None = None,
         hand: int | None = None, source: str | None = None, trigger: int | None = None,
         done: Sequence[bool] | None = None, round_: int = 1,
         results: Sequence[dict] = ()) -> AllegraState:
    """A state; ``deck`` and ``discard`` list values bottom first (top last); the deck gets
    40 face-down 5s under the given cards so draws never run out by accident."""
    values: list[int] = []

    def new(value: int) -> int:
        values.append(value)
        return len(values) - 1

    cards: list[list[int | None]] = []
    up: list[list[bool]] = []
    for g in grids:
        assert len(g) == 12
        cards.append([None if c is None else new(c.value if isinstance(c, D) else c)
                      for c in g])
        up.append([c is not None and not isinstance(c, D) for c in g])
    seats = len(grids)
    deck_ids = [new(5) for _ in range(40)] + [new(v) for v in deck]
    discard_ids = [new(v) for v in discard]
    state = AllegraState(
        seats=seats, options=resolve_options(ENGINE.options, options), rng=12345,
        values=values, deck=deck_ids, discard=discard_ids, grid=cards, up=up,
        dealer=(current - 1) % seats if dealer is None else dealer, current=current,
        round=round_, phase=phase, reveals=[2] * seats,
        hand=None if hand is None else new(hand), source=source, trigger=trigger,
        done=list(done) if done is not None else [False] * seats, results=list(results),
    )
    return state


def play(state: AllegraState, seat: int, action: dict) -> tuple[AllegraState, list[dict]]:
    """Apply through ``apply_any`` with the purity and round-trip checks; public events."""
    before = ENGINE.dump(state)
    new, events = apply_any(ENGINE, state, seat, action)
    assert ENGINE.dump(state) == before, "apply mutated its input"
    assert ENGINE.load(json.loads(json.dumps(ENGINE.dump(new)))) == new
    return new, public(events)


def public(events: list[Event]) -> list[dict]:
    return event_for(events, None)


def types(events: list[dict]) -> list[str]:
    return [e["type"] for e in events]


def shown(state: AllegraState, seat: int) -> list[Any]:
    """What ``seat``'s display shows now: value, "down" or None (cleared), by position."""
    out: list[Any] = []
    for cell in (ENGINE.view(state, None)["players"][o]["grid"][i]
                 for o, i in ENGINE.view(state, None)["players"][seat]["display"]):
        out.append(None if cell is None else (cell["value"] if cell["up"] else "down"))
    return out
