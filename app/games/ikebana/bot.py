"""Ikebana's bot: greedy on the worth of a bouquet, pricing draws against buys.

It reads nothing but the seat's view (bouquets, pile tops, the drawn card, prestige, the
rejection price) and the legal actions, so it cannot use a hidden card. The engine's
``timeout_action`` does not use it: a timed-out seat draws and keeps, which never spends
its prestige.

- :func:`worth` rates a bouquet, full (its exact score) or partial (its combinations so far,
  the hope that lone numbers pair up, and how its colours could still end).
- A draw is rated by the mean worth gained over the cards the seat has not seen (the deck
  and the cards under pile tops are hidden from everyone).
- Prestige paid to another player counts twice over against the bot at two players (one
  less for it, one more for the only rival) and a little less with more rivals: a payment
  of p costs ``p * (1 + 1 / rivals)``.
- Buy: the best top card whose worth gained, less its price so counted, beats a free draw by
  :data:`BUY_MARGIN`; never a card it cannot profit from.
- Keep or reject: reject when a fresh draw is expected to be worth more than the card in
  hand by more than the rejection costs, keeping :data:`PRESTIGE_RESERVE`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from app.games.base import JSON, Action, Rng
from app.games.ikebana.data import BOUQUET_SIZE, CARDS, ROUNDS, WILD, Card
from app.games.ikebana.scoring import score_bouquet

BUY_MARGIN = 1.0  # a buy must beat the expected draw by this much (in points)
PRESTIGE_RESERVE = 2  # do not reject below this much prestige (rounds 1-3)
REJECT_MARGIN = 1.0  # a rejection must be expected to gain this much beyond its cost


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


def unseen(view: JSON) -> list[Card]:
    """Every card the seat cannot see now: all cards less bouquets, pile tops and hand."""
    left = Counter(CARDS)
    shown = [_card(c) for p in view["players"] for c in p["bouquet"]]
    shown += [_card(p["pile"]["top"]) for p in view["players"] if p["pile"]["top"]]
    if view.get("hand") is not None:
        shown.append(_card(view["hand"]))
    for card in shown:
        if left[card] > 0:
            left[card] -= 1
    return list(left.elements())


class IkebanaBot:
    """The bot seat (see the module docstring)."""

    game = "ikebana"

    def choose(self, view: JSON, legal: Sequence[Action], history: Sequence[JSON],
               rng: Rng) -> Action:
        if not legal:
            raise ValueError("this seat has nothing to do")
        me = int(view["you"])
        bouquet = [_card(c) for c in view["players"][me]["bouquet"]]
        prestige = int(view["players"][me]["prestige"])
        rivals = max(1, int(view["seats"]) - 1)
        pay = 1.0 + 1.0 / rivals  # the cost of one prestige paid to a rival
        scale = 2.0 if view.get("doubled_round") else 1.0  # bouquet points this round
        now = worth(bouquet)
        pool = unseen(view)
        draw = scale * (sum(worth([*bouquet, c]) for c in pool) / len(pool) - now
                        if pool else 0.0)
        if view["hand"] is not None:
            gain = scale * (worth([*bouquet, _card(view["hand"])]) - now)
            price = int(view["reject_price"]["amount"])
            reserve = 0 if int(view["round"]) == ROUNDS else PRESTIGE_RESERVE
            if ({"type": "reject"} in legal and prestige - price >= reserve
                    and draw - gain > price * pay + REJECT_MARGIN):
                return {"type": "reject"}
            return {"type": "keep"}
        best: tuple[float, Action] | None = None
        for action in legal:
            if action["type"] != "buy":
                continue
            card = _card(view["players"][action["from"]]["pile"]["top"])
            margin = scale * (worth([*bouquet, card]) - now) - card[1] * pay
            if margin >= draw + BUY_MARGIN and (best is None or margin > best[0]):
                best = (margin, action)
        if best is not None or {"type": "draw"} not in legal:
            return best[1] if best is not None else legal[0]
        return {"type": "draw"}


BOT = IkebanaBot()
