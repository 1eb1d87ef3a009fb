"""Scenario tests for Allegra (RULES.md §5) from hand-made states: setup, the display of 15,
taking, keeping and flipping, clearing, skipped turns, the end of the round and its last
turns, and the errors. The knock has its own file; scoring too."""

from __future__ import annotations

from collections import Counter

import pytest

from app.games.allegra import ENGINE
from app.games.allegra.data import DISTRIBUTION, deck_values
from app.games.allegra.geometry import (
    CLEARED,
    display_slots,
    find_lines,
    positions_of,
    slot_at,
)
from app.games.base import BadOptions, IllegalAction
from tests.games.allegra.helpers import D, P, grid, make, play, shown, types

# --------------------------------------------------------------------------- geometry


def test_display_of_15_is_the_left_neighbours_right_column_then_your_own_12() -> None:
    # "to the left" = seat + 1 (RULES.md general ruling)
    assert slot_at(4, 0, P(0, 0)) == (1, 3)
    assert slot_at(4, 0, P(1, 0)) == (1, 7)
    assert slot_at(4, 0, P(2, 0)) == (1, 11)
    assert slot_at(4, 0, P(0, 1)) == (0, 0)
    assert slot_at(4, 0, P(2, 4)) == (0, 11)
    assert slot_at(4, 3, P(1, 0)) == (0, 7)  # the last seat's left neighbour is seat 0
    # a player's right column is also in the display of the player to their right
    assert positions_of(4, (0, 3)) == [(0, P(0, 4)), (3, P(0, 0))]
    assert positions_of(4, (0, 5)) == [(0, P(1, 2))]
    for seats in range(2, 7):
        for seat in range(seats):
            assert len(set(display_slots(seats, seat))) == 15
            owners = Counter(o for o, _ in display_slots(seats, seat))
            assert owners == {seat: 12, (seat + 1) % seats: 3}


def test_the_rulebook_example_a_plays_b_s_right_column_and_d_plays_a_s() -> None:
    a, b, d = 0, 1, 3  # four players: B sits to A's left, D to A's right
    assert [slot_at(4, a, P(r, 0)) for r in range(3)] == [(b, 3), (b, 7), (b, 11)]
    assert [slot_at(4, d, P(r, 0)) for r in range(3)] == [(a, 3), (a, 7), (a, 11)]
    # A keeps the 3x3 between the shared columns for themself alone
    for index in (0, 1, 2, 4, 5, 6, 8, 9, 10):
        assert [seat for seat, _ in positions_of(4, (a, index))] == [a]


def test_with_two_players_each_shares_a_column_with_the_other() -> None:
    assert [slot_at(2, 0, P(r, 0)) for r in range(3)] == [(1, 3), (1, 7), (1, 11)]
    assert [slot_at(2, 1, P(r, 0)) for r in range(3)] == [(0, 3), (0, 7), (0, 11)]
    assert positions_of(2, (1, 3)) == [(1, P(0, 4)), (0, P(0, 0))]
    assert positions_of(2, (0, 11)) == [(0, P(2, 4)), (1, P(2, 0))]


# --------------------------------------------------------------------------- setup


@pytest.mark.parametrize("seats,size", [(2, 94), (3, 94), (4, 120), (5, 120), (6, 120)])
def test_setup_deals_12_face_down_and_starts_the_discard_pile(seats: int, size: int) -> None:
    state = ENGINE.setup(seats, {}, seed=seats)
    values = [v for _, v in ENGINE.all_cards(state)]
    assert len(values) == size and Counter(values) == Counter(deck_values(seats))
    assert sum(DISTRIBUTION.values()) == 120 and min(DISTRIBUTION) == -1
    assert max(DISTRIBUTION) == 11
    if seats <= 3:  # 2 of every value removed
        assert all(Counter(values)[v] == n - 2 for v, n in DISTRIBUTION.items())
    assert all(len(g) == 12 and None not in g for g in state.grid)
    assert not any(any(u) for u in state.up)
    assert len(state.discard) == 1 and len(state.deck) == size - 12 * seats - 1
    assert state.phase == "reveal" and ENGINE.to_act(state) == set(range(seats))
    assert state.current == (state.dealer + 1) % seats  # left of the dealer starts
    view = ENGINE.view(state, 0)
    assert view["discard"]["top"] == state.values[state.discard[-1]]
    assert ENGINE.setup(seats, {}, seed=seats) == state


def test_each_player_turns_up_two_cards_of_their_display_then_the_first_turn() -> None:
    state = ENGINE.setup(3, {"first_seat": 1}, seed=4)
    assert state.current == 1 and state.dealer == 0
    state, events = play(state, 0, {"type": "reveal", "pos": P(0, 0)})  # seat 1's card
    assert state.up[1][3] and events[0]["owner"] == 1 and events[0]["slot"] == 3
    assert events[0]["value"] == state.values[state.grid[1][3]]
    # seat 2's display holds seat 0's right column: seat 0's own cards are not there
    with pytest.raises(IllegalAction) as err:
        ENGINE.apply(state, 1, {"type": "reveal", "pos": P(0, 4)})  # seat 1's slot 3: up
    assert err.value.code == "not_face_down"
    state, _ = play(state, 0, {"type": "reveal", "pos": P(2, 2)})
    assert ENGINE.to_act(state) == {1, 2}
    with pytest.raises(IllegalAction) as err:
        ENGINE.apply(state, 0, {"type": "reveal", "pos": P(1, 1)})
    assert err.value.code == "not_your_turn"
    for seat in (1, 2):
        state, _ = play(state, seat, {"type": "reveal", "pos": P(1, 1)})
        state, events = play(state, seat, {"type": "reveal", "pos": P(1, 2)})
    assert types(events)[-1] == "turn" and state.phase == "take"
    assert ENGINE.to_act(state) == {1}
    assert ENGINE.legal_actions(state, 1) == [{"type": "draw"}, {"type": "take_discard"}]


def test_options_are_checked() -> None:
    assert ENGINE.setup(3, {"rounds": 5, "target_score": 77, "knock": False,
                            "knock_seconds": 30}, 1).options["knock_seconds"] == 30
    for bad in ({"knock_seconds": 1}, {"knock_seconds": 31}, {"rounds": 0},
                {"target_score": -1}, {"target_score": 301}, {"knock": 1}, {"fast": True}):
        with pytest.raises(BadOptions):
            ENGINE.setup(3, bad, 1)
    for seats in (1, 7):
        with pytest.raises(BadOptions):
            ENGINE.setup(seats, {}, 1)


# --------------------------------------------------------------------------- a turn


def test_take_from_the_discard_then_keep_exchanges_any_card_of_the_display() -> None:
    state = make([grid(), grid(), grid()], discard=(4, 2))
    state, events = play(state, 0, {"type": "take_discard"})
    assert events == [{"type": "took_discard", "seat": 0, "value": 2}]
    assert ENGINE.view(state, 1)["hand"] == 2 and ENGINE.view(state, None)["hand"] == 2
    assert state.phase == "place" and ENGINE.window(state) is None
    # the neighbour's column is part of the display: keep the card there
    state, events = play(state, 0, {"type": "keep", "pos": P(1, 0)})
    assert events[0] == {"type": "kept", "seat": 0, "pos": P(1, 0), "owner": 1, "slot": 7,
                         "value": 2, "replaced": 6, "was_up": False}
    assert state.values[state.grid[1][7]] == 2 and state.up[1][7]
    assert ENGINE.view(state, None)["discard"]["top"] == 6  # the replaced card, face up
    assert state.current == 1 and state.phase == "take"


def test_draw_then_discard_it_and_turn_up_a_face_down_card() -> None:
    state = make([grid(), grid()], deck=(3,))
    state, events = play(state, 0, {"type": "draw"})
    assert events == [{"type": "drew", "seat": 0, "value": 3, "deck": 40}]
    legal = ENGINE.legal_actions(state, 0)
    assert len([a for a in legal if a["type"] == "keep"]) == 15
    assert len([a for a in legal if a["type"] == "flip"]) == 15
    state, events = play(state, 0, {"type": "flip", "pos": P(2, 3)})
    assert events[0] == {"type": "flipped", "seat": 0, "discarded": 3, "pos": P(2, 3),
                         "owner": 0, "slot": 10, "value": 6}
    assert ENGINE.view(state, None)["discard"]["top"] == 3
    with pytest.raises(IllegalAction) as err:
        ENGINE.apply(state, 1, {"type": "flip", "pos": 0})
    assert err.value.code == "wrong_phase"


def test_errors_have_stable_codes() -> None:
    state = make([grid({0: None, 1: 4}), grid()], phase="place", hand=3, source="deck")

    def code(seat: int, action: dict) -> str:
        with pytest.raises(IllegalAction) as err:
            ENGINE.apply(state, seat, action)
        return err.value.code

    assert code(1, {"type": "keep", "pos": 1}) == "not_your_turn"
    assert code(0, {"type": "draw"}) == "wrong_phase"
    assert code(0, {"type": "keep", "pos": 15}) == "bad_position"
    assert code(0, {"type": "keep", "pos": True}) == "bad_action"
    assert code(0, {"type": "keep"}) == "bad_action"
    assert code(0, {"type": "keep", "pos": P(0, 1)}) == "empty_space"
    assert code(0, {"type": "flip", "pos": P(0, 2)}) == "not_face_down"
    assert code(0, {"type": "fold"}) == "unknown_action"
    assert code(0, {"type": "keep", "pos": 2, "extra": 1}) == "bad_action"
    assert code(0, {"type": "knock"}) == "knock_closed"
    empty = make([grid(), grid()], discard=())
    assert ENGINE.legal_actions(empty, 0) == [{"type": "draw"}]
    with pytest.raises(IllegalAction) as err:
        ENGINE.apply(empty, 0, {"type": "take_discard"})
    assert err.value.code == "empty_discard"


def test_an_empty_deck_is_rebuilt_from_the_discards_under_the_top() -> None:
    state = make([grid(), grid()], discard=(1, 2, 3, 4))
    state.deck = []
    state, events = play(state, 0, {"type": "draw"})
    assert types(events)[:2] == ["reshuffled", "drew"] and events[0]["cards"] == 3
    assert len(state.deck) == 2 and [state.values[c] for c in state.discard] == [4]
    assert state.values[state.hand] in (1, 2, 3)


# --------------------------------------------------------------------------- clearing


def test_lines_skip_gaps_but_not_face_down_cards() -> None:
    row = [CLEARED] * 15
    row[0:5] = [4, CLEARED, 4, CLEARED, 4]
    assert find_lines(row) == [[0, 2, 4]]
    row[0:5] = [4, None, 4, 4, 7]  # a face-down card breaks the run
    assert find_lines(row) == []
    row[0:5] = [4, 4, 4, 4, 7]  # four in a row: two ways to clear three
    assert find_lines(row) == [[0, 1, 2], [1, 2, 3]]
    cells: list[int | None] = [CLEARED] * 15
    cells[3], cells[8], cells[13] = 9, 9, 9
    assert find_lines(cells) == [[3, 8, 13]]
    cells[8] = None
    assert find_lines(cells) == []


def test_a_row_through_the_neighbours_column_clears_their_card_too() -> None:
    # seat 0's display row 0: [seat 1's 7] [own 7] [own face-down] ...
    state = make([grid({0: 7}), grid({3: 7}), grid()], phase="place", hand=7,
                 source="discard", discard=(2,))
    state, events = play(state, 0, {"type": "keep", "pos": P(0, 2)})
    assert types(events) == ["kept", "lines"] and events[1]["lines"] == [[0, 1, 2]]
    assert state.phase == "clear" and ENGINE.to_act(state) == {0}
    assert ENGINE.legal_actions(state, 0) == [{"type": "clear", "cells": [0, 1, 2]},
                                              {"type": "skip_clear"}]
    state, events = play(state, 0, {"type": "clear", "cells": [2, 0, 1]})
    assert events[0] == {"type": "cleared", "seat": 0, "cells": [0, 1, 2], "value": 7}
    assert state.grid[1][3] is None and state.grid[0][0] is None and state.grid[0][1] is None
    assert shown(state, 2)[P(0, 0)] == "down"  # seat 2's display holds seat 0's column
    assert shown(state, 1)[P(0, 4)] is None  # the neighbour's own display has the gap
    # the exchanged card goes on the discard pile after the cleared ones, at the turn's end
    assert [state.values[c] for c in state.discard] == [2, 7, 7, 7, 6]
    assert state.current == 1 and types(events)[-1] == "turn"


def test_a_row_across_a_gap() -> None:
    state = make([grid({0: 4, 1: None, 2: 4}), grid({3: 9}), grid()], phase="place",
                 hand=4, source="deck")
    assert shown(state, 0)[:5] == [9, 4, None, 4, "down"]
    state, events = play(state, 0, {"type": "keep", "pos": P(0, 4)})
    assert events[1]["lines"] == [[1, 3, 4]]
    state, _ = play(state, 0, {"type": "clear", "cells": [1, 3, 4]})
    assert shown(state, 0)[:5] == [9, None, None, None, None]


def test_row_or_column_the_player_chooses() -> None:
    # own column 0 holds 3, 3, face-down; row 2 is [seat 1's 3] [face-down] [3] ...
    start = make([grid({0: 3, 4: 3, 9: 3}), grid({11: 3}), grid()], phase="place", hand=3,
                 source="deck")
    state, events = play(start, 0, {"type": "keep", "pos": P(2, 1)})
    assert events[1]["lines"] == [[1, 6, 11], [10, 11, 12]]
    # the row: the column loses its bottom card, nothing is left to clear
    after_row, events = play(state, 0, {"type": "clear", "cells": [10, 11, 12]})
    assert types(events)[:2] == ["cleared", "turn"] and after_row.current == 1
    assert shown(after_row, 0)[P(0, 1)] == 3 and after_row.grid[1][11] is None
    # or the column: the row is left with a gap between 3s and a face-down card
    after_col, events = play(state, 0, {"type": "clear", "cells": [1, 6, 11]})
    assert types(events)[:2] == ["cleared", "turn"]
    assert shown(after_col, 0)[10:15] == [3, None, 3, "down", "down"]


def test_clearing_a_column_can_make_a_row_across_the_new_gap() -> None:
    # own column 0 is 8, 8, (8 to come); row 1 is [seat 1's 2] [8] [2] [2] ...
    state = make([grid({0: 8, 4: 8, 5: 2, 6: 2}), grid({7: 2}), grid()], phase="place",
                 hand=8, source="deck")
    state, events = play(state, 0, {"type": "keep", "pos": P(2, 1)})
    assert events[1]["lines"] == [[1, 6, 11]]
    state, events = play(state, 0, {"type": "clear", "cells": [1, 6, 11]})
    assert types(events) == ["cleared", "lines"] and events[1]["lines"] == [[5, 7, 8]]
    assert state.phase == "clear"
    state, events = play(state, 0, {"type": "clear", "cells": [5, 7, 8]})
    assert types(events)[:2] == ["cleared", "turn"]
    assert shown(state, 0)[5:10] == [None, None, None, None, "down"]


def test_clearing_is_optional_and_a_flip_can_complete_a_line() -> None:
    state = make([grid({1: -1, 2: -1}), grid(), grid()], phase="place", hand=10,
                 source="deck")
    state.values[state.grid[0][3]] = -1  # the face-down card at P(0, 4) is a -1
    state, events = play(state, 0, {"type": "flip", "pos": P(0, 4)})
    assert events[1]["lines"] == [[2, 3, 4]]
    kept, events = play(state, 0, {"type": "skip_clear"})
    assert types(events)[:2] == ["kept_lines", "turn"] and shown(kept, 0)[2:5] == [-1] * 3
    # the discarded drawn card went first, so cleared cards lie on top of it
    cleared, _ = play(state, 0, {"type": "clear", "cells": [2, 3, 4]})
    assert [cleared.values[c] for c in cleared.discard] == [9, 10, -1, -1, -1]
    with pytest.raises(IllegalAction) as err:
        ENGINE.apply(state, 0, {"type": "clear", "cells": [1, 2, 3]})
    assert err.value.code == "not_a_line"


# --------------------------------------------------------------------------- end of round


# face-up values that make no line in any display (a full display of them sums to 37)
FILL = (1, 2, 3, 4, 2, 3, 4, 1, 3, 4, 1, 2)


def _almost_done(seat_cells: dict[int, dict[int, object]], seats: int = 3) -> list:
    """Grids all face up (see FILL) but for the given cells."""
    grids = []
    for s in range(seats):
        cells = dict(enumerate(FILL))
        cells.update(seat_cells.get(s, {}))  # type: ignore[arg-type]
        grids.append(grid(cells))  # type: ignore[arg-type]
    return grids


def test_turning_up_your_last_card_ends_the_round_and_the_others_get_a_last_turn() -> None:
    state = make(_almost_done({0: {5: D(2)}, 1: {0: D(2)}, 2: {0: D(2), 1: D(2)}}),
                 phase="place", hand=4, source="deck")
    state, events = play(state, 0, {"type": "flip", "pos": P(1, 2)})
    assert types(events) == ["flipped", "round_ending", "turn"]
    assert state.trigger == 0 and events[2] == {"type": "turn", "seat": 1, "final": True}
    assert state.done == [True, False, False]
    view = ENGINE.view(state, 2)
    assert view["trigger"] == 0 and view["players"][0]["done"]
    # seat 1's last turn; seat 0 cannot knock any more (its last move is done)
    state, events = play(state, 1, {"type": "draw"})
    assert events[1]["seats"] == [2]
    state, _ = play(state, 2, {"type": "no_knock"})
    state, events = play(state, 1, {"type": "keep", "pos": P(2, 2)})
    assert types(events)[-1] == "turn" and state.current == 2 and state.done[1]
    # seat 2's last turn: nobody may knock (both have had their last move)
    state, events = play(state, 2, {"type": "draw"})
    assert state.phase == "place" and "knock_opened" not in types(events)
    state, events = play(state, 2, {"type": "flip", "pos": P(0, 1)})
    assert types(events)[-2:] == ["round_scored", "round_started"]
    assert state.round == 2 and state.phase == "reveal"
    record = state.results[0]
    assert record["trigger"] == 0 and record["round"] == 1
    assert state.dealer == 0 and state.current == 1  # the dealer moved one to the left


def test_a_neighbour_completing_your_display_does_not_end_the_round() -> None:
    # seat 1's only face-down card is seat 2's right column card (in both displays)
    cells = {0: {0: D(3)}, 1: {}, 2: {0: D(3), 3: D(3)}}
    state = make(_almost_done(cells), current=2, phase="place", hand=1, source="deck")
    assert ENGINE.view(state, None)["players"][1]["face_down"] == 1
    state, events = play(state, 2, {"type": "flip", "pos": P(0, 4)})
    assert "round_ending" not in types(events) and state.trigger is None
    assert ENGINE.view(state, None)["players"][1]["face_down"] == 0
    assert state.current == 0
    # seat 0 plays; seat 1 has nothing face down: its turn is skipped
    state, _ = play(state, 0, {"type": "draw"})
    # nor may seat 1 knock: with no face-down card it "can take no action" (RULES.md §5)
    assert ENGINE.to_act(state) == {2}
    state, _ = play(state, 2, {"type": "no_knock"})
    state, events = play(state, 0, {"type": "keep", "pos": P(1, 1)})
    assert types(events)[-2:] == ["skipped", "turn"] and events[-2]["seat"] == 1
    assert state.current == 2 and state.trigger is None


def test_players_with_nothing_face_down_are_skipped_in_the_last_turns() -> None:
    cells = {0: {0: D(3)}, 1: {}, 2: {0: D(3)}}
    state = make(_almost_done(cells), current=0, phase="place", hand=1, source="deck")
    state, events = play(state, 0, {"type": "flip", "pos": P(0, 1)})
    assert types(events) == ["flipped", "round_ending", "skipped", "turn"]
    assert events[2]["seat"] == 1 and state.current == 2 and state.done == [True, True, False]
    state, events = play(state, 2, {"type": "take_discard"})
    state, events = play(state, 2, {"type": "keep", "pos": P(2, 2)})
    assert "round_scored" in types(events) and state.results[0]["trigger"] == 0
    # the face-down card left in seat 2's display counts at its value, face up at the end
    assert state.results[0]["grids"][2][0] == 3


def test_the_game_ends_after_the_rounds_and_the_lowest_total_wins() -> None:
    cells = {0: {0: D(3)}, 1: {}, 2: {}}
    grids = _almost_done(cells)
    grids[1][5] = 11
    state = make(grids, options={"rounds": 1}, phase="place", hand=0, source="deck")
    state, events = play(state, 0, {"type": "keep", "pos": P(0, 1)})
    assert types(events)[-2:] == ["round_scored", "game_over"]
    outcome = ENGINE.outcome(state)
    assert outcome is not None and ENGINE.to_act(state) == set()
    # seat 0: 37 - 1 (its 1 became a 0), the lowest, not doubled; seat 1 has an 11 for a 3
    assert outcome.scores == (36, 45, 37)
    assert outcome.winners == (0,) and outcome.ranking == ((0,), (2,), (1,))
    assert outcome.details["rounds"][0]["penalty"] == [None, None, None]
    assert ENGINE.view(state, 0)["phase"] == "over" and ENGINE.legal_actions(state, 0) == []


def test_a_target_score_ends_the_game_after_the_round_that_reaches_it() -> None:
    cells = {0: {0: D(3)}, 1: {}, 2: {}}
    past = {"round": 1, "trigger": 1, "points": [50, 10, 10]}
    state = make(_almost_done(cells), options={"target_score": 66, "rounds": 1},
                 phase="place", hand=1, source="deck", results=[past])
    state.round = 2
    state, events = play(state, 0, {"type": "keep", "pos": P(0, 1)})
    assert "game_over" in types(events)  # 50 + 37 * 2 (doubled: a tie is not lowest) >= 66
    assert ENGINE.outcome(state).scores == (124, 47, 47)  # type: ignore[union-attr]
    short = make(_almost_done(cells), options={"target_score": 200, "rounds": 1},
                 phase="place", hand=1, source="deck")
    short, events = play(short, 0, {"type": "keep", "pos": P(0, 1)})
    assert "round_started" in types(events)  # the rounds option does not apply


def test_timeout_actions_are_the_cautious_ones() -> None:
    state = make([grid(), grid(), grid()], deck=(3,))
    assert ENGINE.timeout_action(state, 0) == {"type": "draw"}
    state, _ = play(state, 0, {"type": "draw"})
    assert ENGINE.timeout_action(state, 1) == {"type": "no_knock"}
    state, _ = play(state, 1, {"type": "knock"})
    state, _ = play(state, 2, {"type": "no_knock"})
    assert ENGINE.timeout_action(state, 0) == {"type": "decline"}
    state, _ = play(state, 0, {"type": "decline"})
    assert ENGINE.timeout_action(state, 0) == {"type": "flip", "pos": 0}
    with pytest.raises(IllegalAction):
        ENGINE.timeout_action(state, 1)
