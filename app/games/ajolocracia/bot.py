"""A greedy Ajolocracia player: rough worth of adding one card to what is already in front.

Used for timed-out seats and available to a bot seat. It only looks at the seat's own hand
and tableau (what the seat may know), never at hidden cards.
"""

from __future__ import annotations

from collections.abc import Sequence

from app.games.ajolocracia.data import (
    ENV_MULTIPLIER,
    ENVIRONMENT,
    INE,
    KIND,
    VALUE,
)
from app.games.ajolocracia.scoring import institutions

# rough worth of cards whose points depend on the future or on others
VALUE_WORTH = 3.0
INE_WORTH = 1.5
ENVIRONMENT_WORTH = 2.0
FACE_WORTH = 1.0


def card_worth(kind: str, own: Sequence[str], free_environments: int) -> float:
    """How much ``kind`` adds to a tableau holding ``own`` (rough, for a greedy choice)."""
    card = KIND[kind]
    if card.faces:
        return card.faces * FACE_WORTH
    if card.base:
        return float(card.base * (ENV_MULTIPLIER if free_environments else 1))
    if kind == "isopods_algae":
        return 5.0 if own.count(kind) % 2 == 1 else 2.5
    if kind == "beetles_annelids":
        return (2.0, 4.0, 10.0)[own.count(kind) % 3]
    if kind == "institution":
        have = own.count(kind)
        return float(institutions(have + 1) - institutions(have))
    if kind == ENVIRONMENT:
        return ENVIRONMENT_WORTH / (1 + free_environments)
    if kind == INE:
        return INE_WORTH
    if kind == VALUE:
        return VALUE_WORTH
    return 0.0


def best_card(hand: Sequence[int], own: Sequence[str], kinds: Sequence[str],
              free_environments: int = 0) -> int:
    """The hand's card (an id) worth most to its holder; the first one on ties."""
    if not hand:
        raise ValueError("empty hand")
    return max(hand, key=lambda c: (card_worth(kinds[c], own, free_environments),
                                    -hand.index(c)))
