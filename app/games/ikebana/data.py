"""Ikebana's cards and constants (RULES.md §2).

The deck is the 50 coloured Hanabi cards (five colours × 1,1,1,2,2,3,3,4,4,5) plus five
multicolour wild cards numbered 1 to 5. Inside the engine a card is an integer index into
:data:`CARDS`; that index never reaches a client (views show colour and number only).
"""

from __future__ import annotations

from typing import Final

COLOURS: Final = ("red", "green", "black", "blue", "yellow")
WILD: Final = "wild"
NUMBERS_PER_COLOUR: Final = (1, 1, 1, 2, 2, 3, 3, 4, 4, 5)
WILD_NUMBERS: Final = (1, 2, 3, 4, 5)

MIN_PLAYERS: Final = 2
MAX_PLAYERS: Final = 5
STARTING_PRESTIGE: Final = 6
ROUNDS: Final = 4
BOUQUET_SIZE: Final = 5

Card = tuple[str, int]  # (colour or "wild", number)

CARDS: Final[tuple[Card, ...]] = (
    *((colour, number) for colour in COLOURS for number in NUMBERS_PER_COLOUR),
    *((WILD, number) for number in WILD_NUMBERS),
)

# A draw must always be possible (see the "deck exhausted" ruling in rules.py): when a draw
# is needed, at most 5n-1 cards are in bouquets and n are pile tops, so at least
# len(CARDS) - 6n + 1 cards can be reshuffled into a new deck.
if len(CARDS) - BOUQUET_SIZE * MAX_PLAYERS - MAX_PLAYERS + 1 < 1:  # pragma: no cover
    raise RuntimeError("not enough cards for the reshuffle guarantee")


def card_json(card_id: int) -> dict[str, object]:
    """A card as a client sees it: its colour and number, never its internal index."""
    colour, number = CARDS[card_id]
    return {"colour": colour, "number": number}
