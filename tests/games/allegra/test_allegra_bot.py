"""Allegra's bot in hand-made positions: it keeps low cards, takes a good discard, clears
lines worth clearing, ends a round only when it is clearly lowest, and answers the knock."""

from __future__ import annotations

from app.games.allegra import ENGINE, AllegraState
from app.games.allegra.bot import BOT
from app.games.base import Rng
from tests.games.allegra.helpers import D, P, grid, make

UP = 4  # a face-up filler: the bot's display is mostly known in these positions


def choose(state: AllegraState, seat: int = 0) -> dict:
    legal = ENGINE.legal_actions(state, seat)
    action = BOT.choose(ENGINE.view(state, seat), legal, [], Rng.from_seed(9))
    assert action in legal
    return action


def test_it_keeps_a_low_card_in_place_of_its_worst() -> None:
    mine = grid({1: 11, 5: 3}, base=D(5))  # slot 1 is display position P(0, 2)
    state = make([mine, grid(), grid()], phase="place", hand=-1, source="deck")
    assert choose(state) == {"type": "keep", "pos": P(0, 2)}


def test_it_discards_a_high_card_and_turns_one_up() -> None:
    mine = grid({1: 2, 5: 3}, base=D(5))
    state = make([mine, grid(), grid()], phase="place", hand=11, source="deck")
    assert choose(state)["type"] == "flip"


def test_it_takes_a_low_discard_and_draws_past_a_high_one() -> None:
    mine = grid({1: 11, 5: 10}, base=D(5))
    assert choose(make([mine, grid(), grid()], discard=[-1])) == {"type": "take_discard"}
    assert choose(make([mine, grid(), grid()], discard=[10])) == {"type": "draw"}


def test_it_completes_a_column_when_keeping() -> None:
    # own column 1 (display column 2) holds 7 and 7 face up; a third 7 clears all three
    mine = grid({1: 7, 5: 7, 9: 9}, base=D(5))
    state = make([mine, grid(), grid()], phase="place", hand=7, source="discard")
    assert choose(state) == {"type": "keep", "pos": P(2, 2)}


def _with_lines(cells: dict[int, int]) -> AllegraState:
    state = make([grid(cells, base=D(5)), grid(), grid()], phase="clear")
    state.clearer, state.after_clear = 0, "end_turn"
    return state


def test_it_clears_a_line_of_fives_but_not_one_of_minus_ones() -> None:
    assert choose(_with_lines({1: 5, 5: 5, 9: 5})) == {
        "type": "clear", "cells": [P(0, 2), P(1, 2), P(2, 2)]}
    assert choose(_with_lines({1: -1, 5: -1, 9: -1})) == {"type": "skip_clear"}


def _last_card(mine_value: int, theirs: int) -> AllegraState:
    """Seat 0 has one face-down card left (own slot 0); its left neighbour's shared column
    is face up. The others' displays are all face-down 6s or face-up ``theirs``."""
    mine = grid({0: D(5)}, base=mine_value)
    left = grid({3: mine_value, 7: mine_value, 11: mine_value}, base=theirs)
    return make([mine, left, grid(base=theirs)], phase="place", hand=mine_value,
                source="deck")


def test_it_does_not_end_the_round_while_it_is_not_lowest() -> None:
    action = choose(_last_card(8, 1))
    assert action["type"] == "keep" and action["pos"] != P(0, 1)


def test_it_ends_the_round_when_it_is_clearly_lowest() -> None:
    action = choose(_last_card(0, 9))
    assert action["pos"] == P(0, 1)  # kept on, or turned up: the last face-down card


def _knock(drawn: int, mine: list) -> AllegraState:
    state = make([grid(base=8), mine, grid(base=8)], phase="knock", hand=drawn,
                 source="deck")
    state.windows, state.eligible = 1, [1, 2]
    return state


def test_it_knocks_for_a_card_below_its_own_best() -> None:
    assert choose(_knock(-1, grid(base=3)), seat=1) == {"type": "knock"}
    assert choose(_knock(10, grid(base=3)), seat=1) == {"type": "no_knock"}
    # a low card, but the active player could take its -1 back: not worth the risk
    assert choose(_knock(2, grid({5: -1}, base=3)), seat=1) == {"type": "no_knock"}


def test_as_the_active_player_it_accepts_a_knocker_offering_a_better_card() -> None:
    state = make([grid({0: 9, 1: 9}, base=D(9)), grid({5: -1}, base=8), grid(base=8)],
                 phase="accept", hand=10, source="deck")
    state.knockers = [1, 2]
    assert choose(state) == {"type": "accept", "knocker": 1}
    state, _ = ENGINE.apply(state, 0, {"type": "accept", "knocker": 1})
    state, _ = ENGINE.apply(state, 1, choose(state, seat=1))  # the knocker places the 10
    while state.phase == "clear":  # the knocker's lines of 8s
        state, _ = ENGINE.apply(state, 1, choose(state, seat=1))
    action = choose(state)
    assert action["type"] == "exchange"
    assert ENGINE.view(state, 0)["players"][1]["grid"][5]["value"] == -1
    assert action["take"] == P(1, 2)  # the knocker's -1 (own slot 5)


def test_it_declines_knockers_with_nothing_better_than_the_drawn_card() -> None:
    state = make([grid({0: 9, 1: 9}, base=D(9)), grid(base=8), grid(base=8)],
                 phase="accept", hand=0, source="deck")
    state.knockers = [1]
    assert choose(state) == {"type": "decline"}
