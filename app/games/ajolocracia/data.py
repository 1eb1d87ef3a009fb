"""Ajolocracia's 108 cards, as printed (RULES.md §4): nothing here is assumed.

Each kind has a stable string id used in state, views, events and the string catalogue
(``ajolocracia.kind.<id>``), and belongs to one scoring category
(``ajolocracia.category.<category>``).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Kind:
    """One kind of card: how many the deck holds and what it does."""

    id: str
    count: int
    category: str
    faces: int = 0  # citizenship faces printed on top
    base: int = 0  # an Ambystoma's value (tripled on an environment)


KINDS: tuple[Kind, ...] = (
    Kind("citizenship_1", 6, "citizenship", faces=1),
    Kind("citizenship_2", 12, "citizenship", faces=2),
    Kind("citizenship_3", 8, "citizenship", faces=3),
    Kind("isopods_algae", 14, "isopods_algae"),
    Kind("beetles_annelids", 14, "beetles_annelids"),
    Kind("institution", 14, "institutions"),
    Kind("mexicanum", 5, "ambystoma", base=3),
    Kind("lermaense", 10, "ambystoma", base=2),
    Kind("rosaceum", 5, "ambystoma", base=1),
    Kind("environment", 6, "environment"),
    Kind("ine", 4, "ine"),
    Kind("value", 10, "values"),
)

KIND: dict[str, Kind] = {k.id: k for k in KINDS}
KIND_ORDER: dict[str, int] = {k.id: i for i, k in enumerate(KINDS)}

AMBYSTOMAS: tuple[str, ...] = ("mexicanum", "lermaense", "rosaceum")
ENVIRONMENT = "environment"
INE = "ine"
VALUE = "value"

# scoring categories of a round, in the order of the score table
ROUND_CATEGORIES: tuple[str, ...] = (
    "citizenship", "isopods_algae", "beetles_annelids", "institutions", "ambystoma",
)

HAND_SIZE: dict[int, int] = {2: 10, 3: 9, 4: 8, 5: 7}
ROUNDS = 3
ENV_MULTIPLIER = 3

# round scoring constants
CITIZENSHIP_FIRST = 6
CITIZENSHIP_SECOND = 3
PAIR_SIZE, PAIR_POINTS = 2, 5  # isopods & algae
THREE_SIZE, THREE_POINTS = 3, 10  # beetles & annelids
INSTITUTION_POINTS: tuple[int, ...] = (0, 1, 3, 6, 10, 15)  # index = cards, 5+ = 15
VALUES_MOST, VALUES_FEWEST = 6, 6


def full_deck() -> list[str]:
    """Every card of the game by kind, in a fixed order before shuffling."""
    return [k.id for k in KINDS for _ in range(k.count)]


assert len(full_deck()) == 108
