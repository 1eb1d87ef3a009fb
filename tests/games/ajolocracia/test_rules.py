"""Ajolocracia engine scenarios built from hand-made states (RULES.md §4)."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from typing import Any

import pytest

from app.games.ajolocracia import ENGINE
from app.games.ajolocracia.data import HAND_SIZE, KIND_ORDER, full_deck
from app.games.ajolocracia.rules import AjolocraciaState
from app.games.base import BadOptions, IllegalAction

Placed = str | tuple[str, str]  # a card, or (environment, Ambystoma on it)


def build(hands: Sequence[Sequence[str]], tableau: Sequence[Sequence[Placed]] | None = None,
          values: Sequence[int] | None = None, pile: Sequence[str] = (),
          options: dict[str, Any] | None = None, round: int = 1) -> AjolocraciaState:
    """A state with the given hands and tableaux; the rest of the deck is in the pile,
    ``pile`` first (so it is what the next round deals)."""
    seats = len(hands)
    left = Counter(full_deck())
    kinds: list[str] = []

    def take(kind: str) -> int:
        left[kind] -= 1
        assert left[kind] >= 0, f"not that many {kind}"
        kinds.append(kind)
        return len(kinds) - 1

    def ordered(cards: list[int]) -> list[int]:
        return sorted(cards, key=lambda c: (KIND_ORDER[kinds[c]], c))

    hand_ids = [ordered([take(k) for k in hand]) for hand in hands]
    tableau_ids: list[list[int]] = [[] for _ in range(seats)]
    habitats: list[list[list[int]]] = [[] for _ in range(seats)]
    for seat, cards in enumerate(tableau or [[] for _ in range(seats)]):
        for card in cards:
            if isinstance(card, tuple):
                env, amb = take(card[0]), take(card[1])
                tableau_ids[seat] += [env, amb]
                habitats[seat].append([env, amb])
            else:
                tableau_ids[seat].append(take(card))
    value_ids = [[take("value") for _ in range(n)] for n in (values or [0] * seats)]
    pile_ids = [take(k) for k in pile]
    pile_ids += [take(k) for k in sorted(left.elements())]
    return AjolocraciaState(
        seats=seats, options=ENGINE.check_setup(seats, options), rng=0, kinds=kinds,
        pile=pile_ids, hands=hand_ids, picks=[[] for _ in range(seats)],
        tableau=tableau_ids, habitats=habitats, values=value_ids, round=round,
    )


def card(state: AjolocraciaState, seat: int, kind: str, nth: int = 0) -> int:
    """The id of the ``nth`` card of ``kind`` in ``seat``'s hand."""
    return [c for c in state.hands[seat] if state.kinds[c] == kind][nth]


def pick(state: AjolocraciaState, seat: int, kind: str,
         second: str | None = None) -> tuple[AjolocraciaState, list[Any]]:
    action: dict[str, Any] = {"type": "pick", "card": card(state, seat, kind)}
    if second is not None:
        action["second"] = card(state, seat, second, 1 if second == kind else 0)
    return ENGINE.apply(state, seat, action)


def play_turn(state: AjolocraciaState, *choices: str | tuple[str, str]) -> AjolocraciaState:
    for seat, choice in enumerate(choices):
        if isinstance(choice, tuple):
            state, _ = pick(state, seat, choice[0], choice[1])
        else:
            state, _ = pick(state, seat, choice)
    return state


def hand_kinds(state: AjolocraciaState, seat: int) -> list[str]:
    return sorted(state.kinds[c] for c in state.hands[seat])


def tableau_kinds(state: AjolocraciaState, seat: int) -> list[str]:
    return sorted(state.kinds[c] for c in state.tableau[seat])


def boosted(state: AjolocraciaState, seat: int) -> list[str]:
    return sorted(state.kinds[a] for _, a in state.habitats[seat])


# ---------------------------------------------------------------- setup


@pytest.mark.parametrize("seats", [2, 3, 4, 5])
def test_setup_deals_hands_from_one_deck(seats: int) -> None:
    state = ENGINE.setup(seats, {}, 7)
    size = HAND_SIZE[seats]
    assert [len(h) for h in state.hands] == [size] * seats
    assert len(state.pile) == 108 - seats * size
    assert Counter(k for k, _ in ENGINE.all_cards(state)) == Counter(full_deck())
    assert state.options == {"alternate_direction": False}
    assert ENGINE.to_act(state) == set(range(seats))
    assert ENGINE.outcome(state) is None


def test_setup_rejects_bad_seats_and_options() -> None:
    with pytest.raises(BadOptions):
        ENGINE.setup(1, {}, 1)
    with pytest.raises(BadOptions):
        ENGINE.setup(6, {}, 1)
    with pytest.raises(BadOptions):
        ENGINE.setup(3, {"alternate_direction": "yes"}, 1)
    with pytest.raises(BadOptions):
        ENGINE.setup(3, {"no_such_option": True}, 1)


def test_card_ids_do_not_encode_the_card() -> None:
    kinds_of_id_0 = {ENGINE.setup(3, {}, seed).kinds[0] for seed in range(40)}
    assert len(kinds_of_id_0) > 3
    state = ENGINE.setup(3, {}, 11)
    dealt = sorted(state.hands[0])
    assert dealt != list(range(dealt[0], dealt[0] + len(dealt)))  # not handed out in order


def test_same_seed_same_game() -> None:
    assert ENGINE.dump(ENGINE.setup(4, {}, 99)) == ENGINE.dump(ENGINE.setup(4, {}, 99))
    assert ENGINE.dump(ENGINE.setup(4, {}, 99)) != ENGINE.dump(ENGINE.setup(4, {}, 98))


# ---------------------------------------------------------------- picking


def test_turn_waits_for_every_pick_and_picks_can_change() -> None:
    state = build([["institution", "value", "rosaceum"],
                   ["isopods_algae", "ine", "mexicanum"],
                   ["citizenship_1", "citizenship_2", "citizenship_3"]])
    state, _ = pick(state, 0, "institution")
    assert ENGINE.to_act(state) == {0, 1, 2}  # seat 0 may still change its mind
    assert ENGINE.waiting_for(state) == {1, 2}
    assert {"type": "unpick"} in ENGINE.legal_actions(state, 0)
    state, _ = pick(state, 0, "value")  # changed
    state, _ = pick(state, 1, "mexicanum")
    state, _ = ENGINE.apply(state, 1, {"type": "unpick"})
    assert ENGINE.waiting_for(state) == {1, 2}
    state, _ = pick(state, 1, "ine")
    assert state.tableau == [[], [], []]  # nothing revealed yet
    state, events = pick(state, 2, "citizenship_3")
    assert [len(v) for v in state.values] == [1, 0, 0]
    assert tableau_kinds(state, 1) == ["ine"]
    assert tableau_kinds(state, 2) == ["citizenship_3"]
    assert state.picks == [[], [], []]
    assert state.turn == 2
    revealed = next(e for e in events if e.type == "revealed")
    assert [p["cards"][0]["kind"] for p in revealed.data["picks"]] == [
        "value", "ine", "citizenship_3"]


def test_hands_pass_to_the_left() -> None:
    state = build([["institution", "value", "rosaceum"],
                   ["isopods_algae", "ine", "mexicanum"],
                   ["citizenship_1", "citizenship_2", "citizenship_3"]])
    state = play_turn(state, "institution", "ine", "citizenship_1")
    assert hand_kinds(state, 1) == ["rosaceum", "value"]  # from seat 0
    assert hand_kinds(state, 2) == ["isopods_algae", "mexicanum"]  # from seat 1
    assert hand_kinds(state, 0) == ["citizenship_2", "citizenship_3"]  # from seat 2


@pytest.mark.parametrize(("alternate", "round", "direction"), [
    (False, 1, "left"), (False, 2, "left"), (False, 3, "left"),
    (True, 1, "left"), (True, 2, "right"), (True, 3, "left"),
])
def test_pass_direction(alternate: bool, round: int, direction: str) -> None:
    state = build([["institution", "value", "rosaceum"],
                   ["isopods_algae", "ine", "mexicanum"],
                   ["citizenship_1", "citizenship_2", "citizenship_3"]],
                  options={"alternate_direction": alternate}, round=round)
    assert ENGINE.view(state, 0)["direction"] == direction
    state = play_turn(state, "institution", "ine")
    state, events = pick(state, 2, "citizenship_1")
    receiver = 1 if direction == "left" else 2
    assert hand_kinds(state, receiver) == ["rosaceum", "value"]
    # the reveal says where the hands go next (its log line says both at once)
    revealed = next(e for e in events if e.type == "revealed")
    assert revealed.data["direction"] == direction


def test_last_card_is_placed_and_round_ends_and_next_round_comes_from_the_pile() -> None:
    pile = ["isopods_algae"] * 10 + ["beetles_annelids"] * 10
    state = build([["citizenship_3", "value"], ["mexicanum", "institution"]],
                  tableau=[["environment"], []], values=[1, 0], pile=pile)
    state = play_turn(state, "citizenship_3", "institution")
    # seat 0 received the mexicanum as its last card; its environment takes it
    assert state.round == 2 and state.turn == 1
    first = state.results[0]
    assert first[0]["ambystoma"] == 9 and first[0]["citizenship"] == 6
    assert first[1]["institutions"] == 1 and first[1]["total"] == 1
    assert [len(v) for v in state.values] == [1, 1]  # values stay, seat 1's last card
    assert state.tableau == [[], []] and state.habitats == [[], []]
    assert len(state.discard) == 4
    assert hand_kinds(state, 0) == ["isopods_algae"] * 10
    assert hand_kinds(state, 1) == ["beetles_annelids"] * 10
    assert len(state.pile) == 108 - 6 - 20


def test_game_ends_after_round_three_with_value_awards() -> None:
    state = build([["value", "institution"], ["rosaceum", "institution"],
                   ["citizenship_1", "institution"]],
                  values=[2, 1, 0], round=3)
    state.results = [[{"total": 10}, {"total": 10}, {"total": 10}]] * 2
    state = play_turn(state, "value", "rosaceum", "citizenship_1")
    assert state.over
    assert ENGINE.to_act(state) == set()
    assert all(ENGINE.legal_actions(state, s) == [] for s in range(3))
    result = ENGINE.outcome(state)
    assert result is not None
    # round 3: seat 0 one institution (1); seat 1 rosaceum + institution (2);
    # seat 2 citizenship 6 + institution 1. Values 3/1/0: +6, 0, -6.
    assert result.scores == (20 + 1 + 6, 20 + 2, 20 + 7 - 6)
    assert result.winners == (0,)
    assert result.details["values"]["total"] == [6, 0, -6]
    assert [r["round"] for r in result.details["rounds"]] == [1, 2, 3]
    with pytest.raises(IllegalAction) as err:
        ENGINE.apply(state, 0, {"type": "pick", "card": 0})
    assert err.value.code == "game_over"


def test_two_players_nobody_loses_for_fewest_values() -> None:
    state = build([["value", "institution"], ["rosaceum", "institution"]], round=3)
    state.results = [[{"total": 0}, {"total": 0}]] * 2
    state = play_turn(state, "value", "institution")
    result = ENGINE.outcome(state)
    assert result is not None
    assert result.details["values"]["total"] == [6, 0]
    assert result.scores == (1 + 6, 3)  # rosaceum + 6; two institutions


def test_ties_are_broken_by_most_value_cards_then_shared() -> None:
    state = build([["institution", "institution"], ["institution", "institution"],
                   ["institution", "institution"]], values=[2, 2, 3], round=3)
    # before the value awards: seat 2 is 6 behind so the +6 brings it level with seat 0
    state.results = [[{"total": 12}, {"total": 12}, {"total": 8}], [{"total": 0}] * 3]
    state = play_turn(state, "institution", "institution", "institution")
    result = ENGINE.outcome(state)
    assert result is not None
    # each: 3 for two institutions; values 2/2/3 -> 0, 0 (tied fewest: -3 each), +6
    assert result.scores == (12 + 3 - 3, 12 + 3 - 3, 8 + 3 + 6)
    assert result.ranking == ((2,), (0, 1))
    assert result.winners == (2,)
    state2 = build([["institution", "institution"], ["institution", "institution"]],
                   values=[1, 1], round=3)
    state2.results = [[{"total": 5}, {"total": 5}]] * 2
    state2 = play_turn(state2, "institution", "institution")
    result2 = ENGINE.outcome(state2)
    assert result2 is not None and result2.winners == (0, 1)  # same score and values


# ---------------------------------------------------------------- environments


def test_ambystoma_goes_on_an_earlier_environment_and_triples() -> None:
    state = build([["mexicanum", "institution"], ["lermaense", "institution"]],
                  tableau=[["environment"], []])
    state, _ = pick(state, 0, "mexicanum")
    state, _ = pick(state, 1, "lermaense")
    # last cards: seat 0 gets seat 1's institution, seat 1 gets seat 0's
    assert state.results[0][0]["ambystoma"] == 9
    assert state.results[0][1]["ambystoma"] == 2


def test_environment_revealed_the_same_turn_does_not_count_yet() -> None:
    state = build([["environment", "lermaense", "rosaceum", "isopods_algae"],
                   ["institution"] * 4], tableau=[["ine"], []])
    state, _ = pick(state, 0, "environment", "lermaense")
    state, _ = pick(state, 1, "institution")
    assert boosted(state, 0) == []  # same turn: the lermaense stays beside it
    view = ENGINE.view(state, 1)["players"][0]["tableau"]
    assert [c["kind"] for c in view["ambystoma"]] == ["lermaense"]
    assert view["environment"][0]["ambystoma"] is None
    assert ENGINE.view(state, 1)["players"][0]["running"]["ambystoma"] == 2
    # seat 0 now holds seat 1's institutions, seat 1 the rosaceum, isopods and the INE
    state = play_turn(state, "institution", "ine")
    assert hand_kinds(state, 0) == ["isopods_algae", "rosaceum"]
    state = play_turn(state, "rosaceum", "institution")
    # from an earlier turn, the environment now takes the rosaceum: 2 + 1 x 3
    assert state.round == 2
    assert state.results[0][0]["ambystoma"] == 2 + 3


def test_later_ambystoma_uses_the_free_environment() -> None:
    state = build([["environment", "isopods_algae", "isopods_algae"],
                   ["rosaceum", "institution", "institution"]])
    state = play_turn(state, "environment", "institution")
    # seat 0 now holds seat 1's rosaceum
    state = play_turn(state, "rosaceum", "isopods_algae")
    assert state.round == 2
    assert state.results[0][0]["ambystoma"] == 3  # 1 x 3 on the environment


def test_one_ambystoma_per_environment() -> None:
    state = build([["lermaense", "institution"], ["institution", "institution"]],
                  tableau=[[("environment", "mexicanum")], []])
    state = play_turn(state, "lermaense", "institution")
    assert state.results[0][0]["ambystoma"] == 9 + 2


def test_ambystoma_placed_before_an_environment_is_not_moved() -> None:
    state = build([["environment", "institution"], ["institution", "institution"]],
                  tableau=[["mexicanum"], []])
    state = play_turn(state, "environment", "institution")
    assert state.results[0][0]["ambystoma"] == 3


def test_two_ambystomas_with_two_free_environments_both_triple() -> None:
    state = build([["mexicanum", "rosaceum", "isopods_algae"], ["institution"] * 3],
                  tableau=[["ine", "environment", "environment"], []])
    state, _ = pick(state, 0, "rosaceum", "mexicanum")
    state, _ = pick(state, 1, "institution")
    assert boosted(state, 0) == ["mexicanum", "rosaceum"]


def test_two_ambystomas_one_free_environment_the_best_takes_it() -> None:
    state = build([["rosaceum", "mexicanum", "isopods_algae"], ["institution"] * 3],
                  tableau=[["ine", "environment"], []])
    state, _ = pick(state, 0, "rosaceum", "mexicanum")
    state, _ = pick(state, 1, "institution")
    assert boosted(state, 0) == ["mexicanum"]
    running = ENGINE.view(state, None)["players"][0]["running"]
    assert running["ambystoma"] == 9 + 1


# ---------------------------------------------------------------- INE


def test_second_pick_needs_an_earlier_ine() -> None:
    state = build([["ine", "institution", "value"], ["institution"] * 3])
    assert all("second" not in a for a in ENGINE.legal_actions(state, 0))
    with pytest.raises(IllegalAction) as err:
        pick(state, 0, "institution", "value")
    assert err.value.code == "no_ine"
    # the INE picked this turn is usable from the next turn on
    state = play_turn(state, "ine", "institution")
    assert any("second" in a for a in ENGINE.legal_actions(state, 0))


def test_ine_double_pick_and_the_ine_goes_back_into_the_passed_hand() -> None:
    state = build([["value", "mexicanum", "isopods_algae", "institution"],
                   ["citizenship_1", "citizenship_2", "citizenship_3", "institution"],
                   ["beetles_annelids"] * 4], tableau=[["ine"], [], []])
    before = state.tableau[0][0]
    state, events = pick(state, 0, "value", "mexicanum")
    state, _ = pick(state, 1, "citizenship_3")
    state, events = pick(state, 2, "beetles_annelids")
    assert [e.data["seat"] for e in events if e.type == "ajolocracia"] == [0]
    assert [len(v) for v in state.values] == [1, 0, 0]
    assert tableau_kinds(state, 0) == ["mexicanum"]  # the INE left the tableau
    assert before in state.hands[1]  # ... and went left with seat 0's hand
    assert hand_kinds(state, 1) == ["ine", "institution", "isopods_algae"]
    assert [len(h) for h in state.hands] == [3, 3, 3]
    reveal = ENGINE.view(state, 2)["last_reveal"]["picks"][0]
    assert reveal["ajolocracia"] and reveal["returned_ine"]
    assert sorted(c["kind"] for c in reveal["cards"]) == ["mexicanum", "value"]


def test_ine_holder_picking_one_card_keeps_it() -> None:
    state = build([["value", "mexicanum", "isopods_algae"], ["institution"] * 3],
                  tableau=[["ine"], []])
    state = play_turn(state, "value", "institution")
    assert tableau_kinds(state, 0) == ["ine"]
    assert [len(h) for h in state.hands] == [2, 2]


def test_at_most_one_ine_per_turn() -> None:
    state = build([["value", "mexicanum", "isopods_algae", "institution", "rosaceum"],
                   ["institution"] * 5], tableau=[["ine", "ine"], []])
    hand = state.hands[0]
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, 0, {"type": "pick", "card": hand[0], "second": hand[1],
                                "third": hand[2]})
    assert all(len([k for k in a if k in ("card", "second")]) <= 2
               for a in ENGINE.legal_actions(state, 0))
    state, _ = pick(state, 0, "value", "mexicanum")
    state, _ = pick(state, 1, "institution")
    assert tableau_kinds(state, 0) == ["ine", "mexicanum"]  # one INE used, one stays
    assert any("second" in a for a in ENGINE.legal_actions(state, 0))


def test_ine_double_pick_with_two_cards_left_ends_the_round() -> None:
    state = build([["value", "mexicanum"], ["institution", "institution"]],
                  tableau=[["ine"], []])
    state, _ = pick(state, 0, "value", "mexicanum")
    state, _ = pick(state, 1, "institution")
    # the INE went to seat 1 as its last card, seat 0 got an institution
    assert state.round == 2
    assert state.results[0][0]["ambystoma"] == 3
    assert state.results[0][0]["institutions"] == 1
    assert state.results[0][1]["institutions"] == 1  # its pick; the INE scores nothing


# ---------------------------------------------------------------- bad input and timeouts


def test_illegal_actions_change_nothing() -> None:
    state = build([["value", "mexicanum", "isopods_algae"], ["institution"] * 3],
                  tableau=[["ine"], []])
    before = ENGINE.dump(state)
    mine, theirs = state.hands[0][0], state.hands[1][0]
    bad: list[tuple[int, Any, str]] = [
        (0, {"type": "pick", "card": theirs}, "no_such_card"),
        (0, {"type": "pick", "card": mine, "second": mine}, "same_card"),
        (0, {"type": "pick", "card": mine, "second": theirs}, "no_such_card"),
        (0, {"type": "pick", "card": True}, "bad_action"),
        (0, {"type": "pick", "card": str(mine)}, "bad_action"),
        (0, {"type": "pick"}, "bad_action"),
        (0, {"type": "pick", "card": mine, "x": 1}, "bad_action"),
        (0, {"type": "unpick"}, "not_picked"),
        (0, {"type": "shout"}, "unknown_action"),
        (0, ["pick"], "bad_action"),
        (2, {"type": "pick", "card": mine}, "bad_seat"),
        (-1, {"type": "pick", "card": mine}, "bad_seat"),
    ]
    for seat, action, code in bad:
        with pytest.raises(IllegalAction) as err:
            ENGINE.apply(state, seat, action)
        assert err.value.code == code, action
    assert ENGINE.dump(state) == before


def test_timeout_picks_a_legal_card_or_keeps_the_pick() -> None:
    state = build([["isopods_algae", "value", "rosaceum"], ["institution"] * 3])
    action = ENGINE.timeout_action(state, 0)
    assert action in ENGINE.legal_actions(state, 0)
    assert action["card"] == card(state, 0, "value")  # the bot likes values
    state, _ = pick(state, 0, "rosaceum")
    assert ENGINE.timeout_action(state, 0) == {"type": "pick",
                                               "card": card(state, 0, "rosaceum")}
    double = build([["value", "rosaceum", "institution"], ["institution"] * 3],
                   tableau=[["ine"], []])
    double, _ = pick(double, 0, "value", "rosaceum")
    kept = ENGINE.timeout_action(double, 0)
    assert "second" in kept and kept in ENGINE.legal_actions(double, 0)


def test_dump_load_round_trip_through_json() -> None:
    state = build([["value", "mexicanum", "isopods_algae"], ["institution"] * 3],
                  tableau=[[("environment", "rosaceum"), "ine"], []])
    state, _ = pick(state, 0, "value", "mexicanum")
    data = json.loads(json.dumps(ENGINE.dump(state)))
    assert data["seats"] == 2
    assert ENGINE.load(data) == state
