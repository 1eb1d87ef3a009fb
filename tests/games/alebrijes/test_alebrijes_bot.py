"""Alebrijes' bot in hand-made positions: it goes out when it can, beats with whole groups,
uses Ollin effects to its advantage and swaps lone weak cards."""

from __future__ import annotations

from app.games.alebrijes import ENGINE, AlebrijesState
from app.games.alebrijes.bot import BOT, groups
from app.games.base import Rng
from tests.games.alebrijes.helpers import cards, play, trick_state


def choose(state: AlebrijesState) -> dict:
    seat = state.current
    legal = ENGINE.legal_actions(state, seat)
    action = BOT.choose(ENGINE.view(state, seat), legal, [], Rng.from_seed(5))
    assert action in legal
    return action


def other_hands() -> list[list[list[int]]]:
    return [cards(("blue", 1), ("green", 2), ("orange", 4)) for _ in range(2)]


def test_the_leader_goes_out_with_its_last_group_wild_included() -> None:
    mine = cards(("pink", 4), ("pink", 4), ("wild", 4))
    state = trick_state(3, [mine, *other_hands()])
    action = choose(state)
    assert (action["suit"], action["number"], action["count"], action["wilds"]) == (
        "pink", 4, 3, 1)
    new, _ = ENGINE.apply(state, 0, action)
    assert ENGINE.outcome(new) is not None or new.round == 2  # the round ended


def test_with_two_groups_left_it_leads_the_stronger_first() -> None:
    mine = cards(("blue", 2), ("blue", 2), ("green", 1))
    action = choose(trick_state(3, [mine, *other_hands()]))
    assert (action["suit"], action["count"]) == ("blue", 2)


def test_it_leads_its_biggest_group_and_keeps_lone_wilds() -> None:
    mine = cards(("green", 3), ("green", 3), ("green", 3), ("pink", 1), ("wild", 5),
                 ("orange", 2))
    action = choose(trick_state(3, [mine, *other_hands()]))
    assert (action["suit"], action["number"], action["count"], action["wilds"]) == (
        "green", 3, 3, 0)


def test_a_follower_goes_out_by_beating() -> None:
    state = trick_state(3, [cards(("pink", 3), ("blue", 1)), cards(("pink", 5)),
                            cards(("green", 2), ("green", 2))])
    state, _ = play(state, 0, "pink", 3, 1)
    action = choose(state)
    assert (action["suit"], action["number"], action["count"]) == ("pink", 5, 1)


def test_it_beats_with_a_whole_group_rather_than_split_a_pair() -> None:
    state = trick_state(3, [cards(("green", 2), ("blue", 1)),
                            cards(("green", 4), ("pink", 1), ("pink", 1), ("blue", 3)),
                            cards(("green", 2), ("green", 2))])
    state, _ = play(state, 0, "green", 2, 1)
    action = choose(state)
    assert (action["suit"], action["number"]) == ("green", 4)


def test_it_passes_when_it_cannot_beat_and_swaps_a_lone_weak_card() -> None:
    state = trick_state(3, [cards(("orange", 5), ("blue", 1)),
                            cards(("green", 4), ("green", 4), ("blue", 1), ("wild", 2)),
                            cards(("green", 2), ("green", 2))])
    state, _ = play(state, 0, "orange", 5, 1)
    action = choose(state)
    blue = [c[0] for c in state.hands[1] if c[1] == cards(("blue", 1))[0][1]]
    assert action == {"type": "pass", "cards": blue}


def test_a_pair_with_ollin_discards_a_lone_card() -> None:
    mine = cards(("pink", 3, True), ("pink", 3), ("blue", 1), ("green", 5), ("green", 5))
    state = trick_state(3, [mine, *other_hands()])
    state, _ = play(state, 0, "pink", 3, 2, ollin=1)
    assert state.phase == "ollin"
    action = choose(state)
    assert action == {"type": "ollin", "effect": "discard", "card": mine[2][0]}


def test_a_lone_ollin_card_makes_the_others_draw() -> None:
    mine = cards(("orange", 5, True), ("green", 5), ("green", 5))
    state = trick_state(3, [mine, *other_hands()])
    state, _ = play(state, 0, "orange", 5, 1, ollin=1)
    assert choose(state) == {"type": "ollin", "effect": "draw"}


def test_it_plays_the_ollin_copy_of_a_single() -> None:
    mine = cards(("orange", 5, True), ("orange", 5), ("green", 1), ("green", 1))
    state = trick_state(3, [cards(("orange", 3), ("blue", 1)), mine,
                            cards(("green", 2), ("green", 2))])
    state, _ = play(state, 0, "orange", 3, 1)
    action = choose(state)
    assert (action["suit"], action["number"], action["count"], action["ollin"]) == (
        "orange", 5, 1, 1)


def test_the_exchange_swaps_lone_weak_cards_never_wilds_or_groups() -> None:
    state = ENGINE.setup(3, {"first_seat": 0}, seed=4)
    mine = cards(("blue", 1), ("green", 2), ("pink", 4), ("pink", 4), ("wild", 3),
                 ("orange", 5), ("blue", 5))
    state.hands[0] = mine
    action = choose(state)
    assert action == {"type": "exchange", "cards": sorted([mine[0][0], mine[6][0]])}


def test_groups_counts_the_plays_a_hand_needs() -> None:
    hand = [(1, "pink", 4, False), (2, "pink", 4, True), (3, "wild", 4, False),
            (4, "wild", 2, False), (5, "blue", 1, False)]
    assert groups(hand) == 3  # pink 4s with the wild 4, the lone wild 2, the blue 1
