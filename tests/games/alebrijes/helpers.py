"""Hand-made Alebrijes states for scenario tests."""

from __future__ import annotations

from itertools import count

from app.games.alebrijes import ENGINE, AlebrijesState
from app.games.alebrijes.data import CARDS

_ids = count(1000)


def idx(suit: str, number: int, ollin: bool = False) -> int:
    """The index of a card of that face (any copy: faces are what matter here)."""
    return next(i for i, c in enumerate(CARDS)
                if c.suit == suit and c.number == number and c.ollin == ollin)


def cards(*faces: tuple) -> list[list[int]]:
    """Hand cards ``[id, index]`` from faces ``(suit, number[, ollin])`` with fresh ids."""
    return [[next(_ids), idx(*f)] for f in faces]


def trick_state(seats: int, hands: list[list[list[int]]], leader: int = 0,
                deck: list[int] | None = None) -> AlebrijesState:
    """A state in the trick phase, ``leader`` to lead, with these hands and deck."""
    state = ENGINE.setup(seats, {"first_seat": leader}, seed=1)
    state.phase = "trick"
    state.exchanged = seats
    state.current = state.leader = state.starter = leader
    state.hands = [list(h) for h in hands]
    state.deck = list(deck if deck is not None else [idx("wild", 1)] * 20)
    return state


def ids_of(hand_cards: list[list[int]]) -> list[int]:
    return [c[0] for c in hand_cards]


def play(state: AlebrijesState, seat: int, suit: str, number: int, n: int, wilds: int = 0,
         ollin: int | None = None) -> tuple[AlebrijesState, list]:
    action: dict = {"type": "play", "suit": suit, "number": number, "count": n,
                    "wilds": wilds}
    if ollin is not None:
        action["ollin"] = ollin
    return ENGINE.apply(state, seat, action)
