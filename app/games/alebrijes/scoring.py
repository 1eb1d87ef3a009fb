"""Alebrijes scoring (RULES.md §3): negative points at the end of a round, the next round's
start player, and the final ranking.

A player left with cards scores, for each suit, the value of their single highest card in
that suit (duplicates of the highest value count once); wild cards are a fifth suit. The
player who went out scores 0. Points are kept as negative numbers, so higher is better.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from app.games.alebrijes.data import SUITS, WILD, Card
from app.games.base import rank_by

SCORING_SUITS = (*SUITS, WILD)


def suit_penalties(cards: Iterable[Card]) -> dict[str, int]:
    """The highest value held in each suit (wilds as their own suit); absent suits omitted."""
    best: dict[str, int] = {}
    for card in cards:
        best[card.suit] = max(best.get(card.suit, 0), card.number)
    return {suit: best[suit] for suit in SCORING_SUITS if suit in best}


def hand_points(cards: Iterable[Card]) -> int:
    """The (negative) points a hand left at the end of a round is worth."""
    return -sum(suit_penalties(cards).values())


def next_starter(totals: Sequence[int], token: int) -> int:
    """The worst total starts the next round; ties go to the tied player nearest the token
    going clockwise, the token holder itself first."""
    worst = min(totals)
    seats = len(totals)
    return next(s for s in ((token + d) % seats for d in range(seats)) if totals[s] == worst)


def final_ranking(totals: Sequence[int],
                  rounds_won: Sequence[int]) -> tuple[tuple[int, ...], ...]:
    """Fewest negative points first; ties by most rounds won; still tied: shared place."""
    return rank_by(totals, higher_is_better=True, tiebreak=rounds_won)
