"""Scoring a round (RULES.md §5): displays of 15 (shared columns count for both
neighbours), the trigger's doubling or halving (rounded toward zero), the -10 bonus."""

from __future__ import annotations

from app.games.allegra import ENGINE
from app.games.allegra.scoring import halve_toward_zero, score_round
from tests.games.allegra.helpers import D, P, grid, make, play, types


def _display(total: int) -> list[int | None]:
    """A display of 15 that adds up to ``total`` (one card carries the rest)."""
    return [total] + [0] * 14


def test_the_trigger_keeps_a_strictly_lowest_score() -> None:
    scored = score_round([_display(5), _display(6), _display(9)], trigger=0)
    assert scored["points"] == [5, 6, 9] and scored["penalty"] == [None, None, None]


def test_otherwise_a_positive_score_is_doubled_ties_included() -> None:
    scored = score_round([_display(6), _display(6), _display(9)], trigger=0)
    assert scored["points"] == [12, 6, 9] and scored["penalty"][0] == "doubled"
    scored = score_round([_display(3), _display(6), _display(2)], trigger=1)
    assert scored["points"] == [3, 12, 2] and scored["penalty"] == [None, "doubled", None]


def test_a_negative_score_is_halved_toward_zero() -> None:
    scored = score_round([_display(-7), _display(-9)], trigger=0)
    assert scored["points"] == [-3, -9] and scored["penalty"][0] == "halved"
    assert [halve_toward_zero(v) for v in (-7, -6, -1, 0, 5)] == [-3, -3, 0, 0, 2]
    scored = score_round([_display(0), _display(-1)], trigger=0)
    assert scored["points"] == [0, -1] and scored["penalty"][0] is None  # zero stays zero


def test_a_cleared_display_earns_minus_10_before_the_comparison() -> None:
    empty: list[int | None] = [None] * 15
    scored = score_round([empty, _display(-12)], trigger=0)
    assert scored["bonus"] == [-10, 0] and scored["base"] == [-10, -12]
    assert scored["points"] == [-5, -12]  # not the lowest: halved
    scored = score_round([empty, _display(4)], trigger=1)
    assert scored["points"] == [-10, 8]
    almost: list[int | None] = [None] * 14 + [0]
    assert score_round([almost, _display(1)], trigger=None)["bonus"] == [0, 0]


def test_a_whole_round_scores_displays_of_15_with_shared_columns() -> None:
    # three players, every card face up but one; seat 1's right column is all 11s, which
    # count for seat 1 and for seat 0 (whose display holds that column)
    values = [1, 2, 0, 1, 0, 1, 2, 0, 2, 0, 1, 2]  # no line anywhere
    grids = [grid(dict(enumerate(values))) for _ in range(3)]
    for slot in (3, 7, 11):
        grids[1][slot] = 11
    grids[2][5] = D(4)
    state = make(grids, current=2, phase="place", hand=2, source="discard",
                 options={"rounds": 2})
    state, events = play(state, 2, {"type": "keep", "pos": P(1, 2)})
    assert types(events)[1:] == ["round_ending", "skipped", "skipped", "round_scored",
                                 "round_started"]
    record = next(e for e in events if e["type"] == "round_scored")
    own = sum(values)  # 12
    right = values[3] + values[7] + values[11]  # 3
    assert record["cards"] == [own + 33, own - right + 33 + right, own + 1 + right]
    assert record["cards"] == [45, 45, 16]
    assert record["trigger"] == 2 and record["points"] == [45, 45, 16]  # lowest: kept
    assert record["totals"] == record["points"]
    assert record["grids"][1][3] == 11 and record["grids"][2][5] == 2
    view = ENGINE.view(state, 0)
    assert view["results"][0]["points"] == record["points"]
    assert view["last_round"]["grids"] == record["grids"]
    assert view["totals"] == record["totals"]
