"""Allegra's game state and the questions asked about the board (no moves here)."""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from typing import Any

from app.games.allegra.data import KNOCK_MIN_CARDS
from app.games.allegra.geometry import CLEARED, Slot, display_slots, find_lines
from app.games.base import JSON


@dataclass
class AllegraState:
    """Everything about a game, JSON-shaped. Card ids index ``values``; piles end on top."""

    seats: int
    options: JSON
    rng: int
    values: list[int]  # card id -> value (a random permutation: ids carry no identity)
    deck: list[int]
    discard: list[int]
    grid: list[list[int | None]]  # seat -> 12 slots: card id, None once cleared
    up: list[list[bool]]  # seat -> 12 slots: face up?
    dealer: int
    current: int
    round: int = 1
    phase: str = "reveal"
    reveals: list[int] = field(default_factory=list)  # cards turned up in the reveal phase
    hand: int | None = None  # the card taken this turn, shown to everyone
    source: str | None = None  # "deck" | "discard"
    windows: int = 0  # knock windows opened in this game (the window ids)
    eligible: list[int] = field(default_factory=list)  # seats the knock window asks
    knocked: list[int] = field(default_factory=list)
    passed: list[int] = field(default_factory=list)  # answered no, or did not answer in time
    knockers: list[int] = field(default_factory=list)  # once the window has closed
    knocker: int | None = None  # the accepted knocker R
    held: int | None = None  # the card R holds between steps a and c
    outgoing: int | None = None  # leaves the active display; discarded at the end of the turn
    clearer: int | None = None
    after_clear: str | None = None  # "knock_take" | "end_turn"
    trigger: int | None = None  # who ended the round
    done: list[bool] = field(default_factory=list)  # had their last move in the final round
    turns: int = 0
    results: list[JSON] = field(default_factory=list)  # scored rounds (see _end_round)
    over: bool = False


def cell_value(state: AllegraState, slot: Slot) -> int | None:
    """What a slot shows: its value face up, None face down, CLEARED when empty."""
    owner, index = slot
    card = state.grid[owner][index]
    if card is None:
        return CLEARED
    return state.values[card] if state.up[owner][index] else None


def lines_of(state: AllegraState, seat: int) -> list[list[int]]:
    """The lines ``seat`` could clear in its display now (display positions)."""
    return find_lines([cell_value(state, slot) for slot in display_slots(state.seats, seat)])


def can_knock(state: AllegraState, seat: int) -> bool:
    """Whether ``seat`` could knock for a card the active player draws now: not with 3 or
    fewer cards left, nor after its last move, nor with no face-down card left (such a
    player "can take no action" at all, RULES.md §5)."""
    return (state.seats >= 3 and bool(state.options["knock"]) and seat != state.current
            and not state.done[seat] and cards_in_display(state, seat) >= KNOCK_MIN_CARDS
            and face_down_count(state, seat) > 0)


def face_down_count(state: AllegraState, seat: int) -> int:
    return len(face_down_positions(state, seat))


def cards_in_display(state: AllegraState, seat: int) -> int:
    return len(card_positions(state, seat))


def totals(state: AllegraState) -> list[int]:
    return [sum(r["points"][s] for r in state.results) for s in range(state.seats)]


def card_positions(state: AllegraState, seat: int) -> list[int]:
    return [p for p, (o, i) in enumerate(display_slots(state.seats, seat))
            if state.grid[o][i] is not None]


def face_down_positions(state: AllegraState, seat: int) -> list[int]:
    return [p for p, (o, i) in enumerate(display_slots(state.seats, seat))
            if state.grid[o][i] is not None and not state.up[o][i]]


def exchanges(state: AllegraState, knocker: int, seat: int) -> list[tuple[int, int]]:
    """Step b's choices: (position in R's display, position in the active display)."""
    theirs = display_slots(state.seats, knocker)
    mine = display_slots(state.seats, seat)
    return [(q, a) for q in card_positions(state, knocker) for a in card_positions(state, seat)
            if theirs[q] != mine[a]]


def value_at(state: AllegraState, owner: int, index: int) -> int:
    card = state.grid[owner][index]
    assert card is not None
    return state.values[card]


STATE_FIELDS = tuple(f.name for f in fields(AllegraState))


def copy_json(value: Any) -> Any:
    """A deep copy of JSON-shaped data, faster than ``copy.deepcopy``."""
    if isinstance(value, list):
        return [copy_json(v) if isinstance(v, (list, dict)) else v for v in value]
    if isinstance(value, dict):
        return {k: copy_json(v) if isinstance(v, (list, dict)) else v for k, v in value.items()}
    return value


def clone(state: AllegraState) -> AllegraState:
    """A copy ``apply`` may change; scored rounds are never changed in place, so shared."""
    return replace(
        state, options=dict(state.options), values=list(state.values), deck=list(state.deck),
        discard=list(state.discard), grid=[list(g) for g in state.grid],
        up=[list(u) for u in state.up], reveals=list(state.reveals),
        eligible=list(state.eligible), knocked=list(state.knocked), passed=list(state.passed),
        knockers=list(state.knockers), done=list(state.done), results=list(state.results))
