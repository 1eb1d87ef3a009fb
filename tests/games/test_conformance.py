"""The conformance suite run over every registered engine and player count."""

from __future__ import annotations

import pytest

from app.games import ENGINES
from tests.games.conformance import run_conformance

CASES = [
    (game_id, seats)
    for game_id, engine in sorted(ENGINES.items())
    for seats in range(engine.min_players, engine.max_players + 1)
]


@pytest.mark.parametrize(("game_id", "seats"), CASES)
def test_random_playouts_with_default_options(game_id: str, seats: int) -> None:
    run_conformance(ENGINES[game_id], seats, {}, range(seats * 100, seats * 100 + 6),
                    deep_every=3)
