"""Scoring an Allegra round (RULES.md §5, "Scoring").

Each player adds the values of the cards left in their display of 15 (a shared column counts
for both neighbours); clearing the whole display earns a -10 bonus. The player who ended the
round must then have the strictly lowest score of the round, otherwise their positive score
is doubled and a negative one halved (**Ruling**: rounded toward zero; zero stays zero).

Order (a choice made here, shown on the rules page): the -10 bonus is part of a player's
score before the comparison, so a player who cleared everything compares with -10.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from app.games.allegra.data import CLEAR_BONUS


def halve_toward_zero(score: int) -> int:
    return -((-score) // 2) if score < 0 else score // 2


def score_round(displays: Sequence[Sequence[int | None]], trigger: int | None) -> dict[str, Any]:
    """``displays[seat]`` = the values of that display's 15 positions (``None`` = cleared).

    Returns per seat: ``cards`` (sum of the values), ``bonus`` (0 or -10), ``base`` (their
    sum), ``penalty`` ("doubled", "halved" or None, for the trigger only) and ``points``.
    """
    cards = [sum(v for v in d if v is not None) for d in displays]
    bonus = [CLEAR_BONUS if all(v is None for v in d) else 0 for d in displays]
    base = [c + b for c, b in zip(cards, bonus, strict=True)]
    points = list(base)
    penalty: list[str | None] = [None] * len(displays)
    if trigger is not None:
        mine = base[trigger]
        lowest = all(mine < other for s, other in enumerate(base) if s != trigger)
        if not lowest:
            if mine > 0:
                points[trigger], penalty[trigger] = mine * 2, "doubled"
            elif mine < 0:
                points[trigger], penalty[trigger] = halve_toward_zero(mine), "halved"
    return {"cards": cards, "bonus": bonus, "base": base, "penalty": penalty,
            "points": points}
