"""Block and Guess rules from hand-made states: roles and rounds, the draft and its card
changes, scoring for teams and for 3 players, the tie-break round, team agreement, the
front question, placement checks, live drags, chat, and the rulebook's example."""

from __future__ import annotations

import pytest

from app.games.base import IllegalAction
from app.games.block_and_guess import roles
from app.games.block_and_guess.data import CLUE_CARDS
from tests.games.block_and_guess.helpers import (
    E,
    act,
    build_all,
    build_of,
    draft_all,
    fresh,
    guess,
    play_round,
)

# ------------------------------------------------------------------ roles and rounds


def test_four_players_rulebook_order_of_builders_and_first_player() -> None:
    s = fresh(4, first=0)
    assert s["teams"] == [[0, 2], [1, 3]]  # teammates sit opposite each other
    seen = []
    while not s["over"]:
        seen.append((list(s["builders"]), s["first"]))
        s = play_round(s, {b: b % 2 == 0 for b in s["builders"]})
    # roles swap every round; the marker goes to the other team's new builder, then to
    # whoever has not had it yet
    assert seen == [([0, 1], 0), ([3, 2], 3), ([1, 0], 1), ([2, 3], 2)]
    assert s["round"] == 4 and E.outcome(s).scores == (8, 0, 8, 0)


def test_six_players_six_rounds_everyone_builds_twice_first_player_alternates() -> None:
    s = fresh(6, first=1)
    firsts, builds = [], {seat: 0 for seat in range(6)}
    while not s["over"]:
        firsts.append(s["first"])
        for b in s["builders"]:
            builds[b] += 1
        s = play_round(s, {b: b % 2 == 1 for b in s["builders"]})
    assert len(firsts) == 6 and set(builds.values()) == {2}
    assert [f % 2 for f in firsts] == [1, 0, 1, 0, 1, 0]
    assert len(set(firsts)) == 6


@pytest.mark.parametrize(("seats", "rounds"), [(3, 6), (4, 4), (5, 3), (6, 6), (7, 4), (8, 4)])
def test_round_counts(seats: int, rounds: int) -> None:
    s = fresh(seats)
    assert s["rounds"] == rounds == roles.planned_rounds(seats)
    teams = roles.teams_for(seats)
    if seats > 3:
        assert abs(len(teams[0]) - len(teams[1])) <= 1
    built = {seat: 0 for seat in range(seats)}
    while not s["over"]:
        for b in s["builders"]:
            built[b] += 1
        s = play_round(s, {0: True})  # only seat 0's builds are guessed: no tie
    assert s["round"] == rounds
    assert set(built.values()) <= {1, 2} or seats == 3


def test_three_players_first_player_moves_left_and_everyone_guesses_twice() -> None:
    s = fresh(3, first=2)
    rows = []
    while not s["over"]:
        (guesser,) = E.guessers(s, s["builders"][0])
        rows.append((list(s["builders"]), s["first"], guesser))
        s = play_round(s, {2: True})  # only seat 2's builds are guessed: no tie
    assert rows[:3] == [([2, 0], 2, 1), ([0, 1], 0, 2), ([1, 2], 1, 0)]
    assert len(rows) == 6
    assert sorted(g for _, _, g in rows) == [0, 0, 1, 1, 2, 2]


# ------------------------------------------------------------------ the draft


def _draft_log(s: dict) -> list[tuple[int, int]]:
    out = []
    while s["phase"] == "draft":
        (seat,) = E.to_act(s)
        s, events = act(s, seat, {"type": "draft", "block": s["pool"][0]})
        out.append((events[0].data["seat"], events[0].data["to"]))
    return out


def test_draft_alternates_giving_to_the_other_builder() -> None:
    s = fresh(4, first=0, card=1)
    assert _draft_log(s) == [(0, 1), (1, 0)] * 3


def test_card_6_each_builder_chooses_their_own_first_block() -> None:
    s = fresh(4, first=0, card=6)
    assert _draft_log(s) == [(0, 0), (1, 1), (0, 1), (1, 0), (0, 1), (1, 0)]


def test_card_9_two_blocks_each() -> None:
    s = fresh(4, first=0, card=9)
    assert _draft_log(s) == [(0, 1), (1, 0)] * 2


def test_draft_refusals() -> None:
    s = fresh(4, first=0, card=1)
    with pytest.raises(IllegalAction) as err:
        act(s, 1, {"type": "draft", "block": 0})
    assert err.value.code == "not_your_turn"
    s, _ = act(s, 0, {"type": "draft", "block": 3})
    with pytest.raises(IllegalAction) as err:
        act(s, 1, {"type": "draft", "block": 3})
    assert err.value.code == "no_such_block"


def test_second_stage_single_builder_gets_blocks_from_the_other_builder() -> None:
    s = build_all(draft_all(fresh(4, first=0, card=1)))
    s, _ = guess(s, 0, right=True)
    s, _ = guess(s, 1, right=False)
    assert s["phase"] == "draft" and s["stage"] == 2
    assert _draft_log(s) == [(0, 1)] * 3
    s = draft_all(s)
    assert len(build_of(s, 1)["held"]) == 6 and len(build_of(s, 0)["held"]) == 3
    assert E.to_act(s) == {1}  # only the builder still in play builds


def test_second_stage_with_card_9_gives_two_more() -> None:
    s = build_all(draft_all(fresh(4, first=0, card=9)))
    s, _ = guess(s, 0, right=False)
    s, _ = guess(s, 1, right=True)
    assert _draft_log(s) == [(1, 0)] * 2


def test_second_stage_both_building_draft_again_and_keep_the_first_build() -> None:
    s = build_all(draft_all(fresh(4, first=0, card=6)))
    first_build = [list(p) for p in build_of(s, 0)["placed"]]
    s, _ = guess(s, 0, right=False)
    s, _ = guess(s, 1, right=False)
    assert build_of(s, 0)["placed"] == first_build  # may add to it or start again
    assert _draft_log(s) == [(0, 1), (1, 0)] * 3  # card 6 only changes the first block
    s = draft_all(s)
    assert [len(b["held"]) for b in s["builds"]] == [6, 6]
    assert all(not b["valid"] for b in E.view(s, 0)["builds"])  # new blocks to place
    with pytest.raises(IllegalAction) as err:
        act(s, 0, {"type": "submit"})
    assert err.value.code == "invalid_build"


# ------------------------------------------------------------------ scoring


def test_team_scoring_two_then_one_then_nothing() -> None:
    s = fresh(4, first=0)
    s = play_round(s, {0: True, 1: False}, {1: True})
    assert s["points"] == [2, 1] and s["results"][0]["points"] == [2, 1]
    s = play_round(s, {3: False, 2: False}, {3: False, 2: False})
    assert s["points"] == [2, 1] and s["results"][1]["points"] == [0, 0]
    assert E.scores(s) == [2, 1, 2, 1]


def test_both_right_in_the_first_guess_skips_the_second_stage() -> None:
    s = fresh(4, first=0)
    s = build_all(draft_all(s))
    s, _ = guess(s, 0, True)
    s, events = guess(s, 1, True)
    assert s["round"] == 2 and s["stage"] == 1 and s["phase"] == "draft"
    assert [e.type for e in events][-3:] == ["round_scored", "round_started", "targets"]


def test_the_targets_event_names_each_builders_object() -> None:
    """The builders' line of a round's targets names the objects (the log said "Objects:
    Cleo: 5, Dani: 3"), from the round's own clue card: a log drawn later has another card
    in its view."""
    s = fresh(4, first=0)
    s = build_all(draft_all(s))
    s, _ = guess(s, 0, True)
    s, events = guess(s, 1, True)
    (told,) = [e for e in events if e.type == "targets"]
    assert told.visible_to == frozenset(s["builders"])
    card = CLUE_CARDS[s["clue"]]
    for b in s["builds"]:
        es, en = card[b["target"] - 1]
        assert told.data["targets"][str(b["builder"])] == b["target"]
        assert told.data["names"][str(b["builder"])] == {"es": es, "en": en}


def test_three_players_guesser_and_builder_both_score() -> None:
    s = fresh(3, first=0)  # builders 0 and 1, guesser 2
    s = play_round(s, {0: True, 1: False}, {1: True})
    assert s["points"] == [2, 1, 3]
    s = play_round(s, {1: False, 2: False}, {1: False, 2: False})  # guesser 0 misses both
    assert s["points"] == [2, 1, 3]


def test_tie_break_rounds_until_one_team_leads() -> None:
    s = fresh(4, first=0)
    for _ in range(4):
        s = play_round(s, {}, {})
    assert not s["over"] and s["round"] == 5 and s["extra"] == 1
    assert E.view(s, 0)["tiebreak"] is True
    s = play_round(s, {s["builders"][1]: True})
    assert s["over"] and s["round"] == 5
    outcome = E.outcome(s)
    assert outcome.details["tiebreak_rounds"] == 1 and len(outcome.details["rounds"]) == 5
    assert outcome.winners in ((0, 2), (1, 3))


def test_tie_break_has_a_limit_then_the_leaders_share() -> None:
    s = fresh(4, first=0)
    while not s["over"]:
        s = play_round(s, {}, {})
    assert s["extra"] == roles.MAX_EXTRA_ROUNDS
    assert E.outcome(s).winners == (0, 1, 2, 3)


# ------------------------------------------------------------------ guessing


def test_team_agreement_first_guess_is_final_and_proposals_stay_in_the_team() -> None:
    s = build_all(draft_all(fresh(6, first=0, targets=(4, 5))))  # builders 0 and 1
    assert E.guessers(s, 0) == [2, 4]
    s, events = act(s, 2, {"type": "propose", "build": 0, "object": 3})
    assert events[0].visible_to == frozenset({2, 4})
    assert E.view(s, 4)["builds"][0]["proposals"] == {"2": 3}
    assert E.view(s, 3)["builds"][0]["proposals"] is None
    assert E.view(s, None)["builds"][0]["proposals"] is None
    s, _ = act(s, 4, {"type": "guess", "build": 0, "object": 4})
    with pytest.raises(IllegalAction) as err:
        act(s, 2, {"type": "guess", "build": 0, "object": 3})
    assert err.value.code == "no_such_build"
    assert s["points"] == [0, 0]  # held until the other team has answered too
    with pytest.raises(IllegalAction) as err:
        act(s, 2, {"type": "guess", "build": 1, "object": 5})
    assert err.value.code == "not_guesser"
    s, _ = act(s, 3, {"type": "guess", "build": 1, "object": 1})
    assert s["points"] == [2, 0]


def test_alone_a_guesser_does_not_propose_and_wrong_objects_are_not_offered_again() -> None:
    s = build_all(draft_all(fresh(4, first=0, targets=(4, 5))))
    assert not any(a["type"] == "propose" for a in E.legal_actions(s, 2))
    s, _ = act(s, 2, {"type": "guess", "build": 0, "object": 1})
    s, _ = act(s, 3, {"type": "guess", "build": 1, "object": 5})
    s = build_all(draft_all(s))
    objects = [a["object"] for a in E.legal_actions(s, 2) if a["type"] == "guess"]
    assert objects == [2, 3, 4, 5, 6, 7]
    with pytest.raises(IllegalAction) as err:
        act(s, 2, {"type": "guess", "build": 0, "object": 1})
    assert err.value.code == "already_wrong"


def test_which_side_is_the_front() -> None:
    s = build_all(draft_all(fresh(4, first=0)))
    with pytest.raises(IllegalAction):
        act(s, 0, {"type": "mark_front", "side": "left"})
    s, _ = act(s, 2, {"type": "ask_front", "build": 0})
    assert 0 in E.to_act(s) and 0 not in E.holding_up(s)
    assert E.legal_actions(s, 0) == [{"type": "mark_front", "side": "left"},
                                     {"type": "mark_front", "side": "right"}]
    with pytest.raises(IllegalAction) as err:
        act(s, 2, {"type": "ask_front", "build": 0})
    assert err.value.code == "already_asked"
    s, events = act(s, 0, {"type": "mark_front", "side": "right"})
    assert events[0].data == {"builder": 0, "side": "right"}
    assert E.view(s, 2)["builds"][0]["front"] == "right"


# ------------------------------------------------------------------ building


def _building(card: int = 1) -> dict:
    s = draft_all(fresh(4, first=0, card=card))
    assert s["phase"] == "build"
    return s


def _place(block: int, x: float, y: float, angle: int = 0, flip: bool = False) -> dict:
    return {"type": "place", "block": block, "x": x, "y": y, "angle": angle, "flip": flip}


def test_placements_are_checked() -> None:
    s = _building()
    mine = build_of(s, 0)["held"]
    theirs = build_of(s, 1)["held"]
    a, b = mine[0], mine[1]
    s, events = act(s, 0, _place(a, 200, 200))
    assert events[0].type == "placed"
    cases = [
        (_place(b, 200, 200), "overlap"),
        (_place(b, 5, 5), "out_of_board"),
        (_place(b, 700, 100), "out_of_board"),
        (_place(b, 400, 200, angle=10), "bad_angle"),
        (_place(theirs[0], 400, 200), "not_your_block"),
        ({**_place(b, 400, 200), "flip": 1}, "bad_action"),
        ({**_place(b, 400, 200), "x": True}, "bad_action"),
        ({**_place(b, 400, 200), "colour": "red"}, "bad_action"),
    ]
    for action, code in cases:
        with pytest.raises(IllegalAction) as err:
            act(s, 0, action)
        assert err.value.code == code, action
    with pytest.raises(IllegalAction) as err:
        act(s, 2, _place(b, 400, 200))
    assert err.value.code == "not_builder"
    s, events = act(s, 0, _place(a, 300, 200, angle=45, flip=True))
    assert events[0].type == "moved" and len(build_of(s, 0)["placed"]) == 1
    s, events = act(s, 0, {"type": "remove", "block": a})
    assert build_of(s, 0)["placed"] == []
    with pytest.raises(IllegalAction) as err:
        act(s, 0, {"type": "remove", "block": a})
    assert err.value.code == "not_placed"


def test_card_4_refuses_rotations() -> None:
    s = _building(card=4)
    block = build_of(s, 0)["held"][0]
    with pytest.raises(IllegalAction) as err:
        act(s, 0, _place(block, 200, 200, angle=90))
    assert err.value.code == "no_rotation"
    act(s, 0, _place(block, 200, 200, flip=True))
    assert E.view(s, 0)["board"]["rotation"] is False
    assert E.view(s, 0)["continuous"]["angle"] == {"step": 15, "max": 0}
    assert E.view(s, 2)["continuous"] is None
    assert E.view(s, 0)["construction"]["mode"] == "no_rotation"


@pytest.mark.parametrize(("card", "mode"), [(3, "half"), (10, "mirrored"), (11, "hidden"),
                                            (1, None)])
def test_board_modes(card: int, mode: str | None) -> None:
    assert E.view(fresh(4, card=card), 0)["construction"]["mode"] == mode


def test_the_view_says_why_a_build_is_not_valid() -> None:
    s = _building(card=1)
    a = build_of(s, 0)["held"][0]
    s, _ = act(s, 0, _place(a, 200, 200))
    reasons = {r["code"]: r["blocks"] for r in E.view(s, 3)["builds"][0]["reasons"]}
    assert reasons["card1_ground"] == [a] and reasons["not_standing"] == [a]
    assert "unplaced" in reasons
    assert E.legal_actions(s, 0)[0] == {"type": "remove", "block": a}


def test_legal_actions_lead_to_a_submitted_build_under_every_card() -> None:
    for card in range(1, 12):
        s = build_all(draft_all(fresh(5, seed=card, card=card)))
        assert s["phase"] == "guess"
        assert all(b["valid"] for b in E.view(s, None)["builds"])


def test_live_drags_are_checked_and_relayed_to_everyone() -> None:
    s = _building()
    block = build_of(s, 0)["held"][0]
    drag = {"block": block, "x": 100, "y": 150.5, "angle": 30, "flip": False}
    event = E.ephemeral(s, 0, drag)
    assert event.visible_to is None
    assert event.data == {"builder": 0, "block": block, "x": 100.0, "y": 150.5, "angle": 30,
                          "flip": False}
    for seat, data, code in [
        (2, drag, "not_builder"),
        (1, drag, "not_your_block"),
        (0, {**drag, "x": -5}, "out_of_board"),
        (0, {**drag, "angle": 7}, "bad_angle"),
        (0, [1, 2], "bad_action"),
    ]:
        with pytest.raises(IllegalAction) as err:
            E.ephemeral(s, seat, data)
        assert err.value.code == code
    with pytest.raises(IllegalAction) as err:
        E.ephemeral(fresh(4), 0, drag)
    assert err.value.code == "wrong_phase"


def test_chat_is_closed_to_builders() -> None:
    s = fresh(4, first=0)
    assert [E.chat_allowed(s, seat) for seat in range(4)] == [False, False, True, True]
    s = build_all(draft_all(s))
    assert not E.chat_allowed(s, 0) and E.chat_allowed(s, 2)


# ------------------------------------------------------------------ the rulebook's example


def test_rulebook_example_trumpet_and_fountain() -> None:
    """Team 1 builds the trumpet, team 2 the fountain; both teams guess right at once."""
    s = fresh(4, first=0)
    s["clue"] = 0
    assert CLUE_CARDS[0][0] == ("trompeta", "trumpet") and CLUE_CARDS[0][1][0] == "fuente"
    s["builds"][0]["target"], s["builds"][1]["target"] = 1, 2
    assert E.view(s, 0)["builds"][1]["target"] == 2  # builders know both objects
    s = build_all(draft_all(s))
    s, _ = act(s, 2, {"type": "guess", "build": 0, "object": 1})
    s, events = act(s, 3, {"type": "guess", "build": 1, "object": 2})
    assert s["points"] == [2, 2] and s["round"] == 2
    revealed = [e.data for e in events if e.type == "revealed"]
    assert revealed == [{"build": 0, "target": 1, "name": {"es": "trompeta", "en": "trumpet"}},
                        {"build": 1, "target": 2, "name": {"es": "fuente", "en": "fountain"}}]


def test_same_number_same_object() -> None:
    """Both builders drew the same number: both build the same object, and both are right."""
    s = fresh(4, first=0, targets=(6, 6))
    assert [b["target"] for b in E.view(s, 1)["builds"]] == [6, 6]
    assert [b["target"] for b in E.view(s, 2)["builds"]] == [None, None]
    s = build_all(draft_all(s))
    s, _ = act(s, 2, {"type": "guess", "build": 0, "object": 6})
    s, _ = act(s, 3, {"type": "guess", "build": 1, "object": 6})
    assert s["points"] == [2, 2] and s["round"] == 2
