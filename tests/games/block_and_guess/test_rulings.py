"""The three rules defects of issue 20, against RULES.md §6's updated rulings: support means
contact (a block hovering above another is floating, even within the old 1.5-unit reach),
every answer and score is held until the guess phase is over for every team, and integers
too large for a float are refused as a bad move instead of crashing the engine."""

from __future__ import annotations

import json
from typing import Any

import pytest

from app.games.base import IllegalAction, event_for
from app.games.block_and_guess import build as bld
from app.games.block_and_guess import geometry as geo
from tests.games.block_and_guess.helpers import E, act, build_all, build_of, draft_all, fresh

RED_CUBE, GREEN_CUBE, COLUMN = 4, 5, 12


# ------------------------------------------------------------------ support means contact


@pytest.mark.parametrize(("gap", "rests"), [(0.0, True), (0.5, True), (1.0, True),
                                            (1.01, False), (1.2, False), (1.5, False)])
def test_a_block_rests_only_on_what_it_touches(gap: float, rests: bool) -> None:
    below = bld.parts_of((RED_CUBE, 100, 20, 0, False))  # top at y=40
    above = bld.parts_of((GREEN_CUBE, 100, 60 + gap, 0, False))
    assert geo.touching(above, below) is rests
    assert geo.rests_on(above, below) is rests


def test_under_card_2_a_hovering_tower_does_not_stand() -> None:
    """The audit's case: a cube held 1.2 units above another touches nothing, so card 2 did
    not object, and the old 'lowered by 2 it would overlap' test called it supported."""
    tower = ((RED_CUBE, 100.0, 20.0, 0, False), (GREEN_CUBE, 100.0, 61.2, 0, False))
    assert dict(bld.reasons((RED_CUBE, GREEN_CUBE), tower, 2)) == {"not_standing": (GREEN_CUBE,)}
    apart = ((RED_CUBE, 100.0, 20.0, 0, False), (GREEN_CUBE, 200.0, 20.0, 0, False))
    assert bld.reasons((RED_CUBE, GREEN_CUBE), apart, 2) == ()
    floating = ((RED_CUBE, 100.0, 21.2, 0, False), (GREEN_CUBE, 200.0, 20.0, 0, False))
    assert dict(bld.reasons((RED_CUBE, GREEN_CUBE), floating, 2)) == {"not_standing": (RED_CUBE,)}


def test_the_engine_refuses_to_submit_a_hovering_tower() -> None:
    s = draft_all(fresh(4, first=0, card=2))
    held = build_of(s, 0)["held"]
    y = 0.0
    for block in held:  # each block 1.2 units above the one below it (the first on the ground)
        w, h = geo.size(block)
        s, _ = act(s, 0, {"type": "place", "block": block, "x": 320, "y": round(y + h / 2, 2),
                          "angle": 0, "flip": False})
        y += h + 1.2
    reasons = {r["code"] for r in E.view(s, 2)["builds"][0]["reasons"]}
    assert reasons == {"not_standing"}
    with pytest.raises(IllegalAction) as err:
        act(s, 0, {"type": "submit"})
    assert err.value.code == "invalid_build"


# ------------------------------------------------------------------ answers held to the end


def _shown(s: dict[str, Any], events: list, seat: int | None) -> str:
    """Everything ``seat`` learns from a state and its events, as text."""
    return json.dumps({"view": E.view(s, seat), "events": event_for(events, seat)})


@pytest.mark.parametrize("second_right", [True, False])
def test_a_right_answer_is_held_until_the_other_team_has_answered(second_right: bool) -> None:
    """Both builders drew 6: team 1 (guesser seat 2) answers right first; team 2's guesser
    (seat 3), spectators and team 1 itself learn nothing of it until seat 3 answers."""
    s = build_all(draft_all(fresh(4, first=0, targets=(6, 6))))
    s, events = act(s, 2, {"type": "guess", "build": 0, "object": 6})
    assert [e.type for e in events] == ["guessed"]
    assert "right" not in events[0].data and "points" not in events[0].data
    assert s["points"] == [0, 0] and s["round_points"] == [0, 0]
    for seat in (None, 2, 3):
        view = E.view(s, seat)
        first = view["builds"][0]
        assert first["guess"] == 6 and first["target"] is None and first["result"] is None
        assert first["in_play"] and not first["wrong"]
        assert view["points"] == [0, 0] and view["scores"] == [0, 0, 0, 0]
        text = _shown(s, events, seat)
        assert '"right"' not in text and '"revealed"' not in text and '"judged"' not in text
    answer = 6 if second_right else 2
    s, events = act(s, 3, {"type": "guess", "build": 1, "object": answer})
    judged = {e.data["build"]: e.data for e in events if e.type == "judged"}
    assert judged[0]["right"] and judged[0]["points"] == 2
    assert judged[1]["right"] is second_right
    assert [e.data["build"] for e in events if e.type == "revealed"] == \
        ([0, 1] if second_right else [0])
    assert s["points"] == ([2, 2] if second_right else [2, 0])


def test_a_wrong_answer_is_held_too() -> None:
    s = build_all(draft_all(fresh(4, first=0, targets=(3, 5))))
    s, events = act(s, 2, {"type": "guess", "build": 0, "object": 1})
    assert E.view(s, 3)["builds"][0]["wrong"] == [] and s["stage"] == 1
    s, events = act(s, 3, {"type": "guess", "build": 1, "object": 5})
    assert s["stage"] == 2 and build_of(s, 0)["wrong"] == [1]
    assert E.view(s, None)["builds"][0]["target"] is None  # still to guess in stage 2
    assert E.view(s, None)["builds"][1]["target"] == 5


def test_three_players_both_answers_judged_together() -> None:
    s = build_all(draft_all(fresh(3, first=0, targets=(4, 4))))  # seats 0 and 1 build
    s, events = act(s, 2, {"type": "guess", "build": 0, "object": 4})
    assert s["points"] == [0, 0, 0] and E.view(s, None)["builds"][0]["target"] is None
    s, events = act(s, 2, {"type": "guess", "build": 1, "object": 4})
    assert s["points"] == [2, 2, 4]


# ------------------------------------------------------------------ huge numbers refused


HUGE = {"10**400": 10**400, "-10**400": -(10**400), "inf": float("inf"),
        "-inf": float("-inf"), "nan": float("nan"), "1e308": 1e308, "2**1024": 2**1024}


@pytest.mark.parametrize("value", list(HUGE.values()), ids=list(HUGE))
@pytest.mark.parametrize("field", ["x", "y"])
def test_huge_coordinates_are_a_bad_move_not_a_crash(field: str, value: Any) -> None:
    s = draft_all(fresh(4, first=0))
    block = build_of(s, 0)["held"][0]
    place = {"type": "place", "block": block, "x": 300, "y": 100, "angle": 0, "flip": False}
    with pytest.raises(IllegalAction) as err:
        act(s, 0, {**place, field: value})
    # The shared shape check refuses it before the rules see it, and says which field.
    assert err.value.code == "bad_action" and repr(field) in str(err.value)
    drag = {k: v for k, v in place.items() if k != "type"}
    with pytest.raises(IllegalAction) as err:
        E.ephemeral(s, 0, {**drag, field: value})
    assert err.value.code == "out_of_board"


def test_huge_integers_in_every_other_field_are_refused() -> None:
    """Beyond a JSON-safe integer the shared shape check refuses the field by name; a big
    number still within that range reaches the rules, which refuse it in their own words."""
    s = fresh(4, first=0)
    drafted = draft_all(s)
    block = build_of(drafted, 0)["held"][0]
    place = {"type": "place", "block": block, "x": 300, "y": 100, "angle": 0, "flip": False}
    built = build_all(drafted)
    cases = [(s, 0, {"type": "draft", "block": None}, "block", "no_such_block"),
             (drafted, 0, place, "block", "not_your_block"),
             (drafted, 0, place, "angle", "bad_angle"),
             (built, 2, {"type": "guess", "build": 0, "object": None}, "object", "bad_object"),
             (built, 2, {"type": "guess", "build": None, "object": 1}, "build", "no_such_build"),
             (built, 2, {"type": "ask_front", "build": None}, "build", "no_such_build")]
    for state, seat, action, field, code in cases:
        with pytest.raises(IllegalAction) as err:
            act(state, seat, {**action, field: 10**400})
        assert err.value.code == "bad_action" and repr(field) in str(err.value)
        with pytest.raises(IllegalAction) as err:
            act(state, seat, {**action, field: 10**15})
        assert err.value.code == code
