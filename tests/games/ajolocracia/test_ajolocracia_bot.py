"""Ajolocracia's bot in hand-made positions: it completes sets, puts its best Ambystoma on
a free environment, uses its INE for two cards, and the greedy rule of the timeout move
still works."""

from __future__ import annotations

from app.games.ajolocracia import ENGINE
from app.games.ajolocracia.bot import BOT, best_card
from app.games.ajolocracia.rules import AjolocraciaState
from app.games.base import Rng
from tests.games.ajolocracia.test_rules import build


def kinds_picked(state: AjolocraciaState, seat: int = 0) -> list[str]:
    legal = ENGINE.legal_actions(state, seat)
    action = BOT.choose(ENGINE.view(state, seat), legal, [], Rng.from_seed(3))
    assert action in legal
    cards = [action["card"]] + ([action["second"]] if "second" in action else [])
    return [state.kinds[c] for c in cards]


def test_it_completes_a_three_of_beetles() -> None:
    state = build(
        hands=[["beetles_annelids", "citizenship_1", "rosaceum", "isopods_algae"],
               ["citizenship_2", "institution", "lermaense", "value"]],
        tableau=[["beetles_annelids", "beetles_annelids"], []])
    assert kinds_picked(state) == ["beetles_annelids"]


def test_it_puts_a_mexicanum_on_its_free_environment() -> None:
    state = build(
        hands=[["mexicanum", "citizenship_1", "isopods_algae", "institution"],
               ["citizenship_2", "institution", "lermaense", "value"]],
        tableau=[["environment"], []])
    assert kinds_picked(state) == ["mexicanum"]


def test_it_pairs_an_isopod_rather_than_start_something_new() -> None:
    state = build(
        hands=[["isopods_algae", "rosaceum", "institution", "environment"],
               ["citizenship_2", "institution", "lermaense", "value"]],
        tableau=[["isopods_algae"], []])
    assert kinds_picked(state) == ["isopods_algae"]


def test_with_an_ine_it_picks_two_cards_that_finish_a_set() -> None:
    # at four players the hand it passes never comes back (at two, a card left would)
    state = build(
        hands=[["beetles_annelids", "beetles_annelids", "rosaceum", "citizenship_1"],
               ["citizenship_2", "institution", "lermaense", "value"],
               ["citizenship_2", "institution", "lermaense", "value"],
               ["citizenship_2", "institution", "lermaense", "value"]],
        tableau=[["ine", "beetles_annelids"], [], [], []])
    assert sorted(kinds_picked(state)) == ["beetles_annelids", "beetles_annelids"]


def test_the_timeout_move_still_takes_the_greedy_card() -> None:
    state = build(
        hands=[["beetles_annelids", "citizenship_1", "rosaceum"],
               ["rosaceum", "institution", "lermaense"]],
        tableau=[["beetles_annelids", "beetles_annelids"], []])
    action = ENGINE.timeout_action(state, 0)
    assert state.kinds[action["card"]] == "beetles_annelids"
    hand = state.hands[1]
    assert state.kinds[best_card(hand, [], state.kinds)] == "lermaense"
