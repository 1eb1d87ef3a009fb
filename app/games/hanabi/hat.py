"""Hat guessing: the Hanabi conventions for a table where every seat is this bot.

``HanabiBot(convention="hat")`` plays this way. People would not read these clues: use it only
when every seat is a bot (the platform decides; a view cannot tell).

The idea is the "hat" or information strategy (Cox et al. 2015; the InfoBot of the public
Quuxplusone/Hanabi collection, after Jeff Wu's hanabi.rs). Every player asks each other
player's hand the same *questions*, chosen from public knowledge only (is card i playable?
which group of identities is card j in?). A clue does not mean what it names: the giver adds
up, modulo the number of different clues it could give, the answers of every other hand (it
sees them all), and picks the clue that encodes that sum: the target seat and whether the clue
names a rank or a colour of that seat's designated card, or neither. Each other player sees
every hand but its own, subtracts the answers it can work out, and is left with the answers
about its own hand. So one clue informs every player at once.

Everything is replayed from the view's public log: a seat knows the face of every card that
was ever in another hand (it is there still, or it was shown when played or discarded), so it
can redo each past clue's arithmetic and recover what it learned about its own cards.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from app.games.hanabi.knowledge import Knol, Table, bits

JSON = dict[str, Any]
RISKY_DISCARD = 0.1  # a discard this likely to lose a card's last copy gives way to a clue
Question = tuple[int, dict[int, int] | None, int]  # (card index, identity -> answer or None
#                                                      for "is it playable?", answers)


class Hat:
    """One seat's reading of the game under the hat conventions, and its move."""

    def __init__(self, view: JSON) -> None:
        self.view = view
        self.me = int(view["me"])
        self.seats = int(view["seats"])
        t = Table(view["colors"], self.seats, int(view["max_clues"]))
        t.good_touch = False
        t.start()
        self.t = t
        self.face: dict[int, int] = {}
        for seat, hand in enumerate(view["hands"]):
            if seat != self.me:
                for card in hand:
                    self.face[card["id"]] = t.ident(card["color"], int(card["rank"]))
        for entry in view["log"]:
            if entry["type"] in ("play", "discard"):
                card = entry["card"]
                self.face[card["id"]] = t.ident(card["color"], int(card["rank"]))
        for entry in view["log"]:
            kind = entry["type"]
            if kind == "clue":
                self.decode(entry)
                t.apply_literal(int(entry["target"]), entry, entry["cards"])
            elif kind in ("play", "discard"):
                card = entry["card"]
                ident = t.ident(card["color"], int(card["rank"]))
                seat = int(entry["seat"])
                (t.play if kind == "play" else t.discard)(seat, int(card["id"]), ident)
        for seat, hand in enumerate(view["hands"]):
            if [c["id"] for c in hand] != [k.id for k in t.hands[seat]]:
                raise ValueError("the replayed hands differ from the view")

    # ------------------------------------------------------------------ public tables

    def alive(self) -> list[int]:
        """Copies of each identity not yet played or discarded."""
        t = self.t
        return [c - g for c, g in zip(t.copies, t.gone, strict=True)]

    def options(self, k: Knol) -> int:
        """The identities public knowledge allows for a card."""
        b = k.lit & k.conv or k.lit
        alive = self.alive()
        out = 0
        for i in bits(b):
            if alive[i] > 0:
                out |= 1 << i
        return out or b

    def chances(self, mask: int, weights: Sequence[int]) -> tuple[float, float]:
        """(probability playable, probability useless) over ``mask`` weighted by copies."""
        playable, trash = self.t.playable(), self.t.trash()
        total = p = d = 0
        for i in bits(mask):
            w = max(weights[i], 0)
            total += w
            if playable >> i & 1:
                p += w
            if trash >> i & 1:
                d += w
        if total == 0:
            return 0.0, 0.0
        return p / total, d / total

    def questions(self, seat: int, total: int) -> list[Question]:
        """What every player asks ``seat``'s hand when a clue can carry ``total`` values."""
        t = self.t
        alive = self.alive()
        hand = t.hands[seat]
        facts = []
        for index, k in enumerate(hand):
            mask = self.options(k)
            p, d = self.chances(mask, alive)
            facts.append((index, mask, p, d, not mask & (mask - 1)))
        out: list[Question] = []
        left = total

        def ask(q: Question) -> bool:
            nonlocal left
            out.append(q)
            left //= q[2]
            return left <= 1

        if not any(p == 1.0 for _, _, p, _, _ in facts):
            ask_play = [f for f in facts if not f[4] and f[3] < 1.0 and 0.2 <= f[2] < 1.0]
            ask_play.sort(key=lambda f: (-f[2], f[0]))
            for f in ask_play:
                if ask((f[0], None, 2)):
                    return out
        rest = [f for f in facts if not f[4] and f[3] < 1.0]
        rest.sort(key=lambda f: (-f[2], f[0]))
        trash = t.trash()
        for index, mask, _, _, _ in rest:
            if left <= 1:
                break
            groups = left - 1 if mask & trash else left
            mapping: dict[int, int] = {}
            block = used = 0
            for i in bits(mask & ~trash):
                mapping[i] = block
                block = (block + 1) % groups
                used = min(used + 1, groups)
            if mask & trash:
                for i in bits(mask & trash):
                    mapping[i] = used
                used += 1
            if used >= 2 and ask((index, mapping, used)):
                return out
        return out

    def answer(self, q: Question, ident: int) -> int | None:
        if q[1] is None:
            return 1 if self.t.playable() >> ident & 1 else 0
        return q[1].get(ident)

    def learn(self, k: Knol, q: Question, value: int) -> None:
        """Narrow a card's public table by the answer to one question about it."""
        if q[1] is None:
            playable = self.t.playable()
            keep = playable if value else self.t.all & ~playable
        else:
            keep = 0
            for i, a in q[1].items():
                if a == value:
                    keep |= 1 << i
        if k.lit & k.conv & keep:
            k.conv &= keep

    # ------------------------------------------------------------------ encoding

    def order(self, giver: int) -> list[int]:
        return [(giver + d) % self.seats for d in range(1, self.seats)]

    def info_for(self, seat: int) -> int:
        """How many different clue meanings ``seat`` can receive: a rank clue naming its
        designated card, a colour clue naming it, and clues not naming it (one kind, or
        rank and colour apart when its hand surely holds two colours and two ranks)."""
        hand = self.t.hands[seat]
        masks = [self.options(k) for k in hand]
        one_color = any(all(m & cm for m in masks) for cm in self.t.color_mask)
        one_rank = any(all(m & rm for m in masks) for rm in self.t.rank_mask[1:])
        if not one_color and not one_rank:
            return 4
        return 3 if len(hand) >= 4 else 2

    def designated(self, seat: int) -> Knol:
        """The card of ``seat`` a clue's kind is about: the least known useful one."""
        trash = self.t.trash()

        def score(k: Knol) -> int:
            m = self.options(k)
            if not m & ~trash or not m & (m - 1):
                return 0
            colors = sum(1 for cm in self.t.color_mask if m & cm)
            ranks = sum(1 for rm in self.t.rank_mask[1:] if m & rm)
            return 1 + (colors > 1) + (ranks > 1)

        hand = self.t.hands[seat]
        return max(hand, key=lambda k: (score(k), -hand.index(k)))

    def decode(self, entry: JSON) -> None:
        """Read a past clue under the hat conventions (before its literal meaning)."""
        giver, target = int(entry["seat"]), int(entry["target"])
        order = self.order(giver)
        info = [self.info_for(p) for p in order]
        total = sum(info)
        slot = order.index(target)
        card = self.designated(target)
        names = card.id in entry["cards"]
        if names:
            kind = 0 if "rank" in entry else 1
        elif info[slot] == 4:
            kind = 2 if "rank" in entry else 3
        else:
            kind = 2
        value = sum(info[:slot]) + kind
        asked = {p: self.questions(p, total) for p in order}
        for p in order:
            if p == self.me:
                continue
            hand = self.t.hands[p]
            combined = 0
            for q in asked[p]:
                a = self.answer(q, self.face[hand[q[0]].id])
                if a is None:
                    return  # somebody broke the conventions: read nothing more into it
                combined = combined * q[2] + a
                self.learn(hand[q[0]], q, a)
            value = (value - combined) % total
        if self.me == giver:
            return
        questions = asked[self.me]
        modulus = 1
        for q in questions:
            modulus *= q[2]
        if value >= modulus:
            return
        hand = self.t.hands[self.me]
        for q in questions:
            modulus //= q[2]
            a, value = divmod(value, modulus)
            self.learn(hand[q[0]], q, a)

    def clue(self) -> JSON:
        """The clue whose hat sum tells every other player about its own hand."""
        order = self.order(self.me)
        info = [self.info_for(p) for p in order]
        total = sum(info)
        value = 0
        for p in order:
            hand = self.t.hands[p]
            combined = 0
            for q in self.questions(p, total):
                a = self.answer(q, self.face[hand[q[0]].id])
                combined = combined * q[2] + (a or 0)
            value = (value + combined) % total
        slot = 0
        while value >= info[slot]:
            value -= info[slot]
            slot += 1
        target = order[slot]
        card = self.designated(target)
        colors = self.t.colors
        f = self.face[card.id]
        if value == 0:
            return {"type": "clue", "target": target, "rank": f % 5 + 1}
        if value == 1:
            return {"type": "clue", "target": target, "color": colors[f // 5]}
        options: list[JSON] = []
        for k in self.t.hands[target]:
            g = self.face[k.id]
            if g // 5 != f // 5 and (value == 3 or info[slot] == 3):
                options.append({"type": "clue", "target": target, "color": colors[g // 5]})
            if g % 5 != f % 5 and value == 2:
                options.append({"type": "clue", "target": target, "rank": g % 5 + 1})
        if not options:
            raise ValueError("no clue carries this hat value")
        return max(options, key=self.goodness)

    def goodness(self, clue: JSON) -> float:
        """How much a clue's literal meaning narrows its target's cards (a tie-breaker)."""
        target = int(clue["target"])
        mask = self.t.clue_mask(clue)
        alive = self.alive()
        out = 1.0
        for k in self.t.hands[target]:
            m = self.options(k)
            hit = mask >> self.face[k.id] & 1
            new = m & mask if hit else m & ~mask
            before = sum(alive[i] for i in bits(m))
            after = sum(alive[i] for i in bits(new)) or before
            out *= before / after
        return out

    # ------------------------------------------------------------------ moving

    def decide(self) -> JSON:
        view, t = self.view, self.t
        clues, max_clues = int(view["clues"]), int(view["max_clues"])
        fuses, deck = int(view["fuses"]), int(view["deck"])
        alive = self.alive()
        weights = list(alive)
        for i in self.face_counts():
            weights[i] -= 1
        hand = t.hands[self.me]
        facts = []
        for k in hand:
            mask = self.options(k)
            p, d = self.chances(mask, weights)
            facts.append((k, mask, p, d))
        plays = [f for f in facts if f[2] == 1.0]
        if plays:
            best = max(plays, key=lambda f: (self.play_score(f[1], weights), -hand.index(f[0])))
            return {"type": "play", "card": best[0].id}
        discarded = len(view["discard"])
        spare = sum(t.copies) - 5 * t.nc - self.seats * len(t.hands[self.me])
        if fuses > 1 and (discarded <= spare or deck == 0):
            risky = [f for f in facts if f[2] + f[3] >= 0.999 and f[2] > 0.75]
            if deck == 0:  # the last turn: any chance is worth a spare fuse
                risky = [f for f in facts if f[2] > 0]
            if risky:
                best = max(risky, key=lambda f: (f[2], -hand.index(f[0])))
                return {"type": "play", "card": best[0].id}
        if clues == max_clues:
            return self.clue()
        useless = [f for f in facts if f[3] == 1.0]
        if discarded <= spare and useless:
            return {"type": "discard", "card": useless[0][0].id}
        if clues > 0 and self.someone_can_play():
            return self.clue()
        if useless:
            return {"type": "discard", "card": useless[0][0].id}
        seen = self.face_counts()
        trash, critical = t.trash(), t.critical()

        def keepable(f: tuple[Knol, int, float, float]) -> float:
            total = visible = spareable = ranks = 0.0
            for i in bits(f[1]):
                w = max(weights[i], 0)
                total += w
                visible += w * (seen.get(i, 0) > 0)
                spareable += w * (bool(trash >> i & 1) or not critical >> i & 1)
                ranks += w * (i % 5 + 1)
            if total == 0:
                return 0.0
            return (20 * visible + 10 * spareable + ranks) / total

        best = max(facts, key=lambda f: (keepable(f), -hand.index(f[0])))
        if clues > 0 and self.risk(best[1], weights) > RISKY_DISCARD:
            return self.clue()  # rather than lose the last copy of a card
        return {"type": "discard", "card": best[0].id}

    def risk(self, mask: int, weights: Sequence[int]) -> float:
        """The chance a card is the last copy of one still needed."""
        critical = self.t.critical()
        total = bad = 0
        for i in bits(mask):
            w = max(weights[i], 0)
            total += w
            if critical >> i & 1:
                bad += w
        return bad / total if total else 0.0

    def face_counts(self) -> dict[int, int]:
        """Identity counts of the other hands."""
        out: dict[int, int] = {}
        for seat, hand in enumerate(self.t.hands):
            if seat != self.me:
                for k in hand:
                    i = self.face[k.id]
                    out[i] = out.get(i, 0) + 1
        return out

    def someone_can_play(self) -> bool:
        playable = self.t.playable()
        return any(playable >> self.face[k.id] & 1
                   for seat, hand in enumerate(self.t.hands) if seat != self.me for k in hand)

    def play_score(self, mask: int, weights: Sequence[int]) -> float:
        """Prefer low cards, and cards nobody else holds a copy of."""
        seen = self.face_counts()
        total = score = 0.0
        for i in bits(mask):
            w = max(weights[i], 0)
            total += w
            score += w * (10 - (i % 5 + 1)) / (1 + seen.get(i, 0))
        return score / total if total else 0.0
