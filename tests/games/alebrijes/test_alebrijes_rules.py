"""Alebrijes rules from hand-made states: every rulebook example and every rule of RULES.md
§3 (dealing, exchanges, combinations, beating, one chance per trick, passing, Ollin, the end
of a round, the next starter, three rounds)."""

from __future__ import annotations

import json

import pytest

from app.games.alebrijes import ENGINE
from app.games.alebrijes.combos import Combo, beats
from app.games.alebrijes.data import CARDS, hand_size
from app.games.base import IllegalAction
from tests.games.alebrijes.helpers import cards, ids_of, idx, play, trick_state

FILLER = ("wild", 1)


def plays(state, seat) -> list[tuple]:
    return [(a["suit"], a["number"], a["count"], a["wilds"], a["ollin"])
            for a in ENGINE.legal_actions(state, seat) if a["type"] == "play"]


# ----------------------------------------------------------------------------- setup


@pytest.mark.parametrize("seats", [3, 4, 5, 6])
def test_deal_sizes_and_exchange_phase(seats: int) -> None:
    state = ENGINE.setup(seats, {"first_seat": 1}, seed=7)
    assert [len(h) for h in state.hands] == [hand_size(seats)] * seats
    assert hand_size(seats) == (10 if seats <= 4 else 8)
    assert len(state.deck) == 80 - seats * hand_size(seats)
    assert state.phase == "exchange" and ENGINE.to_act(state) == {1}


def test_ids_do_not_encode_cards() -> None:
    faces = set()
    for seed in range(6):
        state = ENGINE.setup(3, {}, seed=seed)
        hand = {i: c for h in state.hands for i, c in h}
        faces.add(CARDS[hand[0]])
    assert len(faces) > 1  # id 0 is a different card in different games


def test_exchange_in_turn_order_up_to_two_cards() -> None:
    state = ENGINE.setup(3, {"first_seat": 2}, seed=3)
    hand = ids_of(state.hands[2])
    legal = ENGINE.legal_actions(state, 2)
    assert len(legal) == 1 + 10 + 45 and {"type": "exchange", "cards": []} in legal
    with pytest.raises(IllegalAction) as err:
        ENGINE.apply(state, 2, {"type": "exchange", "cards": hand[:3]})
    assert err.value.code == "too_many_cards"
    deck = len(state.deck)
    state, events = ENGINE.apply(state, 2, {"type": "exchange", "cards": hand[:2]})
    assert len(state.hands[2]) == 10 and len(state.deck) == deck - 2
    assert not set(hand[:2]) & set(ids_of(state.hands[2]))
    assert events[0].for_seat(0) == {"type": "exchanged", "seat": 2, "count": 2,
                                     "deck": deck - 2}
    assert ENGINE.to_act(state) == {0}
    state, _ = ENGINE.apply(state, 0, {"type": "exchange", "cards": []})
    state, events = ENGINE.apply(state, 1, {"type": "exchange", "cards": []})
    assert state.phase == "trick" and ENGINE.to_act(state) == {2}
    assert [e.type for e in events] == ["exchanged", "trick_started"]
    # the leader must play: no pass on an empty table
    assert all(a["type"] == "play" for a in ENGINE.legal_actions(state, 2))
    with pytest.raises(IllegalAction) as err:
        ENGINE.apply(state, 2, {"type": "pass", "cards": []})
    assert err.value.code == "must_lead"


# ----------------------------------------------------------------------------- combinations


def test_rulebook_ana_plays_blue_3_with_a_wild_3_and_adrian_answers() -> None:
    ana = cards(("blue", 3), ("wild", 3), ("green", 1))
    adrian = cards(("blue", 4), ("blue", 4, True), ("blue", 5), ("green", 2), ("green", 2),
                   ("green", 4), ("green", 4), ("pink", 5), ("pink", 5), ("wild", 5))
    state = trick_state(4, [ana, adrian, cards(FILLER), cards(FILLER)])
    state, events = play(state, 0, "blue", 3, 2, wilds=1)
    assert events[0].data["combo"] == {"suit": "blue", "number": 3, "count": 2, "wilds": 1,
                                       "ollin": 0}
    options = {(s, n, w, k) for s, n, c, w, k in plays(state, 1) if c == 2}
    # pairs of 4 or 5 blue (the 5 with the wild 5), or any green pair; no pink pair
    assert options == {("blue", 4, 0, 1), ("blue", 5, 1, 0), ("green", 2, 0, 0),
                       ("green", 4, 0, 0)}
    state, _ = play(state, 1, "green", 4, 2)
    assert ENGINE.view(state, 2)["trick"][-1]["combo"]["suit"] == "green"


def test_rulebook_orange_pair_of_5_needs_three_blue() -> None:
    neus = cards(("blue", 4), ("blue", 4), ("blue", 4, True), ("blue", 1), ("blue", 2),
                 ("green", 3), ("green", 3), ("orange", 1), ("orange", 1))
    state = trick_state(4, [cards(FILLER, FILLER), cards(FILLER), cards(FILLER, ("blue", 1)),
                            neus], leader=2)
    state.hands[2] = cards(("orange", 5), ("orange", 5), FILLER)
    state, _ = play(state, 2, "orange", 5, 2)
    options = plays(state, 3)
    assert {(s, n, c) for s, n, c, _w, _k in options} == {("blue", 4, 3)}
    with pytest.raises(IllegalAction) as err:
        play(state, 3, "blue", 4, 2)
    assert err.value.code == "does_not_beat"
    with pytest.raises(IllegalAction):
        play(state, 3, "green", 3, 2)  # no wrapping at the same size, no skipping
    state, _ = play(state, 3, "blue", 4, 3, ollin=1)
    assert state.phase == "trick" and ENGINE.to_act(state) == {0}  # 3 cards: no Ollin


def test_rulebook_trick_pink_orange_pass_blue() -> None:
    ana = cards(("pink", 4), ("pink", 4), ("green", 5))
    adrian = cards(("orange", 2), ("orange", 2), ("green", 5))
    cris = cards(("green", 1), ("pink", 1), ("orange", 1))
    neus = cards(("blue", 1), ("blue", 1), ("blue", 1, True), ("green", 5))
    deck = [idx("wild", 2), idx("green", 5), idx("pink", 5)]
    state = trick_state(4, [ana, adrian, cris, neus], deck=deck)
    state, _ = play(state, 0, "pink", 4, 2)
    state, _ = play(state, 1, "orange", 2, 2)
    assert plays(state, 2) == []  # Cris cannot beat it
    discard = ids_of(cris[:2])
    state, events = ENGINE.apply(state, 2, {"type": "pass", "cards": discard})
    assert len(state.hands[2]) == 3 and len(state.deck) == 1
    assert {CARDS[c] for _i, c in state.hands[2]} >= {CARDS[idx("pink", 5)]}
    assert ENGINE.view(state, 3)["face_down"] == 2
    view = ENGINE.view(state, 3)
    assert [p["chance"] for p in view["players"]] == ["lead", "beat", "pass", None]
    state, events = play(state, 3, "blue", 1, 3, ollin=1)  # 3+ cards: no Ollin effect
    assert [e.type for e in events] == ["played", "trick_won"]
    assert state.phase == "trick" and state.leader == 3 and ENGINE.to_act(state) == {3}
    assert state.trick == [] and len(state.played) == 7
    assert ENGINE.view(state, 0)["played"][0] == {"suit": "blue", "number": 1,
                                                  "ollin": False}


def test_beating_rules() -> None:
    def c(suit: str, number: int, n: int) -> Combo:
        return Combo(suit, number, n, 0, 0)

    assert beats(c("blue", 4, 2), c("blue", 3, 2))
    assert not beats(c("blue", 3, 2), c("blue", 3, 2))
    assert beats(c("green", 1, 2), c("blue", 5, 2))
    assert not beats(c("pink", 5, 2), c("blue", 1, 2))  # no skipping
    assert not beats(c("blue", 5, 3), c("blue", 1, 2))  # same size only
    assert beats(c("orange", 1, 1), c("pink", 5, 1))
    assert beats(c("orange", 3, 2), c("orange", 2, 2))
    assert not beats(c("blue", 5, 2), c("orange", 1, 2))
    assert beats(c("blue", 1, 3), c("orange", 5, 2))
    assert not beats(c("blue", 1, 4), c("orange", 5, 2))
    assert not beats(c("green", 1, 3), c("orange", 5, 2))


def test_wild_only_combination_declares_its_suit() -> None:
    state = trick_state(3, [cards(("wild", 2), ("wild", 2), ("pink", 1)), cards(FILLER),
                            cards(FILLER)])
    options = plays(state, 0)
    for suit in ("blue", "green", "pink", "orange"):
        assert (suit, 2, 2, 2, 0) in options
    assert ("pink", 1, 1, 0, 0) in options and ("blue", 1, 1, 0, 0) not in options
    state, events = play(state, 0, "green", 2, 2, wilds=2)
    assert events[0].data["combo"]["suit"] == "green"
    assert ENGINE.view(state, 1)["trick"][0]["cards"] == [
        {"suit": "wild", "number": 2, "ollin": False}] * 2


def test_bad_plays_are_refused_with_codes() -> None:
    state = trick_state(3, [cards(("pink", 3), ("wild", 3)), cards(FILLER), cards(FILLER)])
    for action, code in [
        ({"suit": "red", "number": 3, "count": 1, "wilds": 0}, "bad_suit"),
        ({"suit": "pink", "number": 6, "count": 1, "wilds": 0}, "bad_number"),
        ({"suit": "pink", "number": 3, "count": 0, "wilds": 0}, "bad_count"),
        ({"suit": "pink", "number": 3, "count": 1, "wilds": 2}, "bad_count"),
        ({"suit": "pink", "number": 3, "count": 3, "wilds": 1}, "not_in_hand"),
        ({"suit": "pink", "number": 3, "count": 1, "wilds": 0, "ollin": 1}, "not_in_hand"),
    ]:
        with pytest.raises(IllegalAction) as err:
            ENGINE.apply(state, 0, {"type": "play", **action})
        assert err.value.code == code
    with pytest.raises(IllegalAction) as err:
        ENGINE.apply(state, 1, {"type": "pass"})
    assert err.value.code == "not_your_turn"


def test_every_player_gets_one_chance_and_the_best_leads_next() -> None:
    state = trick_state(3, [cards(("blue", 2), FILLER), cards(("blue", 4), FILLER),
                            cards(("blue", 3), FILLER)], leader=1)
    state, _ = play(state, 1, "blue", 4, 1)
    state, _ = ENGINE.apply(state, 2, {"type": "pass", "cards": []})
    state, events = ENGINE.apply(state, 0, {"type": "pass"})
    assert events[-1].data == {"seat": 1} and state.leader == 1
    assert ENGINE.to_act(state) == {1}


def test_passing_exchange_is_limited_by_the_deck() -> None:
    hands = [cards(("blue", 5), FILLER), cards(("pink", 1), ("pink", 2), ("pink", 3)),
             cards(FILLER)]
    state = trick_state(3, hands, deck=[idx("green", 1)])
    state, _ = play(state, 0, "blue", 5, 1)
    legal = ENGINE.legal_actions(state, 1)
    assert [a for a in legal if a["type"] == "pass"] == [
        {"type": "pass", "cards": []}, *({"type": "pass", "cards": [i]}
                                         for i in sorted(ids_of(hands[1])))]
    with pytest.raises(IllegalAction) as err:
        ENGINE.apply(state, 1, {"type": "pass", "cards": ids_of(hands[1])[:2]})
    assert err.value.code == "deck_empty"
    state, _ = ENGINE.apply(state, 1, {"type": "pass", "cards": ids_of(hands[1])[:1]})
    assert state.deck == [] and ENGINE.legal_actions(state, 2)[0] == {"type": "pass",
                                                                      "cards": []}
    assert [a for a in ENGINE.legal_actions(state, 2) if a["type"] == "pass"] == [
        {"type": "pass", "cards": []}]


# ----------------------------------------------------------------------------- Ollin


def test_single_ollin_card_makes_everyone_else_draw_in_turn_order() -> None:
    hands = [cards(FILLER), cards(("green", 3, True), FILLER), cards(FILLER), cards(FILLER)]
    state = trick_state(4, hands, leader=1, deck=[idx("pink", 1), idx("pink", 2)])
    state, events = play(state, 1, "green", 3, 1)
    assert state.phase == "ollin" and ENGINE.to_act(state) == {1}
    assert ENGINE.legal_actions(state, 1) == [{"type": "ollin", "effect": "none"},
                                              {"type": "ollin", "effect": "draw"}]
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, 1, {"type": "ollin", "effect": "discard", "card": hands[1][1][0]})
    assert ENGINE.legal_actions(state, 2) == []
    state, events = ENGINE.apply(state, 1, {"type": "ollin", "effect": "draw"})
    # seats 2 and 3 draw (top of the deck first); the deck runs out before seat 0
    assert [len(h) for h in state.hands] == [1, 1, 2, 2]
    assert CARDS[state.hands[2][-1][1]] == CARDS[idx("pink", 2)]
    drew = [e for e in events if e.type == "drew"]
    assert [e.data["seat"] for e in drew] == [2, 3]
    assert drew[0].for_seat(3) == {"type": "drew", "seat": 2, "deck": 1}
    assert state.phase == "trick" and ENGINE.to_act(state) == {2}


def test_ollin_effect_is_optional() -> None:
    hands = [cards(("green", 3, True), FILLER), cards(FILLER), cards(FILLER)]
    state = trick_state(3, hands)
    state, _ = play(state, 0, "green", 3, 1)
    state, events = ENGINE.apply(state, 0, {"type": "ollin", "effect": "none"})
    assert [len(h) for h in state.hands] == [1, 1, 1] and ENGINE.to_act(state) == {1}
    assert events[0].data == {"seat": 0, "effect": "none"}


def test_single_ollin_card_with_an_empty_deck_does_nothing() -> None:
    hands = [cards(("green", 3, True), FILLER), cards(FILLER), cards(FILLER)]
    state = trick_state(3, hands, deck=[])
    state, _ = play(state, 0, "green", 3, 1)
    assert state.phase == "trick" and ENGINE.to_act(state) == {1}


def test_single_card_without_ollin_does_nothing() -> None:
    state = trick_state(3, [cards(("green", 3), FILLER), cards(FILLER), cards(FILLER)])
    state, _ = play(state, 0, "green", 3, 1)
    assert state.phase == "trick"


def test_two_cards_with_ollin_choose_draw_or_discard() -> None:
    hands = [cards(("pink", 2, True), ("wild", 2), ("blue", 5), ("green", 1)),
             cards(FILLER), cards(FILLER)]
    state = trick_state(3, hands)
    state, _ = play(state, 0, "pink", 2, 2, wilds=1, ollin=1)
    legal = ENGINE.legal_actions(state, 0)
    assert {"type": "ollin", "effect": "draw"} in legal
    assert {a.get("card") for a in legal if a["effect"] == "discard"} == set(
        ids_of(hands[0][2:]))
    state, events = ENGINE.apply(state, 0, {"type": "ollin", "effect": "discard",
                                            "card": hands[0][2][0]})
    assert ids_of(state.hands[0]) == ids_of(hands[0][3:])
    assert events[0].for_seat(1) == {"type": "ollin", "seat": 0, "effect": "discard",
                                     "left": 1}
    assert ENGINE.view(state, 1)["face_down"] == 1 and ENGINE.to_act(state) == {1}


def test_two_cards_with_an_empty_deck_only_discard() -> None:
    hands = [cards(("pink", 2, True), ("pink", 2), ("blue", 5), ("green", 1)),
             cards(FILLER), cards(FILLER)]
    state = trick_state(3, hands, deck=[])
    state, _ = play(state, 0, "pink", 2, 2, ollin=1)
    assert [a["effect"] for a in ENGINE.legal_actions(state, 0)] == ["none", "discard",
                                                                     "discard"]
    with pytest.raises(IllegalAction) as err:
        ENGINE.apply(state, 0, {"type": "ollin", "effect": "draw"})
    assert err.value.code == "deck_empty"


def test_two_cards_without_ollin_and_three_with_ollin_do_nothing() -> None:
    hands = [cards(("pink", 2), ("pink", 2), FILLER), cards(FILLER),
             cards(("orange", 4, True), ("orange", 4), ("wild", 4), FILLER)]
    state = trick_state(3, hands)
    state, _ = play(state, 0, "pink", 2, 2)
    assert state.phase == "trick"
    state, _ = ENGINE.apply(state, 1, {"type": "pass"})
    assert ("orange", 4, 2, 0, 1) in plays(state, 2)
    state = trick_state(3, hands, leader=2)
    state, _ = play(state, 2, "orange", 4, 3, wilds=1, ollin=1)
    assert state.phase == "trick" and ENGINE.to_act(state) == {0}


def test_rulebook_neus_discards_her_last_card_through_ollin_and_ends_the_round() -> None:
    neus = cards(("green", 3, True), ("green", 3), ("pink", 4))
    hands = [cards(("pink", 2), ("orange", 2), ("orange", 5)),
             cards(("blue", 2), ("blue", 5), ("blue", 5)),
             cards(("green", 3), ("wild", 3)), neus]
    state = trick_state(4, hands, leader=3)
    state, _ = play(state, 3, "green", 3, 2, ollin=1)
    state, events = ENGINE.apply(state, 3, {"type": "ollin", "effect": "discard",
                                            "card": neus[2][0]})
    scored = next(e for e in events if e.type == "round_scored").data
    assert scored["out"] == 3 and scored["points"] == [-7, -5, -6, 0]
    assert state.round == 2 and state.phase == "exchange"


def test_going_out_with_an_ollin_card_triggers_nothing() -> None:
    hands = [cards(("blue", 1)), cards(("orange", 5, True)), cards(("green", 2))]
    state = trick_state(3, hands, leader=1)
    state, events = play(state, 1, "orange", 5, 1)
    assert [e.type for e in events] == ["played", "round_scored", "round_started"]
    assert events[1].data["points"] == [-1, 0, -2]
    assert state.totals == [-1, 0, -2]


# ----------------------------------------------------------------------------- scoring


def test_rulebook_round_end_and_scoring_examples() -> None:
    # Ana plays her last card; Adrián -7, Cris -5, Neus -6
    hands = [cards(("pink", 1)),
             cards(("pink", 2), ("orange", 2), ("orange", 5)),
             cards(("blue", 2), ("blue", 5), ("blue", 5)),
             cards(("green", 3), ("wild", 3))]
    state = trick_state(4, hands)
    state, events = play(state, 0, "pink", 1, 1)
    scored = events[1].data
    assert scored["points"] == [0, -7, -5, -6]
    assert scored["players"][1]["suits"] == {"pink": 2, "orange": 5}
    assert scored["players"][3]["suits"] == {"green": 3, "wild": 3}
    assert state.totals == [0, -7, -5, -6]
    # the worst total (Adrián) starts round 2 with a fresh deal
    assert state.round == 2 and state.starter == 1 and ENGINE.to_act(state) == {1}
    assert [len(h) for h in state.hands] == [10] * 4 and len(state.deck) == 40
    assert state.played == [] and state.face_down == []
    view = ENGINE.view(state, 2)
    assert view["rounds"][0]["players"][1]["hand"][0] == {"suit": "pink", "number": 2,
                                                          "ollin": False}


def test_round_starter_tie_goes_to_the_nearest_clockwise_from_the_token() -> None:
    hands = [cards(("blue", 3)), cards(("blue", 1)), cards(("blue", 3)), cards(("blue", 2))]
    # seat 3 holds the token (leads the trick) and goes out; seats 0 and 2 tie on -3
    state = trick_state(4, hands, leader=3)
    state.hands[3] = cards(("pink", 5))
    state, _ = play(state, 3, "pink", 5, 1)
    assert state.totals == [-3, -1, -3, 0] and state.starter == 0
    state = trick_state(4, hands, leader=1)
    state.hands[1] = cards(("pink", 5))
    state, _ = play(state, 1, "pink", 5, 1)
    assert state.totals == [-3, 0, -3, -2] and state.starter == 2
    # the token holder itself, when tied, is nearest
    state = trick_state(4, hands, leader=2)
    state.totals = [-4, 0, -1, 0]
    state.hands[3] = cards(("pink", 5), FILLER)
    state.hands[2] = cards(("blue", 3), ("green", 2))
    state.hands[0] = cards(("pink", 1))
    state, _ = play(state, 2, "green", 2, 1)
    state, _ = ENGINE.apply(state, 3, {"type": "pass"})
    state, _ = play(state, 0, "pink", 1, 1)  # seat 0 goes out; seat 2 (token) ties
    assert state.totals == [-4, -1, -4, -6] and state.starter == 3


def test_three_rounds_and_tie_breaks() -> None:
    state = trick_state(3, [cards(("blue", 1)), cards(("blue", 2), ("green", 5)),
                            cards(("blue", 3))])
    state.round = 3
    state.totals = [-5, 0, -3]
    state.rounds = [
        {"round": 1, "starter": 0, "out": 1, "hands": [[], [], []], "points": [-5, 0, -1],
         "totals": [-5, 0, -1]},
        {"round": 2, "starter": 0, "out": 2, "hands": [[], [], []], "points": [0, -2, -2],
         "totals": [-5, -2, -3]},
    ]
    state.rounds[1]["points"] = [0, -2, -2]
    state, events = play(state, 0, "blue", 1, 1)
    assert state.phase == "over" and ENGINE.to_act(state) == set()
    outcome = ENGINE.outcome(state)
    assert outcome is not None
    # totals -5, -7, -6: seat 0 wins
    assert outcome.scores == (-5, -7, -6) and outcome.winners == (0,)
    assert events[-1].type == "game_over"
    assert outcome.details["rounds_won"] == [2, 1, 0]


def test_equal_totals_are_split_by_rounds_won_then_shared() -> None:
    from app.games.alebrijes.scoring import final_ranking

    assert final_ranking([-6, -6, -9], [1, 2, 0]) == ((1,), (0,), (2,))
    assert final_ranking([-6, -6, -9], [1, 1, 0]) == ((0, 1), (2,))


# ----------------------------------------------------------------------------- views


def test_views_show_only_your_own_hand() -> None:
    state = ENGINE.setup(4, {}, seed=11)
    for seat in range(4):
        view = ENGINE.view(state, seat)
        assert sorted(c["id"] for c in view["hand"]) == sorted(ids_of(state.hands[seat]))
        text = json.dumps({k: v for k, v in view.items() if k != "hand"})
        for other in range(4):
            if other != seat:
                assert all(f'"id": {i}' not in text for i in ids_of(state.hands[other]))
        assert view["deck"] == len(state.deck) and "deck_order" not in text
        assert [p["cards"] for p in view["players"]] == [10] * 4
    spectator = ENGINE.view(state, None)
    assert spectator["hand"] == [] and spectator["legal"] == []


def test_hand_is_sorted_by_suit_and_value() -> None:
    state = trick_state(3, [cards(("wild", 1), ("orange", 2), ("blue", 5), ("blue", 1, True),
                                  ("blue", 1)), cards(FILLER), cards(FILLER)])
    hand = ENGINE.view(state, 0)["hand"]
    assert [(c["suit"], c["number"], c["ollin"]) for c in hand] == [
        ("blue", 1, False), ("blue", 1, True), ("blue", 5, False), ("orange", 2, False),
        ("wild", 1, False)]


def test_timeout_actions() -> None:
    state = ENGINE.setup(3, {"first_seat": 0}, seed=2)
    assert ENGINE.timeout_action(state, 0) == {"type": "exchange", "cards": []}
    state = trick_state(3, [cards(("green", 3, True), FILLER), cards(FILLER), cards(FILLER)])
    lead = ENGINE.timeout_action(state, 0)
    assert lead in ENGINE.legal_actions(state, 0)
    state, _ = play(state, 0, "green", 3, 1)
    assert ENGINE.timeout_action(state, 0) == {"type": "ollin", "effect": "none"}
    state, _ = ENGINE.apply(state, 0, ENGINE.timeout_action(state, 0))
    assert ENGINE.timeout_action(state, 1) == {"type": "pass", "cards": []}


def test_an_ollin_choice_by_the_last_player_ends_the_trick_after_it() -> None:
    hands = [cards(("blue", 1), ("blue", 1), FILLER), cards(FILLER, FILLER),
             cards(("blue", 4, True), ("blue", 4), ("green", 2))]
    state = trick_state(3, hands)
    state, _ = play(state, 0, "blue", 1, 2)
    state, _ = ENGINE.apply(state, 1, {"type": "pass"})
    state, events = play(state, 2, "blue", 4, 2, ollin=1)
    assert state.phase == "ollin" and [e.type for e in events] == ["played"]
    state, events = ENGINE.apply(state, 2, {"type": "ollin", "effect": "draw"})
    assert [e.type for e in events] == ["ollin", "drew", "drew", "trick_won"]
    assert state.leader == 2 and ENGINE.to_act(state) == {2}
    assert [len(h) for h in state.hands] == [2, 3, 1]  # seat 0 drew first, then seat 1


def test_the_view_says_what_beats_the_combination_on_the_table() -> None:
    """The prompt tells a newcomer what beats the table (RULES.md §3: the same count of the
    suit above its number, or of the next suit; orange: one more blue card), from the view:
    the client holds no rules. Every combination the view describes is exactly what
    ``beats`` accepts."""
    from app.games.alebrijes.combos import Combo, beats
    from app.games.alebrijes.rules import _beat_with

    assert _beat_with(None) is None
    assert _beat_with(Combo("pink", 4, 2, 0, 0)) == {
        "higher": {"suit": "pink", "count": 2, "above": 4},
        "next": {"suit": "orange", "count": 2}}
    assert _beat_with(Combo("orange", 5, 2, 1, 0)) == {
        "higher": None, "next": {"suit": "blue", "count": 3}}
    for suit in ("blue", "green", "pink", "orange"):
        for number in range(1, 6):
            for count in (1, 2, 3):
                best = Combo(suit, number, count, 0, 0)
                said = _beat_with(best)
                for new_suit in ("blue", "green", "pink", "orange"):
                    for new_number in range(1, 6):
                        for new_count in (1, 2, 3, 4):
                            new = Combo(new_suit, new_number, new_count, 0, 0)
                            higher = said["higher"]
                            told = (higher is not None and new_suit == higher["suit"]
                                    and new_count == higher["count"]
                                    and new_number > higher["above"]) or (
                                new_suit == said["next"]["suit"]
                                and new_count == said["next"]["count"])
                            assert told == beats(new, best), (best, new)
