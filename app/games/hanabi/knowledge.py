"""What the table knows about every card in every hand, rebuilt from a seat's view.

The bot (``app.games.hanabi.bot``) sees only its seat's view. Everything here is derived from
the public part of it (the log, the fireworks, the discard), so every player who follows the
same conventions reaches the same conclusions: this is the table's *common knowledge*. The
bot then narrows its own cards further with what only it can see (the other hands).

A card identity is a small integer ``color_index * 5 + rank - 1``; a set of identities is an
int bitmask. Each card in a hand carries:

- ``lit``: what the clues literally said (never wrong);
- ``conv``: what the conventions add (a clue's focus is playable, or worth saving); a card
  whose conventional set turns out impossible falls back to ``lit``, so a partner who breaks
  the conventions can mislead the bot but never make it believe something impossible;
- ``touched``: a clue has named it (good touch: a clued card is not useless).

The conventions read here are the common ones (see the rules page, "Playing with bots"):
the *chop* is the oldest card nobody clued; a clue's *focus* is the chop if the clue touched
it, else the newest card it newly touched; the focus is a card to play now or once the
cards everybody knows are played (a *play clue*), or, on the chop only, a card worth
keeping (a *save clue*: the last copy of a card, a 5, or a 2 named by a "2" clue).
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any

from app.games.hanabi.data import COPIES, HAND_SIZE, MULTICOLOR

JSON = dict[str, Any]


def popcount(mask: int) -> int:
    return bin(mask).count("1")


def lowest(mask: int) -> int:
    """Index of the lowest identity in a non-empty set."""
    return (mask & -mask).bit_length() - 1


def bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


class Knol:
    """The table's knowledge about one card in a hand (see the module docstring)."""

    __slots__ = ("id", "lit", "conv", "apart", "touched")

    def __init__(self, card_id: int, everything: int) -> None:
        self.id = card_id
        self.lit = everything
        self.conv = everything
        self.apart = 0  # identities other clued cards turned out to be (good touch)
        self.touched = False

    def clone(self) -> Knol:
        k = Knol(self.id, self.lit)
        k.conv, k.apart, k.touched = self.conv, self.apart, self.touched
        return k


class Table:
    """The public state of a game, replayed from a view's log (plus the faces the seat sees).

    ``beliefs()`` gives every card's common-knowledge set of identities; ``private()`` the
    seat's own narrower sets for its cards.
    """

    def __init__(self, colors: Sequence[str], seats: int, max_clues: int) -> None:
        self.colors = tuple(colors)
        self.nc = len(self.colors)
        self.n = self.nc * 5
        self.all = (1 << self.n) - 1
        self.seats = seats
        self.max_clues = max_clues
        self.copies = [1 if self.colors[i // 5] == MULTICOLOR else COPIES[i % 5 + 1]
                       for i in range(self.n)]
        self.color_mask = [sum(1 << (c * 5 + r) for r in range(5)) for c in range(self.nc)]
        self.rank_mask = [0] + [sum(1 << (c * 5 + r - 1) for c in range(self.nc))
                                for r in range(1, 6)]
        self.fw = [0] * self.nc
        self.discarded = [0] * self.n
        self.gone = [0] * self.n  # played or discarded
        self.hands: list[list[Knol]] = []
        self.deck = 0
        self.clues = max_clues
        self.next_id = 0
        self._cache: dict[Any, dict[int, int]] = {}  # beliefs, cleared by any move
        self._fixed: JSON = {}  # playable/trash/critical sets, cleared by plays and discards
        self.good_touch = True  # the human conventions' reading of clued cards (not the hat's)

    # ------------------------------------------------------------------ identities

    def ident(self, color: str, rank: int) -> int:
        return self.colors.index(color) * 5 + rank - 1

    def name(self, i: int) -> str:
        return f"{self.colors[i // 5]}{i % 5 + 1}"

    def playable(self) -> int:
        if "playable" in self._fixed:
            return int(self._fixed["playable"])
        out = 0
        for c, h in enumerate(self.fw):
            if h < 5:
                out |= 1 << (c * 5 + h)
        self._fixed["playable"] = out
        return out

    def trash(self) -> int:
        """Identities that can never score again (played already, or a lower card is gone)."""
        if "trash" in self._fixed:
            return int(self._fixed["trash"])
        out = 0
        for c, h in enumerate(self.fw):
            base = c * 5
            dead = False
            for r in range(5):
                i = base + r
                if r < h or dead:
                    out |= 1 << i
                elif self.discarded[i] >= self.copies[i]:
                    dead = True  # every card above this one is unreachable
        self._fixed["trash"] = out
        return out

    def critical(self) -> int:
        """Useful identities of which only one copy is left."""
        if "critical" in self._fixed:
            return int(self._fixed["critical"])
        out = 0
        for i in range(self.n):
            if self.copies[i] - self.discarded[i] == 1:
                out |= 1 << i
        out &= ~self.trash()
        self._fixed["critical"] = out
        return out

    def max_score(self) -> int:
        """The best score still reachable, given what was discarded."""
        total = 0
        for c, h in enumerate(self.fw):
            r = h
            while r < 5 and self.discarded[c * 5 + r] < self.copies[c * 5 + r]:
                r += 1
            total += r
        return total

    # ------------------------------------------------------------------ replay

    def start(self) -> None:
        hand_size = HAND_SIZE[self.seats]
        self.hands = [[] for _ in range(self.seats)]
        self.deck = sum(self.copies)
        for seat in range(self.seats):
            for _ in range(hand_size):
                self.draw(seat)

    def draw(self, seat: int) -> None:
        if self.deck <= 0:
            return
        self.hands[seat].append(Knol(self.next_id, self.all))
        self.next_id += 1
        self.deck -= 1

    def remove(self, seat: int, card_id: int) -> Knol:
        hand = self.hands[seat]
        for index, k in enumerate(hand):
            if k.id == card_id:
                return hand.pop(index)
        raise ValueError(f"card {card_id} is not in seat {seat}'s hand")

    def reveal(self, seat: int, card_id: int, ident: int) -> None:
        """A card leaves a hand face up. Good touch: clued cards are all different, so a
        clued card shown to be ``ident`` tells every other clued card it is not."""
        card = self.remove(seat, card_id)
        if not card.touched or not self.good_touch:
            return
        for hand in self.hands:
            for k in hand:
                if k.touched:
                    k.apart |= 1 << ident

    def play(self, seat: int, card_id: int, ident: int) -> None:
        self.reveal(seat, card_id, ident)
        c, r = divmod(ident, 5)
        self.gone[ident] += 1
        self._cache.clear()
        self._fixed.clear()
        if self.fw[c] == r:
            self.fw[c] = r + 1
            if r == 4 and self.clues < self.max_clues:
                self.clues += 1
        else:
            self.discarded[ident] += 1
        self.draw(seat)

    def discard(self, seat: int, card_id: int, ident: int) -> None:
        self.reveal(seat, card_id, ident)
        self.gone[ident] += 1
        self.discarded[ident] += 1
        self.clues += 1
        self._cache.clear()
        self._fixed.clear()
        self.draw(seat)

    def fork(self, target: int) -> Table:
        """A copy in which ``target``'s hand may be changed (to try a clue on it)."""
        t = copy.copy(self)
        t.hands = list(self.hands)
        t.hands[target] = [k.clone() for k in self.hands[target]]
        t._cache = {}
        t._fixed = dict(self._fixed)
        return t

    def clue_mask(self, clue: JSON) -> int:
        if "color" in clue:
            return self.color_mask[self.colors.index(clue["color"])]
        return self.rank_mask[int(clue["rank"])]

    def chop(self, seat: int) -> Knol | None:
        for k in self.hands[seat]:
            if not k.touched:
                return k
        return None

    def apply_literal(self, target: int, clue: JSON, touched: Sequence[int]) -> None:
        """A clue read for what it says and nothing more."""
        self.clues -= 1
        self._cache.clear()
        mask = self.clue_mask(clue)
        named = set(touched)
        for k in self.hands[target]:
            if k.id in named:
                k.lit &= mask
                k.touched = True
            else:
                k.lit &= ~mask

    def apply_clue(self, target: int, clue: JSON, touched: Sequence[int]) -> bool:
        """A clue, read literally and then by the conventions (the module docstring).

        False when the conventions cannot make sense of it: its focus can be neither a card
        to play nor one to save (nor is it known to be useless)."""
        self.clues -= 1
        self._cache.clear()
        hand = self.hands[target]
        mask = self.clue_mask(clue)
        chop = self.chop(target)
        named = set(touched)
        new = []
        trash = self.trash()
        for k in hand:
            if k.id in named:
                k.lit &= mask
                if not k.touched:
                    new.append(k)
                    if k.lit & k.conv & ~trash:
                        k.conv &= ~trash  # good touch: a clue names no useless card
                k.touched = True
            else:
                k.lit &= ~mask
        if not named:
            return True  # an empty clue (a table option) says only what it literally says
        beliefs = self.beliefs()
        playable = self.playable()
        chop_focus = chop is not None and chop in new
        if chop_focus:
            focus = chop
        elif new:
            focus = new[-1]
        else:
            # a clue naming only cards clued before: play the newest one not yet known
            focus = None
            for k in reversed(hand):
                if k.id in named:
                    b = beliefs[k.id]
                    if b & ~playable and b & ~self.trash():
                        focus = k
                        break
            if focus is None:
                return True
        assert focus is not None
        b = beliefs[focus.id]
        keep = b & self.reachable(beliefs, focus.id)
        if chop_focus:
            save = self.critical()
            if "rank" in clue and int(clue["rank"]) == 2:
                save |= self.rank_mask[2] & ~self.trash()
            keep |= b & save
        if not keep:
            keep = self.prompt(target, focus, b, beliefs)
        self._cache.clear()  # the beliefs worked out above are about to change
        if keep:
            focus.conv &= keep
            if not focus.conv & focus.lit:
                focus.conv = keep
            return True
        return not b & ~self.trash()

    def prompt(self, target: int, focus: Knol, b: int, beliefs: dict[int, int]) -> int:
        """A play clue on a card one step beyond what anybody knows is playable, to a
        player holding a clued card that may be the missing step: that card is the
        missing step (a *prompt*), and the focus comes right after it. Returns the
        identities the focus may then be; when they are all of one colour, the newest
        such clued card is marked as the missing step."""
        known = self._known(beliefs, focus.id)
        out = 0
        steps: list[tuple[Knol, int]] = []
        for c, h in enumerate(self.fw):
            while h < 5 and c * 5 + h in known:
                h += 1
            if h >= 4 or not b >> (c * 5 + h + 1) & 1:
                continue
            missing = c * 5 + h
            for k in reversed(self.hands[target]):
                kb = beliefs[k.id]
                if k is not focus and k.touched and kb >> missing & 1 and kb & (kb - 1):
                    steps.append((k, missing))
                    out |= 1 << (missing + 1)
                    break
        if len(steps) == 1:
            k, missing = steps[0]
            if k.lit & (1 << missing):
                k.conv = 1 << missing
        return out

    def _known(self, beliefs: dict[int, int], exclude: int) -> set[int]:
        known: set[int] = set()
        for hand in self.hands:
            for k in hand:
                b = beliefs[k.id]
                if k.id != exclude and b and not b & (b - 1):
                    known.add(lowest(b))
        return known

    def reachable(self, beliefs: dict[int, int], exclude: int = -1) -> int:
        """Identities playable now, or once cards everybody knows (in any hand) are played."""
        known = self._known(beliefs, exclude)
        out = 0
        for c, h in enumerate(self.fw):
            r = h
            while r < 5:
                out |= 1 << (c * 5 + r)
                if c * 5 + r not in known:
                    break
                r += 1
        return out

    # ------------------------------------------------------------------ beliefs

    def beliefs(self, seen: Sequence[int] | None = None, only: int | None = None,
                strict: bool = False) -> dict[int, int]:
        """Card id -> set of identities it may be.

        Without arguments: the common knowledge. ``seen`` (identity counts the viewer sees
        in other hands) and ``only`` (the viewer's seat) give one seat's private sets for its
        own cards; the other seats' cards keep their common-knowledge sets. ``strict`` leaves
        out what good touch adds after a clue (that clued cards are all different), which
        a partner's mistake can make wrong.
        """
        key = (only, tuple(seen) if seen is not None else None, strict)
        cached = self._cache.get(key)
        if cached is not None:
            return dict(cached)
        if only is not None and seen is not None:
            out = self.beliefs(strict=strict)
            counts = [g + s for g, s in zip(self.gone, seen, strict=True)]
            self._eliminate(out, [k.id for k in self.hands[only]], counts)
        else:
            out = {}
            touched: list[int] = []
            for hand in self.hands:
                for k in hand:
                    b = k.lit & k.conv or k.lit
                    if k.apart and not strict:
                        b = b & ~k.apart or b
                    out[k.id] = b
                    if k.touched:
                        touched.append(k.id)
            # good touch: a clued card is not another clued card that everybody can name
            named = 0
            for cid in touched:
                b = out[cid]
                if not b & (b - 1):
                    named |= b
            if named and not strict:
                for cid in touched:
                    b = out[cid]
                    if b & (b - 1):
                        nb = b & ~named
                        if nb:
                            out[cid] = nb
            self._eliminate(out, list(out), self.gone)
        self._cache[key] = dict(out)
        return out

    def _eliminate(self, out: dict[int, int], ids: list[int], base: Sequence[int]) -> None:
        """Remove identities whose every copy is accounted for (seen, played, discarded or
        known in some hand) from the cards in ``ids`` that are not themselves known."""
        copies = self.copies
        full0 = 0
        for i, n in enumerate(base):
            if n >= copies[i]:
                full0 |= 1 << i
        for _ in range(8):
            extra: dict[int, int] = {}
            for cid in ids:
                b = out[cid]
                if not b & (b - 1):
                    extra[b] = extra.get(b, 0) + 1
            full = full0
            for bit, n in extra.items():
                i = bit.bit_length() - 1
                if base[i] + n >= copies[i]:
                    full |= bit
            if not full:
                return
            changed = False
            for cid in ids:
                b = out[cid]
                if b & (b - 1) and b & full:
                    nb = b & ~full
                    if nb:
                        out[cid] = nb
                        changed = True
            if not changed:
                return


def replay(view: JSON) -> Table:
    """The table's common knowledge after every move in ``view['log']``."""
    t = Table(view["colors"], int(view["seats"]), int(view["max_clues"]))
    t.start()
    for entry in view["log"]:
        kind = entry["type"]
        if kind == "clue":
            t.apply_clue(int(entry["target"]), entry, entry["cards"])
        elif kind in ("play", "discard"):
            card = entry["card"]
            ident = t.ident(card["color"], int(card["rank"]))
            if kind == "play":
                t.play(int(entry["seat"]), int(card["id"]), ident)
            else:
                t.discard(int(entry["seat"]), int(card["id"]), ident)
    return t
