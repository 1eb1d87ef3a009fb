"""Nobody sees a face-down card's value, its owner included, nor the deck's order; card ids
never reach a client. Checked by marking every hidden card with a value no card has (777)
through random games: no view and no event may ever show it."""

from __future__ import annotations

import json
import random

import pytest

from app.games.allegra import ENGINE, AllegraState
from app.games.base import SYSTEM_SEAT, event_for
from app.tables.engine import apply_any, open_window

MARK = 777
TURNING_UP = {"revealed", "drew", "flipped", "kept", "knock_placed", "exchanged",
              "round_scored"}


def _marked(state: AllegraState) -> AllegraState:
    """The same state with every hidden card (deck, face-down) worth MARK."""
    s = ENGINE.load(ENGINE.dump(state))
    hidden = list(s.deck)
    for owner in range(s.seats):
        hidden += [c for c, up in zip(s.grid[owner], s.up[owner], strict=True)
                   if c is not None and not up]
    for card in hidden:
        s.values[card] = MARK
    return s


@pytest.mark.parametrize("seats", [2, 3, 5])
def test_no_view_or_event_shows_a_hidden_card(seats: int) -> None:
    chooser = random.Random(seats)
    state = ENGINE.setup(seats, {}, seed=seats)
    steps = 0
    while ENGINE.outcome(state) is None and steps < 400:
        marked = _marked(state)
        for seat in (None, *range(seats)):
            text = json.dumps(ENGINE.view(marked, seat))
            assert str(MARK) not in text, f"seat {seat} sees a hidden value"
            assert '"id"' not in text
        window = open_window(ENGINE, state)
        if window is not None and chooser.random() < 0.3:
            seat, action = SYSTEM_SEAT, {"type": "close_window", "window": window.id}
        else:
            seat = chooser.choice(sorted(ENGINE.to_act(state)))
            action = chooser.choice(ENGINE.legal_actions(state, seat))
        _, events = apply_any(ENGINE, marked, seat, action)
        for observer in (None, *range(seats)):
            for event in event_for(events, observer):
                if str(MARK) in json.dumps(event):
                    # only the card this action turns up, draws or takes, or the end of a
                    # round turning everything up
                    assert event["type"] in TURNING_UP, event
        state, _ = apply_any(ENGINE, state, seat, action)
        steps += 1
    assert steps > 50


def test_the_owner_does_not_see_their_own_face_down_cards() -> None:
    state = _marked(ENGINE.setup(3, {}, seed=1))
    view = ENGINE.view(state, 0)
    assert view["players"][0]["grid"] == [{"up": False}] * 12
    assert str(MARK) not in json.dumps(view)


def _held_marked(state: AllegraState) -> AllegraState:
    s = ENGINE.load(ENGINE.dump(state))
    assert s.held is not None
    s.values[s.held] = MARK
    return s


@pytest.mark.parametrize("seats", [3, 4, 6])
def test_the_card_a_knocker_takes_into_hand_is_known_to_that_knocker_alone(seats: int) -> None:
    """RULES.md §5, step a: only R sees the card it takes into hand until it lies face up.
    Random games that knock and accept whenever they can; the held card is marked."""
    chooser = random.Random(100 + seats)
    state = ENGINE.setup(seats, {}, seed=seats)
    held_seen = places = 0
    while ENGINE.outcome(state) is None and places < 12:
        if state.held is not None:
            held_seen += 1
            marked = _held_marked(state)
            for seat in (None, *range(seats)):
                text = json.dumps(ENGINE.view(marked, seat))
                if seat == state.knocker:
                    assert str(MARK) in text  # R knows its card
                else:
                    assert str(MARK) not in text, f"seat {seat} sees the knocker's card"
                    assert ENGINE.view(marked, seat)["knock"]["holding"] is True
        window = open_window(ENGINE, state)
        seat = chooser.choice(sorted(ENGINE.to_act(state)))
        legal = ENGINE.legal_actions(state, seat)
        wanted = [a for a in legal if a["type"] in ("knock", "accept")]
        action = chooser.choice(wanted or legal)
        if window is not None and not wanted:
            seat, action = SYSTEM_SEAT, {"type": "close_window", "window": window.id}
        if action["type"] == "place":
            places += 1
            _, events = apply_any(ENGINE, state, seat, action)
            for observer in (None, *range(seats)):
                placed = next(e for e in event_for(events, observer)
                              if e["type"] == "knock_placed")
                assert ("taken" in placed) == (observer == seat), (observer, placed)
        state, _ = apply_any(ENGINE, state, seat, action)
    assert places >= 3 and held_seen >= 3
