"""Replays and records without a server: every engine's everything-revealed view holds at
least the spectator's, a stored log replays only if it is legal and in sequence (and nothing
may follow an early end), and the points of view a replay accepts."""

from __future__ import annotations

import pytest

from app.errors import AppError
from app.games import ENGINES
from app.games.base import SYSTEM_SEAT, IllegalAction
from app.tables.core.ending import early_outcome, replay
from app.tables.engine import adapt
from app.tables.records import viewpoint
from tests.games.conformance import playout


@pytest.mark.parametrize("game", sorted(ENGINES))
def test_everything_revealed_shows_at_least_what_a_spectator_sees(game: str) -> None:
    engine = ENGINES[game]
    seats = engine.min_players
    _final, log = playout(engine, seats, {}, 5, deep_checks=False)
    steps = [(i + 2, seat, action) for i, (seat, action) in enumerate(log)]
    rebuilt = replay(engine, seats, {}, 5, steps, keep_states=True)
    assert rebuilt.outcome == engine.outcome(rebuilt.state).to_json()
    for state in rebuilt.states[:: max(1, len(rebuilt.states) // 6)]:
        public = engine.view(state, None)
        everything = adapt(engine).view_all(state)
        for key, value in public.items():
            if key not in ("hands", "builds"):  # the parts that reveal more
                assert everything[key] == value, (game, key)
        assert set(everything) >= set(public)
    if game == "hanabi":
        assert all("color" in c for hand in everything["hands"] for c in hand)
    if game in ("alebrijes", "ajolocracia"):
        hands = everything["revealed"]["hands"]
        assert len(hands) == seats and any(hands)


def test_a_log_must_be_legal_in_sequence_and_end_with_an_early_end() -> None:
    engine = ENGINES["hanabi"]
    state = engine.setup(2, {}, 1)
    seat = next(iter(engine.to_act(state)))
    move = engine.legal_actions(state, seat)[0]
    with pytest.raises(IllegalAction, match="step 4"):
        replay(engine, 2, {}, 1, [(4, 1 - seat, move)])  # not that seat's turn
    with pytest.raises(IllegalAction, match="expected step 5"):
        replay(engine, 2, {}, 1, [(4, seat, move), (7, 1 - seat, move)])
    resign = {"type": "resign", "seat": 0}
    ended = replay(engine, 2, {}, 1, [(4, SYSTEM_SEAT, resign)])
    assert ended.outcome == early_outcome(adapt(engine), state, 2, resign)
    with pytest.raises(IllegalAction, match="already ended"):
        replay(engine, 2, {}, 1, [(4, SYSTEM_SEAT, resign), (5, seat, move)])
    for bad in ({"type": "resign", "seat": 2}, {"type": "resign", "seat": True},
                {"type": "abandon", "reason": "boredom"}, {"type": "teleport"}):
        with pytest.raises(IllegalAction):
            replay(engine, 2, {}, 1, [(4, SYSTEM_SEAT, bad)])


def test_points_of_view() -> None:
    assert viewpoint("spectator", 3) is None
    assert viewpoint("all", 3) == "all"
    assert viewpoint("2", 3) == 2
    for bad in ("3", "-1", "", "everyone", "1.0"):
        with pytest.raises(AppError):
            viewpoint(bad, 3)
