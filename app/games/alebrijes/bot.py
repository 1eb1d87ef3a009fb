"""Alebrijes' bot: shed the hand in as few plays as possible, from the seat's view only.

The hand is seen as *groups*: the suited cards of one suit and number (one play each), and
the wild cards of a number no suited group has (one play of their own, declaring a suit).
Wild cards of a number some suited group has join it. Fewer groups means fewer tricks to
lead before going out, which is the whole game (the others score their hand's worst cards).

- Exchange and pass: swap up to two lone suited cards, the weakest first (a lone low card
  can only be led; a new card may join a group). Never a wild card nor a strong lone card.
- Lead: the last group if it is the only one (going out); with two left, the stronger first
  (if it holds, the other goes out next); otherwise the biggest group, lowest first (weak
  cards can only ever be led, strong ones can take the lead back).
- Follow: beat whenever some play does not add a group, choosing the one that removes a
  group, then spends the fewest cards of value (wilds last), then the lowest; else pass.
- Ollin: a lone Ollin card makes the others draw; a pair with Ollin discards our worst card
  (a lone card: one group fewer). Plays of one or two cards use Ollin copies when they
  have them; bigger plays keep them.

It reads the view (its hand, the trick, the deck size) and the legal actions only.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from app.games.alebrijes.data import MAX_EXCHANGE, SUITS, WILD
from app.games.base import JSON, Action, Rng

Face = tuple[str, int, bool]  # suit, number, ollin
HandCard = tuple[int, str, int, bool]  # id, suit, number, ollin


def _hand(view: JSON) -> list[HandCard]:
    return [(int(c["id"]), str(c["suit"]), int(c["number"]), bool(c["ollin"]))
            for c in view["hand"]]


def groups(hand: Sequence[HandCard]) -> int:
    """How many plays shed ``hand``: suited (suit, number) groups plus lone wild numbers."""
    suited = {(s, n) for _i, s, n, _o in hand if s != WILD}
    numbers = {n for s, n in suited}
    wild_numbers = {n for _i, s, n, _o in hand if s == WILD}
    return len(suited) + len(wild_numbers - numbers)


def strength(suit: str, number: int, count: int) -> float:
    """How hard a combination is to beat: more cards, later suit in the chain, higher."""
    return count * 100 + SUITS.index(suit) * 10 + number


def _remove(hand: Sequence[HandCard], ids: set[int]) -> list[HandCard]:
    return [c for c in hand if c[0] not in ids]


def _cards_for(hand: Sequence[HandCard], action: Action) -> list[HandCard] | None:
    """The hand cards a play action uses (as the engine picks them: ids ascending)."""
    suit, number = action["suit"], action["number"]
    count, wilds = action["count"], action["wilds"]
    ollin = action.get("ollin", 0)
    ordered = sorted(hand)
    with_ollin = [c for c in ordered if c[1] == suit and c[2] == number and c[3]]
    plain = [c for c in ordered if c[1] == suit and c[2] == number and not c[3]]
    wild = [c for c in ordered if c[1] == WILD and c[2] == number]
    need_plain = count - wilds - ollin
    if len(with_ollin) < ollin or len(plain) < need_plain or len(wild) < wilds:
        return None
    return with_ollin[:ollin] + plain[:need_plain] + wild[:wilds]


def _penalty(card: HandCard) -> int:
    return card[2]


class AlebrijesBot:
    """The bot seat (see the module docstring)."""

    game = "alebrijes"

    def choose(self, view: JSON, legal: Sequence[Action], history: Sequence[JSON],
               rng: Rng) -> Action:
        hand = _hand(view)
        kinds = {a["type"] for a in legal}
        if "exchange" in kinds:
            return self._swap(hand, legal, "exchange")
        if "ollin" in kinds:
            return self._ollin(hand, legal)
        plays = [a for a in legal if a["type"] == "play"]
        if "pass" not in kinds:
            return self._lead(hand, plays)
        beat = self._beat(hand, plays)
        if beat is not None:
            return beat
        return self._swap(hand, legal, "pass")

    # ------------------------------------------------------------------ exchanges

    def _swap(self, hand: list[HandCard], legal: Sequence[Action], kind: str) -> Action:
        """Swap up to two lone weak suited cards (as many as the legal actions allow)."""
        limit = max((len(a.get("cards", [])) for a in legal if a["type"] == kind), default=0)
        limit = min(limit, MAX_EXCHANGE)
        lone = []
        for card in hand:
            _id, suit, number, _o = card
            if suit == WILD:
                continue
            same = [c for c in hand if c[1] == suit and c[2] == number]
            wild = [c for c in hand if c[1] == WILD and c[2] == number]
            if len(same) == 1 and not wild and not (suit == SUITS[-1] and number >= 4):
                lone.append(card)
        lone.sort(key=lambda c: (strength(c[1], c[2], 1), c[0]))
        ids = sorted(c[0] for c in lone[:limit])
        action: Action = {"type": kind, "cards": ids}
        if action in legal:
            return action
        return {"type": kind, "cards": []} if {"type": kind, "cards": []} in legal else legal[0]

    # ------------------------------------------------------------------ plays

    def _options(self, hand: list[HandCard],
                 plays: Sequence[Action]) -> list[tuple[Action, list[HandCard]]]:
        out = []
        for action in plays:
            used = _cards_for(hand, action)
            if used is not None:
                out.append((action, used))
        return out

    def _ollin_preference(self, action: Action, used: list[HandCard]) -> int:
        """Higher is better: Ollin copies in plays of 1 or 2 cards, none in bigger ones."""
        ollin = sum(1 for c in used if c[3])
        if action["count"] <= 2:
            return 1 if ollin else 0
        return -ollin

    def _lead(self, hand: list[HandCard], plays: Sequence[Action]) -> Action:
        options = self._options(hand, plays)
        # a play that empties the hand ends the round at once
        for action, used in options:
            if len(used) == len(hand):
                return action
        before = groups(hand)
        # whole groups only: a play that leaves the group count as it is wastes the lead
        whole = [(a, u) for a, u in options
                 if groups(_remove(hand, {c[0] for c in u})) < before]
        pool = whole or options

        def wild_only(a: Action) -> bool:
            return bool(a["wilds"] == a["count"])

        def key(item: tuple[Action, list[HandCard]]) -> tuple[Any, ...]:
            action, used = item
            left = _remove(hand, {c[0] for c in used})
            s = strength(action["suit"], action["number"], action["count"])
            if before == 2:
                main = -s  # the stronger first, then the last group goes out
            else:
                main = (wild_only(action), -len(used), action["number"], s)  # type: ignore
            return (groups(left), main, -self._ollin_preference(action, used),
                    _declared_rank(action))

        return min(pool, key=key)[0]

    def _beat(self, hand: list[HandCard], plays: Sequence[Action]) -> Action | None:
        options = self._options(hand, plays)
        if not options:
            return None
        before = groups(hand)
        for action, used in options:
            if len(used) == len(hand):
                return action  # going out

        def key(item: tuple[Action, list[HandCard]]) -> tuple[Any, ...]:
            action, used = item
            left = _remove(hand, {c[0] for c in used})
            wilds = sum(1 for c in used if c[1] == WILD)
            return (groups(left) - before, wilds, action["number"],
                    -self._ollin_preference(action, used), _declared_rank(action))

        best = min(options, key=key)
        action, used = best
        if groups(_remove(hand, {c[0] for c in used})) > before:
            return None
        return action

    # ------------------------------------------------------------------ Ollin

    def _ollin(self, hand: list[HandCard], legal: Sequence[Action]) -> Action:
        discards = [a for a in legal if a.get("effect") == "discard"]
        if discards:
            by_id = {c[0]: c for c in hand}
            before = groups(hand)

            def key(action: Action) -> tuple[int, int, int]:
                card = by_id[action["card"]]
                left = _remove(hand, {card[0]})
                return (groups(left) - before, card[1] == WILD, -_penalty(card))

            return min(discards, key=key)
        for action in legal:
            if action.get("effect") == "draw":
                return action
        return legal[0]


def _declared_rank(action: Action) -> int:
    """Wild-only plays declare the latest suit of the chain (the hardest to beat)."""
    if action["wilds"] == action["count"]:
        return -SUITS.index(action["suit"])
    return 0


BOT = AlebrijesBot()
