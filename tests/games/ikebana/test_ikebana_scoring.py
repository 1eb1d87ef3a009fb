"""Bouquet scoring: the rulebook examples, wild cards, and a brute-force cross-check of every
distinct five-card bouquet against a straightforward independent implementation."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator, Sequence
from functools import cache
from itertools import combinations_with_replacement, product

import pytest

from app.games.ikebana.data import CARDS, COLOURS, WILD, Card
from app.games.ikebana.scoring import score_bouquet

R, G, K, B, Y, W = "red", "green", "black", "blue", "yellow", "wild"


# --------------------------------------------------------------------------- rulebook


def test_example_a_three_and_pair_multicolor() -> None:
    score = score_bouquet([(R, 3), (G, 3), (K, 3), (B, 2), (Y, 2)])
    assert (score.base, score.multiplier, score.bonus, score.total) == (13, 3, "multicolor", 39)
    assert sorted((c.kind, c.points) for c in score.combinations) == [("pair", 4), ("three", 9)]


def test_example_b_straight_and_a_two_bicolor() -> None:
    score = score_bouquet([(R, 1), (R, 2), (B, 3), (B, 4), (B, 2)])
    assert (score.base, score.multiplier, score.bonus, score.total) == (8, 2, "bicolor", 16)
    # the pair of 2s does not count too: one of them is in the straight
    assert [(c.kind, c.numbers, c.points) for c in score.combinations] == [
        ("straight_1_4", (1, 2, 3, 4), 8)]
    assert score.to_json()["combinations"] == [
        {"kind": "straight_1_4", "cards": [0, 1, 2, 3], "numbers": [1, 2, 3, 4], "points": 8}]


def test_example_c_pair_of_fives_no_bonus() -> None:
    score = score_bouquet([(R, 5), (G, 5), (K, 1), (B, 2), (R, 3)])
    assert (score.base, score.multiplier, score.bonus, score.total) == (10, 1, "none", 10)
    assert [(c.kind, c.cards) for c in score.combinations] == [("pair", (0, 1))]


# --------------------------------------------------------------------------- combinations


@pytest.mark.parametrize(("numbers", "base", "kinds"), [
    ((1, 2, 3, 4, 5), 15, ["straight_1_5"]),
    ((2, 3, 4, 5, 5), 12, ["straight_2_5"]),
    ((1, 1, 2, 2, 2), 8, ["pair", "three"]),
    ((4, 4, 4, 4, 1), 16, ["four"]),
    ((1, 2, 3, 4, 4), 8, ["straight_1_4"]),  # ties with the pair of 4s: the straight is shown
    ((1, 3, 5, 2, 4), 15, ["straight_1_5"]),
    ((1, 1, 3, 5, 5), 12, ["pair", "pair"]),
    ((1, 2, 3, 5, 1), 2, ["pair"]),
])
def test_best_partition(numbers: tuple[int, ...], base: int, kinds: list[str]) -> None:
    colours = [R, G, K, B, R]  # no bonus
    score = score_bouquet(list(zip(colours, numbers, strict=True)))
    assert score.base == base and score.total == base
    assert sorted(c.kind for c in score.combinations) == sorted(kinds)


def test_five_of_a_kind_with_a_wild() -> None:
    score = score_bouquet([(R, 5), (G, 5), (K, 5), (B, 5), (W, 5)])
    assert (score.base, score.bonus, score.total) == (25, "multicolor", 75)
    assert score.combinations[0].kind == "five"
    assert score.wild_colours == ((4, Y),)


def test_partial_bouquet_has_no_bonus() -> None:
    score = score_bouquet([(R, 2), (R, 2), (R, 3)])
    assert (score.base, score.bonus, score.total) == (4, "none", 4)


# --------------------------------------------------------------------------- wild cards


@pytest.mark.parametrize(("cards", "bonus", "wilds"), [
    ([(R, 1), (R, 3), (R, 4), (R, 4), (W, 2)], "unicolor", [R]),
    ([(R, 1), (G, 3), (K, 4), (B, 4), (W, 2)], "multicolor", [Y]),
    ([(W, 1), (G, 3), (W, 4), (B, 4), (K, 2)], "multicolor", [R, Y]),
    ([(R, 1), (W, 3), (B, 4), (W, 4), (W, 2)], "multicolor", [G, K, Y]),  # ×3 beats ×2
    ([(R, 1), (R, 3), (B, 4), (W, 4), (W, 2)], "bicolor", [R, R]),
    ([(W, 1), (W, 2), (W, 3), (W, 4), (W, 5)], "unicolor", [R, R, R, R, R]),
    ([(R, 1), (R, 3), (B, 4), (G, 4), (W, 2)], "none", [R]),
])
def test_wild_colour_choice(cards: list[Card], bonus: str, wilds: list[str]) -> None:
    score = score_bouquet(cards)
    assert score.bonus == bonus
    assert [c for _, c in score.wild_colours] == wilds
    assert [i for i, _ in score.wild_colours] == [i for i, c in enumerate(cards) if c[0] == W]
    assert all(c in COLOURS for c in score.colours)
    assert score.to_json()["wild_colours"] == [
        {"card": i, "colour": c} for i, c in score.wild_colours]


def test_wild_keeps_its_number() -> None:
    # the wild 1 cannot pretend to be a 3: the three 3s score 9, not a four of 12
    score = score_bouquet([(R, 3), (G, 3), (K, 3), (W, 1), (R, 5)])
    assert score.base == 9


# --------------------------------------------------------------------------- brute force


def set_partitions(items: list[int]) -> Iterator[list[list[int]]]:
    """Every partition of ``items`` into non-empty blocks."""
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for partition in set_partitions(rest):
        yield [[first], *partition]
        for i in range(len(partition)):
            yield [*partition[:i], [first, *partition[i]], *partition[i + 1:]]


STRAIGHT_POINTS = {(1, 2, 3, 4): 8, (2, 3, 4, 5): 12, (1, 2, 3, 4, 5): 15}


def block_points(numbers: list[int]) -> int:
    """A block scores if it is a combination; any other block is simply not used."""
    ordered = tuple(sorted(numbers))
    if len(ordered) >= 2 and len(set(ordered)) == 1:
        return ordered[0] * len(ordered)
    return STRAIGHT_POINTS.get(ordered, 0)


def multiplier(colours: Sequence[str]) -> int:
    distinct = set(colours)
    if len(distinct) == 1:
        return 4
    if distinct == set(COLOURS) and len(colours) == 5:
        return 3
    if len(distinct) == 2:
        return 2
    return 1


def assignments(colours: Sequence[str]) -> Iterator[list[str]]:
    """Every way of giving the wild cards a colour."""
    wild = [i for i, c in enumerate(colours) if c == WILD]
    for choice in product(COLOURS, repeat=len(wild)):
        resolved = list(colours)
        for i, c in zip(wild, choice, strict=True):
            resolved[i] = c
        yield resolved


@cache
def reference_base(numbers: tuple[int, ...]) -> int:
    return max(sum(block_points([numbers[i] for i in block]) for block in partition)
               for partition in set_partitions(list(range(len(numbers)))))


@cache
def reference_multiplier(colours: tuple[str, ...]) -> int:
    return max(multiplier(resolved) for resolved in assignments(colours))


def reference_total_naive(cards: Sequence[Card]) -> int:
    """Max over every (partition, wild colouring) pair, with no factoring at all."""
    numbers = [n for _, n in cards]
    best = 0
    for partition in set_partitions(list(range(len(cards)))):
        base = sum(block_points([numbers[i] for i in block]) for block in partition)
        for resolved in assignments([c for c, _ in cards]):
            best = max(best, base * multiplier(resolved))
    return best


def all_bouquets() -> Iterator[list[Card]]:
    """Every distinct multiset of five cards the deck can deal."""
    available = Counter(CARDS)
    kinds = sorted(available)
    for combo in combinations_with_replacement(range(len(kinds)), 5):
        counts = Counter(combo)
        if all(counts[k] <= available[kinds[k]] for k in counts):
            yield [kinds[k] for k in combo]


def check_breakdown(cards: list[Card]) -> int:
    """The scorer's breakdown is self-consistent; returns its total."""
    score = score_bouquet(cards)
    used: list[int] = []
    for combo in score.combinations:
        assert combo.numbers == tuple(cards[i][1] for i in combo.cards)
        assert block_points(list(combo.numbers)) == combo.points > 0
        used.extend(combo.cards)
    assert len(used) == len(set(used))
    assert sum(c.points for c in score.combinations) == score.base
    for (colour, _), resolved in zip(cards, score.colours, strict=True):
        assert resolved == colour if colour != WILD else resolved in COLOURS
    assert multiplier(score.colours) == score.multiplier
    assert score.total == score.base * score.multiplier
    return score.total


def test_brute_force_every_bouquet() -> None:
    """All 223,031 distinct bouquets (with and without wilds) against the reference.

    Combination points depend only on the numbers and the bonus only on the colours, so the
    best total is the product of the two maxima; the reference caches each maximum by its
    input (every set partition / every wild colouring), and a sample is also checked with
    the unfactored product search below.
    """
    count = with_wilds = 0
    for cards in all_bouquets():
        numbers = tuple(n for _, n in cards)
        colours = tuple(c for c, _ in cards)
        expected = reference_base(numbers) * reference_multiplier(colours)
        assert check_breakdown(cards) == expected, cards
        count += 1
        with_wilds += WILD in colours
    assert count == 223_031 and with_wilds > 0


def test_brute_force_unfactored_sample() -> None:
    rng = random.Random(2024)
    for _ in range(300):
        cards = rng.sample(CARDS, 5)
        rng.shuffle(cards)
        assert score_bouquet(cards).total == reference_total_naive(cards), cards
    for wilds in range(1, 6):  # make sure bouquets heavy in wilds are covered
        cards = [c for c in CARDS if c[0] == WILD][:wilds] + rng.sample(
            [c for c in CARDS if c[0] != WILD], 5 - wilds)
        assert score_bouquet(cards).total == reference_total_naive(cards), cards


def test_set_partitions_count() -> None:
    assert sum(1 for _ in set_partitions(list(range(5)))) == 52  # Bell number B5
