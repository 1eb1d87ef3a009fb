"""Ikebana's bot in hand-made positions: it buys a bargain, never overpays, rejects a card
only when a fresh draw is worth the price, and keeps what completes its bouquet."""

from __future__ import annotations

from app.games.base import Rng
from app.games.ikebana import ENGINE
from app.games.ikebana.bot import BOT, worth
from app.games.ikebana.data import CARDS
from app.games.ikebana.rules import IkebanaState


def card(colour: str, number: int) -> int:
    return CARDS.index((colour, number))


def position(bouquets: list[list[tuple[str, int]]], piles: list[list[tuple[str, int]]],
             prestige: list[int], hand: tuple[str, int] | None = None,
             rejections: int = 0) -> IkebanaState:
    """Seat 0 to act with these bouquets, piles (top last) and prestige."""
    seats = len(bouquets)
    used = [card(*c) for b in bouquets for c in b] + [card(*c) for p in piles for c in p]
    deck = [c for c in range(len(CARDS)) if c not in used][:20]
    return IkebanaState(
        seats=seats, options=ENGINE.check_setup(seats, {}), rng=1, round=1, starter=0,
        current=0, deck=deck, piles=[[card(*c) for c in p] for p in piles],
        bouquets=[[card(*c) for c in b] for b in bouquets], prestige=prestige,
        hand=None if hand is None else card(*hand), rejections=rejections)


def choose(state: IkebanaState) -> dict:
    action = BOT.choose(ENGINE.view(state, 0), ENGINE.legal_actions(state, 0), [],
                        Rng.from_seed(1))
    assert action in ENGINE.legal_actions(state, 0)
    return action


def test_it_buys_the_card_that_makes_five_of_a_kind_in_five_colours() -> None:
    state = position([[("red", 3), ("blue", 3), ("green", 3), ("black", 3)], []],
                     [[], [("yellow", 3)]], [6, 6])
    assert choose(state) == {"type": "buy", "from": 1}


def test_it_does_not_overpay_for_a_card_that_adds_little() -> None:
    state = position([[("red", 1), ("blue", 2)], []], [[], [("yellow", 5)]], [6, 6])
    assert choose(state) == {"type": "draw"}


def test_it_does_not_buy_what_it_cannot_profit_from_even_when_rich() -> None:
    state = position([[("red", 1), ("red", 2), ("red", 3), ("red", 4)], []],
                     [[], [("blue", 1)]], [30, 6])
    assert choose(state) == {"type": "draw"}


def test_it_rejects_a_card_that_spoils_a_unicolor_bouquet_while_it_is_cheap() -> None:
    state = position([[("red", 5), ("red", 5), ("red", 4), ("red", 4)], []],
                     [[], []], [6, 6], hand=("blue", 1))
    assert choose(state) == {"type": "reject"}


def test_it_keeps_a_card_it_cannot_afford_to_reject() -> None:
    state = position([[("red", 5), ("red", 5), ("red", 4), ("red", 4)], []],
                     [[], []], [0, 6], hand=("blue", 1))
    assert choose(state) == {"type": "keep"}


def test_it_keeps_the_card_that_completes_the_bouquet() -> None:
    state = position([[("red", 5), ("red", 5), ("red", 4), ("red", 4)], []],
                     [[], []], [6, 6], hand=("red", 3))
    assert choose(state) == {"type": "keep"}


def test_worth_prefers_matching_cards() -> None:
    assert worth([("red", 3), ("red", 3)]) > worth([("red", 3), ("blue", 1)])
    assert worth([("red", 3), ("red", 3), ("red", 3), ("red", 1), ("red", 1)]) == 44.0
