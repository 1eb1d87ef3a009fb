"""Random playouts of Ajolocracia through the shared conformance suite, plus timed-out games."""

from __future__ import annotations

import pytest

from app.games.ajolocracia import ENGINE
from tests.games.conformance import run_conformance


@pytest.mark.parametrize("alternate", [False, True])
@pytest.mark.parametrize("seats", [2, 3, 4, 5])
def test_random_playouts(seats: int, alternate: bool) -> None:
    first = seats * 1000 + (100 if alternate else 0)
    run_conformance(ENGINE, seats, {"alternate_direction": alternate},
                    range(first, first + 6), deep_every=3)


@pytest.mark.parametrize("seats", [2, 3, 4, 5])
def test_a_game_of_timeouts_finishes(seats: int) -> None:
    """Every seat runs out of time every turn: the timeout pick is always legal."""
    state = ENGINE.setup(seats, {"alternate_direction": True}, seats)
    for _ in range(1000):
        if ENGINE.outcome(state) is not None:
            break
        seat = min(ENGINE.waiting_for(state))
        action = ENGINE.timeout_action(state, seat)
        assert action in ENGINE.legal_actions(state, seat)
        state, _ = ENGINE.apply(state, seat, action)
    result = ENGINE.outcome(state)
    assert result is not None
    assert len(result.details["rounds"]) == 3
    assert sum(len(v) for v in state.values) + len(state.discard) + len(state.pile) == 108
