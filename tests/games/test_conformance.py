"""The conformance suite run over every registered engine and player count."""

from __future__ import annotations

import pytest

from app.games import ENGINES
from app.games.base import BadOptions, Rng
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


@pytest.mark.parametrize(("game_id", "seats"), CASES)
def test_who_starts_is_a_seat_of_the_table(game_id: str, seats: int) -> None:
    """The catalogue offers every seat of the game's largest table as the first player; a
    table of ``seats`` takes its own seats and refuses the rest when it is made (a table
    made with one used to fail only when its host started it, with a server error)."""
    engine = ENGINES[game_id]
    spec = next((o for o in engine.options if o.name == "first_seat"), None)
    if spec is None:
        pytest.skip(f"{game_id} has no first player to choose")
    for seat in range(seats):
        engine.setup(seats, engine.check_setup(seats, {"first_seat": seat}), 7)
    for seat in (c for c in spec.choices if c != "random" and c >= seats):
        with pytest.raises(BadOptions, match="first_seat"):
            engine.check_setup(seats, {"first_seat": seat})
