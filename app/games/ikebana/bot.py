"""A greedy Ikebana player for bot seats, working from a seat's view only.

It reads nothing but ``view(state, seat)`` (bouquets, pile tops, the drawn card, prestige,
the rejection price and the legal actions), so it cannot use hidden cards, and a REST bot
could run the same code. The engine's ``timeout_action`` does not use it: a timed-out seat
draws and keeps, which never spends its prestige.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from app.games.base import JSON, Action
from app.games.ikebana.data import BOUQUET_SIZE, WILD, Card
from app.games.ikebana.scoring import score_bouquet

KEEP_GAIN = 1.0  # keep a drawn card that adds at least this much worth
BUY_MARGIN = 2.0  # buy when worth gained minus price is at least this
PRESTIGE_RESERVE = 4  # do not reject below this much prestige
MAX_REJECT_PRICE = 1  # never pay more than this to reject


def worth(cards: Sequence[Card]) -> float:
    """Rough value of a (partial) bouquet: its combinations, and how its colours could end."""
    if len(cards) == BOUQUET_SIZE:
        return float(score_bouquet(cards).total)
    base = score_bouquet(cards).base
    numbers = [n for _, n in cards]
    # unmatched cards may still pair up or extend a straight later
    hope = sum(0.6 * n for n in set(numbers) if numbers.count(n) == 1)
    colours = {c for c, _ in cards if c != WILD}
    plain = [c for c, _ in cards if c != WILD]
    if len(colours) <= 1:
        factor = 2.2
    elif len(colours) == 2:
        factor = 1.6
    elif len(plain) == len(colours):  # still one of each colour
        factor = 1.5
    else:
        factor = 1.0
    return (base + hope) * factor


def _card(data: Any) -> Card:
    return (str(data["colour"]), int(data["number"]))


def choose_action(view: JSON) -> Action:
    """The bot's action for the seat whose view this is (it must have a legal action)."""
    legal: list[Action] = view["legal"]
    if not legal:
        raise ValueError("this seat has nothing to do")
    me = view["you"]
    bouquet = [_card(c) for c in view["players"][me]["bouquet"]]
    prestige = view["players"][me]["prestige"]
    now = worth(bouquet)
    if view["hand"] is not None:
        gain = worth([*bouquet, _card(view["hand"])]) - now
        price = view["reject_price"]["amount"]
        if ({"type": "reject"} in legal and gain < KEEP_GAIN
                and prestige - price >= PRESTIGE_RESERVE and price <= MAX_REJECT_PRICE):
            return {"type": "reject"}
        return {"type": "keep"}
    best: tuple[float, Action] | None = None
    for action in legal:
        if action["type"] != "buy":
            continue
        top = view["players"][action["from"]]["pile"]["top"]
        card = _card(top)
        margin = worth([*bouquet, card]) - now - card[1]
        if margin >= BUY_MARGIN and (best is None or margin > best[0]):
            best = (margin, action)
    if best is not None:
        return best[1]
    return legal[0]
