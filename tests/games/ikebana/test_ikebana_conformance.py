"""The shared conformance suite run over Ikebana for every player count and option value,
plus a playout biased towards rejecting, so that decks run out and get rebuilt under the
same leak, purity and conservation checks."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from app.games.base import Rng
from app.games.ikebana import ENGINE
from tests.games.conformance import _check_event_leak, _check_no_leak, run_conformance


@pytest.mark.parametrize("double", [False, True])
@pytest.mark.parametrize("seats", [2, 3, 4, 5])
def test_conformance(seats: int, double: bool) -> None:
    run_conformance(ENGINE, seats, {"final_bouquet_double": double}, range(6))


@pytest.mark.parametrize("seats", [2, 3, 5])
def test_reject_heavy_playout_rebuilds_the_deck(seats: int) -> None:
    chooser = random.Random(seats)
    check_rng = Rng(seats)
    state = ENGINE.setup(seats, {}, seed=seats)
    state.prestige = [400] * seats  # rich players reject a lot and empty the deck
    cards = Counter(ENGINE.all_cards(state))
    reshuffles = 0
    while ENGINE.outcome(state) is None:
        (seat,) = ENGINE.to_act(state)
        legal = ENGINE.legal_actions(state, seat)
        if {"type": "reject"} in legal and chooser.random() < 0.95:
            action = {"type": "reject"}
        else:
            action = chooser.choice(legal)
        for observer in (None, *range(seats)):
            _check_no_leak(ENGINE, state, observer, check_rng)
        before = ENGINE.dump(state)
        new, events = ENGINE.apply(state, seat, action)
        assert ENGINE.dump(state) == before
        _check_event_leak(ENGINE, state, seat, action, events, new, check_rng)
        reshuffles += sum(e.type == "reshuffled" for e in events)
        state = new
        assert ENGINE.load(json.loads(json.dumps(ENGINE.dump(state)))) == state
        assert Counter(ENGINE.all_cards(state)) == cards
    assert reshuffles >= 4
