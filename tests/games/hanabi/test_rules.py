"""Scenario tests for the Hanabi engine (RULES.md §1 and the Spanish rulebook).

States are built by hand (``make``) so each test says exactly which cards are where.
Card shorthand: a colour letter and a rank, "r1" = red 1; r red, g green, k black (the
Spanish *negro*), b blue, y yellow, m multicolor.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pytest

from app.games.base import BadOptions, IllegalAction, event_for
from app.games.hanabi import ENGINE
from app.games.hanabi.data import COLORS, HAND_SIZE, MULTICOLOR, full_deck, verdict
from app.games.hanabi.rules import Card, HanabiEngine, HanabiState

LETTERS = {"r": "red", "g": "green", "k": "black", "b": "blue", "y": "yellow", "m": MULTICOLOR}


def face(code: str) -> tuple[str, int]:
    return LETTERS[code[0]], int(code[1:])


def make(hands: list[list[str]], deck: list[str] = (), *, clues: int | None = None,
         fuses: int | None = None, turn: int = 0, fireworks: dict[str, int] | None = None,
         discard: list[str] = (), options: dict[str, Any] | None = None) -> HanabiState:
    """A state with these hands (ids in order), this deck (next card to draw first)."""
    seats = len(hands)
    opts = ENGINE.check_setup(seats, options or {})
    played = [Card(id=-1, color=c, rank=r)
              for c, h in (fireworks or {}).items() for r in range(1, h + 1)]
    next_id = 0
    built = []
    for hand in hands:
        cards = []
        for code in hand:
            color, rank = face(code)
            cards.append(Card(id=next_id, color=color, rank=rank))
            next_id += 1
        built.append(cards)
    # played/discarded cards of a hand-made state get ids nobody holds
    for i, card in enumerate(played):
        card.id = 1000 + i
    discarded = [Card(id=2000 + i, color=face(c)[0], rank=face(c)[1])
                 for i, c in enumerate(discard)]
    return HanabiState(
        seats=seats, options=opts, rng=12345,
        deck=[face(c) for c in reversed(list(deck))],
        hands=built, played=played, discard=discarded,
        clues=opts["clue_tokens"] if clues is None else clues,
        fuses=opts["fuses"] if fuses is None else fuses,
        turn=turn, next_id=next_id,
    )


def ids(state: HanabiState, seat: int) -> list[int]:
    return [c.id for c in state.hands[seat]]


def faces(state: HanabiState, seat: int) -> list[str]:
    inverse = {v: k for k, v in LETTERS.items()}
    return [f"{inverse[c.color]}{c.rank}" for c in state.hands[seat]]


def act(state: HanabiState, seat: int, **action: Any) -> HanabiState:
    new, _ = ENGINE.apply(state, seat, action)
    return new


def expect_illegal(state: HanabiState, seat: int, action: Any, code: str | None = None) -> None:
    before = ENGINE.dump(state)
    with pytest.raises(IllegalAction) as info:
        ENGINE.apply(state, seat, action)
    if code is not None:
        assert info.value.code == code
    assert info.value.message
    assert ENGINE.dump(state) == before, "a rejected action changed the state"


def is_legal(state: HanabiState, seat: int, action: dict) -> bool:
    return action in ENGINE.legal_actions(state, seat)


FIVE = ["r1", "g1", "k1", "b1", "y1"]


# =========================================================================== setup


@pytest.mark.parametrize(("seats", "size"), [(2, 5), (3, 5), (4, 4), (5, 4)])
def test_hand_sizes_and_initial_tokens(seats: int, size: int) -> None:
    state = ENGINE.setup(seats, {}, 42)
    assert [len(h) for h in state.hands] == [size] * seats
    assert HAND_SIZE[seats] == size
    assert len(state.deck) == 50 - seats * size
    assert state.clues == 8 and state.fuses == 3
    assert state.played == [] and state.discard == []
    assert 0 <= state.turn < seats
    assert state.over is None and state.final_turns_left is None
    # ids are handed out in dealing order: seat 0's whole hand, then seat 1's...
    assert [c.id for h in state.hands for c in h] == list(range(seats * size))
    assert Counter(ENGINE.all_cards(state)) == Counter(full_deck(False))


def test_the_deck_has_fifty_cards_as_printed() -> None:
    deck = full_deck(False)
    assert len(deck) == 50
    for color in COLORS:
        ranks = sorted(r for c, r in deck if c == color)
        assert ranks == [1, 1, 1, 2, 2, 3, 3, 4, 4, 5]
    assert set(COLORS) == {"red", "green", "black", "blue", "yellow"}


def test_setup_is_seeded_and_the_first_player_is_random() -> None:
    assert ENGINE.dump(ENGINE.setup(3, {}, 9)) == ENGINE.dump(ENGINE.setup(3, {}, 9))
    assert ENGINE.setup(3, {}, 9).deck != ENGINE.setup(3, {}, 10).deck
    firsts = {ENGINE.setup(4, {}, seed).turn for seed in range(60)}
    assert firsts == {0, 1, 2, 3}


def test_deal_order_is_the_drawing_order() -> None:
    state = ENGINE.setup(2, {}, 5)
    order = HanabiEngine.deal_order(state)
    assert len(order) == 40
    state = act(state, state.turn, type="play", card=ids(state, state.turn)[0])
    drawer = (state.turn - 1) % 2
    new = state.hands[drawer][-1]
    assert (new.color, new.rank) == order[0]
    assert new.id == 10
    assert HanabiEngine.deal_order(state) == order[1:]


def test_easy_and_hard_variants_set_the_tokens() -> None:
    # "¿Demasiado difícil? Añade 2 Token azules más." / "¿Demasiado fácil? ... un token rojo"
    state = ENGINE.setup(2, {"clue_tokens": 10, "fuses": 1}, 1)
    assert state.clues == 10 and state.fuses == 1
    view = ENGINE.view(state, 0)
    assert view["max_clues"] == 10 and view["max_fuses"] == 1


# =========================================================================== options


@pytest.mark.parametrize("seats", [0, 1, 6, 7, -2, "3", 2.0, None, True])
def test_check_setup_rejects_player_counts(seats: Any) -> None:
    with pytest.raises(BadOptions):
        ENGINE.check_setup(seats, {})
    with pytest.raises(BadOptions):
        ENGINE.setup(seats, {}, 1)


@pytest.mark.parametrize("seats", [2, 3, 4, 5])
def test_check_setup_accepts_two_to_five(seats: int) -> None:
    assert ENGINE.check_setup(seats, None) == {
        "multicolor": False, "fuses": 3, "clue_tokens": 8, "empty_clues": True,
        "first_seat": "random",
    }


@pytest.mark.parametrize("options", [
    {"colours": 6},
    {"multicolour": True},
    {"fuses": 2},
    {"fuses": 0},
    {"fuses": "3"},
    {"fuses": None},
    {"clue_tokens": 9},
    {"clue_tokens": 0},
    {"clue_tokens": "10"},
    {"multicolor": 1},
    {"multicolor": "yes"},
    {"empty_clues": 0},
    {"empty_clues": None},
])
def test_check_setup_rejects_bad_options(options: dict) -> None:
    with pytest.raises(BadOptions):
        ENGINE.check_setup(2, options)
    with pytest.raises(BadOptions):
        ENGINE.setup(2, options, 1)


@pytest.mark.parametrize("options", [{"fuses": True}, {"clue_tokens": 8.0}, {"fuses": 3.0},
                                     {"clue_tokens": 10.0}, {"multicolor": 0}])
def test_check_setup_rejects_bools_and_floats_for_numbers(options: dict) -> None:
    with pytest.raises(BadOptions):
        ENGINE.check_setup(2, options)


def test_catalogue_marks_empty_clues_as_a_ruling() -> None:
    entry = ENGINE.catalogue_entry()
    specs = {o["name"]: o for o in entry["options"]}
    assert specs["empty_clues"]["default"] is True and specs["empty_clues"].get("ruling")
    assert specs["fuses"]["choices"] == [3, 1]
    assert specs["clue_tokens"]["choices"] == [8, 10]
    assert entry["min_players"] == 2 and entry["max_players"] == 5


# =========================================================================== clues


def test_a_colour_clue_touches_every_matching_card_and_records_knowledge() -> None:
    state = make([["r1", "y1", "g2"], ["r1", "g1", "r3", "b2", "r5"]], ["k1"])
    after, events = ENGINE.apply(state, 0, {"type": "clue", "target": 1, "color": "red"})
    assert after.clues == 7
    hand = after.hands[1]
    assert [c.clued_color for c in hand] == ["red", None, "red", None, "red"]
    assert [c.not_colors for c in hand] == [[], ["red"], [], ["red"], []]
    assert [c.clued_rank for c in hand] == [None] * 5
    assert [c.not_ranks for c in hand] == [[]] * 5
    # the clue is logged for everyone with the touched ids
    assert after.log[-1] == {"type": "clue", "seat": 0, "target": 1, "color": "red",
                             "cards": [3, 5, 7], "slots": [1, 3, 5]}
    clue_events = [e for e in event_for(events, None) if e["type"] == "clue"]
    assert clue_events == [{"type": "clue", "seat": 0, "target": 1, "color": "red",
                            "cards": [3, 5, 7], "slots": [1, 3, 5]}]
    # nobody drew, the turn passed
    assert after.deck == state.deck and after.turn == 1
    # the clued player sees the knowledge but not the cards
    mine = ENGINE.view(after, 1)["hands"][1]
    assert [k["knowledge"]["color"] for k in mine] == ["red", None, "red", None, "red"]
    assert mine[1]["knowledge"]["possible_colors"] == ["green", "black", "blue", "yellow"]
    assert mine[0]["knowledge"]["possible_colors"] == ["red"]
    assert mine[0]["knowledge"]["possible_ranks"] == [1, 2, 3, 4, 5]
    assert all("color" not in card and "rank" not in card for card in mine)


def test_a_rank_clue_touches_every_matching_card_and_records_knowledge() -> None:
    state = make([["r1", "y1", "g2"], ["r1", "g1", "r3", "b2", "r5"]], ["k1"])
    after = act(state, 0, type="clue", target=1, rank=1)
    hand = after.hands[1]
    assert [c.clued_rank for c in hand] == [1, 1, None, None, None]
    assert [c.not_ranks for c in hand] == [[], [], [1], [1], [1]]
    after = act(after, 1, type="clue", target=0, rank=2)
    after = act(after, 0, type="clue", target=1, rank=3)
    after = act(after, 1, type="clue", target=0, rank=5)
    after = act(after, 0, type="clue", target=1, color="blue")
    knowledge = ENGINE.view(after, 1)["hands"][1][3]["knowledge"]
    assert knowledge == {
        "color": "blue", "rank": None, "not_colors": [], "not_ranks": [1, 3],
        "possible_colors": ["blue"], "possible_ranks": [2, 4, 5],
    }
    knowledge = ENGINE.view(after, 1)["hands"][1][1]["knowledge"]
    assert knowledge["not_colors"] == ["blue"] and knowledge["rank"] == 1
    assert knowledge["possible_ranks"] == [1]
    # a repeated clue does not repeat negative knowledge
    again = act(act(after, 1, type="clue", target=0, rank=2), 0, type="clue", target=1, rank=3)
    assert again.hands[1][3].not_ranks == [1, 3]


def test_cannot_clue_without_tokens() -> None:
    state = make([["r1", "y1"], ["r2", "g1"]], ["k1"], clues=0)
    expect_illegal(state, 0, {"type": "clue", "target": 1, "color": "red"}, "no_clues")
    expect_illegal(state, 0, {"type": "clue", "target": 1, "rank": 1}, "no_clues")
    assert not any(a["type"] == "clue" for a in ENGINE.legal_actions(state, 0))
    # one token: one clue, then none
    one = act(make([["r1", "y1"], ["r2", "g1"]], ["k1"], clues=1), 0,
              type="clue", target=1, rank=1)
    assert one.clues == 0
    expect_illegal(one, 1, {"type": "clue", "target": 0, "rank": 1}, "no_clues")


@pytest.mark.parametrize("action", [
    {"type": "clue", "target": 0, "color": "red"},   # yourself
    {"type": "clue", "target": 2, "color": "red"},   # no such seat
    {"type": "clue", "target": -1, "color": "red"},
    {"type": "clue", "target": 1},                   # neither colour nor number
    {"type": "clue", "target": 1, "color": "red", "rank": 1},  # both
    {"type": "clue", "target": 1, "color": "purple"},
    {"type": "clue", "target": 1, "color": "Red"},
    {"type": "clue", "target": 1, "color": MULTICOLOR},  # not without the variant
    {"type": "clue", "target": 1, "rank": 0},
    {"type": "clue", "target": 1, "rank": 6},
    {"type": "clue", "color": "red"},                # no target
])
def test_bad_clues_are_rejected(action: dict) -> None:
    state = make([["r1", "y1"], ["r2", "g1"]], ["k1"])
    expect_illegal(state, 0, action)


def test_empty_clue_is_allowed_by_default() -> None:
    # rulebook: "No tienes ninguna carta azul."
    state = make([["r1", "y1", "g2"], ["r1", "g1", "r3", "k2", "r5"]], ["k1"])
    assert state.options["empty_clues"] is True
    assert is_legal(state, 0, {"type": "clue", "target": 1, "color": "blue"})
    after = act(state, 0, type="clue", target=1, color="blue")
    assert after.clues == 7
    assert all(c.not_colors == ["blue"] and c.clued_color is None for c in after.hands[1])
    assert after.log[-1]["cards"] == []
    after = act(after, 1, type="clue", target=0, rank=4)
    assert all(c.not_ranks == [4] for c in after.hands[0])


def test_empty_clue_rejected_when_the_option_is_off() -> None:
    state = make([["r1", "y1", "g2"], ["r1", "g1", "r3", "k2", "r5"]], ["k1"],
                 options={"empty_clues": False})
    expect_illegal(state, 0, {"type": "clue", "target": 1, "color": "blue"}, "empty_clue")
    expect_illegal(state, 0, {"type": "clue", "target": 1, "rank": 4}, "empty_clue")
    legal = ENGINE.legal_actions(state, 0)
    clues = [a for a in legal if a["type"] == "clue"]
    assert clues == [
        {"type": "clue", "target": 1, "color": "red"},
        {"type": "clue", "target": 1, "color": "green"},
        {"type": "clue", "target": 1, "color": "black"},
        {"type": "clue", "target": 1, "rank": 1},
        {"type": "clue", "target": 1, "rank": 2},
        {"type": "clue", "target": 1, "rank": 3},
        {"type": "clue", "target": 1, "rank": 5},
    ]
    for clue in clues:
        ENGINE.apply(state, 0, clue)


@pytest.mark.parametrize("seats", [2, 3, 4, 5])
def test_every_colour_and_number_may_be_clued_to_every_other_player(seats: int) -> None:
    state = ENGINE.setup(seats, {}, 3)
    clues = [a for a in ENGINE.legal_actions(state, state.turn) if a["type"] == "clue"]
    assert len(clues) == (seats - 1) * 10
    assert {a["target"] for a in clues} == set(range(seats)) - {state.turn}
    multi = ENGINE.setup(seats, {"multicolor": True}, 3)
    clues = [a for a in ENGINE.legal_actions(multi, multi.turn) if a["type"] == "clue"]
    assert len(clues) == (seats - 1) * 11


# =========================================================================== discard


def test_discard_regains_a_clue_and_draws() -> None:
    state = make([["r1", "y1", "g2"], ["r2", "g1", "k3"]], ["b4", "b5"], clues=5)
    after, events = ENGINE.apply(state, 0, {"type": "discard", "card": 1})
    assert after.clues == 6
    assert [(c.id, c.color, c.rank) for c in after.discard] == [(1, "yellow", 1)]
    # the new card goes to the end of the hand and gets the next id
    assert ids(after, 0) == [0, 2, 6] and faces(after, 0) == ["r1", "g2", "b4"]
    assert len(after.deck) == 1
    assert after.turn == 1
    # the discard pile is public, even to spectators
    for seat in (None, 0, 1):
        assert ENGINE.view(after, seat)["discard"] == [{"id": 1, "color": "yellow", "rank": 1}]
    # the drawer does not see what was drawn; the others do
    drawn = [e for e in event_for(events, 0) if e["type"] == "draw"]
    assert drawn == [{"type": "draw", "seat": 0, "card": {"id": 6}, "deck": 1}]
    drawn = [e for e in event_for(events, 1) if e["type"] == "draw"]
    assert drawn[0]["card"] == {"id": 6, "color": "blue", "rank": 4}
    assert [e for e in event_for(events, None) if e["type"] == "draw"][0]["card"] == {"id": 6}


def test_cannot_discard_with_all_clue_tokens() -> None:
    # rulebook: "Si todos los Token azules están sobre la tapa ... no puedes realizar el descarte"
    state = make([["r1", "y1"], ["r2", "g1"]], ["k1"])
    assert state.clues == 8
    expect_illegal(state, 0, {"type": "discard", "card": 0}, "clues_full")
    assert not any(a["type"] == "discard" for a in ENGINE.legal_actions(state, 0))


def test_ten_clue_tokens_variant() -> None:
    state = make([["r1", "y1"], ["r2", "g1"]], ["k1", "k2", "k3"], options={"clue_tokens": 10})
    assert state.clues == 10
    expect_illegal(state, 0, {"type": "discard", "card": 0}, "clues_full")
    state.clues = 9
    after = act(state, 0, type="discard", card=0)
    assert after.clues == 10
    expect_illegal(after, 1, {"type": "discard", "card": 2}, "clues_full")
    # at 8 of 10, discarding is allowed
    state.clues = 8
    assert act(state, 0, type="discard", card=0).clues == 9


# =========================================================================== play


def test_playing_builds_fireworks_in_order() -> None:
    state = make([["r1", "r2", "g2"], ["r3", "g1", "k3"]], ["b4", "b5", "b1", "b2"])
    state = act(state, 0, type="play", card=0)
    assert state.fireworks()["red"] == 1 and state.fuses == 3
    assert state.log[-1]["success"] is True
    state = act(state, 1, type="play", card=4)
    state = act(state, 0, type="play", card=1)
    state = act(state, 1, type="play", card=3)
    assert state.fireworks() == {"red": 3, "green": 1, "black": 0, "blue": 0, "yellow": 0}
    assert state.fuses == 3 and state.clues == 8 and state.discard == []
    assert state.score() == 4


def test_misplay_uses_a_fuse_and_goes_to_the_discard_pile() -> None:
    # "Un Castillo se construye ordenadamente del 1 al 5": a 2 cannot start a firework
    state = make([["r2", "y1"], ["r1", "g1"]], ["k1", "k2"], clues=8)
    after, events = ENGINE.apply(state, 0, {"type": "play", "card": 0})
    assert after.fuses == 2
    assert after.clues == 8  # a misplay never regains a clue
    assert [(c.color, c.rank) for c in after.discard] == [("red", 2)]
    assert after.played == []
    assert faces(after, 0) == ["y1", "k1"]
    assert after.log[-1]["success"] is False
    assert event_for(events, None)[0]["success"] is False


def test_a_firework_cannot_hold_two_cards_of_the_same_number() -> None:
    # "Un Castillo no puede contener varias cartas del mismo valor."
    state = make([["r1", "y1"], ["r1", "g1"]], ["k1", "k2"])
    state = act(state, 0, type="play", card=0)
    state = act(state, 1, type="play", card=2)
    assert state.fuses == 2 and state.fireworks()["red"] == 1
    assert [(c.color, c.rank) for c in state.discard] == [("red", 1)]


def test_a_card_of_a_lower_number_is_a_misplay() -> None:
    state = make([["r2", "y1"], ["r1", "g1"]], ["k1"], fireworks={"red": 3})
    assert act(state, 0, type="play", card=0).fuses == 2


def test_playing_a_five_regains_a_clue_if_one_is_missing() -> None:
    state = make([["r5", "y1"], ["r1", "g1"]], ["k1"], fireworks={"red": 4}, clues=3)
    after = act(state, 0, type="play", card=0)
    assert after.clues == 4 and after.fireworks()["red"] == 5
    assert after.log[-1]["clue_regained"] is True


def test_playing_a_five_with_all_tokens_gains_nothing() -> None:
    # "Si todos los Token azules ya están sobre la tapa de la caja, no ocurre nada."
    state = make([["r5", "y1"], ["r1", "g1"]], ["k1"], fireworks={"red": 4})
    after = act(state, 0, type="play", card=0)
    assert after.clues == 8 and after.fireworks()["red"] == 5
    assert after.log[-1]["clue_regained"] is False
    ten = make([["r5", "y1"], ["r1", "g1"]], ["k1"], fireworks={"red": 4}, clues=9,
               options={"clue_tokens": 10})
    assert act(ten, 0, type="play", card=0).clues == 10
    ten.clues = 10
    assert act(ten, 0, type="play", card=0).clues == 10


def test_other_cards_never_regain_a_clue() -> None:
    state = make([["r4", "y1"], ["r1", "g1"]], ["k1"], fireworks={"red": 3}, clues=3)
    assert act(state, 0, type="play", card=0).clues == 3


def test_no_passing() -> None:
    # "No está permitido pasar sin realizar ninguna acción."
    state = make([["r1", "y1"], ["r2", "g1"]], ["k1"])
    expect_illegal(state, 0, {"type": "pass"}, "unknown_action")
    assert {a["type"] for a in ENGINE.legal_actions(state, 0)} == {"play", "clue"}


# =========================================================================== the end


def test_third_fuse_ends_the_game_at_once_with_score_zero() -> None:
    state = make([["r2", "y1"], ["r1", "g1"]], ["k1", "k2"], fuses=1,
                 fireworks={"green": 5, "blue": 3}, clues=4)
    after, events = ENGINE.apply(state, 0, {"type": "play", "card": 0})
    assert after.fuses == 0 and after.over == "strikeout"
    assert after.score() == 0
    assert len(after.deck) == 2 and faces(after, 0) == ["y1"]  # no draw: it is over
    assert ENGINE.to_act(after) == set()
    assert ENGINE.legal_actions(after, 0) == [] and ENGINE.legal_actions(after, 1) == []
    expect_illegal(after, 1, {"type": "play", "card": 2}, "game_over")
    outcome = ENGINE.outcome(after)
    assert outcome is not None
    assert outcome.scores == (0, 0) and outcome.winners == ()
    assert outcome.details["verdict"] == "horrible"
    assert outcome.details["reason"] == "strikeout"
    assert outcome.details["fireworks"]["green"] == 5  # shown, but it scores nothing
    assert [e["type"] for e in event_for(events, None)] == ["play", "game_over"]
    assert event_for(events, None)[-1] == {"type": "game_over", "score": 0,
                                           "verdict": "horrible", "reason": "strikeout"}
    view = ENGINE.view(after, 0)
    assert view["over"] == "strikeout" and view["score"] == 0 and view["turn"] is None


def test_three_fuses_take_three_misplays() -> None:
    state = make([["r2", "y2", "g2"], ["b2", "k2", "r3"]], ["k3", "k4", "k5", "b3"])
    state = act(state, 0, type="play", card=0)
    state = act(state, 1, type="play", card=3)
    assert state.fuses == 1 and state.over is None
    state = act(state, 0, type="play", card=1)
    assert state.fuses == 0 and state.over == "strikeout"


def test_one_fuse_variant_ends_on_the_first_misplay() -> None:
    # "¿Demasiado fácil? Prueba a jugarlo con un token rojo solamente."
    state = ENGINE.setup(2, {"fuses": 1}, 11)
    seat = state.turn
    fireworks = state.fireworks()
    bad = next(c for c in state.hands[seat] if fireworks[c.color] != c.rank - 1)
    after = act(state, seat, type="play", card=bad.id)
    assert after.over == "strikeout" and after.score() == 0


def test_perfect_game_ends_at_twenty_five() -> None:
    state = make([["y5", "r1"], ["g1", "k1"]], ["b1", "b2"], clues=2,
                 fireworks={"red": 5, "green": 5, "black": 5, "blue": 5, "yellow": 4})
    after, events = ENGINE.apply(state, 0, {"type": "play", "card": 0})
    assert after.over == "perfect" and after.score() == 25
    assert len(after.deck) == 2  # it ends at once: no draw
    outcome = ENGINE.outcome(after)
    assert outcome is not None
    assert outcome.scores == (25, 25) and outcome.winners == (0, 1)
    assert outcome.details["verdict"] == "legendary" and outcome.details["max_score"] == 25
    assert event_for(events, 1)[-1]["type"] == "game_over"


def test_last_round_every_player_one_more_turn_drawer_last() -> None:
    # "Cada jugador realiza un turno más, incluído el jugador que robó la última carta,
    #  que finaliza la partida."
    state = make([["r1", "y2", "g2"], ["b2", "k2", "r3"], ["b3", "k3", "r4"]], ["g1"],
                 turn=1, clues=5)
    state = act(state, 1, type="discard", card=3)  # seat 1 draws the last card
    assert state.deck == [] and state.over is None
    assert faces(state, 1) == ["k2", "r3", "g1"]
    order = []
    while state.over is None:
        assert len(order) < 10
        seat = state.turn
        order.append(seat)
        state = act(state, seat, type="clue", target=(seat + 1) % 3, rank=2)
    assert order == [2, 0, 1]
    assert state.over == "deck_out" and state.turns_taken == 4


@pytest.mark.parametrize("seats", [2, 3, 4, 5])
def test_last_round_length_for_every_player_count(seats: int) -> None:
    hands = [["y2", "g2", "k2", "b2"] for _ in range(seats)]
    for drawer in range(seats):
        state = make(hands, ["r1"], turn=drawer, clues=2)
        state = act(state, drawer, type="play", card=ids(state, drawer)[0])  # draws r1
        assert state.deck == []
        turns = []
        while state.over is None:
            assert len(turns) < 10
            turns.append(state.turn)
            state = act(state, state.turn, type="discard", card=ids(state, state.turn)[0])
        expected = [(drawer + k) % seats for k in range(1, seats + 1)]
        assert turns == expected and turns[-1] == drawer
        assert state.over == "deck_out"


def test_no_draw_from_an_empty_deck() -> None:
    # "Obviamente, los jugadores no podrán robar nuevas cartas en su último turno."
    state = make([["r1", "y2", "g2"], ["b2", "k2", "r3"]], ["g1"], clues=5)
    state = act(state, 0, type="discard", card=1)  # draws g1, the last card
    after, events = ENGINE.apply(state, 1, {"type": "discard", "card": 3})
    assert len(after.hands[1]) == 2 and after.clues == 7 and after.deck == []
    assert "draw" not in [e["type"] for e in event_for(events, 0)]
    after, events = ENGINE.apply(after, 0, {"type": "play", "card": 0})
    assert len(after.hands[0]) == 2 and after.fireworks()["red"] == 1
    assert "draw" not in [e["type"] for e in event_for(events, 1)]
    assert after.over == "deck_out" and after.score() == 1
    assert ENGINE.outcome(after).details["reason"] == "deck_out"


def test_strikeout_during_the_last_round_ends_at_once() -> None:
    state = make([["r1", "y2", "g2"], ["b2", "k2", "r3"], ["b3", "k3", "r4"]], ["g1"],
                 fuses=1, clues=5)
    state = act(state, 0, type="discard", card=1)
    after = act(state, 1, type="play", card=4)
    assert after.over == "strikeout" and after.score() == 0 and after.turns_taken == 2


def test_perfect_game_during_the_last_round_ends_at_once() -> None:
    state = make([["r1", "y5"], ["g1", "k1"]], ["b1"], clues=5,
                 fireworks={"red": 5, "green": 5, "black": 5, "blue": 5, "yellow": 4})
    state = act(state, 0, type="discard", card=0)
    assert state.deck == [] and state.over is None
    state = act(state, 1, type="discard", card=2)
    assert state.over is None
    after = act(state, 0, type="play", card=1)
    assert after.over == "perfect" and after.score() == 25


def test_score_is_the_sum_of_the_highest_cards() -> None:
    # rulebook example: 3 + 4 + 4 + 5 + 2 = 18 points, "¡Excelente!"
    state = make([["r1", "y1"], ["g1", "k1"]], [],
                 fireworks={"red": 3, "green": 4, "black": 4, "blue": 5, "yellow": 2},
                 clues=5)
    state.final_turns_left = 2
    state = act(state, 0, type="discard", card=0)
    state = act(state, 1, type="discard", card=2)
    outcome = ENGINE.outcome(state)
    assert outcome is not None and state.over == "deck_out"
    assert outcome.scores == (18, 18) and outcome.winners == (0, 1)
    assert outcome.details["verdict"] == "excellent"
    assert outcome.details["fireworks"] == {"red": 3, "green": 4, "black": 4, "blue": 5,
                                            "yellow": 2}


@pytest.mark.parametrize(("score", "word"), [
    (0, "horrible"), (5, "horrible"),
    (6, "poor"), (10, "poor"),
    (11, "honourable"), (15, "honourable"),
    (16, "excellent"), (20, "excellent"),
    (21, "extraordinary"), (24, "extraordinary"),
    (25, "legendary"), (29, "legendary"),
    (30, "divine"),
])
def test_verdict_table(score: int, word: str) -> None:
    assert verdict(score) == word


@pytest.mark.parametrize("score", [0, 5, 6, 10, 11, 15, 16, 20, 21, 24])
def test_verdict_in_the_outcome(score: int) -> None:
    heights = {}
    left = score
    for color in COLORS:
        heights[color] = min(5, left)
        left -= heights[color]
    state = make([["r1", "y1"], ["g1", "k1"]], [], fireworks=heights, clues=5)
    state.final_turns_left = 1
    state = act(state, 0, type="discard", card=1)
    outcome = ENGINE.outcome(state)
    assert outcome is not None
    assert outcome.details["score"] == score and outcome.details["verdict"] == verdict(score)
    assert ENGINE.view(state, None)["verdict"] == verdict(score)


# =========================================================================== multicolor


def test_multicolor_deck_and_setup() -> None:
    deck = full_deck(True)
    assert len(deck) == 55
    assert sorted(r for c, r in deck if c == MULTICOLOR) == [1, 2, 3, 4, 5]
    state = ENGINE.setup(3, {"multicolor": True}, 8)
    assert len(state.deck) == 55 - 15
    assert Counter(ENGINE.all_cards(state)) == Counter(deck)
    assert state.max_score() == 30
    assert ENGINE.view(state, 0)["colors"] == [*COLORS, MULTICOLOR]
    assert ENGINE.view(state, 0)["fireworks"][MULTICOLOR] == 0


def test_multicolor_is_clued_as_its_own_colour() -> None:
    # "Tienes 2 cartas multicolor en tu mano: aquí y aquí"
    state = make([["r1", "y1"], ["m1", "r1", "m3", "b2"]], ["k1"],
                 options={"multicolor": True})
    after = act(state, 0, type="clue", target=1, color=MULTICOLOR)
    assert after.log[-1]["cards"] == [2, 4]
    assert [c.clued_color for c in after.hands[1]] == [MULTICOLOR, None, MULTICOLOR, None]
    # a red clue does not touch multicolor cards
    after = act(state, 0, type="clue", target=1, color="red")
    assert after.log[-1]["cards"] == [3]
    assert after.hands[1][0].not_colors == ["red"]
    knowledge = ENGINE.view(after, 1)["hands"][1][0]["knowledge"]
    assert knowledge["possible_colors"] == ["green", "black", "blue", "yellow", MULTICOLOR]


def test_multicolor_builds_its_own_firework() -> None:
    state = make([["m1", "m2"], ["r1", "m1"]], ["k1", "k2"], options={"multicolor": True})
    state = act(state, 0, type="play", card=0)
    assert state.fireworks()[MULTICOLOR] == 1 and state.fireworks()["red"] == 0
    state = act(state, 1, type="play", card=3)  # another multicolor 1 cannot join
    assert state.fuses == 2


def test_multicolor_twenty_five_does_not_end_the_game() -> None:
    five = {"red": 5, "green": 5, "black": 5, "blue": 5, "yellow": 4}
    state = make([["y5", "m1"], ["g1", "k1"]], ["b1"], fireworks=five, clues=2,
                 options={"multicolor": True})
    after = act(state, 0, type="play", card=0)
    assert after.score() == 25 and after.over is None


def test_multicolor_perfect_game_is_thirty_and_divine() -> None:
    full = {c: 5 for c in COLORS}
    state = make([["m5", "r1"], ["g1", "k1"]], ["b1"],
                 fireworks={**full, MULTICOLOR: 4}, clues=2, options={"multicolor": True})
    after = act(state, 0, type="play", card=0)
    assert after.over == "perfect" and after.score() == 30
    outcome = ENGINE.outcome(after)
    assert outcome.details["verdict"] == "divine" and outcome.details["max_score"] == 30


@pytest.mark.parametrize("multi_height", [0, 1, 4])
def test_multicolor_twenty_five_to_twenty_nine_is_legendary(multi_height: int) -> None:
    full = {c: 5 for c in COLORS}
    state = make([["r1", "y1"], ["g1", "k1"]], [], fireworks={**full, MULTICOLOR: multi_height},
                 clues=5, options={"multicolor": True})
    state.final_turns_left = 1
    state = act(state, 0, type="discard", card=0)
    outcome = ENGINE.outcome(state)
    assert outcome.details["score"] == 25 + multi_height
    assert outcome.details["verdict"] == "legendary"


# =========================================================================== rulebook clues


@pytest.mark.parametrize(("clue", "hand", "touched"), [
    # "Tienes 2 cartas verdes: aquí y aquí"
    ({"color": "green"}, ["g1", "r2", "g4", "b3", "y5"], [0, 2]),
    # "Tienes 2 cartas negras: aquí y aquí."
    ({"color": "black"}, ["k3", "r2", "g4", "k1", "y5"], [0, 3]),
    # "Solamente tienes una carta roja: aquí."
    ({"color": "red"}, ["g1", "r2", "g4", "b3", "y5"], [1]),
    # "Tienes 2 cartas de valor 1: aquí y aquí."
    ({"rank": 1}, ["g1", "r2", "b1", "b3", "y5"], [0, 2]),
    # "No tienes ninguna carta azul."
    ({"color": "blue"}, ["g1", "r2", "g4", "k3", "y5"], []),
])
def test_rulebook_clue_examples(clue: dict, hand: list[str], touched: list[int]) -> None:
    state = make([["r1", "r1", "r1", "r1", "r1"], hand], ["k1"])
    after = act(state, 0, type="clue", target=1, **clue)
    assert after.log[-1]["cards"] == [5 + i for i in touched]
    key = "clued_color" if "color" in clue else "clued_rank"
    value = clue.get("color", clue.get("rank"))
    assert [getattr(c, key) == value for c in after.hands[1]] == [
        i in touched for i in range(5)
    ]


# =========================================================================== views


def test_a_player_never_sees_their_own_cards() -> None:
    state = ENGINE.setup(4, {}, 21)
    for seat in range(4):
        view = ENGINE.view(state, seat)
        assert view["me"] == seat
        for owner, hand in enumerate(view["hands"]):
            for shown, card in zip(hand, state.hands[owner], strict=True):
                assert shown["id"] == card.id
                if owner == seat:
                    assert "color" not in shown and "rank" not in shown
                else:
                    assert (shown["color"], shown["rank"]) == (card.color, card.rank)


def test_spectators_see_no_card_in_any_hand() -> None:
    state = ENGINE.setup(3, {}, 22)
    view = ENGINE.view(state, None)
    assert view["me"] is None
    for hand in view["hands"]:
        for shown in hand:
            assert set(shown) == {"id", "knowledge"}


def test_the_view_does_not_depend_on_hidden_cards() -> None:
    a = make([["r1", "y2", "g3"], ["b4", "k5", "r2"]], ["g1", "g2"], clues=5)
    b = make([["k4", "b5", "y1"], ["b4", "k5", "r2"]], ["y3", "y4"], clues=5)
    c = make([["k4", "b5", "y1"], ["r1", "r1", "r1"]], ["y3", "y4"], clues=5)
    assert ENGINE.view(a, 0) == ENGINE.view(b, 0)
    assert ENGINE.view(a, 1) != ENGINE.view(b, 1)
    assert ENGINE.view(a, None) == ENGINE.view(c, None)
    # after the same clue, the knowledge differs only through what was said
    a2 = act(a, 0, type="clue", target=1, rank=2)
    b2 = act(b, 0, type="clue", target=1, rank=2)
    assert ENGINE.view(a2, 0) == ENGINE.view(b2, 0)
    # and the text of the view never contains the hidden faces in another form
    text = json.dumps(ENGINE.view(a2, 0))
    assert '"yellow", "rank": 2' not in text


def test_card_ids_say_nothing_about_identity() -> None:
    for seats in (2, 3, 4, 5):
        layouts = set()
        for seed in range(8):
            state = ENGINE.setup(seats, {}, seed)
            layouts.add(tuple(tuple(ids(state, s)) for s in range(seats)))
        assert len(layouts) == 1  # the same ids whatever was dealt
    # a drawn card's id is the draw counter, whatever card it is
    one = make([["r1", "y2"], ["b4", "k5"]], ["g1"], clues=5)
    two = make([["r1", "y2"], ["b4", "k5"]], ["y5"], clues=5)
    assert ids(act(one, 0, type="discard", card=1), 0) == ids(act(two, 0, type="discard",
                                                                   card=1), 0) == [0, 4]


def test_every_hand_is_shown_to_everyone_once_the_game_is_over() -> None:
    state = make([["r2", "y1"], ["k4", "g1"], ["b3", "b5"]], ["k1"], fuses=1)
    assert "color" not in ENGINE.view(state, 0)["hands"][0][1]
    over = act(state, 0, type="play", card=0)
    assert over.over == "strikeout"
    for seat in (None, 0, 1, 2):
        hands = ENGINE.view(over, seat)["hands"]
        assert [[(c["color"], c["rank"]) for c in hand] for hand in hands] == [
            [("yellow", 1)], [("black", 4), ("green", 1)], [("blue", 3), ("blue", 5)],
        ]


def test_knowledge_is_shown_in_draw_order_to_everyone() -> None:
    state = make([["r1", "y2", "g3"], ["b4", "k5", "r2"]], ["g1", "g2"], clues=5)
    state = act(state, 0, type="clue", target=1, color="blue")
    for seat in (None, 0, 1):
        hand = ENGINE.view(state, seat)["hands"][1]
        assert [c["id"] for c in hand] == [3, 4, 5]
        assert [c["knowledge"]["color"] for c in hand] == ["blue", None, None]


def test_view_and_events_are_json() -> None:
    state = ENGINE.setup(2, {"multicolor": True}, 4)
    for seat in (None, 0, 1):
        json.dumps(ENGINE.view(state, seat))
    _, events = ENGINE.apply(state, state.turn, ENGINE.legal_actions(state, state.turn)[0])
    for seat in (None, 0, 1):
        json.dumps(event_for(events, seat))


# =========================================================================== validation


MALFORMED: list[Any] = [
    None,
    [],
    "play",
    {},
    {"type": "fly"},
    {"type": None},
    {"type": "PLAY", "card": 0},
    {"type": "play"},
    {"type": "play", "card": "0"},
    {"type": "play", "card": 0.0},
    {"type": "play", "card": None},
    {"type": "play", "card": [0]},
    {"type": "play", "card": False},   # bool, not the id 0
    {"type": "play", "card": True},    # bool, not the id 1
    {"type": "play", "card": 3},       # the other player's card
    {"type": "play", "card": 99},
    {"type": "play", "card": -1},
    {"type": "discard"},
    {"type": "discard", "card": "1"},
    {"type": "discard", "card": True},
    {"type": "discard", "card": 4},
    {"type": "clue", "target": "1", "color": "red"},
    {"type": "clue", "target": True, "color": "red"},
    {"type": "clue", "target": 1.0, "color": "red"},
    {"type": "clue", "target": None, "rank": 1},
    {"type": "clue", "target": 1, "rank": "1"},
    {"type": "clue", "target": 1, "rank": True},
    {"type": "clue", "target": 1, "rank": 1.0},
    {"type": "clue", "target": 1, "color": 1},
    {"type": "clue", "target": 1, "color": None},
    {"type": "clue", "target": 1, "color": ["red"]},
]


@pytest.mark.parametrize("action", MALFORMED, ids=[repr(a) for a in MALFORMED])
def test_malformed_actions_are_rejected_and_change_nothing(action: Any) -> None:
    state = make([["r1", "y1", "g2"], ["r2", "g1", "k3"]], ["b4", "b5"], clues=5)
    expect_illegal(state, 0, action)


def test_wrong_seat_is_rejected() -> None:
    state = make([["r1", "y1", "g2"], ["r2", "g1", "k3"], ["b1", "b2", "b3"]], ["b4"], clues=5)
    for action in ENGINE.legal_actions(state, 0):
        for seat in (1, 2):
            expect_illegal(state, seat, action, "not_your_turn")
    # the right seat with another player's card id
    expect_illegal(state, 1, {"type": "play", "card": 3}, "not_your_turn")
    assert ENGINE.legal_actions(state, 1) == [] and ENGINE.legal_actions(state, 2) == []
    assert ENGINE.to_act(state) == {0}


def test_codes_of_rejections() -> None:
    state = make([["r1", "y1"], ["r2", "g1"]], ["k1"], clues=5)
    expect_illegal(state, 0, {"type": "play", "card": 2}, "no_such_card")
    expect_illegal(state, 0, {"type": "discard", "card": 7}, "no_such_card")
    expect_illegal(state, 0, {"type": "play", "card": "0"}, "bad_action")
    expect_illegal(state, 0, {"type": "clue", "target": 0, "rank": 1}, "bad_target")
    expect_illegal(state, 0, {"type": "fly"}, "unknown_action")


def test_every_listed_action_is_accepted() -> None:
    for seats in (2, 3, 4, 5):
        for options in ({}, {"empty_clues": False}, {"multicolor": True}):
            state = ENGINE.setup(seats, options, seats)
            state.clues = 4
            for action in ENGINE.legal_actions(state, state.turn):
                ENGINE.apply(state, state.turn, json.loads(json.dumps(action)))


# =========================================================================== persistence


def random_game_states(seats: int, options: dict, seed: int) -> list[HanabiState]:
    rng = random.Random(seed)
    state = ENGINE.setup(seats, options, seed)
    states = [state]
    while state.over is None:
        assert len(states) < 1000, "no end"
        action = rng.choice(ENGINE.legal_actions(state, state.turn))
        state, _ = ENGINE.apply(state, state.turn, action)
        states.append(state)
    return states


@pytest.mark.parametrize("options", [{}, {"multicolor": True, "clue_tokens": 10, "fuses": 1}])
def test_dump_load_round_trip(options: dict) -> None:
    for state in random_game_states(3, options, 5)[::3]:
        dumped = ENGINE.dump(state)
        assert dumped["seats"] == 3
        assert ENGINE.load(dumped) == state
        again = ENGINE.load(json.loads(json.dumps(dumped)))
        assert again == state
        assert ENGINE.view(again, 1) == ENGINE.view(state, 1)
        assert ENGINE.legal_actions(again, again.turn) == ENGINE.legal_actions(state, state.turn)


def test_a_loaded_game_continues_identically() -> None:
    state = ENGINE.setup(2, {}, 77)
    state = act(state, state.turn, type="clue", target=1 - state.turn, rank=1)
    loaded = ENGINE.load(json.loads(json.dumps(ENGINE.dump(state))))
    action = {"type": "discard", "card": ids(state, state.turn)[0]}
    a, ea = ENGINE.apply(state, state.turn, action)
    b, eb = ENGINE.apply(loaded, loaded.turn, action)
    assert a == b and event_for(ea, 0) == event_for(eb, 0)


def test_apply_does_not_mutate_its_input() -> None:
    state = make([["r1", "y1", "g2"], ["r2", "g1", "k3"]], ["b4", "b5"], clues=5)
    before = ENGINE.dump(state)
    for action in ENGINE.legal_actions(state, 0):
        ENGINE.apply(state, 0, action)
        assert ENGINE.dump(state) == before


# =========================================================================== timeout


def test_timeout_discards_the_oldest_unclued_card() -> None:
    state = make([["r1", "y1", "g2"], ["r2", "g1", "k3"]], ["b4"], clues=5)
    state = act(state, 0, type="clue", target=1, color="red")
    state = act(state, 1, type="clue", target=0, color="green")
    state = act(state, 0, type="clue", target=1, rank=1)  # cards 3 and 4 now clued
    action = ENGINE.timeout_action(state, 1)
    assert action == {"type": "discard", "card": 5}
    assert is_legal(state, 1, action)


def test_timeout_with_all_tokens_gives_a_clue() -> None:
    state = make([["r1", "y1", "g2"], ["r2", "g1", "k3"]], ["b4"])
    for options in ({}, {"empty_clues": False}):
        state.options = ENGINE.check_setup(2, options)
        action = ENGINE.timeout_action(state, 0)
        assert action["type"] == "clue" and is_legal(state, 0, action)
        after = act(state, 0, **action)
        assert after.fuses == state.fuses


def test_timeout_when_every_card_is_clued_still_discards() -> None:
    state = make([["r1", "y1"], ["r2", "g1"]], ["b4"], clues=7)
    state = act(state, 0, type="clue", target=1, rank=1)
    state = act(state, 1, type="clue", target=0, rank=1)
    state = act(state, 0, type="clue", target=1, rank=2)
    action = ENGINE.timeout_action(state, 1)
    assert action == {"type": "discard", "card": 2} and is_legal(state, 1, action)


def test_timeout_for_a_seat_not_to_act_is_refused() -> None:
    state = make([["r1", "y1"], ["r2", "g1"]], ["b4"], clues=7)
    with pytest.raises(IllegalAction):
        ENGINE.timeout_action(state, 1)
    over = act(make([["r2", "y1"], ["r2", "g1"]], ["b4"], fuses=1), 0, type="play", card=0)
    with pytest.raises(IllegalAction):
        ENGINE.timeout_action(over, 0)


@pytest.mark.parametrize("seats", [2, 3, 4, 5])
def test_timeout_is_always_legal_and_harmless(seats: int) -> None:
    for options in ({}, {"empty_clues": False}, {"multicolor": True, "clue_tokens": 10}):
        for state in random_game_states(seats, options, seats * 13)[:-1]:
            action = ENGINE.timeout_action(state, state.turn)
            assert is_legal(state, state.turn, action)
            after = act(state, state.turn, **action)
            assert after.fuses == state.fuses and after.over != "strikeout"
        # a timed-out game goes on to a normal end
        state = ENGINE.setup(seats, options, 99)
        for _turn in range(200):
            if state.over is not None:
                break
            state = act(state, state.turn, **ENGINE.timeout_action(state, state.turn))
        assert state.over == "deck_out" and state.fuses == state.options["fuses"]


def test_first_seat_option_lets_the_host_choose_who_starts() -> None:
    drawn = ENGINE.setup(3, {}, 99)
    for seat in range(3):
        chosen = ENGINE.setup(3, {"first_seat": seat}, 99)
        assert chosen.turn == seat
        assert chosen.deck == drawn.deck and chosen.hands == drawn.hands  # same deal
    with pytest.raises(BadOptions):
        ENGINE.setup(2, {"first_seat": 3}, 99)
    with pytest.raises(BadOptions):
        ENGINE.setup(2, {"first_seat": "host"}, 99)


# =========================================================================== slots and draws


def test_a_play_and_a_discard_log_the_slot_the_card_left_and_the_card_drawn() -> None:
    # slots as the hand is shown and clues count them: 1 = oldest (left), the newest last
    state = make([["r1", "y1", "g2"], ["r3", "g1", "k3"]], ["b4", "b5"], clues=5)
    after, events = ENGINE.apply(state, 0, {"type": "play", "card": 1})
    entry = after.log[-1]
    assert (entry["slot"], entry["drew"]) == (2, 6)
    assert ids(after, 0) == [0, 2, 6]
    # the move's event (what a replay lists) says the same to every seat
    for seat in (None, 0, 1):
        assert event_for(events, seat)[0]["slot"] == 2
    after = act(after, 1, type="discard", card=5)
    assert (after.log[-1]["type"], after.log[-1]["slot"], after.log[-1]["drew"]) == \
        ("discard", 3, 7)
    assert ids(after, 1) == [3, 4, 7]
    # the deck is empty: nothing drawn
    after = act(after, 0, type="discard", card=0)
    assert (after.log[-1]["slot"], after.log[-1]["drew"]) == (1, None)


def test_a_play_that_ends_the_game_draws_nothing() -> None:
    state = make([["r2", "y1"], ["r1", "g1"]], ["k1", "k2"], fuses=1)
    after = act(state, 0, type="play", card=0)
    assert after.over == "strikeout"
    assert (after.log[-1]["slot"], after.log[-1]["drew"]) == (1, None)
    assert ids(after, 0) == [1]
