"""The Alebrijes engine (RULES.md §3): a pure state machine, no I/O, all randomness seeded.

Phases: ``exchange`` (round start: in turn order from the starter each player may swap 0-2
cards with the deck), ``trick`` (the leader plays, then every other player clockwise gets
one chance to beat or pass), ``ollin`` (the player whose play triggered an Ollin effect
chooses it before the trick goes on) and ``over``.

Actions (the seat comes from the connection, never from the action):

- ``{"type": "exchange", "cards": [id, ...]}``: round start, 0 to 2 of your card ids (no
  more than the deck holds).
- ``{"type": "play", "suit": S, "number": v, "count": n, "wilds": w, "ollin": k}``: n
  cards of number v for suit S, of which w are wild cards of number v and k are suited
  cards carrying Ollin (the other n-w-k are suited cards without Ollin). Equal cards are
  interchangeable, so this says everything a player can choose; with w == n the wild cards
  declare suit S. ``ollin`` may be left out (then as few Ollin cards as possible are used).
  ``legal_actions`` lists every distinct playable combination once (a few dozen at most).
- ``{"type": "pass", "cards": [id, ...]}``: pass and swap 0-2 cards (no more than the
  deck holds; ``cards`` may be left out for a plain pass).
- ``{"type": "ollin", "effect": "draw" | "none"}`` or
  ``{"type": "ollin", "effect": "discard", "card": id}``: the Ollin choice.

Rulings made here (besides RULES.md):

- **Card ids** are handed out in draw order for the whole game, so an id says when a card
  was drawn, never what it is.
- **Discards**: cards from finished tricks were shown to everyone, so they stay public (the
  view lists them); cards discarded by an exchange, a pass or an Ollin effect were never
  shown (the rulebook has them discarded, not revealed) and stay hidden; only their count
  is public. The discard pile is never used again, as the deck is never rebuilt.
- **Exchanging near the end of the deck**: you may swap at most as many cards as the deck
  holds (RULES.md: with an empty deck, none).
- **An Ollin effect that can do nothing** (one Ollin card with an empty deck) is skipped
  without asking.
- **The token** for the next round's tie-break is held by the leader of the trick in which
  the round ended (the rulebook hands it to each trick's winner); among tied worst totals
  the one nearest clockwise from it, the holder itself first, starts.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

from app.games.alebrijes.combos import Combo, HandCard, beats, combos_in, pick
from app.games.alebrijes.data import (
    CARDS,
    MAX_EXCHANGE,
    MAX_PLAYERS,
    MIN_PLAYERS,
    NUMBERS,
    ROUNDS,
    SUITS,
    WILD,
    face,
    hand_size,
    next_suit,
)
from app.games.alebrijes.scoring import (
    final_ranking,
    hand_points,
    next_starter,
    suit_penalties,
)
from app.games.base import (
    JSON,
    Action,
    BaseEngine,
    Event,
    Field,
    OptionSpec,
    Outcome,
    Rng,
    Seat,
    check_action,
    first_seat,
    first_seat_option,
    require,
)

# every action's fields (app.games.base.check_action); numbers and suits are checked by the
# rules below, with their own error codes
ACTIONS = {
    "exchange": {"cards": Field("ints")},
    "pass": {"cards": Field("ints", required=False)},
    "play": {"suit": Field("str"), "number": Field("int"), "count": Field("int"),
             "wilds": Field("int"), "ollin": Field("int", required=False)},
    "ollin": {"effect": Field("str"), "card": Field("int", required=False)},
}
SORT_SUITS = (*SUITS, WILD)


@dataclass
class AlebrijesState:
    """Everything about a game. The deck is card indexes, top last; hand cards are
    ``[id, card index]``; ``face_down`` holds ``[owner, card index]``."""

    seats: int
    options: dict[str, Any]
    rng: int
    round: int
    starter: int
    phase: str  # "exchange" | "trick" | "ollin" | "over"
    current: int
    leader: int
    deck: list[int]
    hands: list[list[HandCard]]
    next_id: int
    exchanged: int = 0
    trick: list[JSON] = field(default_factory=list)  # {"seat", "move", "combo", "cards"}
    best: int | None = None  # index in ``trick`` of the combination to beat
    played: list[int] = field(default_factory=list)
    face_down: list[list[int]] = field(default_factory=list)
    ollin: JSON | None = None  # {"seat", "size"}
    totals: list[int] = field(default_factory=list)
    rounds: list[JSON] = field(default_factory=list)

    def clone(self) -> AlebrijesState:
        # trick entries and round records are never mutated once appended
        return AlebrijesState(
            seats=self.seats, options=dict(self.options), rng=self.rng, round=self.round,
            starter=self.starter, phase=self.phase, current=self.current,
            leader=self.leader, deck=list(self.deck),
            hands=[[list(c) for c in h] for h in self.hands], next_id=self.next_id,
            exchanged=self.exchanged, trick=list(self.trick), best=self.best,
            played=list(self.played), face_down=[list(f) for f in self.face_down],
            ollin=None if self.ollin is None else dict(self.ollin),
            totals=list(self.totals), rounds=list(self.rounds),
        )


def card_json(card: HandCard) -> JSON:
    return {"id": card[0], **face(card[1])}


def sort_key(card: HandCard) -> tuple[int, int, bool, int]:
    c = CARDS[card[1]]
    return (SORT_SUITS.index(c.suit), c.number, c.ollin, card[0])


def combo_of(data: JSON) -> Combo:
    return Combo(data["suit"], data["number"], data["count"], data["wilds"], data["ollin"])


class AlebrijesEngine(BaseEngine):
    """Alebrijes for 3 to 6 players: three rounds of climbing and shedding."""

    id: str = "alebrijes"
    name: str = "Alebrijes"
    min_players: int = MIN_PLAYERS
    max_players: int = MAX_PLAYERS
    options: tuple[OptionSpec, ...] = (first_seat_option(MAX_PLAYERS),)
    simultaneous: bool = False

    # ----------------------------------------------------------------------- setup

    def setup(self, seats: int, options: Mapping[str, Any], seed: int) -> AlebrijesState:
        resolved = self.check_setup(seats, options)
        rng = Rng.from_seed(seed)
        starter = first_seat(resolved, seats, rng)
        state = AlebrijesState(
            seats=seats, options=resolved, rng=rng.state, round=1, starter=starter,
            phase="exchange", current=starter, leader=starter, deck=[],
            hands=[[] for _ in range(seats)], next_id=0, totals=[0] * seats,
        )
        _deal(state)
        return state

    @staticmethod
    def opening(state: AlebrijesState) -> list[Event]:
        """The log's first line, as a later round's start gives it."""
        return [_round_started(state)]

    # ----------------------------------------------------------------------- queries

    def to_act(self, state: AlebrijesState) -> set[Seat]:
        return set() if state.phase == "over" else {state.current}

    def legal_actions(self, state: AlebrijesState, seat: Seat) -> list[Action]:
        if state.phase == "over" or seat != state.current:
            return []
        hand = state.hands[seat]
        if state.phase == "exchange":
            return [{"type": "exchange", "cards": ids} for ids in _swaps(state, seat)]
        if state.phase == "ollin":
            return _ollin_actions(state, seat)
        actions: list[Action] = []
        best = self._best(state)
        if best is not None:
            actions = [{"type": "pass", "cards": ids} for ids in _swaps(state, seat)]
        actions += [c.to_action() for c in combos_in(hand) if best is None or beats(c, best)]
        return actions

    @staticmethod
    def _best(state: AlebrijesState) -> Combo | None:
        return None if state.best is None else combo_of(state.trick[state.best]["combo"])

    # ----------------------------------------------------------------------- apply

    def apply(self, state: AlebrijesState, seat: Seat,
              action: Action) -> tuple[AlebrijesState, list[Event]]:
        kind = check_action(action, ACTIONS)
        require(state.phase != "over", "game_over", "the game is over")
        require(seat == state.current, "not_your_turn", "it is not your turn")
        new = state.clone()
        events: list[Event] = []
        if kind == "exchange":
            require(new.phase == "exchange", "wrong_phase",
                    "cards are exchanged before the round's first trick")
            self._swap(new, seat, action, "exchanged", events)
            new.exchanged += 1
            if new.exchanged == new.seats:
                new.phase = "trick"
                new.current = new.leader = new.starter
                events.append(Event("trick_started", {"leader": new.leader}))
            else:
                new.current = (seat + 1) % new.seats
        elif kind == "ollin":
            require(new.phase == "ollin", "no_ollin", "there is no Ollin effect to choose")
            self._ollin(new, seat, action, events)
        else:
            require(new.phase == "trick", "wrong_phase",
                    "finish the exchange or the Ollin choice first")
            if kind == "pass":
                require(new.best is not None, "must_lead", "the leader must play cards")
                self._swap(new, seat, action, "passed", events)
                new.trick.append({"seat": seat, "move": "pass", "combo": None, "cards": []})
                self._advance(new, seat, events)
            else:
                self._play(new, seat, action, events)
        return new, events

    def _swap(self, state: AlebrijesState, seat: Seat, action: Action, kind: str,
              events: list[Event]) -> None:
        """Discard the chosen cards face down and draw as many (exchange or pass)."""
        ids = action.get("cards", [])
        require(isinstance(ids, list) and all(isinstance(i, int) and not isinstance(i, bool)
                                              for i in ids),
                "bad_action", "cards must be a list of card ids")
        require(len(set(ids)) == len(ids), "bad_action", "a card is listed twice")
        require(len(ids) <= MAX_EXCHANGE, "too_many_cards",
                f"you may exchange at most {MAX_EXCHANGE} cards")
        require(len(ids) <= len(state.deck), "deck_empty",
                "the deck does not hold that many cards")
        hand = state.hands[seat]
        chosen = [c for c in hand if c[0] in ids]
        require(len(chosen) == len(ids), "not_in_hand", "that card is not in your hand")
        for card in chosen:
            hand.remove(card)
            state.face_down.append([seat, card[1]])
        drawn = [_draw(state, seat) for _ in chosen]
        events.append(Event(kind, {"seat": seat, "count": len(ids),
                                   "discarded": [card_json(c) for c in chosen],
                                   "drawn": [card_json(c) for c in drawn],
                                   "deck": len(state.deck)},
                            visible_to=frozenset({seat}),
                            redacted={"seat": seat, "count": len(ids),
                                      "deck": len(state.deck)}))

    def _play(self, state: AlebrijesState, seat: Seat, action: Action,
              events: list[Event]) -> None:
        suit = action["suit"]
        number = action["number"]
        count = action["count"]
        wilds = action["wilds"]
        require(suit in SUITS, "bad_suit", "the suit must be blue, green, pink or orange")
        require(number in NUMBERS, "bad_number", "the number must be 1 to 5")
        require(count >= 1, "bad_count", "play at least one card")
        require(0 <= wilds <= count, "bad_count", "wilds must be between 0 and count")
        hand = state.hands[seat]
        if "ollin" in action:
            ollin = action["ollin"]
            require(0 <= ollin <= count - wilds, "bad_count",
                    "ollin counts suited cards among the ones played")
            cards = pick(hand, Combo(suit, number, count, wilds, ollin))
        else:
            cards = None
            for ollin in range(count - wilds + 1):
                cards = pick(hand, Combo(suit, number, count, wilds, ollin))
                if cards is not None:
                    break
        require(cards is not None, "not_in_hand", "your hand does not hold those cards")
        assert cards is not None
        combo = Combo(suit, number, count, wilds, ollin)
        best = self._best(state)
        if best is not None:
            require(beats(combo, best), "does_not_beat", _why_not(combo, best))
        for card in cards:
            hand.remove(card)
        move = "lead" if best is None else "beat"
        state.trick.append({"seat": seat, "move": move, "combo": combo.to_json(),
                            "cards": [list(c) for c in cards]})
        state.best = len(state.trick) - 1
        # which copies (ids) were played is the player's own business: equal cards are
        # interchangeable, and an id would tell the others when that card was drawn
        shown = {"seat": seat, "move": move, "combo": combo.to_json(), "left": len(hand)}
        events.append(Event("played", {**shown, "cards": [card_json(c) for c in cards]},
                            visible_to=frozenset({seat}),
                            redacted={**shown, "cards": [face(c[1]) for c in cards]}))
        if not hand:  # going out ends the round at once: no Ollin effect
            self._end_round(state, seat, events)
            return
        if ollin and count <= 2 and (count == 2 or state.deck):
            state.phase = "ollin"
            state.ollin = {"seat": seat, "size": count}
            return
        self._advance(state, seat, events)

    def _ollin(self, state: AlebrijesState, seat: Seat, action: Action,
               events: list[Event]) -> None:
        assert state.ollin is not None
        effect = action["effect"]
        require(effect in ("draw", "discard", "none"), "bad_effect",
                "the effect is draw, discard or none")
        require(effect == "discard" or "card" not in action, "bad_action",
                "only a discard names a card")
        state.phase = "trick"
        state.ollin = None
        if effect == "draw":
            require(bool(state.deck), "deck_empty", "the deck is empty: nobody can draw")
            events.append(Event("ollin", {"seat": seat, "effect": "draw"}))
            for d in range(1, state.seats):
                other = (seat + d) % state.seats
                if not state.deck:
                    break
                card = _draw(state, other)
                events.append(Event("drew", {"seat": other, "card": card_json(card),
                                             "deck": len(state.deck)},
                                    visible_to=frozenset({other}),
                                    redacted={"seat": other, "deck": len(state.deck)}))
        elif effect == "discard":
            require(state.trick[-1]["combo"]["count"] == 2, "bad_effect",
                    "only a two-card play lets you discard")
            require("card" in action, "bad_action", "a discard names its card")
            card_id = action["card"]
            hand = state.hands[seat]
            chosen = [c for c in hand if c[0] == card_id]
            require(bool(chosen), "not_in_hand", "that card is not in your hand")
            hand.remove(chosen[0])
            state.face_down.append([seat, chosen[0][1]])
            events.append(Event("ollin", {"seat": seat, "effect": "discard",
                                          "card": card_json(chosen[0]), "left": len(hand)},
                                visible_to=frozenset({seat}),
                                redacted={"seat": seat, "effect": "discard",
                                          "left": len(hand)}))
            if not hand:
                self._end_round(state, seat, events)
                return
        else:
            events.append(Event("ollin", {"seat": seat, "effect": "none"}))
        self._advance(state, seat, events)

    def _advance(self, state: AlebrijesState, seat: Seat, events: list[Event]) -> None:
        """The next player's chance, or the end of the trick once everyone has had one."""
        if len(state.trick) < state.seats:
            state.current = (seat + 1) % state.seats
            return
        assert state.best is not None
        winner = state.trick[state.best]["seat"]
        for move in state.trick:
            state.played.extend(card for _id, card in move["cards"])
        state.trick = []
        state.best = None
        state.leader = state.current = winner
        events.append(Event("trick_won", {"seat": winner}))

    def _end_round(self, state: AlebrijesState, out: Seat, events: list[Event]) -> None:
        points = [0 if s == out else hand_points(CARDS[c] for _id, c in state.hands[s])
                  for s in range(state.seats)]
        state.totals = [t + p for t, p in zip(state.totals, points, strict=True)]
        record = {"round": state.round, "starter": state.starter, "out": out,
                  "hands": [sorted((list(c) for c in h), key=sort_key) for h in state.hands],
                  "points": points, "totals": list(state.totals)}
        state.rounds.append(record)
        events.append(Event("round_scored", round_result(record)))
        if state.round == ROUNDS:
            state.phase = "over"
            outcome = self.outcome(state)
            assert outcome is not None
            events.append(Event("game_over", {"scores": list(outcome.scores),
                                              "winners": list(outcome.winners)}))
            return
        state.round += 1
        state.starter = next_starter(state.totals, state.leader)
        state.current = state.leader = state.starter
        state.phase = "exchange"
        state.exchanged = 0
        state.trick = []
        state.best = None
        state.ollin = None
        state.played = []
        state.face_down = []
        state.hands = [[] for _ in range(state.seats)]
        _deal(state)
        events.append(_round_started(state))

    def timeout_action(self, state: AlebrijesState, seat: Seat) -> Action:
        """Keep the hand, pass, take no Ollin effect; a leader plays its first combination."""
        require(seat in self.to_act(state), "not_your_turn", "this seat has nothing to do")
        if state.phase == "exchange":
            return {"type": "exchange", "cards": []}
        if state.phase == "ollin":
            return {"type": "ollin", "effect": "none"}
        if state.best is not None:
            return {"type": "pass", "cards": []}
        return self.legal_actions(state, seat)[0]

    # ----------------------------------------------------------------------- views

    def view(self, state: AlebrijesState, seat: Seat | None) -> JSON:
        chances = {move["seat"]: move["move"] for move in state.trick}
        players = []
        for s in range(state.seats):
            players.append({
                "seat": s, "cards": len(state.hands[s]), "total": state.totals[s],
                "rounds_won": _rounds_won(state, s), "chance": chances.get(s),
                "exchanged": (state.phase == "exchange"
                              and (s - state.starter) % state.seats < state.exchanged),
            })
        trick = [{"seat": m["seat"], "move": m["move"], "combo": m["combo"],
                  "cards": [face(c[1]) for c in m["cards"]]} for m in state.trick]
        ollin = None
        if state.ollin is not None:
            ollin = {"seat": state.ollin["seat"], "size": state.ollin["size"],
                     "can_draw": bool(state.deck)}
        outcome = self.outcome(state)
        hand = sorted(state.hands[seat], key=sort_key) if seat is not None else []
        return {
            "game": self.id,
            "seats": state.seats,
            "you": seat,
            "options": dict(state.options),
            "round": state.round,
            "rounds_total": ROUNDS,
            "phase": state.phase,
            "starter": state.starter,
            "leader": state.leader,
            "current": None if state.phase == "over" else state.current,
            "deck": len(state.deck),
            "hand": [card_json(c) for c in hand],
            "players": players,
            "trick": trick,
            "best": state.best,
            "beat_with": _beat_with(self._best(state)),
            "ollin": ollin,
            "played": sorted((face(c) for c in state.played),
                             key=lambda f: (SORT_SUITS.index(str(f["suit"])), f["number"],
                                            f["ollin"])),
            "face_down": len(state.face_down),
            "rounds": [round_result(r) for r in state.rounds],
            "legal": self.legal_actions(state, seat) if seat is not None else [],
            "outcome": outcome.to_json() if outcome is not None else None,
        }

    def current_scores(self, state: AlebrijesState) -> list[int]:
        return list(state.totals)

    def view_all(self, state: AlebrijesState) -> JSON:
        """The spectator's view plus every hand (replays of finished games)."""
        return {**self.view(state, None), "revealed": {
            "hands": [[card_json(c) for c in sorted(hand, key=sort_key)]
                      for hand in state.hands]}}

    def outcome(self, state: AlebrijesState) -> Outcome | None:
        if state.phase != "over":
            return None
        won = [_rounds_won(state, s) for s in range(state.seats)]
        ranking = final_ranking(state.totals, won)
        return Outcome(scores=tuple(state.totals), ranking=ranking, winners=ranking[0],
                       details={"rounds": [round_result(r) for r in state.rounds],
                                "rounds_won": won})

    # ----------------------------------------------------------------------- persistence

    def dump(self, state: AlebrijesState) -> JSON:
        return {
            "seats": state.seats, "options": dict(state.options), "rng": state.rng,
            "round": state.round, "starter": state.starter, "phase": state.phase,
            "current": state.current, "leader": state.leader, "deck": list(state.deck),
            "hands": [[list(c) for c in h] for h in state.hands], "next_id": state.next_id,
            "exchanged": state.exchanged, "trick": [_copy_move(m) for m in state.trick],
            "best": state.best, "played": list(state.played),
            "face_down": [list(f) for f in state.face_down],
            "ollin": None if state.ollin is None else dict(state.ollin),
            "totals": list(state.totals), "rounds": [_copy_record(r) for r in state.rounds],
        }

    def load(self, data: JSON) -> AlebrijesState:
        return AlebrijesState(
            seats=int(data["seats"]), options=dict(data["options"]), rng=int(data["rng"]),
            round=int(data["round"]), starter=int(data["starter"]), phase=str(data["phase"]),
            current=int(data["current"]), leader=int(data["leader"]),
            deck=[int(c) for c in data["deck"]],
            hands=[[[int(i), int(c)] for i, c in h] for h in data["hands"]],
            next_id=int(data["next_id"]), exchanged=int(data["exchanged"]),
            trick=[_copy_move(m) for m in data["trick"]],
            best=None if data["best"] is None else int(data["best"]),
            played=[int(c) for c in data["played"]],
            face_down=[[int(o), int(c)] for o, c in data["face_down"]],
            ollin=None if data["ollin"] is None else {"seat": int(data["ollin"]["seat"]),
                                                      "size": int(data["ollin"]["size"])},
            totals=[int(t) for t in data["totals"]],
            rounds=[_copy_record(r) for r in data["rounds"]],
        )

    # ----------------------------------------------------------------------- test hooks

    def scramble(self, state: AlebrijesState, seat: Seat | None, rng: Rng) -> AlebrijesState:
        """Re-deal the deck, the other hands and the others' face-down discards (ids kept)."""
        new = state.clone()
        hidden_hands = [h for s, h in enumerate(new.hands) if s != seat]
        hidden_downs = [f for f in new.face_down if f[0] != seat]
        faces = list(new.deck) + [c[1] for h in hidden_hands for c in h]
        faces += [f[1] for f in hidden_downs]
        rng.shuffle(faces)
        new.deck = faces[:len(new.deck)]
        rest = iter(faces[len(new.deck):])
        for hand in hidden_hands:
            for card in hand:
                card[1] = next(rest)
        for down in hidden_downs:
            down[1] = next(rest)
        new.rng = rng.next64()  # the next rounds' deals are hidden too
        return new

    def redeal_unknown(self, state: AlebrijesState, rng: Rng) -> AlebrijesState:
        """What no seat knows, dealt anew from ``rng`` (a branch of a replay starts from
        it): the order of the deck, and the seed of the next rounds' deals. Each hand and
        each face-down discard is known to its owner and stays as it is. The deck is put in
        a fixed order before the shuffle, so nothing of the old order survives."""
        new = state.clone()
        deck = sorted(new.deck)
        rng.shuffle(deck)
        new.deck = deck
        new.rng = rng.next64()
        return new

    def all_cards(self, state: AlebrijesState) -> list[int]:
        cards = list(state.deck) + list(state.played)
        cards += [c for h in state.hands for _id, c in h]
        cards += [c for move in state.trick for _id, c in move["cards"]]
        cards += [c for _owner, c in state.face_down]
        return cards


def round_result(record: JSON) -> JSON:
    """A scored round as players see it: who went out, every hand left and its points."""
    players = []
    for seat, hand in enumerate(record["hands"]):
        players.append({
            "seat": seat, "hand": [face(c[1]) for c in hand],
            "suits": suit_penalties(CARDS[c] for _id, c in hand),
            "points": record["points"][seat], "total": record["totals"][seat],
        })
    return {"round": record["round"], "starter": record["starter"], "out": record["out"],
            "points": list(record["points"]), "totals": list(record["totals"]),
            "players": players}


def _rounds_won(state: AlebrijesState, seat: Seat) -> int:
    return sum(1 for r in state.rounds if r["points"][seat] == 0)


def _copy_move(move: JSON) -> JSON:
    combo = move["combo"]
    return {"seat": int(move["seat"]), "move": str(move["move"]),
            "combo": None if combo is None else {
                "suit": str(combo["suit"]), "number": int(combo["number"]),
                "count": int(combo["count"]), "wilds": int(combo["wilds"]),
                "ollin": int(combo["ollin"])},
            "cards": [[int(i), int(c)] for i, c in move["cards"]]}


def _copy_record(record: JSON) -> JSON:
    return {"round": int(record["round"]), "starter": int(record["starter"]),
            "out": int(record["out"]),
            "hands": [[[int(i), int(c)] for i, c in h] for h in record["hands"]],
            "points": [int(p) for p in record["points"]],
            "totals": [int(t) for t in record["totals"]]}


def _round_started(state: AlebrijesState) -> Event:
    """The line a round opens the log with: who starts it."""
    return Event("round_started", {"round": state.round, "starter": state.starter})


def _deal(state: AlebrijesState) -> None:
    """Shuffle all 80 cards and deal a new hand to every seat from the starter."""
    rng = Rng(state.rng)
    deck = list(range(len(CARDS)))
    rng.shuffle(deck)
    state.rng = rng.state
    state.deck = deck
    for _ in range(hand_size(state.seats)):
        for d in range(state.seats):
            _draw(state, (state.starter + d) % state.seats)


def _draw(state: AlebrijesState, seat: Seat) -> HandCard:
    card = [state.next_id, state.deck.pop()]
    state.next_id += 1
    state.hands[seat].append(card)
    return card


def _swaps(state: AlebrijesState, seat: Seat) -> list[list[int]]:
    """Every set of 0 to 2 card ids ``seat`` may exchange now (no more than the deck holds)."""
    ids = sorted(c[0] for c in state.hands[seat])
    limit = min(MAX_EXCHANGE, len(state.deck))
    return [list(chosen) for k in range(limit + 1) for chosen in combinations(ids, k)]


def _ollin_actions(state: AlebrijesState, seat: Seat) -> list[Action]:
    assert state.ollin is not None
    actions: list[Action] = [{"type": "ollin", "effect": "none"}]
    if state.deck:
        actions.append({"type": "ollin", "effect": "draw"})
    if state.ollin["size"] == 2:
        actions += [{"type": "ollin", "effect": "discard", "card": c[0]}
                    for c in sorted(state.hands[seat], key=sort_key)]
    return actions


def _beat_with(best: Combo | None) -> JSON | None:
    """What beats the combination on the table, for the players' prompt (RULES.md §3): the
    same count of its suit above its number (None at 5), or the next suit of the chain
    (orange: one more blue card), any number."""
    if best is None:
        return None
    higher = None
    if best.number < max(NUMBERS):
        higher = {"suit": best.suit, "count": best.count, "above": best.number}
    wraps = best.suit == SUITS[-1]  # orange → blue needs one card more
    following = {"suit": next_suit(best.suit), "count": best.count + (1 if wraps else 0)}
    return {"higher": higher, "next": following}


def _why_not(combo: Combo, best: Combo) -> str:
    if best.suit == "orange":
        return (f"beat {best.count} orange with more orange of the same size or "
                f"{best.count + 1} blue cards")
    return (f"play {best.count} {best.suit} cards above {best.number}, or "
            f"{best.count} cards of the next suit")


ENGINE = AlebrijesEngine()
