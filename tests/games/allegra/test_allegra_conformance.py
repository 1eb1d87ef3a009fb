"""The shared conformance suite over Allegra for every player count, with and without the
knock and with a target score (random playouts close knock windows at random, as the
actor does at a deadline)."""

from __future__ import annotations

import pytest

from app.games.allegra import ENGINE
from tests.games.conformance import playout, run_conformance


@pytest.mark.parametrize("seats", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("options", [{"knock": False}, {"target_score": 66, "knock_seconds": 2}],
                         ids=["no-knock", "target"])
def test_conformance(seats: int, options: dict) -> None:
    run_conformance(ENGINE, seats, options, range(40, 42), deep_every=2)


@pytest.mark.parametrize("seats", [3, 6])
def test_random_games_knock_accept_clear_and_skip(seats: int) -> None:
    """Random play reaches every phase, so the checks above cover them all."""
    seen: set[str] = set()
    for seed in range(3):
        _, log = playout(ENGINE, seats, {}, seed, deep_checks=False)
        seen |= {action["type"] for _, action in log}
    assert {"reveal", "draw", "take_discard", "knock", "no_knock", "close_window", "accept",
            "decline", "keep", "flip", "place", "exchange", "clear",
            "skip_clear"} <= seen, seen
