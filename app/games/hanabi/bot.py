"""The Hanabi bot: plays by the conventions people commonly use (see ``knowledge``).

It decides from its seat's view alone: the table's common knowledge is replayed from the
public log (``knowledge.replay``), its own cards are narrowed with what it sees in the other
hands, and every clue it considers is first read the way its partner will read it; a clue
that would make a partner believe something false about any card is never given.

In order, on its turn:
1. save the next player's chop when it is a card the team cannot lose and that player has
   nothing better to do than discard it;
2. play a card it knows is playable;
3. give the most useful clue (cards it makes playable, cards it saves), when it is worth a
   clue token;
4. discard: a card it knows is useless, else its chop (oldest card nobody clued);
5. with every clue token in hand it may not discard, so it gives the least harmful clue.
In the final round (deck empty) it plays, clues a partner who still has a turn, or, with a
fuse to spare, tries its likeliest card: it never risks the last fuse.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from app.games.base import Action, Rng
from app.games.hanabi.hat import Hat
from app.games.hanabi.knowledge import Knol, Table, bits, lowest, popcount, replay

JSON = dict[str, Any]
log = logging.getLogger(__name__)

PLAY, DELAYED, TRASH, SAVED, UNKNOWN = "play", "delayed", "trash", "saved", "unknown"
# Tuning, measured with bench/hanabi_bot.py (see bench/README.md):
PACE = 1  # with this little pace left, a seat clues rather than discards
T1 = 0.9  # the least value of a clue worth a token (a new play is worth 1)...
T2 = 0.35  # ...and when the clue tokens are nearly all in hand
T2AT = 1  # "nearly all": this many below the maximum
INFO = 0.01  # value of each identity a clue rules out (a tie-breaker)
IDLE = 3  # clues in hand from which a clue to an idle next player beats this seat's play
LOOSE = True  # clues whose focus is neither a play nor a save may still inform
GDECK = 5  # from this many cards left in the deck, with a fuse to spare...
GP = 0.6  # ...a card this likely playable (less its chance of being critical) is tried
BUSY = 1.5  # bonus of a clue that gives an endangered player a card to play instead
TWO = 1.0  # what losing a 2 costs (the last copy of anything costs 2)
DELAYED_V = 0.6  # value of a card made playable once known cards are played
TRASH_V = 0.3  # value of showing a card is useless
KEEP_V = 0.1  # value of a useful card newly clued (so kept)...
CRIT_V = 0.3  # ...and more when it is the last copy
DUP_MAX = 0.75  # a clue may name a card one of this seat's clued cards is this likely to be
DUP_W = 0.5  # ...at this cost per unit of likelihood
IDLEB = 0.8  # bonus of a play clue for a player with nothing else to do
LOCKV = 0.5  # with every card clued, a clue worth less than this...
LOCKC = 0.2  # ...lets a clued card this unlikely to be the last copy be discarded


class Outcome:
    """What a clue would do: its value, the cards it makes playable, the table after it,
    and whether its receiver then has something to do other than discarding its chop."""

    __slots__ = ("value", "plays", "table", "busy")

    def __init__(self, value: float, plays: int, table: Table, busy: bool) -> None:
        self.value, self.plays, self.table, self.busy = value, plays, table, busy


class Turn:
    """Everything one decision needs, worked out once from the view."""

    def __init__(self, view: JSON) -> None:
        self.view = view
        self.t: Table = replay(view)
        self.me: int = int(view["me"])
        self.seats = int(view["seats"])
        self.clues = int(view["clues"])
        self.max_clues = int(view["max_clues"])
        self.fuses = int(view["fuses"])
        self.deck = int(view["deck"])
        t = self.t
        # the faces this seat sees: identity per card id, and counts per identity
        self.face: dict[int, int] = {}
        self.seen = [0] * t.n
        for seat, hand in enumerate(view["hands"]):
            ids = [c["id"] for c in hand]
            if ids != [k.id for k in t.hands[seat]]:
                raise ValueError("the replayed hands differ from the view")
            if seat == self.me:
                continue
            for card in hand:
                i = t.ident(card["color"], int(card["rank"]))
                self.face[card["id"]] = i
                self.seen[i] += 1
        self.playable = t.playable()
        self.trash = t.trash()
        self.critical = t.critical()
        self.ck = t.beliefs()
        self.mine = t.beliefs(self.seen, self.me)
        self.hand: list[Knol] = t.hands[self.me]
        self.loose = LOOSE  # whether clues the conventions cannot explain are allowed
        self.why = ""

    # ------------------------------------------------------------------ helpers

    def others(self) -> list[int]:
        """Other seats in the order they play after this one."""
        return [(self.me + d) % self.seats for d in range(1, self.seats)]

    def seen_by(self, seat: int) -> list[int]:
        """Identity counts of the hands both this seat and ``seat`` see."""
        counts = [0] * self.t.n
        for other in range(self.seats):
            if other in (seat, self.me):
                continue
            for k in self.t.hands[other]:
                counts[self.face[k.id]] += 1
        return counts

    def status(self, b: int, reach: int) -> str:
        if not b & ~self.playable:
            return PLAY
        if not b & ~self.trash:
            return TRASH
        if not b & ~reach:
            return DELAYED
        return UNKNOWN

    def probabilities(self, k: Knol) -> dict[int, float]:
        """How likely each identity is for one of this seat's cards."""
        t = self.t
        left = [c - g - s for c, g, s in zip(t.copies, t.gone, self.seen, strict=True)]
        for other in self.hand:
            b = self.mine[other.id]
            if other is not k and b and not b & (b - 1):
                left[lowest(b)] -= 1
        weights = {i: max(left[i], 0) for i in bits(self.mine[k.id])}
        total = sum(weights.values())
        if total <= 0:
            n = len(weights)
            return {i: 1 / n for i in weights}
        return {i: w / total for i, w in weights.items()}

    def worth(self, k: Knol) -> float:
        """How much losing another player's card would cost: 2 for the last copy of a
        useful card (a 5 included), 1 for a 2 whose twin nobody else holds, else 0."""
        i = self.face[k.id]
        if self.trash >> i & 1 or self.duplicated(k.id, i):
            return 0.0
        if self.critical >> i & 1:
            return 2.0
        if i % 5 == 1 and not any(self.face.get(o.id) == i for h in self.t.hands for o in h
                                  if o.id != k.id):
            return TWO
        return 0.0

    def valuable(self, seat: int, k: Knol) -> bool:
        """Whether another player's card is one the team must not lose."""
        return self.worth(k) > 0

    def duplicated(self, card_id: int, i: int) -> bool:
        """Whether a card with identity ``i`` other than ``card_id`` is already clued, or known."""
        for hand in self.t.hands:
            for o in hand:
                if o.id == card_id:
                    continue
                if o.touched and self.face.get(o.id) == i:
                    return True
                if o.id not in self.face and self.mine[o.id] == 1 << i:
                    return True
        return False

    def maybe_mine(self, i: int) -> float:
        """How likely one of this seat's clued cards is a copy of ``i`` (then cluing another
        copy would have two players keep the same card)."""
        worst = 0.0
        for k in self.hand:
            if k.touched and self.mine[k.id] >> i & 1:
                worst = max(worst, self.probabilities(k).get(i, 0.0))
        return worst

    # ------------------------------------------------------------------ reading partners

    def partner_beliefs(self, seat: int) -> dict[int, int]:
        """Roughly what ``seat`` believes about its own cards (it also sees this seat's
        hand, which only narrows its beliefs further)."""
        return self.t.beliefs(self.seen_by(seat), seat)

    def will_discard(self, seat: int) -> bool:
        """Whether ``seat`` has nothing it knows it can play or throw away."""
        b = self.partner_beliefs(seat)
        for k in self.t.hands[seat]:
            if not b[k.id] & ~self.playable or not b[k.id] & ~self.trash:
                return False
        return True

    def stuck(self, seat: int) -> bool:
        """Whether ``seat`` has only clued cards and nothing it knows to play or throw."""
        return all(k.touched for k in self.t.hands[seat]) and self.will_discard(seat)

    def in_danger(self, seat: int) -> Knol | None:
        """The chop of ``seat`` if it must not be discarded and is about to be."""
        chop = self.t.chop(seat)
        if chop is None or not self.valuable(seat, chop) or not self.will_discard(seat):
            return None
        return chop

    def evaluate(self, target: int, clue: JSON) -> tuple[float, int] | None:
        """How much a clue helps, read as ``target`` will read it; None if it misleads.

        The second value is the number of cards that become playable for ``target``.
        """
        got = self.outcome(target, clue)
        return None if got is None else (got.value, got.plays)

    def outcome(self, target: int, clue: JSON) -> Outcome | None:
        """A clue's effect on ``target``'s knowledge, or None if it would mislead."""
        t = self.t
        hand = t.hands[target]
        mask = t.clue_mask(clue)
        touched = [k.id for k in hand if mask >> self.face[k.id] & 1]
        if not touched:
            return None
        sim = t.fork(target)
        if not sim.apply_clue(target, clue, touched) and not self.loose:
            return None  # a partner could not tell what it is for
        seen = self.seen_by(target)
        before = t.beliefs(seen, target)
        after = sim.beliefs(seen, target)
        reach0 = t.reachable(self.ck)
        reach1 = sim.reachable(sim.beliefs())
        value = 0.0
        plays = 0
        faces: list[int] = []
        for k in hand:
            i = self.face[k.id]
            b0, b1 = before[k.id], after[k.id]
            if b0 >> i & 1 and not b1 >> i & 1:
                return None  # it would believe something false about this card
            s0, s1 = self.status(b0, reach0), self.status(b1, reach1)
            newly = k.id in touched and not k.touched
            if newly:
                if self.trash >> i & 1 and s1 != TRASH:
                    return None
                if i in faces or self.duplicated(k.id, i):
                    return None  # two copies clued: one would be played, the other misplayed
                risk = self.maybe_mine(i)
                if risk > DUP_MAX:
                    return None
                value -= DUP_W * risk
                faces.append(i)
            if s1 == PLAY and s0 != PLAY:
                value += 1.0
                plays += 1
            elif s1 == DELAYED and s0 not in (PLAY, DELAYED):
                value += DELAYED_V
            elif s1 == TRASH and s0 != TRASH:
                value += TRASH_V
            elif newly and s1 != TRASH:
                value += KEEP_V + (CRIT_V if self.critical >> i & 1 else 0.0)
            value += INFO * (popcount(b0) - popcount(b1))
        busy = any(not after[k.id] & ~self.playable or not after[k.id] & ~self.trash
                   for k in hand)
        return Outcome(value, plays, sim, busy)

    def clues_for(self, target: int) -> list[JSON]:
        """Every non-empty clue to ``target``."""
        colors: list[str] = []
        ranks: list[int] = []
        for k in self.t.hands[target]:
            i = self.face[k.id]
            color, rank = self.t.colors[i // 5], i % 5 + 1
            if color not in colors:
                colors.append(color)
            if rank not in ranks:
                ranks.append(rank)
        out: list[JSON] = [{"type": "clue", "target": target, "color": c}
                           for c in self.t.colors if c in colors]
        out += [{"type": "clue", "target": target, "rank": r} for r in sorted(ranks)]
        return out

    # ------------------------------------------------------------------ choosing

    def my_status(self) -> dict[int, str]:
        reach = self.t.reachable(self.ck)
        out = {k.id: self.status(self.mine[k.id], reach) for k in self.hand}
        if self.fuses == 1:
            # on the last fuse, play only what the clues prove, not what good touch implies
            strict = self.t.beliefs(self.seen, self.me, strict=True)
            for k in self.hand:
                if out[k.id] == PLAY and strict[k.id] & ~self.playable:
                    out[k.id] = UNKNOWN
        return out

    def best_play(self, plays: list[Knol]) -> Knol:
        def score(k: Knol) -> float:
            b = self.mine[k.id]
            if b & (b - 1):
                return 10.0  # partners do not know it is playable: play it before they clue it
            i = lowest(b)
            s = 5.0 - i % 5
            if i % 5 == 4 and self.clues < self.max_clues:
                s += 2.0  # a 5 gives a clue back
            if i % 5 < 4 and any(self.face.get(o.id) == i + 1 for h in self.t.hands for o in h):
                s += 1.5  # a partner holds the next card of this colour
            return s
        return max(plays, key=score)

    def discard_choice(self, status: dict[int, str]) -> Knol:
        for k in self.hand:
            if status[k.id] == TRASH:
                return k
        for k in self.hand:
            if not k.touched:
                return k
        # every card is clued: throw the one least likely to matter
        def risk(k: Knol) -> tuple[float, float]:
            p = self.probabilities(k)
            critical = sum(v for i, v in p.items() if self.critical >> i & 1)
            useless = sum(v for i, v in p.items() if self.trash >> i & 1)
            return (critical - useless, -sum(v * (i % 5) for i, v in p.items()))
        return min(self.hand, key=risk)

    def save_clue(self, target: int, chop: Knol) -> JSON | None:
        """The clue that best keeps ``target`` from discarding ``chop``: one that names it,
        or one that gives ``target`` a card to play instead, preferring clues after which
        the next card on its chop is not one to keep either."""
        best: tuple[float, JSON] | None = None
        for clue in self.clues_for(target):
            got = self.outcome(target, clue)
            if got is None:
                continue
            names = bool(self.t.clue_mask(clue) >> self.face[chop.id] & 1)
            if not names and not got.busy:
                continue
            value = got.value + (1.0 + self.worth(chop) if names else BUSY)
            if not got.busy:
                after = got.table.chop(target)
                if after is not None and after.id != chop.id:
                    exposed = self.worth(after)
                    if exposed >= self.worth(chop):
                        continue  # saving one card only to lose a better one
                    value -= exposed
            if best is None or value > best[0]:
                best = (value, clue)
        return None if best is None else best[1]

    def best_clue(self, targets: Sequence[int], endangered: dict[int, Knol],
                  avoid: int = 0) -> tuple[float, JSON] | None:
        """The most useful clue to one of ``targets`` naming no identity in ``avoid``."""
        best: tuple[float, JSON] | None = None
        for target in targets:
            distance = (target - self.me) % self.seats
            chop = endangered.get(target)
            # a play for a player who has nothing else to do is worth more: that turn
            # would otherwise go to a discard
            idle = IDLEB if IDLEB and self.will_discard(target) else 0.0
            for clue in self.clues_for(target):
                if avoid:
                    mask = self.t.clue_mask(clue)
                    if any(mask >> self.face[k.id] & 1 and avoid >> self.face[k.id] & 1
                           for k in self.t.hands[target]):
                        continue
                got = self.evaluate(target, clue)
                if got is None:
                    continue
                value = got[0] - 0.01 * distance + (idle if got[1] else 0.0)
                if chop is not None and self.t.clue_mask(clue) >> self.face[chop.id] & 1:
                    value += 1.5
                if best is None or value > best[0]:
                    best = (value, clue)
        return best

    def decide(self) -> Action:
        status = self.my_status()
        plays = [k for k in self.hand if status[k.id] == PLAY]
        if self.deck == 0:
            return self.final_round(plays, status)
        others = self.others()
        endangered = {seat: chop for seat in others if (chop := self.in_danger(seat))}
        nxt = others[0]
        if self.clues > 0 and nxt in endangered:
            save = self.save_clue(nxt, endangered[nxt])
            if save is not None:
                self.why = "save"
                return save
        if plays and self.clues >= IDLE and self.will_discard(nxt):
            # the next player would only discard: a clue that gives it a play gains a turn,
            # and this seat's own play can wait one round
            mine = 0
            for k in plays:
                mine |= self.mine[k.id]
            tempo = self.best_clue([nxt], endangered, avoid=mine)
            if tempo is not None and tempo[0] >= 1.0:
                self.why = "tempo"
                return tempo[1]
        if plays:
            return {"type": "play", "card": self.best_play(plays).id}
        if self.clues > 0:
            if self.clues == 1 and self.stuck(nxt):
                # the next player holds only clued cards and nothing to play: spending the
                # last clue token would force it to throw one of them away
                best = self.best_clue([nxt], endangered)
                if best is not None and best[0] < 1.0:
                    best = None
            else:
                best = self.best_clue(others, endangered)
            threshold = T1 if self.clues < self.max_clues - T2AT else T2
            if best is not None and (best[0] >= threshold or self.clues == self.max_clues):
                self.why = "clue" if best[0] >= threshold else "clue8"
                return best[1]
        locked = all(k.touched for k in self.hand) and TRASH not in status.values()
        # pace: how many more cards may leave the deck without a play before the score
        # reachable cannot be reached any more; a discard then costs a point
        pace = int(self.view["score"]) + self.deck + self.seats - self.t.max_score()
        # ...but stalling only helps while somebody has a card to play in the meantime
        tight = pace <= PACE and self.clues > 0 and any(
            not self.will_discard(seat) for seat in others)
        if 0 < self.deck <= GDECK and self.fuses >= 2:
            card, chance, loss = self.gamble()
            if chance - loss >= GP:
                self.why = "gamble"
                return {"type": "play", "card": card.id}
        if locked and self.clues > 0 and self.clues < self.max_clues and not tight:
            # every card is clued: a clue that helps a little beats throwing one away, but
            # holding on forever only slows the deck down; a card that is probably not the
            # last of its kind may go
            best = self.best_clue(others, endangered)
            if best is None or best[0] < LOCKV:
                card = self.discard_choice(status)
                p = self.probabilities(card)
                if sum(v for i, v in p.items() if self.critical >> i & 1) <= LOCKC:
                    self.why = "locked-discard"
                    return {"type": "discard", "card": card.id}
        if self.clues < self.max_clues and not (locked and self.clues > 0) and not tight:
            return {"type": "discard", "card": self.discard_choice(status).id}
        self.why = "stall-locked" if locked else "stall-tight" if tight else "stall"
        return self.stall(status)

    def final_round(self, plays: list[Knol], status: dict[int, str]) -> Action:
        """The deck is empty: this is this seat's last turn."""
        if plays:
            return {"type": "play", "card": self.best_play(plays).id}
        left = self.view.get("final_turns_left") or 0
        if self.clues > 0:
            best: tuple[float, JSON] | None = None
            for target in self.others():
                distance = (target - self.me) % self.seats
                if distance >= left:
                    break  # that seat has no turn left
                b = self.partner_beliefs(target)
                if any(not b[k.id] & ~self.playable for k in self.t.hands[target]):
                    continue  # it already has a play for its last turn
                for clue in self.clues_for(target):
                    got = self.evaluate(target, clue)
                    if got is not None and got[1] > 0 and (best is None or got[0] > best[0]):
                        best = (got[0], clue)
            if best is not None:
                return best[1]
        if self.fuses >= 2:
            card, chance, _ = self.gamble()
            if chance > 0:
                return {"type": "play", "card": card.id}
        if self.clues < self.max_clues:
            return {"type": "discard", "card": self.discard_choice(status).id}
        return self.stall(status)

    def gamble(self) -> tuple[Knol, float, float]:
        """The card likeliest to be playable, that chance, and the chance it is instead the
        last copy of a card still needed (lost if it fails)."""
        best: tuple[Knol, float, float] | None = None
        for k in self.hand:
            p = self.probabilities(k)
            chance = sum(v for i, v in p.items() if self.playable >> i & 1)
            loss = sum(v for i, v in p.items()
                       if self.critical >> i & 1 and not self.playable >> i & 1)
            if best is None or chance - loss > best[1] - best[2]:
                best = (k, chance, loss)
        assert best is not None
        return best

    def stall(self, status: dict[int, str]) -> Action:
        """Nothing to play and nothing it wants to discard: the least harmful clue."""
        best = self.best_clue(self.others(), {})
        if best is not None:
            return best[1]
        if self.clues == self.max_clues:
            self.loose = True  # a clue that only informs beats a misleading one
            best = self.best_clue(self.others(), {})
            self.loose = False
            if best is not None:
                return best[1]
        if self.clues < self.max_clues:
            return {"type": "discard", "card": self.discard_choice(status).id}
        if self.view["options"].get("empty_clues"):
            colors = {self.t.colors[self.face[k.id] // 5] for k in self.t.hands[self.others()[0]]}
            for color in self.t.colors:
                if color not in colors:
                    return {"type": "clue", "target": self.others()[0], "color": color}
        # every clue would mislead someone: the clue naming the fewest cards
        options = [c for target in self.others() for c in self.clues_for(target)]
        def touched(clue: JSON) -> int:
            mask = self.t.clue_mask(clue)
            return sum(1 for k in self.t.hands[clue["target"]] if mask >> self.face[k.id] & 1)
        return min(options, key=touched)


class HanabiBot:
    """The bot object the platform calls (``app.games.bots.Bot``)."""

    game = "hanabi"

    def __init__(self, convention: str = "human") -> None:
        if convention not in ("human", "hat"):
            raise ValueError(f"unknown convention {convention!r}")
        self.convention = convention

    def choose(self, view: JSON, legal: Sequence[Action], history: Sequence[JSON],
               rng: Rng) -> Action:
        """The move for the seat whose view this is (``history`` and ``rng`` are not needed:
        the public log in the view says everything, and the bot does not draw lots)."""
        try:
            action = self.decide(view)
        except Exception:  # noqa: BLE001 - a bug here must not cost the table its move
            log.exception("hanabi bot failed; falling back to a safe move")
            action = fallback(view, legal)
        if action not in legal:
            log.error("hanabi bot chose an illegal move %r; falling back", action)
            action = fallback(view, legal)
        return action

    def decide(self, view: JSON) -> Action:
        """The move by this bot's conventions (raises if the view makes no sense to it)."""
        if self.convention == "hat" and int(view["seats"]) > 2:
            # two players gain little from the hat (one partner hears each clue): the
            # human conventions score better there (bench/README.md)
            return Hat(view).decide()
        return Turn(view).decide()


def fallback(view: JSON, legal: Sequence[Action]) -> Action:
    """A harmless legal move: discard the oldest card nobody clued, else give a clue."""
    if int(view["clues"]) < int(view["max_clues"]):
        hand = view["hands"][view["me"]]
        unclued = [c for c in hand if c["knowledge"]["color"] is None
                   and c["knowledge"]["rank"] is None]
        return {"type": "discard", "card": (unclued or hand)[0]["id"]}
    clues = [a for a in legal if a["type"] == "clue"]
    return clues[0] if clues else legal[0]


BOT = HanabiBot()
BOT_HAT = HanabiBot("hat")
# every seat a bot from the start: hat guessing, which no person at the table would follow
BOT_ALL_BOTS = BOT_HAT
