"""Alebrijes' cards and constants (RULES.md §3).

**Assumed** (the printed rules give 60 suited cards and 20 wild cards, values 1 to 5, but
not how many copies of each value nor which ones carry the Ollin symbol): three copies of
every suited value, four copies of every wild value, and in each suit one of the three
copies of every value carries Ollin (20 Ollin cards); wild cards carry none. Correct the
tables below, not the engine, if a printed deck says otherwise.

Inside the engine a card is an integer index into :data:`CARDS`; that index never reaches
a client. Cards in hands carry per-game ids handed out in draw order (see rules.py).
"""

from __future__ import annotations

from typing import Final, NamedTuple

# The value chain: each suit beats the one before it; orange is beaten by one more blue card.
SUITS: Final = ("blue", "green", "pink", "orange")
WILD: Final = "wild"
NUMBERS: Final = (1, 2, 3, 4, 5)

COPIES_PER_SUITED_VALUE: Final = 3  # Assumed
OLLIN_COPIES_PER_SUITED_VALUE: Final = 1  # Assumed: how many of those copies carry Ollin
COPIES_PER_WILD_VALUE: Final = 4  # Assumed
OLLIN_ON_WILDS: Final = False  # Assumed

MIN_PLAYERS: Final = 3
MAX_PLAYERS: Final = 6
ROUNDS: Final = 3
MAX_EXCHANGE: Final = 2


def hand_size(seats: int) -> int:
    """Cards dealt to each player: 10, or 8 with five or six players."""
    return 8 if seats >= 5 else 10


class Card(NamedTuple):
    suit: str  # one of SUITS, or WILD
    number: int
    ollin: bool


def _build() -> tuple[Card, ...]:
    cards = []
    for suit in SUITS:
        for number in NUMBERS:
            for copy in range(COPIES_PER_SUITED_VALUE):
                cards.append(Card(suit, number, copy < OLLIN_COPIES_PER_SUITED_VALUE))
    for number in NUMBERS:
        for _copy in range(COPIES_PER_WILD_VALUE):
            cards.append(Card(WILD, number, OLLIN_ON_WILDS))
    return tuple(cards)


CARDS: Final[tuple[Card, ...]] = _build()

if len(CARDS) != 80 or sum(c.suit == WILD for c in CARDS) != 20:  # pragma: no cover
    raise RuntimeError("the rulebook's deck has 60 suited and 20 wild cards")


def next_suit(suit: str) -> str:
    """The suit after ``suit`` in the value chain (orange wraps to blue)."""
    return SUITS[(SUITS.index(suit) + 1) % len(SUITS)]


def face(card: int) -> dict[str, object]:
    """A card as a client sees it: suit, number and Ollin mark, never its internal index."""
    c = CARDS[card]
    return {"suit": c.suit, "number": c.number, "ollin": c.ollin}
