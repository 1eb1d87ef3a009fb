"""Combinations of Alebrijes cards (RULES.md §3): which ones a hand can make, which beat
which, and which physical cards a play uses.

A combination is described by :class:`Combo`: ``count`` cards of number ``number`` in suit
``suit``, of which ``wilds`` are wild cards of that number and ``ollin`` is how many of the
suited cards carry the Ollin symbol (wild cards carry none). A combination of wild cards
only declares ``suit``. Equal cards are interchangeable, so this is all a player chooses.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from app.games.alebrijes.data import CARDS, NUMBERS, SUITS, WILD, next_suit

BLUE, ORANGE = SUITS[0], SUITS[-1]

HandCard = list[int]  # [id, card index]


@dataclass(frozen=True)
class Combo:
    suit: str
    number: int
    count: int
    wilds: int
    ollin: int

    def to_action(self) -> dict[str, Any]:
        return {"type": "play", "suit": self.suit, "number": self.number, "count": self.count,
                "wilds": self.wilds, "ollin": self.ollin}

    def to_json(self) -> dict[str, Any]:
        return {"suit": self.suit, "number": self.number, "count": self.count,
                "wilds": self.wilds, "ollin": self.ollin}


def beats(new: Combo, old: Combo) -> bool:
    """Whether ``new`` beats ``old``: same size and suit with a greater number, or same size
    of the next suit in the chain; orange is beaten only by a greater orange or by one more
    blue card (any number)."""
    if old.suit == ORANGE and new.suit == BLUE:
        return new.count == old.count + 1
    if new.count != old.count:
        return False
    if new.suit == old.suit:
        return new.number > old.number
    return old.suit != ORANGE and new.suit == next_suit(old.suit)


def _tally(hand: Sequence[HandCard], suit: str, number: int) -> tuple[int, int, int]:
    """(suited cards, Ollin suited cards, wild cards) of that suit and number in ``hand``."""
    suited = ollin = wild = 0
    for _id, card in hand:
        c = CARDS[card]
        if c.number != number:
            continue
        if c.suit == suit:
            suited += 1
            ollin += c.ollin
        elif c.suit == WILD:
            wild += 1
    return suited, ollin, wild


def combos_in(hand: Sequence[HandCard]) -> list[Combo]:
    """Every distinct combination ``hand`` can play, in suit, number, size order."""
    out = []
    for suit in SUITS:
        for number in NUMBERS:
            suited, ollin, wild = _tally(hand, suit, number)
            plain = suited - ollin
            for count in range(1, suited + wild + 1):
                for wilds in range(max(0, count - suited), min(wild, count) + 1):
                    used = count - wilds
                    for k in range(max(0, used - plain), min(ollin, used) + 1):
                        out.append(Combo(suit, number, count, wilds, k))
    return out


def pick(hand: Sequence[HandCard], combo: Combo) -> list[HandCard] | None:
    """The hand cards (lowest ids first) that make ``combo``, or None if the hand cannot."""
    if combo.suit not in SUITS or combo.number not in NUMBERS or combo.count < 1:
        return None
    if not 0 <= combo.wilds <= combo.count or not 0 <= combo.ollin <= combo.count - combo.wilds:
        return None
    ordered = sorted(hand, key=lambda hc: hc[0])
    same = [hc for hc in ordered if CARDS[hc[1]].number == combo.number]
    with_ollin = [hc for hc in same if CARDS[hc[1]].suit == combo.suit and CARDS[hc[1]].ollin]
    plain = [hc for hc in same if CARDS[hc[1]].suit == combo.suit and not CARDS[hc[1]].ollin]
    wild = [hc for hc in same if CARDS[hc[1]].suit == WILD]
    need_plain = combo.count - combo.wilds - combo.ollin
    if len(with_ollin) < combo.ollin or len(plain) < need_plain or len(wild) < combo.wilds:
        return None
    return with_ollin[:combo.ollin] + plain[:need_plain] + wild[:combo.wilds]
