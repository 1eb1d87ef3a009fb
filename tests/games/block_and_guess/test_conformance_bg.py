"""The shared conformance suite over Block and Guess: every player count, a chosen first
player, and every construction card in the first round (so each checked card, draft change
and board mode is played through under the leak, purity and determinism checks)."""

from __future__ import annotations

from typing import Any

import pytest

from app.games.block_and_guess.rules import BlockAndGuessEngine
from tests.games.block_and_guess.helpers import E
from tests.games.conformance import run_conformance


class CardFirst(BlockAndGuessEngine):
    """The same engine with one construction card on top of the shuffled deck."""

    def __init__(self, card: int) -> None:
        self.card = card

    def setup(self, seats: int, options: Any, seed: int) -> dict[str, Any]:
        s = super().setup(seats, options, seed)
        if s["card"] != self.card:
            s["card_deck"].remove(self.card)
            s["card_deck"].append(s["card"])
            s["card"] = self.card
            self._start_draft(s)
        return s


@pytest.mark.parametrize("seats", range(3, 9))
def test_conformance(seats: int) -> None:
    run_conformance(E, seats, {}, range(4), deep_every=2)


@pytest.mark.parametrize("seats", [3, 4, 7])
def test_conformance_with_a_chosen_first_player(seats: int) -> None:
    run_conformance(E, seats, {"first_seat": seats - 1}, range(2))


@pytest.mark.parametrize("card", range(1, 12))
@pytest.mark.parametrize("seats", [3, 6])
def test_conformance_with_each_construction_card_first(seats: int, card: int) -> None:
    run_conformance(CardFirst(card), seats, {}, range(1))
