"""The shared conformance suite over Alebrijes for 3 to 6 players, with the start seat left
to the draw and chosen by the host."""

from __future__ import annotations

import pytest

from app.games.alebrijes import ENGINE
from tests.games.conformance import run_conformance


@pytest.mark.parametrize("seats", [3, 4, 5, 6])
def test_conformance_default_options(seats: int) -> None:
    run_conformance(ENGINE, seats, {}, range(4), deep_every=2)


@pytest.mark.parametrize("seats", [3, 6])
def test_conformance_with_a_chosen_first_seat(seats: int) -> None:
    run_conformance(ENGINE, seats, {"first_seat": seats - 1}, range(10, 13), deep_every=3)
