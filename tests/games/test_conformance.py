"""The conformance suite run over every registered engine and player count."""

from __future__ import annotations

import pytest

from app.games import ENGINES
from app.games.base import Rng
from app.tables.engine import apply_any
from tests.games.conformance import check_branches, playout, run_conformance

CASES = [
    (game_id, seats)
    for game_id, engine in sorted(ENGINES.items())
    for seats in range(engine.min_players, engine.max_players + 1)
]


@pytest.mark.parametrize(("game_id", "seats"), CASES)
def test_random_playouts_with_default_options(game_id: str, seats: int) -> None:
    run_conformance(ENGINES[game_id], seats, {}, range(seats * 100, seats * 100 + 6),
                    deep_every=3)


@pytest.mark.parametrize(("game_id", "seats"), CASES)
def test_branches_redeal_only_what_no_seat_knows(game_id: str, seats: int) -> None:
    """A branch of a finished game at many steps (redeal_unknown, see conformance.py), and
    a random game played on from a re-dealt position in the middle of one, every check on."""
    engine = ENGINES[game_id]
    for seed in (seats * 31, seats * 31 + 1):
        _final, log = playout(engine, seats, {}, seed, deep_checks=False)
        check_branches(engine, seats, {}, seed, log)
        state = engine.setup(seats, {}, seed)
        for seat, action in log[: len(log) // 2]:
            state = apply_any(engine, state, seat, action)[0]
        branch = engine.redeal_unknown(state, Rng.from_seed(seed))  # type: ignore[attr-defined]
        final, _ = playout(engine, seats, {}, seed, deep_checks=True, start=branch)
        assert engine.outcome(final) is not None
