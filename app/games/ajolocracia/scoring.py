"""Scoring Ajolocracia: each round's categories and the end-of-game value cards (RULES.md §4).

Everything here is a pure function of card kinds, so the rulebook's tables can be tested
without a game. Shared awards are split evenly with the remainder dropped (``6 // k``); a
shared loss is rounded toward zero (``-(6 // k)``).

Rulings (RULES.md §4 and this module):

- citizenship: a player needs at least one face to score; a tie for most shares the 6 points
  and then nobody is second;
- values: a player needs at least one value card to share the "most" bonus (mirroring the
  citizenship ruling); "fewest" includes players with none; with two players nobody loses.
  When every player has the same number of values they all tie for most and for fewest.
"""

from __future__ import annotations

from collections.abc import Sequence

from app.games.ajolocracia.data import (
    CITIZENSHIP_FIRST,
    CITIZENSHIP_SECOND,
    ENV_MULTIPLIER,
    INSTITUTION_POINTS,
    KIND,
    PAIR_POINTS,
    PAIR_SIZE,
    ROUND_CATEGORIES,
    THREE_POINTS,
    THREE_SIZE,
    VALUES_FEWEST,
    VALUES_MOST,
)


def split(points: int, ways: int) -> int:
    """Each share of ``points`` split ``ways`` ways, remainder dropped."""
    return points // ways


def citizenship(faces: Sequence[int]) -> list[int]:
    """Points per player from their face totals: most 6, second most 3, ties split."""
    points = [0] * len(faces)
    scoring = [f for f in faces if f > 0]
    if not scoring:
        return points
    top = max(scoring)
    leaders = [i for i, f in enumerate(faces) if f == top]
    for i in leaders:
        points[i] = split(CITIZENSHIP_FIRST, len(leaders))
    if len(leaders) > 1:
        return points  # a tie for most leaves no second place
    rest = [f for f in scoring if f < top]
    if rest:
        second = max(rest)
        seconds = [i for i, f in enumerate(faces) if f == second]
        for i in seconds:
            points[i] = split(CITIZENSHIP_SECOND, len(seconds))
    return points


def isopods_algae(count: int) -> int:
    """5 points per pair."""
    return (count // PAIR_SIZE) * PAIR_POINTS


def beetles_annelids(count: int) -> int:
    """10 points per three."""
    return (count // THREE_SIZE) * THREE_POINTS


def institutions(count: int) -> int:
    """1/2/3/4/5+ cards: 1/3/6/10/15 points."""
    return INSTITUTION_POINTS[min(count, len(INSTITUTION_POINTS) - 1)]


def ambystoma(loose: Sequence[str], on_environment: Sequence[str]) -> int:
    """Ambystoma points: base value, tripled for those on an environment."""
    return (sum(KIND[k].base for k in loose)
            + sum(KIND[k].base * ENV_MULTIPLIER for k in on_environment))


def faces(kinds: Sequence[str]) -> int:
    return sum(KIND[k].faces for k in kinds)


def round_scores(tableaux: Sequence[Sequence[str]],
                 boosted: Sequence[Sequence[str]]) -> list[dict[str, int]]:
    """Every player's points per category for one round.

    ``tableaux[i]`` holds the kinds of every card in front of player i this round (value
    cards may be included, they score nothing here); ``boosted[i]`` the kinds of the
    Ambystomas among them that sit on an environment. Each row has the categories of
    :data:`ROUND_CATEGORIES`, ``faces`` (not points) and ``total``.
    """
    face_totals = [faces(t) for t in tableaux]
    civic = citizenship(face_totals)
    rows = []
    for i, kinds in enumerate(tableaux):
        loose = [k for k in kinds if KIND[k].base > 0]
        for k in boosted[i]:
            loose.remove(k)
        row = {
            "citizenship": civic[i],
            "isopods_algae": isopods_algae(kinds.count("isopods_algae")),
            "beetles_annelids": beetles_annelids(kinds.count("beetles_annelids")),
            "institutions": institutions(kinds.count("institution")),
            "ambystoma": ambystoma(loose, boosted[i]),
        }
        row["total"] = sum(row[c] for c in ROUND_CATEGORIES)
        row["faces"] = face_totals[i]
        rows.append(row)
    return rows


def values_most(counts: Sequence[int]) -> list[int]:
    """+6 shared by the players with the most value cards (at least one)."""
    points = [0] * len(counts)
    top = max(counts, default=0)
    if top <= 0:
        return points
    leaders = [i for i, c in enumerate(counts) if c == top]
    for i in leaders:
        points[i] = split(VALUES_MOST, len(leaders))
    return points


def values_fewest(counts: Sequence[int]) -> list[int]:
    """-6 shared by the players with the fewest value cards; nobody loses with two players."""
    points = [0] * len(counts)
    if len(counts) <= 2:
        return points
    low = min(counts)
    losers = [i for i, c in enumerate(counts) if c == low]
    for i in losers:
        points[i] = -split(VALUES_FEWEST, len(losers))  # rounded toward zero
    return points


def value_bonus(counts: Sequence[int]) -> dict[str, list[int]]:
    """The end-of-game value awards: ``most``, ``fewest`` and their ``total`` per player."""
    most, fewest = values_most(counts), values_fewest(counts)
    return {"counts": list(counts), "most": most, "fewest": fewest,
            "total": [a + b for a, b in zip(most, fewest, strict=True)]}
