"""Ajolocracia scoring tables and tie rules (RULES.md §4 and the rulebook's scoring pages)."""

from __future__ import annotations

import pytest

from app.games.ajolocracia import scoring
from app.games.ajolocracia.data import KINDS, full_deck


def test_deck_matches_the_rulebook_contents() -> None:
    deck = full_deck()
    assert len(deck) == 108
    counts = {k.id: deck.count(k.id) for k in KINDS}
    assert counts == {
        "isopods_algae": 14, "beetles_annelids": 14, "institution": 14,
        "citizenship_2": 12, "citizenship_3": 8, "citizenship_1": 6,
        "lermaense": 10, "mexicanum": 5, "rosaceum": 5,
        "value": 10, "environment": 6, "ine": 4,
    }


# ---------------------------------------------------------------- citizenship


@pytest.mark.parametrize(("faces", "points"), [
    ([7, 5, 2, 1], [6, 3, 0, 0]),  # most 6, second most 3, the rest nothing
    ([5, 5, 3], [3, 3, 0]),  # tie for most: 6 split, and no second place
    ([4, 4, 4, 1], [2, 2, 2, 0]),
    ([2, 2, 2, 2], [1, 1, 1, 1]),  # 6 / 4 = 1.5: the decimal is ignored
    ([3, 3, 3, 3, 3], [1, 1, 1, 1, 1]),  # 6 / 5 = 1.2
    ([6, 3, 3], [6, 1, 1]),  # tie for second: 3 split, 1.5 -> 1
    ([6, 2, 2, 2], [6, 1, 1, 1]),
    ([9, 4, 4, 4, 4], [6, 0, 0, 0, 0]),  # 3 / 4 -> 0
    ([6, 3], [6, 3]),
    ([6, 6], [3, 3]),
])
def test_citizenship_majorities_and_splits(faces: list[int], points: list[int]) -> None:
    assert scoring.citizenship(faces) == points


@pytest.mark.parametrize(("faces", "points"), [
    ([0, 0, 0], [0, 0, 0]),  # ruling: nobody scores without a face
    ([3, 0, 0], [6, 0, 0]),  # players with no face are not second
    ([0, 0], [0, 0]),
    ([5, 5, 0], [3, 3, 0]),
    ([2, 1, 0, 0], [6, 3, 0, 0]),
])
def test_citizenship_needs_at_least_one_face(faces: list[int], points: list[int]) -> None:
    assert scoring.citizenship(faces) == points


# ---------------------------------------------------------------- sets and tables


@pytest.mark.parametrize(("count", "points"), [(0, 0), (1, 0), (2, 5), (3, 5), (4, 10), (5, 10),
                                               (7, 15)])
def test_isopods_and_algae_score_5_per_pair(count: int, points: int) -> None:
    assert scoring.isopods_algae(count) == points


@pytest.mark.parametrize(("count", "points"), [(0, 0), (1, 0), (2, 0), (3, 10), (4, 10), (5, 10),
                                               (6, 20), (9, 30)])
def test_beetles_and_annelids_score_10_per_three(count: int, points: int) -> None:
    assert scoring.beetles_annelids(count) == points


@pytest.mark.parametrize(("count", "points"), [(0, 0), (1, 1), (2, 3), (3, 6), (4, 10), (5, 15),
                                               (6, 15), (9, 15)])
def test_institutions_table(count: int, points: int) -> None:
    assert scoring.institutions(count) == points


def test_ambystoma_values_and_environment_triples() -> None:
    assert scoring.ambystoma(["mexicanum"], []) == 3
    assert scoring.ambystoma([], ["mexicanum"]) == 9
    assert scoring.ambystoma(["lermaense"], []) == 2
    assert scoring.ambystoma([], ["lermaense"]) == 6
    assert scoring.ambystoma(["rosaceum"], []) == 1
    assert scoring.ambystoma([], ["rosaceum"]) == 3
    assert scoring.ambystoma(["mexicanum", "rosaceum"], ["lermaense"]) == 3 + 1 + 6


def test_round_scores_by_category() -> None:
    tableaux = [
        ["citizenship_3", "citizenship_2", "isopods_algae", "isopods_algae", "institution",
         "environment", "mexicanum", "ine", "environment"],
        ["citizenship_2", "beetles_annelids", "beetles_annelids", "beetles_annelids",
         "rosaceum", "lermaense"],
        ["ine", "environment"],  # environment alone and INE: nothing
    ]
    rows = scoring.round_scores(tableaux, [["mexicanum"], [], []])
    assert rows[0] == {"citizenship": 6, "isopods_algae": 5, "beetles_annelids": 0,
                       "institutions": 1, "ambystoma": 9, "total": 21, "faces": 5}
    assert rows[1] == {"citizenship": 3, "isopods_algae": 0, "beetles_annelids": 10,
                       "institutions": 0, "ambystoma": 3, "total": 16, "faces": 2}
    assert rows[2] == {"citizenship": 0, "isopods_algae": 0, "beetles_annelids": 0,
                       "institutions": 0, "ambystoma": 0, "total": 0, "faces": 0}


# ---------------------------------------------------------------- values


def test_values_most_and_fewest() -> None:
    bonus = scoring.value_bonus([3, 1, 0])
    assert bonus["most"] == [6, 0, 0]
    assert bonus["fewest"] == [0, 0, -6]  # fewest includes players with none
    assert bonus["total"] == [6, 0, -6]


def test_values_ties_split_with_remainder_dropped() -> None:
    assert scoring.value_bonus([4, 4, 1, 1, 2])["total"] == [3, 3, -3, -3, 0]
    assert scoring.values_most([2, 2, 2, 0]) == [2, 2, 2, 0]
    assert scoring.values_most([5, 5, 5, 5, 1]) == [1, 1, 1, 1, 0]  # 1.5 -> 1


def test_values_shared_loss_rounds_toward_zero() -> None:
    # -6 shared four ways is -1.5 each: the remainder is dropped, so -1 (not -2)
    assert scoring.values_fewest([3, 1, 1, 1, 1]) == [0, -1, -1, -1, -1]
    assert scoring.values_fewest([2, 0, 0, 0, 0]) == [0, -1, -1, -1, -1]
    assert scoring.values_fewest([2, 0, 0, 0]) == [0, -2, -2, -2]
    assert scoring.values_fewest([0, 0, 3, 3, 3]) == [-3, -3, 0, 0, 0]


def test_values_with_two_players_nobody_loses() -> None:
    assert scoring.value_bonus([2, 0])["total"] == [6, 0]
    assert scoring.value_bonus([1, 1])["total"] == [3, 3]
    assert scoring.value_bonus([0, 3])["fewest"] == [0, 0]


def test_values_everyone_tied_is_most_and_fewest_at_once() -> None:
    assert scoring.value_bonus([2, 2, 2])["total"] == [0, 0, 0]  # +2 and -2 each


def test_values_most_needs_at_least_one_card() -> None:
    # ruling: with no value cards nobody wins the +6; everyone shares the -6
    assert scoring.value_bonus([0, 0, 0]) == {"counts": [0, 0, 0], "most": [0, 0, 0],
                                              "fewest": [-2, -2, -2], "total": [-2, -2, -2]}
    assert scoring.value_bonus([0, 0])["total"] == [0, 0]
