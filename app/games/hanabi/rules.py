"""Hanabi (RULES.md §1): a pure engine implementing the protocol of ``app.games.base``.

Card ids are handed out in draw order (the n-th card drawn gets id n), so an id tells a
player only when the card was drawn, never what it is. Hands are kept in draw order,
newest last. Every card in a hand carries what the clues said about it; that knowledge is
public (everyone heard the clues), the card itself is visible only to the other players.
Spectators see no card in any hand. When the game is over every hand is shown to everyone.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from typing import Any

from app.games.base import (
    JSON,
    Action,
    BaseEngine,
    Event,
    Field,
    IllegalAction,
    OptionSpec,
    Outcome,
    Rng,
    check_action,
    first_seat,
    first_seat_option,
    require,
)
from app.games.hanabi.data import (
    COPIES,
    HAND_SIZE,
    MULTICOLOR,
    RANKS,
    colors_for,
    full_deck,
    verdict,
)

_KNOWLEDGE: dict[tuple[Any, ...], JSON] = {}


# every action's fields (app.games.base.check_action); a clue names a colour or a number
ACTIONS = {
    "play": {"card": Field("int", low=0)},
    "discard": {"card": Field("int", low=0)},
    "clue": {"target": Field("int", low=0), "color": Field("str", required=False),
             "rank": Field("int", required=False, choices=RANKS)},
}

@dataclass
class Card:
    id: int
    color: str
    rank: int
    # what clues told its holder: positive colour/rank, and everything it is not
    clued_color: str | None = None
    clued_rank: int | None = None
    not_colors: list[str] = field(default_factory=list)
    not_ranks: list[int] = field(default_factory=list)

    def clone(self) -> Card:
        return Card(self.id, self.color, self.rank, self.clued_color, self.clued_rank,
                    list(self.not_colors), list(self.not_ranks))

    def face(self) -> JSON:
        """The card shown face up, as a read-only dict made once per card (a played or
        discarded card never changes, so every later state's view reuses it)."""
        face = self.__dict__.get("_face")
        if face is None or face["color"] != self.color or face["rank"] != self.rank:
            face = self.__dict__["_face"] = {"id": self.id, "color": self.color,
                                             "rank": self.rank}
        return face

    def knowledge(self, colors: tuple[str, ...]) -> JSON:
        """What the clues told about this card (shared, read-only: the same clues give the
        same dict, worked out once per process, not once per card per move)."""
        key = (colors, self.clued_color, self.clued_rank, tuple(self.not_colors),
               tuple(self.not_ranks))
        known = _KNOWLEDGE.get(key)
        if known is None:
            if len(_KNOWLEDGE) > 50_000:  # a few thousand combinations exist; never grows
                _KNOWLEDGE.clear()
            known = _KNOWLEDGE[key] = {
                "color": self.clued_color,
                "rank": self.clued_rank,
                "not_colors": sorted(self.not_colors, key=colors.index),
                "not_ranks": sorted(self.not_ranks),
                "possible_colors": [c for c in colors if self._may_be_color(c)],
                "possible_ranks": [r for r in RANKS if self._may_be_rank(r)],
            }
        return known

    def _may_be_color(self, color: str) -> bool:
        if self.clued_color is not None:
            return color == self.clued_color
        return color not in self.not_colors

    def _may_be_rank(self, rank: int) -> bool:
        if self.clued_rank is not None:
            return rank == self.clued_rank
        return rank not in self.not_ranks


@dataclass
class HanabiState:
    seats: int
    options: JSON
    rng: int
    deck: list[tuple[str, int]]  # top of the deck is the end of the list
    hands: list[list[Card]]
    played: list[Card]
    discard: list[Card]
    clues: int
    fuses: int
    turn: int
    next_id: int
    turns_taken: int = 0
    final_turns_left: int | None = None
    over: str | None = None  # "strikeout" | "perfect" | "deck_out"
    log: list[JSON] = field(default_factory=list)

    def clone(self) -> HanabiState:
        """A copy ``apply`` may change. Hands are new lists of the same cards: a clue copies
        the cards of the hand it marks before marking them (``_clue``); played and discarded
        cards and log entries never change once there, so they are shared."""
        s = HanabiState(
            seats=self.seats, options=dict(self.options), rng=self.rng, deck=list(self.deck),
            hands=[list(hand) for hand in self.hands],
            played=list(self.played), discard=list(self.discard), clues=self.clues,
            fuses=self.fuses, turn=self.turn, next_id=self.next_id,
            turns_taken=self.turns_taken, final_turns_left=self.final_turns_left,
            over=self.over, log=list(self.log),
        )
        # the hands as this state's views showed them: a hand of the copy that still holds
        # the very same cards shows the same (``_view``; cards never change once a state
        # is returned, a clue marks copies)
        hands = self.__dict__.get("_hands")
        if hands is not None:
            s.__dict__["_hands_before"] = hands
        discard = self.__dict__.get("_discard")
        if discard is not None:  # the discard pile only grows: its faces so far, the same
            s.__dict__["_discard_before"] = discard
        return s

    @property
    def colors(self) -> tuple[str, ...]:
        return colors_for(self.options["multicolor"])

    @property
    def max_clues(self) -> int:
        return int(self.options["clue_tokens"])

    def fireworks(self) -> dict[str, int]:
        heights = {c: 0 for c in self.colors}
        for card in self.played:
            heights[card.color] = max(heights[card.color], card.rank)
        return heights

    def score(self) -> int:
        if self.over == "strikeout":
            return 0
        return sum(self.fireworks().values())

    def max_score(self) -> int:
        return 5 * len(self.colors)


class HanabiEngine(BaseEngine):
    id = "hanabi"
    name = "Hanabi"
    min_players = 2
    max_players = 5
    simultaneous = False
    cooperative = True
    options: tuple[OptionSpec, ...] = (
        OptionSpec("multicolor", "bool", False),
        OptionSpec("fuses", "choice", 3, choices=(3, 1)),
        OptionSpec("clue_tokens", "choice", 8, choices=(8, 10)),
        OptionSpec("empty_clues", "bool", True, ruling=True),
        first_seat_option(5),
    )

    # ------------------------------------------------------------------ setup

    def setup(self, seats: int, options: Mapping[str, Any] | None, seed: int) -> HanabiState:
        opts = self.check_setup(seats, options)
        rng = Rng.from_seed(seed)
        deck = full_deck(opts["multicolor"])
        rng.shuffle(deck)
        first = first_seat(opts, seats, rng)
        state = HanabiState(
            seats=seats, options=opts, rng=rng.state, deck=deck,
            hands=[[] for _ in range(seats)], played=[], discard=[],
            clues=opts["clue_tokens"], fuses=opts["fuses"], turn=first, next_id=0,
        )
        # each player's whole hand in turn, starting with seat 0 (as the reference engines do)
        for seat in range(seats):
            for _ in range(HAND_SIZE[seats]):
                self._draw(state, seat)
        return state

    @staticmethod
    def deal_order(state: HanabiState) -> list[tuple[str, int]]:
        """The cards in the order they will be drawn (for tests and cross-checks)."""
        return list(reversed(state.deck))

    # ------------------------------------------------------------------ queries

    def to_act(self, state: HanabiState) -> set[int]:
        return set() if state.over else {state.turn}

    def legal_actions(self, state: HanabiState, seat: int) -> list[Action]:
        if state.over or seat != state.turn:
            return []
        hand = state.hands[seat]
        actions: list[Action] = [{"type": "play", "card": c.id} for c in hand]
        if state.clues < state.max_clues:
            actions += [{"type": "discard", "card": c.id} for c in hand]
        if state.clues > 0:
            for offset in range(1, state.seats):
                target = (seat + offset) % state.seats
                cards = state.hands[target]
                for color in state.colors:
                    if state.options["empty_clues"] or any(c.color == color for c in cards):
                        actions.append({"type": "clue", "target": target, "color": color})
                for rank in RANKS:
                    if state.options["empty_clues"] or any(c.rank == rank for c in cards):
                        actions.append({"type": "clue", "target": target, "rank": rank})
        return actions

    def outcome(self, state: HanabiState) -> Outcome | None:
        if not state.over:
            return None
        score = state.score()
        everyone = tuple(range(state.seats))
        return Outcome(
            scores=tuple(score for _ in everyone),
            ranking=(everyone,),
            winners=() if state.over == "strikeout" else everyone,
            details={
                "cooperative": True,
                "score": score,
                "max_score": state.max_score(),
                "verdict": verdict(score),
                "reason": state.over,
                "fireworks": state.fireworks(),
            },
        )

    # ------------------------------------------------------------------ apply

    def apply(self, state: HanabiState, seat: int,
              action: Action) -> tuple[HanabiState, list[Event]]:
        kind = check_action(action, ACTIONS)
        require(not state.over, "game_over", "the game is over")
        require(seat == state.turn, "not_your_turn", "it is not your turn")
        if kind == "play":
            s = state.clone()
            events = self._play(s, seat, self._own_card(s, seat, action))
        elif kind == "discard":
            require(state.clues < state.max_clues, "clues_full",
                    "you cannot discard while all clue tokens are available")
            s = state.clone()
            events = self._discard(s, seat, self._own_card(s, seat, action))
        else:
            s = state.clone()
            events = self._clue(s, seat, action)
        events += self._end_turn(s)
        return s, events

    def _own_card(self, state: HanabiState, seat: int, action: Action) -> Card:
        card_id = action["card"]
        for card in state.hands[seat]:
            if card.id == card_id:
                return card
        raise IllegalAction("no_such_card", "that card is not in your hand")

    def _play(self, state: HanabiState, seat: int, card: Card) -> list[Event]:
        slot = self._take(state, seat, card)
        fireworks = state.fireworks()
        success = fireworks[card.color] == card.rank - 1
        regained = False
        if success:
            state.played.append(card)
            if card.rank == 5 and state.clues < state.max_clues:
                state.clues += 1
                regained = True
        else:
            state.discard.append(card)
            state.fuses -= 1
        entry = {"type": "play", "seat": seat, "card": card.face(), "slot": slot,
                 "success": success, "clue_regained": regained, "fuses": state.fuses}
        if state.fuses == 0:
            state.over = "strikeout"
        elif all(h == 5 for h in state.fireworks().values()):
            state.over = "perfect"
        return self._log_and_draw(state, seat, entry)

    def _discard(self, state: HanabiState, seat: int, card: Card) -> list[Event]:
        slot = self._take(state, seat, card)
        state.discard.append(card)
        state.clues += 1
        entry = {"type": "discard", "seat": seat, "card": card.face(), "slot": slot}
        return self._log_and_draw(state, seat, entry)

    @staticmethod
    def _take(state: HanabiState, seat: int, card: Card) -> int:
        """Take ``card`` out of its holder's hand; returns the slot it was in, as the hand
        is shown and clue slots are counted (1 = oldest, left): public, like the card."""
        hand = state.hands[seat]
        slot = hand.index(card) + 1
        hand.remove(card)
        return slot

    def _log_and_draw(self, state: HanabiState, seat: int, entry: JSON) -> list[Event]:
        """A play or discard logged, then its holder's draw (none once the game is over or
        the deck is empty). The entry says which card id was drawn (``drew``, else None):
        ids are public (a draw's redacted event shows it to its drawer), and it is what
        lets every seat mark the card each hand drew last."""
        draw = [] if state.over else self._draw(state, seat)
        entry["drew"] = state.hands[seat][-1].id if draw else None
        state.log.append(entry)
        return [Event(entry["type"], {k: v for k, v in entry.items() if k != "type"}), *draw]

    def _clue(self, state: HanabiState, seat: int, action: Action) -> list[Event]:
        require(state.clues > 0, "no_clues", "there is no clue token left")
        target = action["target"]
        require(0 <= target < state.seats and target != seat, "bad_target",
                "choose another player to clue")
        has_color, has_rank = "color" in action, "rank" in action
        require(has_color != has_rank, "bad_action", "a clue names one colour or one number")
        # the clue marks these cards: copies, so the state before the clue keeps its own
        hand = state.hands[target] = [card.clone() for card in state.hands[target]]
        if has_color:
            color = action["color"]
            require(color in state.colors, "bad_action", f"no such colour {color!r}")
            touched = [c for c in hand if c.color == color]
            for c in hand:
                if c.color == color:
                    c.clued_color = color
                elif color not in c.not_colors:
                    c.not_colors.append(color)
            detail: JSON = {"color": color}
        else:
            rank = action["rank"]
            require(rank in RANKS, "bad_action", f"no such number {rank!r}")
            touched = [c for c in hand if c.rank == rank]
            for c in hand:
                if c.rank == rank:
                    c.clued_rank = rank
                elif rank not in c.not_ranks:
                    c.not_ranks.append(rank)
            detail = {"rank": rank}
        require(bool(touched) or state.options["empty_clues"], "empty_clue",
                "that clue touches no card (empty clues are off at this table)")
        state.clues -= 1
        touched_ids = {c.id for c in touched}
        # slots: the touched cards' positions in the hand as shown (1 = oldest, left), so
        # the log can say "slots 2 and 4" the way players point at cards
        entry = {"type": "clue", "seat": seat, "target": target, **detail,
                 "cards": [c.id for c in touched],
                 "slots": [i + 1 for i, c in enumerate(hand) if c.id in touched_ids]}
        state.log.append(entry)
        return [Event("clue", {k: v for k, v in entry.items() if k != "type"})]

    def _draw(self, state: HanabiState, seat: int) -> list[Event]:
        if not state.deck:
            return []
        color, rank = state.deck.pop()
        card = Card(id=state.next_id, color=color, rank=rank)
        state.next_id += 1
        state.hands[seat].append(card)
        if not state.deck and state.final_turns_left is None:
            # the drawer's own turn is still running; _end_turn counts it down next
            state.final_turns_left = state.seats + 1
        others = frozenset(s for s in range(state.seats) if s != seat)
        return [Event("draw", {"seat": seat, "card": card.face(), "deck": len(state.deck)},
                      visible_to=others,
                      redacted={"seat": seat, "card": {"id": card.id}, "deck": len(state.deck)})]

    def _end_turn(self, state: HanabiState) -> list[Event]:
        state.turns_taken += 1
        if not state.over and state.final_turns_left is not None:
            state.final_turns_left -= 1
            if state.final_turns_left == 0:
                state.over = "deck_out"
        if state.over:
            result = self.outcome(state)
            assert result is not None
            return [Event("game_over", {"score": result.details["score"],
                                        "verdict": result.details["verdict"],
                                        "reason": state.over})]
        state.turn = (state.turn + 1) % state.seats
        return []

    # ------------------------------------------------------------------ view

    def view(self, state: HanabiState, seat: int | None) -> JSON:
        return self._view(state, seat, reveal=False)

    def view_all(self, state: HanabiState) -> JSON:
        """A spectator's view with every hand face up (replays; spectators of a table whose
        host allows it). Never sent to a seat."""
        return self._view(state, None, reveal=True)

    def current_scores(self, state: HanabiState) -> list[int]:
        return [state.score()] * state.seats

    def _view(self, state: HanabiState, seat: int | None, reveal: bool) -> JSON:
        colors = state.colors
        # each hand as its owner (and a spectator) sees it, and as everyone else does: built
        # once per state and shared by every seat's view (a state is never changed after
        # apply returns it, so the memo stays true; views are read-only)
        # (each: the hand's cards, as its owner sees them, as the others do); a hand still
        # holding the very cards of the state this one was copied from is shown as that
        # state showed it (a move changes one hand)
        variants = state.__dict__.get("_hands")
        if variants is None:
            before = state.__dict__.pop("_hands_before", None) or ()
            variants = []
            for owner, hand in enumerate(state.hands):
                if owner < len(before):
                    old = before[owner]
                    cards = old[0]
                    if len(cards) == len(hand) and all(
                            a is b for a, b in zip(cards, hand, strict=True)):
                        variants.append(old)
                        continue
                backs = [{"id": card.id, "knowledge": card.knowledge(colors)} for card in hand]
                faces = [{**item, "color": card.color, "rank": card.rank}
                         for item, card in zip(backs, hand, strict=True)]
                variants.append((tuple(hand), backs, faces))
            state.__dict__["_hands"] = variants
        # once the game is over nothing is secret: everyone sees every hand (and a replay, or
        # a spectator the host lets see everything, sees them all: ``reveal``)
        hands = [faces if state.over or reveal or (seat is not None and owner != seat) else backs
                 for owner, (_cards, backs, faces) in enumerate(variants)]
        public = state.__dict__.get("_public")
        if public is None:  # the same for every seat, so built once per state too
            cards = state.discard
            before = state.__dict__.pop("_discard_before", None)
            if before is not None and len(before[0]) <= len(cards) \
                    and cards[:len(before[0])] == before[0]:
                # the pile as the state this one was copied from showed it, and what came
                # since (a card's face is its id, colour and rank: equal cards, equal faces)
                known = len(before[0])
                faces = before[1] if known == len(cards) else \
                    [*before[1], *(c.face() for c in cards[known:])]
            else:
                faces = [c.face() for c in cards]
            state.__dict__["_discard"] = (list(cards), faces)
            public = {
                "fireworks": state.fireworks(),
                "discard": faces,
                "score": state.score(),
                "max_score": state.max_score(),
                "verdict": verdict(state.score()) if state.over else None,
                # entries never change once logged, and views are read-only
                "log": state.log,
            }
            state.__dict__["_public"] = public
        return {
            "game": self.id,
            "seats": state.seats,
            "me": seat,
            "options": state.options,
            "colors": list(colors),
            # how many of each card the deck holds ({colour: [copies of 1..5]}): public, and
            # what tells a player that a card's last copy is the one left
            "copies": _copies(colors),
            "turn": None if state.over else state.turn,
            "turns_taken": state.turns_taken,
            "clues": state.clues,
            "max_clues": state.max_clues,
            "fuses": state.fuses,
            "max_fuses": state.options["fuses"],
            "deck": len(state.deck),
            "final_turns_left": state.final_turns_left,
            "fireworks": public["fireworks"],
            "discard": public["discard"],
            "hands": hands,
            "score": public["score"],
            "max_score": public["max_score"],
            "over": state.over,
            "verdict": public["verdict"],
            "log": public["log"],
        }

    # ------------------------------------------------------------------ persistence

    def dump(self, state: HanabiState) -> JSON:
        data = asdict(state)
        data["deck"] = [list(c) for c in state.deck]
        return data

    def load(self, data: JSON) -> HanabiState:
        d = dict(data)
        d["deck"] = [(c, int(r)) for c, r in d["deck"]]
        for key in ("played", "discard"):
            d[key] = [Card(**c) for c in d[key]]
        d["hands"] = [[Card(**c) for c in hand] for hand in d["hands"]]
        d["options"] = dict(d["options"])
        d["log"] = [dict(e) for e in d["log"]]
        return HanabiState(**d)

    # ------------------------------------------------------------------ tests and bots

    def timeout_action(self, state: HanabiState, seat: int) -> Action:
        """Out of time: discard the oldest card nobody clued, else give the first clue."""
        legal = self.legal_actions(state, seat)
        require(bool(legal), "not_your_turn", "this seat has nothing to do")
        if state.clues < state.max_clues:
            hand = state.hands[seat]
            unclued = [c for c in hand if c.clued_color is None and c.clued_rank is None]
            return {"type": "discard", "card": (unclued or hand)[0].id}
        clues = [a for a in legal if a["type"] == "clue"]
        return clues[0] if clues else legal[0]

    def scramble(self, state: HanabiState, seat: int | None, rng: Rng) -> HanabiState:
        """Re-deal the deck and every hand ``seat`` cannot see, keeping ids and clue marks."""
        s = state.clone()
        if s.over:
            return s  # the final view shows everything; nothing is left to re-deal
        s.hands = [[card.clone() for card in hand] for hand in s.hands]  # faces change below
        hidden_hands = range(s.seats) if seat is None else [seat]
        slots = [card for owner in hidden_hands for card in s.hands[owner]]
        faces = [(c.color, c.rank) for c in slots] + s.deck
        rng.shuffle(faces)
        for card, (color, rank) in zip(slots, faces, strict=False):
            card.color, card.rank = color, rank
        s.deck = faces[len(slots):]
        return s

    def redeal_unknown(self, state: HanabiState, rng: Rng) -> HanabiState:
        """What no seat knows, dealt anew from ``rng`` (a branch of a replay starts from
        it): the order of the deck. Its cards are known to everyone (the whole deck less
        every card some seat has seen); every hand is seen by the other seats and keeps its
        cards, ids and clue marks. The deck is put in a fixed order before the shuffle, so
        nothing of the old order survives."""
        s = state.clone()
        if not s.over:
            deck = sorted(s.deck)
            rng.shuffle(deck)
            s.deck = deck
        s.rng = rng.next64()
        return s

    def all_cards(self, state: HanabiState) -> list[Any]:
        cards = [(c.color, c.rank) for hand in state.hands for c in hand]
        cards += [(c.color, c.rank) for c in state.played + state.discard]
        return cards + list(state.deck)


ENGINE = HanabiEngine()


_COPIES: dict[tuple[str, ...], JSON] = {}


def _copies(colors: tuple[str, ...]) -> JSON:
    """How many copies of each card the deck holds, per colour (shared, read-only)."""
    table = _COPIES.get(colors)
    if table is None:
        table = _COPIES[colors] = {c: [1 if c == MULTICOLOR else COPIES[r] for r in RANKS]
                                   for c in colors}
    return table
