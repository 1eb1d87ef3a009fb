"""The knock (RULES.md §5): a timed window after a draw from the deck, answered by the other
eligible seats, closed early when all have answered or by the platform at its deadline
(``close_window``, stored as a SYSTEM_SEAT action), then the exchange sequence a-d."""

from __future__ import annotations

import pytest

from app.games.allegra import ENGINE
from app.games.base import CLOSE_WINDOW, SYSTEM_SEAT, IllegalAction, Window, event_for
from app.tables.engine import apply_any
from tests.games.allegra.helpers import D, P, grid, make, play, public, shown, types


def _code(state, seat: int, action: dict) -> str:
    with pytest.raises(IllegalAction) as err:
        apply_any(ENGINE, state, seat, action)
    return err.value.code


def _close(window_id: str) -> dict:
    return {"type": CLOSE_WINDOW, "window": window_id}


def test_a_draw_from_the_deck_opens_a_window_for_the_other_players() -> None:
    state = make([grid(), grid(), grid(), grid()], deck=(2,),
                 options={"knock_seconds": 10})
    assert ENGINE.window(state) is None
    state, events = play(state, 0, {"type": "draw"})
    assert types(events) == ["drew", "knock_opened"]
    assert events[1] == {"type": "knock_opened", "window": "knock-1", "seats": [1, 2, 3],
                         "seconds": 10}
    assert ENGINE.window(state) == Window("knock-1", 10, frozenset({1, 2, 3}))
    assert ENGINE.to_act(state) == {1, 2, 3}  # the active player waits
    assert ENGINE.legal_actions(state, 0) == []
    assert ENGINE.legal_actions(state, 2) == [{"type": "knock"}, {"type": "no_knock"}]
    assert ENGINE.view(state, 3)["hand"] == 2  # the drawn card is shown to everyone
    assert _code(state, 0, {"type": "knock"}) == "own_card"
    assert _code(state, 0, {"type": "keep", "pos": 1}) == "not_your_turn"
    state, events = play(state, 2, {"type": "knock"})
    assert events == [{"type": "knocked", "seat": 2}]
    assert _code(state, 2, {"type": "no_knock"}) == "already_answered"
    # the same window, fewer seats to wait for
    assert ENGINE.window(state) == Window("knock-1", 10, frozenset({1, 3}))
    state, _ = play(state, 1, {"type": "knock"})
    view = ENGINE.view(state, 0)["knock"]
    assert view["knocked"] == [2, 1] and view["window"] == "knock-1"
    state, events = play(state, 3, {"type": "no_knock"})
    # everyone answered: the engine closes the window itself
    assert types(events) == ["no_knock", "knock_closed"] and events[1]["knockers"] == [1, 2]
    assert ENGINE.window(state) is None and state.phase == "accept"
    assert ENGINE.to_act(state) == {0}
    assert ENGINE.legal_actions(state, 0) == [{"type": "accept", "knocker": 1},
                                              {"type": "accept", "knocker": 2},
                                              {"type": "decline"}]
    # an answer now is too late
    assert _code(state, 3, {"type": "knock"}) == "knock_closed"
    assert _code(state, 0, {"type": "accept", "knocker": 3}) == "not_a_knocker"


def test_the_deadline_closes_the_window_and_silence_means_no_knock() -> None:
    state = make([grid(), grid(), grid()], deck=(2,))
    state, _ = play(state, 0, {"type": "draw"})
    assert ENGINE.window(state) == Window("knock-1", 6, frozenset({1, 2}))
    assert _code(state, SYSTEM_SEAT, _close("knock-9")) == "window_closed"
    state, _ = play(state, 1, {"type": "knock"})
    closed, raw = ENGINE.close_window(state, "knock-1")
    events = public(raw)
    assert types(events) == ["knock_timeout", "knock_closed"]
    assert events[0]["seats"] == [2] and events[1]["knockers"] == [1]
    assert closed.phase == "accept" and ENGINE.window(closed) is None
    # the actor stores the close as a SYSTEM_SEAT action; replay goes through apply_any
    replayed, _ = play(state, SYSTEM_SEAT, _close("knock-1"))
    assert ENGINE.dump(replayed) == ENGINE.dump(closed)
    assert _code(closed, 2, {"type": "knock"}) == "knock_closed"
    assert _code(closed, SYSTEM_SEAT, _close("knock-1")) == "window_closed"
    with pytest.raises(IllegalAction):
        ENGINE.close_window(closed, "knock-1")


def test_nobody_knocks_or_the_active_player_declines_then_step_2() -> None:
    state = make([grid(), grid(), grid()], deck=(2, 2))
    state, _ = play(state, 0, {"type": "draw"})
    state, events = play(state, SYSTEM_SEAT, _close("knock-1"))
    assert events[0]["seats"] == [1, 2] and events[1]["knockers"] == []
    assert state.phase == "place" and ENGINE.to_act(state) == {0}
    state, _ = play(state, 0, {"type": "flip", "pos": P(0, 1)})
    state, events = play(state, 1, {"type": "draw"})
    assert events[1]["window"] == "knock-2"  # a new window, a new id
    state, _ = play(state, 2, {"type": "knock"})
    state, events = play(state, 0, {"type": "no_knock"})
    assert state.phase == "accept"
    state, events = play(state, 1, {"type": "decline"})
    assert events == [{"type": "declined", "seat": 1}] and state.phase == "place"
    assert {a["type"] for a in ENGINE.legal_actions(state, 1)} == {"keep", "flip"}


def test_no_knock_for_the_discard_pile_with_two_players_or_with_the_option_off() -> None:
    state = make([grid(), grid(), grid()], discard=(4,))
    state, events = play(state, 0, {"type": "take_discard"})
    assert ENGINE.window(state) is None and state.phase == "place"
    for grids, options in (([grid(), grid()], {}), ([grid()] * 3, {"knock": False})):
        state = make(grids, deck=(4,), options=options)
        state, events = play(state, 0, {"type": "draw"})
        assert types(events) == ["drew"] and state.phase == "place"
        assert not any(p["can_knock"] for p in ENGINE.view(state, None)["players"])


def test_three_or_fewer_cards_in_a_display_cannot_knock() -> None:
    # seat 1 keeps its own left column; seat 2 that and one card of its right column,
    # which is in seat 1's display too
    few = grid({i: None for i in range(12) if i not in (0, 4, 8)})
    four = grid({i: None for i in range(12) if i not in (0, 4, 8, 3)})
    state = make([grid(), few, four, grid()], deck=(4,))
    view = ENGINE.view(state, None)["players"]
    assert [p["cards"] for p in view] == [12, 4, 7, 15]  # 4 cards: may knock
    state.grid[2][3] = None
    view = ENGINE.view(state, None)["players"]
    assert [p["cards"] for p in view] == [12, 3, 6, 15]  # 3 cards: may not
    state, events = play(state, 0, {"type": "draw"})
    assert events[1]["seats"] == [2, 3]
    assert _code(state, 1, {"type": "knock"}) == "cannot_knock"


def test_a_player_with_no_face_down_card_cannot_knock() -> None:
    """RULES.md §5: such a player "can take no action" at all, a knock included."""
    all_up = grid({i: 5 for i in range(12)})  # every card of seat 2 face up
    state = make([grid(), grid(), all_up, grid()], deck=(4,))
    # seat 2's display of 15 also holds seat 3's right column: turn those up too
    for i in (3, 7, 11):
        state.up[3][i] = True
    view = ENGINE.view(state, None)["players"]
    assert view[2]["face_down"] == 0 and view[2]["cards"] == 15
    assert not view[2]["can_knock"] and view[1]["can_knock"] and view[3]["can_knock"]
    state, events = play(state, 0, {"type": "draw"})
    assert events[1]["seats"] == [1, 3]
    assert _code(state, 2, {"type": "knock"}) == "cannot_knock"
    assert ENGINE.legal_actions(state, 2) == []


def test_the_knock_sequence_a_to_d() -> None:
    # A = seat 0 draws a 1; R = seat 2 (its display does not touch A's) gets it
    a_grid = grid({1: 10, 3: 10, 2: D(11)})
    r_grid = grid({4: 1, 6: 1, 5: D(8), 0: D(10)})
    state = make([a_grid, grid(), r_grid, grid()], deck=(1,), discard=(0,))
    state, _ = play(state, 0, {"type": "draw"})
    state, _ = play(state, 2, {"type": "knock"})
    state, _ = play(state, 1, {"type": "knock"})
    state, _ = play(state, 3, {"type": "no_knock"})
    state, events = play(state, 0, {"type": "accept", "knocker": 2})
    assert events == [{"type": "accepted", "seat": 0, "knocker": 2}]
    assert state.phase == "knock_place" and ENGINE.to_act(state) == {2}
    assert len(ENGINE.legal_actions(state, 2)) == 15
    # a. R places the 1 in its display, takes the 8 into hand, and may clear its new row;
    # only R learns the 8 (RULES.md §5: nobody else, A included, until it lies face up)
    before = state
    state, events = play(state, 2, {"type": "place", "pos": P(1, 2)})
    assert events[0] == {"type": "knock_placed", "seat": 2, "pos": P(1, 2), "owner": 2,
                         "slot": 5, "value": 1}
    _, raw = apply_any(ENGINE, before, 2, {"type": "place", "pos": P(1, 2)})
    assert event_for(raw, 2)[0]["taken"] == 8
    assert all("taken" not in event_for(raw, s)[0] for s in (0, 1, 3))
    assert events[1] == {"type": "lines", "seat": 2, "lines": [[6, 7, 8]]}
    assert ENGINE.view(state, 2)["knock"]["held"] == 8
    for seat in (None, 0, 1, 3):
        knock = ENGINE.view(state, seat)["knock"]
        assert knock["held"] is None and knock["holding"] is True
    assert ENGINE.to_act(state) == {2}
    state, events = play(state, 2, {"type": "clear", "cells": [6, 7, 8]})
    assert types(events) == ["cleared"] and state.phase == "knock_take"
    assert ENGINE.to_act(state) == {0}
    legal = ENGINE.legal_actions(state, 0)
    assert len(legal) == 12 * 15 and {"type": "exchange", "take": P(0, 1),
                                       "give": P(0, 3)} in legal
    assert _code(state, 0, {"type": "exchange", "take": P(1, 2), "give": 0}) == "empty_space"
    # b. A takes R's face-down 10 and gives its face-down 11 (discarded);
    # c. R's 8 goes face up where the 10 was
    state, events = play(state, 0, {"type": "exchange", "take": P(0, 1), "give": P(0, 3)})
    assert events[0] == {"type": "exchanged", "seat": 0, "knocker": 2, "take": P(0, 1),
                         "give": P(0, 3), "value": 10, "discarded": 11, "placed": 8}
    assert shown(state, 2)[P(0, 1)] == 8 and shown(state, 0)[P(0, 3)] == 10
    # d. A may clear the three 10s; then the turn ends with the 11 on the discard pile
    assert events[1] == {"type": "lines", "seat": 0, "lines": [[2, 3, 4]]}
    state, events = play(state, 0, {"type": "clear", "cells": [2, 3, 4]})
    assert types(events) == ["cleared", "turn"] and state.current == 1
    assert [state.values[c] for c in state.discard] == [0, 1, 1, 1, 10, 10, 10, 11]
    assert ENGINE.view(state, 0)["knock"] is None


def test_a_knocker_next_to_the_active_player_shares_a_column() -> None:
    # 3 players: R = seat 2 has seat 0's right column in its display
    state = make([grid(), grid(), grid()], deck=(7,))
    state, _ = play(state, 0, {"type": "draw"})
    state, _ = play(state, 2, {"type": "knock"})
    state, _ = play(state, 1, {"type": "no_knock"})
    state, _ = play(state, 0, {"type": "accept", "knocker": 2})
    # R places the 7 on seat 0's card in R's display: that card is in A's display too
    state, _ = play(state, 2, {"type": "place", "pos": P(0, 0)})
    assert shown(state, 0)[P(0, 4)] == 7
    assert {"type": "exchange", "take": P(0, 0), "give": P(0, 4)} not in \
        ENGINE.legal_actions(state, 0)
    assert _code(state, 0, {"type": "exchange", "take": P(0, 0),
                            "give": P(0, 4)}) == "same_card"
    state, events = play(state, 0, {"type": "exchange", "take": P(0, 0), "give": P(1, 1)})
    assert events[0]["value"] == 7 and events[0]["placed"] == 6
    assert shown(state, 0)[P(1, 1)] == 7 and shown(state, 0)[P(0, 4)] == 6


def test_no_card_to_take_back_sends_the_held_card_to_the_discard_pile() -> None:
    # R = seat 2 keeps 4 cards: seat 0's shared card and its own 7, 7, face-down 3;
    # A = seat 0 has only that shared card left
    a_grid = grid({i: None for i in range(12) if i != 3})
    r_grid = grid({0: 7, 1: 7, 2: D(3)}, base=None)
    r_grid = [c if i in (0, 1, 2) else None for i, c in enumerate(r_grid)]
    state = make([a_grid, grid({3: None, 7: None, 11: None}), r_grid], deck=(7,))
    state, _ = play(state, 0, {"type": "draw"})
    state, _ = play(state, 2, {"type": "knock"})
    state, _ = play(state, 1, {"type": "no_knock"})
    state, _ = play(state, 0, {"type": "accept", "knocker": 2})
    state, _ = play(state, 2, {"type": "place", "pos": P(0, 3)})
    state, events = play(state, 2, {"type": "clear", "cells": [1, 2, 3]})
    assert types(events)[:3] == ["cleared", "knock_no_exchange", "turn"]
    assert events[1]["value"] == 3 and state.values[state.discard[-1]] == 3
    assert state.trigger is None and state.current == 1


def test_the_last_move_of_the_final_round_ends_knocking() -> None:
    state = make([grid(), grid(), grid()], deck=(7,), trigger=2, done=[False, True, True])
    state, events = play(state, 0, {"type": "draw"})
    assert types(events) == ["drew"] and state.phase == "place"
