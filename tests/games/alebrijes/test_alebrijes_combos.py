"""The play format is complete and small: for random hands, every set of cards that makes a
legal combination is one listed play (and nothing else is listed), whether leading or
answering; and the assumed deck matches RULES.md."""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations

import pytest

from app.games.alebrijes import ENGINE
from app.games.alebrijes.combos import Combo, beats, combos_in, pick
from app.games.alebrijes.data import CARDS, SUITS, WILD


def test_assumed_deck() -> None:
    assert len(CARDS) == 80
    suited = [c for c in CARDS if c.suit != WILD]
    assert Counter((c.suit, c.number) for c in suited) == {
        (s, n): 3 for s in SUITS for n in range(1, 6)}
    assert Counter(c.number for c in CARDS if c.suit == WILD) == {n: 4 for n in range(1, 6)}
    assert Counter((c.suit, c.number) for c in suited if c.ollin) == {
        (s, n): 1 for s in SUITS for n in range(1, 6)}
    assert not any(c.ollin for c in CARDS if c.suit == WILD)


def combos_by_brute_force(hand: list[list[int]]) -> set[Combo]:
    """Every combination any subset of ``hand`` makes, found by trying all subsets."""
    found = set()
    for k in range(1, len(hand) + 1):
        for subset in combinations(hand, k):
            faces = [CARDS[c] for _i, c in subset]
            if len({f.number for f in faces}) != 1:
                continue
            suits = {f.suit for f in faces if f.suit != WILD}
            if len(suits) > 1:
                continue
            wilds = sum(f.suit == WILD for f in faces)
            ollin = sum(f.ollin for f in faces)
            for suit in suits or set(SUITS):
                found.add(Combo(suit, faces[0].number, k, wilds, ollin))
    return found


@pytest.mark.parametrize("seed", range(40))
def test_listed_plays_are_exactly_the_possible_ones(seed: int) -> None:
    rng = random.Random(seed)
    size = rng.choice([6, 8, 10, 13])
    # biased towards few numbers so that big combinations with wilds occur
    pool = [i for i, c in enumerate(CARDS) if c.number in rng.sample(range(1, 6), 2)]
    hand = [[100 + n, card] for n, card in enumerate(rng.sample(pool, min(size, len(pool))))]
    listed = combos_in(hand)
    assert len(listed) == len(set(listed))
    assert set(listed) == combos_by_brute_force(hand)
    assert len(listed) < 400
    for combo in listed:
        cards = pick(hand, combo)
        assert cards is not None and len(cards) == combo.count
        faces = [CARDS[c] for _i, c in cards]
        assert sum(f.suit == WILD for f in faces) == combo.wilds
        assert sum(f.ollin for f in faces) == combo.ollin
    # answering a combination lists exactly the ones that beat it
    state = ENGINE.setup(3, {"first_seat": 0}, seed=seed)
    state.phase = "trick"
    state.current = 1
    state.hands[1] = hand
    old = rng.choice(listed)
    state.trick = [{"seat": 0, "move": "lead", "combo": old.to_json(), "cards": []}]
    state.best = 0
    plays = [a for a in ENGINE.legal_actions(state, 1) if a["type"] == "play"]
    assert plays == [c.to_action() for c in listed if beats(c, old)]
