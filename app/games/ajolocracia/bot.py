"""Ajolocracia's bot: flat Monte Carlo over the rest of the round, from the seat's view only.

Two players of the game live here:

- :func:`best_card`, a greedy rule (the rough worth of adding one card to what is already in
  front), which the engine's ``timeout_action`` uses for a seat whose timer ran out;
- :data:`BOT`, the bot seat. For each distinct kind of card in its hand it plays the rest of
  the round out many times: the other hands are dealt at random from the cards it has not
  seen (the same sampled worlds for every candidate, to compare them fairly), every seat then
  picks with the greedy rule, and the round is scored exactly (citizenship against the
  others, sets, Ambystomas on environments) with the value cards' end-of-game awards. It
  picks the kind with the best average of its score minus the others' mean. With an INE in
  front each candidate is a first kind and, as its second card, the one the greedy rule
  takes once the first is down.

It reads only the seat's view (its hand, every tableau, hand sizes) and history (the cards
revealed in earlier rounds, to leave them out of the unseen pool); never a hidden card.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from app.games.ajolocracia.data import (
    ENV_MULTIPLIER,
    ENVIRONMENT,
    INE,
    KIND,
    KINDS,
    VALUE,
)
from app.games.ajolocracia.scoring import institutions, value_bonus
from app.games.base import JSON, Action, Rng

# rough worth of cards whose points depend on the future or on others (greedy rule)
VALUE_WORTH = 3.0
INE_WORTH = 1.5
ENVIRONMENT_WORTH = 2.0
FACE_WORTH = 1.0

WORLDS = 10  # sampled deals of the hidden hands per decision ...
MAX_WORK = 2000  # ... fewer (down to 6) when worlds x candidates x cards in hands is above
VALUE_WEIGHT = {1: 0.5, 2: 0.75, 3: 1.0}  # value awards counted by round (more to come)


def card_worth(kind: str, own: Sequence[str], free_environments: int) -> float:
    """How much ``kind`` adds to a tableau holding ``own`` (rough, for a greedy choice)."""
    card = KIND[kind]
    if card.faces:
        return card.faces * FACE_WORTH
    if card.base:
        return float(card.base * (ENV_MULTIPLIER if free_environments else 1))
    if kind == "isopods_algae":
        return 5.0 if own.count(kind) % 2 == 1 else 2.5
    if kind == "beetles_annelids":
        return (2.0, 4.0, 10.0)[own.count(kind) % 3]
    if kind == "institution":
        have = own.count(kind)
        return float(institutions(have + 1) - institutions(have))
    if kind == ENVIRONMENT:
        return ENVIRONMENT_WORTH / (1 + free_environments)
    if kind == INE:
        return INE_WORTH
    if kind == VALUE:
        return VALUE_WORTH
    return 0.0


def best_card(hand: Sequence[int], own: Sequence[str], kinds: Sequence[str],
              free_environments: int = 0) -> int:
    """The hand's card (an id) worth most to its holder; the first one on ties."""
    if not hand:
        raise ValueError("empty hand")
    return max(hand, key=lambda c: (card_worth(kinds[c], own, free_environments),
                                    -hand.index(c)))


# --------------------------------------------------------------------------- simulation
# Kinds are small integers (their order in data.KINDS) inside the simulation.

NAMES = tuple(k.id for k in KINDS)
INDEX = {name: i for i, name in enumerate(NAMES)}
FACES = tuple(k.faces for k in KINDS)
BASE = tuple(k.base for k in KINDS)
COUNTS = tuple(k.count for k in KINDS)
ISO, BEETLE, INST = INDEX["isopods_algae"], INDEX["beetles_annelids"], INDEX["institution"]
ENV, INE_I, VAL = INDEX[ENVIRONMENT], INDEX[INE], INDEX[VALUE]
INST_GAIN = tuple(institutions(n + 1) - institutions(n) for n in range(16))
AMBYSTOMA_KINDS = tuple(i for i, base in enumerate(BASE) if base)
# the greedy rule's worth of kinds that do not depend on what is in front
STATIC_WORTH = tuple(FACES[i] * 1.2 if FACES[i] else float(BASE[i]) if BASE[i] else 3.0
                     for i in range(len(NAMES)))


class Seat:
    """One seat's cards this round, as counts (and its value cards over the game)."""

    __slots__ = ("counts", "free_env", "amb", "faces", "values", "ine")

    def __init__(self, counts: list[int], free_env: int, amb: int, faces: int, values: int,
                 ine: int) -> None:
        self.counts = counts
        self.free_env = free_env
        self.amb = amb
        self.faces = faces
        self.values = values
        self.ine = ine

    def copy(self) -> Seat:
        return Seat(list(self.counts), self.free_env, self.amb, self.faces, self.values,
                    self.ine)

    def worth(self, kind: int, left: int) -> float:
        """The greedy rule on counts; ``left`` = picks this seat still has after this one."""
        return self.worths(left)[kind]

    def worths(self, left: int) -> list[float]:
        """:meth:`worth` of every kind at once (the rollouts' hot path)."""
        counts = self.counts
        vec = list(STATIC_WORTH)
        if self.free_env:
            for kind in AMBYSTOMA_KINDS:
                vec[kind] = float(BASE[kind] * ENV_MULTIPLIER)
        have = counts[ISO]
        vec[ISO] = 5.0 if have % 2 else (2.5 if left else 0.0)
        have = counts[BEETLE] % 3
        vec[BEETLE] = 10.0 if have == 2 else (3.5 if left >= 2 - have else 0.0)
        vec[INST] = float(INST_GAIN[min(counts[INST], 15)]) + (1.0 if left else 0.0)
        vec[ENV] = 2.0 if left >= 2 else 0.0
        vec[INE_I] = 2.5 if left >= 3 else 0.0
        return vec

    def place(self, kinds: Sequence[int]) -> None:
        """Reveal ``kinds`` together: Ambystomas take environments placed before."""
        free = self.free_env
        for kind in (kinds if len(kinds) == 1 else sorted(kinds, key=lambda k: -BASE[k])):
            base = BASE[kind]
            if base:
                if free:
                    free -= 1
                    self.amb += base * ENV_MULTIPLIER
                else:
                    self.amb += base
        self.free_env = free
        for kind in kinds:
            if kind == VAL:
                self.values += 1
                continue
            self.counts[kind] += 1
            self.faces += FACES[kind]
            if kind == ENV:
                self.free_env += 1
            elif kind == INE_I:
                self.ine += 1


def round_points(seats: Sequence[Seat]) -> list[int]:
    """Each seat's points for the round (data.py and scoring.py's rules, on counts)."""
    faces = [s.faces for s in seats]
    civic = [0] * len(seats)
    scoring = [f for f in faces if f > 0]
    if scoring:
        top = max(scoring)
        leaders = [i for i, f in enumerate(faces) if f == top]
        for i in leaders:
            civic[i] = 6 // len(leaders)
        rest = [f for f in scoring if f < top]
        if len(leaders) == 1 and rest:
            second = max(rest)
            seconds = [i for i, f in enumerate(faces) if f == second]
            for i in seconds:
                civic[i] = 3 // len(seconds)
    return [civic[i] + s.counts[ISO] // 2 * 5 + s.counts[BEETLE] // 3 * 10
            + institutions(s.counts[INST]) + s.amb for i, s in enumerate(seats)]


def greedy_picks(seat: Seat, hand: list[int], left: int, two: bool) -> list[int]:
    """The greedy rule's pick (two cards with an INE in front), as positions in ``hand``."""
    vec = seat.worths(left)
    values = [vec[k] for k in hand]
    best = values.index(max(values))
    if not two or len(hand) < 2:
        return [best]
    vec = seat.worths(left - 1)
    values = [vec[k] for k in hand]
    values[best] = -1.0
    return [best, values.index(max(values))]


def play_out(seats: list[Seat], hands: list[list[int]], step: int) -> list[Seat]:
    """Finish the round from the given hands with every seat greedy; hands are consumed."""
    n = len(seats)
    while max(len(h) for h in hands) > 1:
        for p in range(n):
            hand = hands[p]
            if not hand:
                continue
            two = seats[p].ine > 0 and len(hand) >= 2
            chosen = greedy_picks(seats[p], hand, len(hand) - 2, two)
            picked = [hand[i] for i in chosen]
            for i in sorted(chosen, reverse=True):
                hand.pop(i)
            if two:
                seats[p].ine -= 1
                seats[p].counts[INE_I] -= 1
                hand.append(INE_I)
            seats[p].place(picked)
        hands = [hands[(p - step) % n] for p in range(n)]
    for p in range(n):
        if hands[p]:
            seats[p].place(hands[p])
    return seats


# --------------------------------------------------------------------------- the bot


def _tableau_seat(player: JSON) -> Seat:
    counts = [0] * len(NAMES)
    tableau = player["tableau"]
    amb = faces = free = 0
    for group, cards in tableau.items():
        if group == "values":
            continue
        for card in cards:
            kind = INDEX[card["kind"]]
            counts[kind] += 1
            faces += FACES[kind]
            if kind == ENV:
                resident = card.get("ambystoma")
                if resident is None:
                    free += 1
                else:
                    counts[INDEX[resident["kind"]]] += 1
                    amb += BASE[INDEX[resident["kind"]]] * ENV_MULTIPLIER
            elif BASE[kind]:
                amb += BASE[kind]
    return Seat(counts, free, amb, faces, int(player["values"]), counts[INE_I])


def _past_cards(history: Sequence[JSON], current_round: int) -> dict[int, int]:
    """Cards placed in earlier rounds (id -> kind), read from the revealed picks."""
    seen: dict[int, int] = {}
    for entry in history:
        for event in entry.get("events", ()):
            if event.get("type") not in ("revealed", "last_cards"):
                continue
            if event.get("round", current_round) >= current_round:
                continue
            for pick in event.get("picks", ()):
                for card in pick.get("cards", ()):
                    seen[int(card["id"])] = INDEX[card["kind"]]
    return seen


def unseen_pool(view: JSON, history: Sequence[JSON]) -> list[int]:
    """The kinds the seat has not seen this game: the deck less everything it saw."""
    left = list(COUNTS)
    seen: dict[int, int] = _past_cards(history, int(view["round"]))
    for card in view["hand"]:
        seen[int(card["id"])] = INDEX[card["kind"]]
    for player in view["players"]:
        for cards in player["tableau"].values():
            for card in cards:
                seen[int(card["id"])] = INDEX[card["kind"]]
                resident = card.get("ambystoma")
                if resident:
                    seen[int(resident["id"])] = INDEX[resident["kind"]]
    for kind in seen.values():
        left[kind] -= 1
    return [k for k, n in enumerate(left) for _ in range(max(0, n))]


def _score(seats: Sequence[Seat], me: int, weight: float) -> float:
    points = [float(p) for p in round_points(seats)]
    if weight:
        bonus = value_bonus([s.values for s in seats])["total"]
        points = [p + weight * b for p, b in zip(points, bonus, strict=True)]
    others = [p for i, p in enumerate(points) if i != me]
    return points[me] - sum(others) / len(others)


class AjolocraciaBot:
    """The bot seat (see the module docstring)."""

    game = "ajolocracia"

    def choose(self, view: JSON, legal: Sequence[Action], history: Sequence[JSON],
               rng: Rng) -> Action:
        me = int(view["me"])
        hand_ids = [int(c["id"]) for c in view["hand"]]
        hand = [INDEX[c["kind"]] for c in view["hand"]]
        two = any(len(a) == 3 and a.get("second") is not None for a in legal)
        candidates = sorted(set(hand))
        if len(candidates) == 1 or len(hand) == 1:
            return self._action(hand_ids, [candidates[0]] * (2 if two else 1), hand, two)
        seats = [_tableau_seat(p) for p in view["players"]]
        n = len(seats)
        step = 1 if view["direction"] == "left" else -1
        pool = unseen_pool(view, history)
        sizes = [int(p["hand_size"]) for p in view["players"]]
        weight = VALUE_WEIGHT.get(int(view["round"]), 1.0) if n > 1 else 0.0
        worlds = max(6, min(WORLDS, MAX_WORK // (len(candidates) * max(1, sum(sizes)))))
        totals = dict.fromkeys(candidates, 0.0)
        for _ in range(worlds):
            deal = list(pool)
            rng.shuffle(deal)
            hands: list[list[int]] = []
            for p in range(n):
                if p == me:
                    hands.append([])
                    continue
                hands.append(deal[:sizes[p]])
                deal = deal[sizes[p]:]
            others_pick: list[list[int]] = []
            for p in range(n):
                if p == me or not hands[p]:
                    others_pick.append([])
                    continue
                two_p = seats[p].ine > 0 and len(hands[p]) >= 2
                others_pick.append(greedy_picks(seats[p], hands[p], len(hands[p]) - 2, two_p))
            for kind in candidates:
                world = [s.copy() for s in seats]
                now = [list(h) for h in hands]
                now[me] = list(hand)
                picks = self._own_picks(world[me], hand, kind, two)
                for p in range(n):
                    chosen = picks if p == me else others_pick[p]
                    if not chosen:
                        continue
                    picked = [now[p][i] for i in chosen]
                    for i in sorted(chosen, reverse=True):
                        now[p].pop(i)
                    if len(chosen) == 2:
                        world[p].ine -= 1
                        world[p].counts[INE_I] -= 1
                        now[p].append(INE_I)
                    world[p].place(picked)
                now = [now[(p - step) % n] for p in range(n)]
                play_out(world, now, step)
                totals[kind] += _score(world, me, weight)
        best = max(candidates, key=lambda k: (totals[k], -k))
        picks = self._own_picks(seats[me], hand, best, two)
        return self._action(hand_ids, [hand[i] for i in picks], hand, two)

    @staticmethod
    def _own_picks(seat: Seat, hand: list[int], kind: int, two: bool) -> list[int]:
        first = hand.index(kind)
        if not two:
            return [first]
        after = seat.copy()
        after.place([kind])  # the second card is the greedy one once the first is down
        worths = after.worths(len(hand) - 3)
        rest = [i for i in range(len(hand)) if i != first]
        second = max(rest, key=lambda i: (worths[hand[i]], -i))
        return [first, second]

    @staticmethod
    def _action(ids: list[int], kinds: list[int], hand: list[int], two: bool) -> Action:
        used: list[int] = []
        for kind in kinds:
            for i, k in enumerate(hand):
                if k == kind and i not in used:
                    used.append(i)
                    break
        used.sort()  # the order of the hand, as the legal actions list pairs
        action: dict[str, Any] = {"type": "pick", "card": ids[used[0]]}
        if two and len(used) == 2:
            action["second"] = ids[used[1]]
        return action


BOT = AjolocraciaBot()
