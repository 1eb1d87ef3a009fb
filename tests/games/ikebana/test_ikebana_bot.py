"""The greedy bot: always legal, works from a view alone, and beats draw-and-keep."""

from __future__ import annotations

import pytest

from app.games.ikebana import ENGINE
from app.games.ikebana.bot import choose_action, worth


@pytest.mark.parametrize("seats", [2, 3, 4, 5])
def test_bots_play_legal_games(seats: int) -> None:
    for seed in range(3):
        state = ENGINE.setup(seats, {}, seed)
        while ENGINE.outcome(state) is None:
            (seat,) = ENGINE.to_act(state)
            action = choose_action(ENGINE.view(state, seat))
            assert action in ENGINE.legal_actions(state, seat)
            state, _ = ENGINE.apply(state, seat, action)


def test_bot_beats_draw_and_keep_heads_up() -> None:
    wins = losses = 0
    for seed in range(30):
        for bot_seat in (0, 1):
            state = ENGINE.setup(2, {}, seed)
            while ENGINE.outcome(state) is None:
                (seat,) = ENGINE.to_act(state)
                view = ENGINE.view(state, seat)
                action = (choose_action(view) if seat == bot_seat
                          else ENGINE.timeout_action(state, seat))
                state, _ = ENGINE.apply(state, seat, action)
            outcome = ENGINE.outcome(state)
            assert outcome is not None
            wins += outcome.winners == (bot_seat,)
            losses += outcome.winners == (1 - bot_seat,)
    assert wins > losses


def test_worth_prefers_matching_cards() -> None:
    assert worth([("red", 3), ("red", 3)]) > worth([("red", 3), ("blue", 1)])
    assert worth([("red", 3), ("red", 3), ("red", 3), ("red", 1), ("red", 1)]) == 44.0


def test_bot_needs_a_legal_action() -> None:
    state = ENGINE.setup(2, {}, 1)
    idle = 1 - state.current
    with pytest.raises(ValueError):
        choose_action(ENGINE.view(state, idle))
