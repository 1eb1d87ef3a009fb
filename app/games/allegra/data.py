"""Allegra's cards and constants (RULES.md §5).

The printed rulebook says 120 cards valued -1 to 11 and, in a scan that lost the table, "8 /
9 / 11 of each". **Assumed** distribution (RULES.md): 8 each of -1, 0, 9, 10 and 11; 9 each
of 1, 2, 7 and 8; 11 each of 3, 4, 5 and 6. With 2 or 3 players 2 cards of every value are
removed (94 cards). Correct the distribution here, never in the engine.

Inside the engine a card is an integer id; :func:`deal_values` gives each id its value in a
random order drawn from the game's RNG, so an id says nothing about its card (and ids never
reach a client anyway: views show positions and face-up values only).
"""

from __future__ import annotations

from typing import Final

from app.games.base import Rng

MIN_PLAYERS: Final = 2
MAX_PLAYERS: Final = 6

# value -> copies in the full 120-card deck (Assumed, see the module docstring)
DISTRIBUTION: Final[dict[int, int]] = {
    -1: 8, 0: 8, 1: 9, 2: 9, 3: 11, 4: 11, 5: 11, 6: 11, 7: 9, 8: 9, 9: 8, 10: 8, 11: 8,
}
SMALL_TABLE: Final = 3  # with this many players or fewer ...
REMOVED_PER_VALUE: Final = 2  # ... this many cards of every value leave the deck

ROWS: Final = 3
OWN_COLUMNS: Final = 4  # a player's own grid: 3 rows x 4 columns = 12 cards
DISPLAY_COLUMNS: Final = 5  # the display of 15: the left neighbour's right column + own 12
GRID_SIZE: Final = ROWS * OWN_COLUMNS
DISPLAY_SIZE: Final = ROWS * DISPLAY_COLUMNS
INITIAL_REVEALS: Final = 2  # cards each player turns up at the start of a round

CLEAR_BONUS: Final = -10  # for clearing one's whole display of 15
KNOCK_MIN_CARDS: Final = 4  # "not a player with 3 or fewer cards left in their display"
MAX_ROUNDS_WITH_TARGET: Final = 20  # Ruling: a target-score game still ends after this

if sum(DISTRIBUTION.values()) != 120:  # pragma: no cover - a typo in the table above
    raise RuntimeError("Allegra has 120 cards")


def deck_values(seats: int) -> list[int]:
    """The values of the cards in play for a table of ``seats``, sorted."""
    removed = REMOVED_PER_VALUE if seats <= SMALL_TABLE else 0
    return [v for v, n in sorted(DISTRIBUTION.items()) for _ in range(n - removed)]


def deal_values(seats: int, rng: Rng) -> list[int]:
    """Card id -> value: the deck's values in a random order (ids carry no identity)."""
    values = deck_values(seats)
    rng.shuffle(values)
    return values
