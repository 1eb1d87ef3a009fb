"""Hanabi's cards, as printed (RULES.md §1): nothing here is assumed."""

from __future__ import annotations

COLORS: tuple[str, ...] = ("red", "green", "black", "blue", "yellow")
MULTICOLOR = "multi"
RANKS: tuple[int, ...] = (1, 2, 3, 4, 5)

# copies of each rank in a normal colour; the multicolor colour has one of each
COPIES: dict[int, int] = {1: 3, 2: 2, 3: 2, 4: 2, 5: 1}

HAND_SIZE: dict[int, int] = {2: 5, 3: 5, 4: 4, 5: 4}

# rulebook verdicts: (lowest score for this verdict, key in the string catalogue)
VERDICTS: tuple[tuple[int, str], ...] = (
    (0, "horrible"),
    (6, "poor"),
    (11, "honourable"),
    (16, "excellent"),
    (21, "extraordinary"),
    (25, "legendary"),
    (30, "divine"),
)


def colors_for(multicolor: bool) -> tuple[str, ...]:
    return (*COLORS, MULTICOLOR) if multicolor else COLORS


def full_deck(multicolor: bool) -> list[tuple[str, int]]:
    """Every card of the game as (colour, rank), in a fixed order before shuffling."""
    deck = [(c, r) for c in COLORS for r in RANKS for _ in range(COPIES[r])]
    if multicolor:
        deck += [(MULTICOLOR, r) for r in RANKS]
    return deck


def verdict(score: int) -> str:
    """The rulebook's word for a final score."""
    word = VERDICTS[0][1]
    for lowest, key in VERDICTS:
        if score >= lowest:
            word = key
    return word
