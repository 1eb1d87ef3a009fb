"""Scoring an Ikebana bouquet: the best partition into combinations, times a colour bonus.

Combinations (each card used at most once; RULES.md §2):

- ``pair``, ``three``, ``four``, ``five``: cards of one number, worth number × size;
- ``straight_1_4`` = 8, ``straight_2_5`` = 12, ``straight_1_5`` = 15.

The colour bonus depends on the whole five-card bouquet: ``unicolor`` ×4, ``multicolor``
(one card of each of the five colours) ×3, ``bicolor`` (exactly two colours) ×2, else ×1.
A wild card keeps its printed number and takes whichever colour gives the best bonus.

Which cards form combinations depends only on the numbers and the bonus only on the
colours, so the two are maximised separately (each by exhaustive search, cached) and the
product is the best total. Ties are broken deterministically: straights before groups,
bigger groups before smaller ones, wild colours in :data:`COLOURS` order.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from itertools import combinations, product
from typing import Any

from app.games.ikebana.data import BOUQUET_SIZE, COLOURS, WILD, Card

STRAIGHTS: tuple[tuple[str, tuple[int, ...], int], ...] = (
    ("straight_1_5", (1, 2, 3, 4, 5), 15),
    ("straight_2_5", (2, 3, 4, 5), 12),
    ("straight_1_4", (1, 2, 3, 4), 8),
)
GROUP_KINDS = {2: "pair", 3: "three", 4: "four", 5: "five"}
BONUSES = {"unicolor": 4, "multicolor": 3, "bicolor": 2, "none": 1}


@dataclass(frozen=True)
class Combination:
    """One scoring combination: its kind, the bouquet positions it uses (in ascending number
    order, ``numbers`` matching them one to one), and its points."""

    kind: str
    cards: tuple[int, ...]
    numbers: tuple[int, ...]
    points: int

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "cards": list(self.cards), "numbers": list(self.numbers),
                "points": self.points}


@dataclass(frozen=True)
class BouquetScore:
    """A bouquet's total and how it was reached, for the log and the page."""

    total: int
    base: int
    multiplier: int
    bonus: str  # "none" | "bicolor" | "multicolor" | "unicolor"
    combinations: tuple[Combination, ...]
    colours: tuple[str, ...]  # the colour each card counts as (wilds resolved)
    wild_colours: tuple[tuple[int, str], ...]  # (bouquet position, colour) per wild card

    def to_json(self) -> dict[str, Any]:
        return {
            "total": self.total,
            "base": self.base,
            "multiplier": self.multiplier,
            "bonus": self.bonus,
            "combinations": [c.to_json() for c in self.combinations],
            "colours": list(self.colours),
            "wild_colours": [{"card": i, "colour": c} for i, c in self.wild_colours],
        }


# --------------------------------------------------------------------------- combinations


def _combination_kind(numbers: tuple[int, ...]) -> tuple[str, int] | None:
    """The kind and points of a set of numbers (sorted), if it is a combination."""
    if len(numbers) >= 2 and len(set(numbers)) == 1:
        return GROUP_KINDS[len(numbers)], numbers[0] * len(numbers)
    for kind, run, points in STRAIGHTS:
        if numbers == run:
            return kind, points
    return None


@cache
def _best_combinations(numbers: tuple[int, ...]) -> tuple[int, tuple[tuple[int, ...], ...]]:
    """Best partition of sorted ``numbers``: (points, position tuples of the combinations).

    Exhaustive: the lowest free position either joins one of the combinations it can form
    or is left out of every combination; the first best found wins ties, so a card joins a
    combination rather than being left out.
    """
    candidates: list[tuple[int, ...]] = []
    for size in range(len(numbers), 1, -1):  # bigger sets first: straights of 5, fours...
        for subset in combinations(range(len(numbers)), size):
            if _combination_kind(tuple(numbers[i] for i in subset)) is not None:
                candidates.append(subset)
    # straights before groups of the same size
    candidates.sort(key=lambda s: (-len(s), len(set(numbers[i] for i in s)) == 1))

    @cache
    def best(free: frozenset[int]) -> tuple[int, tuple[tuple[int, ...], ...]]:
        if not free:
            return 0, ()
        lowest = min(free)
        top: tuple[int, tuple[tuple[int, ...], ...]] = (-1, ())
        for subset in candidates:
            if lowest in subset and free.issuperset(subset):
                kind = _combination_kind(tuple(numbers[i] for i in subset))
                assert kind is not None
                rest_points, rest = best(free - set(subset))
                if kind[1] + rest_points > top[0]:
                    top = (kind[1] + rest_points, (subset, *rest))
        left_out = best(free - {lowest})  # the lowest free card in no combination at all
        return left_out if left_out[0] > top[0] else top

    return best(frozenset(range(len(numbers))))


# --------------------------------------------------------------------------- colours


def colour_bonus(colours: Sequence[str]) -> str:
    """The bonus name for a bouquet whose cards count as ``colours`` (no wilds left)."""
    if len(colours) != BOUQUET_SIZE:
        return "none"
    distinct = len(set(colours))
    if distinct == 1:
        return "unicolor"
    if distinct == len(COLOURS) and set(colours) == set(COLOURS):
        return "multicolor"
    if distinct == 2:
        return "bicolor"
    return "none"


@cache
def _best_colours(colours: tuple[str, ...]) -> tuple[str, tuple[str, ...]]:
    """Best bonus over every colour assignment of the wild cards: (bonus, colours)."""
    wilds = [i for i, c in enumerate(colours) if c == WILD]
    best: tuple[str, tuple[str, ...]] | None = None
    for choice in product(COLOURS, repeat=len(wilds)):
        resolved = list(colours)
        for position, colour in zip(wilds, choice, strict=True):
            resolved[position] = colour
        bonus = colour_bonus(resolved)
        if best is None or BONUSES[bonus] > BONUSES[best[0]]:
            best = (bonus, tuple(resolved))
    assert best is not None
    return best


# --------------------------------------------------------------------------- public


def score_bouquet(cards: Sequence[Card]) -> BouquetScore:
    """Score a bouquet of (colour, number) cards; a partial one gets no colour bonus."""
    return _score(tuple((colour, number) for colour, number in cards))


@lru_cache(maxsize=4096)
def _score(cards: tuple[Card, ...]) -> BouquetScore:
    order = sorted(range(len(cards)), key=lambda i: (cards[i][1], i))
    numbers = tuple(cards[i][1] for i in order)
    base, groups = _best_combinations(numbers)
    combos = []
    for subset in groups:
        kind = _combination_kind(tuple(numbers[i] for i in subset))
        assert kind is not None
        ranked = sorted(subset)  # by number, then by bouquet position
        combos.append(Combination(kind[0], tuple(order[i] for i in ranked),
                                  tuple(numbers[i] for i in ranked), kind[1]))
    bonus, resolved = _best_colours(tuple(colour for colour, _ in cards))
    multiplier = BONUSES[bonus]
    wild_colours = tuple((i, resolved[i]) for i, (colour, _) in enumerate(cards)
                         if colour == WILD)
    return BouquetScore(
        total=base * multiplier,
        base=base,
        multiplier=multiplier,
        bonus=bonus,
        combinations=tuple(combos),
        colours=resolved,
        wild_colours=wild_colours,
    )
