"""The Ikebana engine (RULES.md §2): a pure state machine, no I/O, all randomness seeded.

A turn starts in the *choose* phase: the player either draws (``{"type": "draw"}``) or buys
the top card of another player's discard pile (``{"type": "buy", "from": seat}``). After a
draw the turn is in the *consider* phase with the drawn card face up in hand: ``keep`` adds
it to the bouquet and ends the turn; ``reject`` puts it on the player's own discard pile,
pays k prestige for the k-th rejection of the turn to the k-th player clockwise (skipping
the rejecting player) and draws the next card at once.

Rulings made here (besides those in RULES.md):

- **Deck exhausted**: the reshuffle happens lazily, when a card must be drawn from an empty
  deck; every pile keeps its top card and all cards under the tops form the new deck.
- **No card to draw at all** cannot happen: when a draw is needed the drawing player has at
  most 4 bouquet cards and the others at most 5, so at most 5n-1 cards are in bouquets, at
  most n are pile tops and the card in hand has just gone onto a pile; with 55 cards and
  n <= 5 at least 26 cards can always be reshuffled (data.py checks this at import). The
  engine still only offers ``draw``/``reject`` when a card could be drawn, and a draw is
  always free, so the player to act always has a legal action (draw, then keep).
- **Start player ties**: after a round the highest total starts; among tied players the
  first one met going clockwise *starting with* the previous starter (so a tied previous
  starter starts again).
- **Tie-breaks in scoring** are cosmetic (they never change a total); see scoring.py.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
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
    Seat,
    check_action,
    first_seat,
    first_seat_option,
    rank_by,
    require,
)
from app.games.ikebana.data import (
    BOUQUET_SIZE,
    CARDS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    ROUNDS,
    STARTING_PRESTIGE,
    card_json,
)
from app.games.ikebana.scoring import score_bouquet

# every action's fields (app.games.base.check_action)
ACTIONS = {"draw": {}, "keep": {}, "reject": {}, "buy": {"from": Field("int")}}


@dataclass
class IkebanaState:
    """Everything about a game. Piles and the deck have their top card last."""

    seats: int
    options: dict[str, Any]
    rng: int
    round: int
    starter: int
    current: int
    deck: list[int]
    piles: list[list[int]]
    bouquets: list[list[int]]
    prestige: list[int]
    hand: int | None = None  # the drawn card being considered
    rejections: int = 0  # cards rejected so far this turn
    rounds: list[JSON] = field(default_factory=list)  # round records, see round_result()
    over: bool = False

    def clone(self) -> IkebanaState:
        # ``rounds`` entries are never mutated after being appended, so sharing them is safe
        return IkebanaState(
            seats=self.seats, options=dict(self.options), rng=self.rng, round=self.round,
            starter=self.starter, current=self.current, deck=list(self.deck),
            piles=[list(p) for p in self.piles], bouquets=[list(b) for b in self.bouquets],
            prestige=list(self.prestige), hand=self.hand, rejections=self.rejections,
            rounds=list(self.rounds), over=self.over,
        )


def payee(seats: int, seat: Seat, k: int) -> Seat:
    """Who receives the payment for the k-th rejection (k >= 1) of ``seat``'s turn."""
    return (seat + 1 + (k - 1) % (seats - 1)) % seats


class IkebanaEngine(BaseEngine):
    """Ikebana for 2 to 5 players: four rounds of five-card bouquets."""

    id: str = "ikebana"
    name: str = "Ikebana"
    min_players: int = MIN_PLAYERS
    max_players: int = MAX_PLAYERS
    options: tuple[OptionSpec, ...] = (OptionSpec("final_bouquet_double", "bool", False),
                                       first_seat_option(MAX_PLAYERS))
    simultaneous: bool = False

    # ----------------------------------------------------------------------- setup

    def setup(self, seats: int, options: Mapping[str, Any], seed: int) -> IkebanaState:
        resolved = self.check_setup(seats, options)
        rng = Rng.from_seed(seed)
        deck = list(range(len(CARDS)))
        rng.shuffle(deck)
        starter = first_seat(resolved, seats, rng)
        return IkebanaState(
            seats=seats, options=resolved, rng=rng.state, round=1, starter=starter,
            current=starter, deck=deck, piles=[[] for _ in range(seats)],
            bouquets=[[] for _ in range(seats)], prestige=[STARTING_PRESTIGE] * seats,
        )

    @staticmethod
    def opening(state: IkebanaState) -> list[Event]:
        """The log's first line, as a later round's start gives it."""
        return [_round_started(state)]

    # ----------------------------------------------------------------------- queries

    @staticmethod
    def turn_marker(state: IkebanaState) -> tuple[int, int]:
        """Changes when a turn ends (a card joins a bouquet); draws and rejects share a turn."""
        return (state.round, sum(len(b) for b in state.bouquets))

    def to_act(self, state: IkebanaState) -> set[Seat]:
        return set() if state.over else {state.current}

    def legal_actions(self, state: IkebanaState, seat: Seat) -> list[Action]:
        if state.over or seat != state.current:
            return []
        if state.hand is not None:
            actions: list[Action] = [{"type": "keep"}]
            if self._can_reject(state):
                actions.append({"type": "reject"})
            return actions
        actions = [{"type": "draw"}] if _can_draw(state) else []
        for owner in range(state.seats):
            if self._can_buy(state, seat, owner):
                actions.append({"type": "buy", "from": owner})
        return actions

    def _can_reject(self, state: IkebanaState) -> bool:
        price = state.rejections + 1
        if state.prestige[state.current] < price or state.hand is None:
            return False
        # after the rejection the card in hand tops our pile; an old top would go under it
        return _can_draw(state) or bool(state.piles[state.current])

    @staticmethod
    def _can_buy(state: IkebanaState, seat: Seat, owner: Seat) -> bool:
        pile = state.piles[owner]
        return owner != seat and bool(pile) and state.prestige[seat] >= CARDS[pile[-1]][1]

    # ----------------------------------------------------------------------- apply

    def apply(self, state: IkebanaState, seat: Seat,
              action: Action) -> tuple[IkebanaState, list[Event]]:
        kind = check_action(action, ACTIONS)
        require(not state.over, "game_over", "the game is over")
        require(seat == state.current, "not_your_turn", "it is not your turn")
        new = state.clone()
        events: list[Event] = []
        if kind == "draw":
            require(new.hand is None, "already_drawing", "you are already drawing")
            require(_can_draw(new), "no_cards", "there is no card to draw")
            _draw(new, events)
        elif kind == "keep":
            require(new.hand is not None, "not_drawing", "draw a card first")
            card = new.hand
            assert card is not None
            new.bouquets[seat].append(card)
            events.append(Event("kept", {"seat": seat, "card": card_json(card)}))
            self._end_turn(new, events)
        elif kind == "reject":
            self._reject(new, seat, events)
        else:
            self._buy(new, seat, action, events)
        return new, events

    def _reject(self, state: IkebanaState, seat: Seat, events: list[Event]) -> None:
        require(state.hand is not None, "not_drawing", "draw a card first")
        price = state.rejections + 1
        require(state.prestige[seat] >= price, "cannot_pay",
                f"rejecting this card costs {price} prestige")
        require(self._can_reject(state), "no_cards", "there would be no card to draw")
        card = state.hand
        assert card is not None
        to = payee(state.seats, seat, price)
        state.prestige[seat] -= price
        state.prestige[to] += price
        state.piles[seat].append(card)
        state.hand = None
        state.rejections = price
        events.append(Event("rejected", {"seat": seat, "card": card_json(card),
                                         "price": price, "to": to}))
        _draw(state, events)

    def _buy(self, state: IkebanaState, seat: Seat, action: Action,
             events: list[Event]) -> None:
        owner = action["from"]
        require(0 <= owner < state.seats, "bad_action", "no such seat")
        require(state.hand is None, "already_drawing",
                "once you have started drawing you cannot buy")
        require(owner != seat, "own_pile", "you cannot buy from your own discard pile")
        require(bool(state.piles[owner]), "empty_pile", "that discard pile is empty")
        card = state.piles[owner][-1]
        price = CARDS[card][1]
        require(state.prestige[seat] >= price, "cannot_pay",
                f"this card costs {price} prestige")
        state.piles[owner].pop()
        state.prestige[seat] -= price
        state.prestige[owner] += price
        state.bouquets[seat].append(card)
        events.append(Event("bought", {"seat": seat, "from": owner, "card": card_json(card),
                                       "price": price}))
        self._end_turn(state, events)

    def _end_turn(self, state: IkebanaState, events: list[Event]) -> None:
        state.hand = None
        state.rejections = 0
        if all(len(b) >= BOUQUET_SIZE for b in state.bouquets):
            self._score_round(state, events)
        else:
            state.current = (state.current + 1) % state.seats

    def _score_round(self, state: IkebanaState, events: list[Event]) -> None:
        doubled = state.round == ROUNDS and bool(state.options.get("final_bouquet_double"))
        points = []
        for seat, bouquet in enumerate(state.bouquets):
            points.append(score_bouquet([CARDS[c] for c in bouquet]).total * (2 if doubled else 1))
            state.prestige[seat] += points[-1]
        record = {"round": state.round, "starter": state.starter, "doubled": doubled,
                  "bouquets": [list(b) for b in state.bouquets], "points": points,
                  "prestige": list(state.prestige)}
        state.rounds.append(record)
        events.append(Event("round_scored", round_result(record)))
        if state.round == ROUNDS:
            state.over = True
            outcome = self.outcome(state)
            assert outcome is not None
            events.append(Event("game_over", {"scores": list(outcome.scores),
                                              "winners": list(outcome.winners)}))
            return
        rng = Rng(state.rng)
        deck = [c for c in range(len(CARDS))]
        rng.shuffle(deck)
        state.rng = rng.state
        state.deck = deck
        state.piles = [[] for _ in range(state.seats)]
        state.bouquets = [[] for _ in range(state.seats)]
        state.round += 1
        state.starter = next_starter(state.prestige, state.starter)
        state.current = state.starter
        events.append(_round_started(state))

    # ----------------------------------------------------------------------- views

    def view(self, state: IkebanaState, seat: Seat | None) -> JSON:
        players = []
        doubled = state.round == ROUNDS and bool(state.options.get("final_bouquet_double"))
        for s in range(state.seats):
            bouquet = state.bouquets[s]
            pile = state.piles[s]
            score = (score_bouquet([CARDS[c] for c in bouquet])
                     if len(bouquet) == BOUQUET_SIZE and not state.over else None)
            players.append({
                "seat": s,
                "prestige": state.prestige[s],
                "bouquet": [card_json(c) for c in bouquet],
                "pile": {"size": len(pile), "top": card_json(pile[-1]) if pile else None},
                "score": score.to_json() if score is not None else None,
                # what a finished bouquet will add at the round's end (×2 in a doubled round)
                "points": score.total * (2 if doubled else 1) if score is not None else None,
            })
        price = None
        if not state.over:
            k = state.rejections + 1
            to = payee(state.seats, state.current, k)
            price = {"amount": k, "to": to,
                     "affordable": state.prestige[state.current] >= k}
        if state.over:
            phase = "over"
        else:
            phase = "choose" if state.hand is None else "consider"
        outcome = self.outcome(state)
        return {
            "game": self.id,
            "seats": state.seats,
            "you": seat,
            "options": dict(state.options),
            "round": state.round,
            "rounds_total": ROUNDS,
            "doubled_round": doubled,
            "phase": phase,
            "starter": state.starter,
            "current": None if state.over else state.current,
            "deck": len(state.deck),
            "hand": card_json(state.hand) if state.hand is not None else None,
            "rejections": state.rejections,
            "reject_price": price,
            "players": players,
            # what every total grew from: the round table adds each round's change to it
            "starting_prestige": STARTING_PRESTIGE,
            "rounds": [round_summary(r) for r in state.rounds],
            "last_round": round_result(state.rounds[-1]) if state.rounds else None,
            "legal": self.legal_actions(state, seat) if seat is not None else [],
            "outcome": outcome.to_json() if outcome is not None else None,
        }

    def current_scores(self, state: IkebanaState) -> list[int]:
        return list(state.prestige)

    def outcome(self, state: IkebanaState) -> Outcome | None:
        if not state.over:
            return None
        ranking = rank_by(state.prestige)
        return Outcome(
            scores=tuple(state.prestige),
            ranking=ranking,
            winners=ranking[0],
            details={"rounds": [round_result(r) for r in state.rounds],
                     "final_bouquet_double": bool(state.options.get("final_bouquet_double"))},
        )

    # ----------------------------------------------------------------------- persistence

    def dump(self, state: IkebanaState) -> JSON:
        return {
            "seats": state.seats, "options": dict(state.options), "rng": state.rng,
            "round": state.round, "starter": state.starter, "current": state.current,
            "deck": list(state.deck), "piles": [list(p) for p in state.piles],
            "bouquets": [list(b) for b in state.bouquets], "prestige": list(state.prestige),
            "hand": state.hand, "rejections": state.rejections,
            "rounds": list(state.rounds), "over": state.over,
        }

    def load(self, data: JSON) -> IkebanaState:
        return IkebanaState(
            seats=int(data["seats"]), options=dict(data["options"]), rng=int(data["rng"]),
            round=int(data["round"]), starter=int(data["starter"]),
            current=int(data["current"]), deck=[int(c) for c in data["deck"]],
            piles=[[int(c) for c in p] for p in data["piles"]],
            bouquets=[[int(c) for c in b] for b in data["bouquets"]],
            prestige=[int(p) for p in data["prestige"]],
            hand=None if data["hand"] is None else int(data["hand"]),
            rejections=int(data["rejections"]), rounds=[_copy_record(r) for r in data["rounds"]],
            over=bool(data["over"]),
        )

    # ----------------------------------------------------------------------- test hooks

    def scramble(self, state: IkebanaState, seat: Seat | None, rng: Rng) -> IkebanaState:
        """Re-deal the deck and every card under a pile top (hidden from everyone alike)."""
        new = state.clone()
        hidden = list(new.deck)
        for pile in new.piles:
            hidden.extend(pile[:-1])
        rng.shuffle(hidden)
        new.deck = hidden[: len(new.deck)]
        rest = hidden[len(new.deck):]
        for pile in new.piles:
            under = len(pile) - 1
            if under > 0:
                pile[:under] = rest[:under]
                rest = rest[under:]
        new.rng = rng.next64()  # future reshuffles are hidden too
        return new

    def redeal_unknown(self, state: IkebanaState, rng: Rng) -> IkebanaState:
        """What no seat knows, dealt anew from ``rng`` (a branch of a replay starts from
        it): the order of the deck, and the seed of later reshuffles and rounds. Every card
        under a pile top was face up once (drawn, then rejected) and stays where it is. The
        deck is put in a fixed order before the shuffle, so nothing of the old order
        survives."""
        new = state.clone()
        deck = sorted(new.deck)
        rng.shuffle(deck)
        new.deck = deck
        new.rng = rng.next64()
        return new

    def all_cards(self, state: IkebanaState) -> list[int]:
        cards = list(state.deck)
        for pile in state.piles:
            cards.extend(pile)
        for bouquet in state.bouquets:
            cards.extend(bouquet)
        if state.hand is not None:
            cards.append(state.hand)
        return cards


def round_result(record: JSON) -> JSON:
    """A scored round as players see it: every bouquet with its scoring breakdown."""
    players = []
    for seat, bouquet in enumerate(record["bouquets"]):
        players.append({
            "seat": seat,
            "bouquet": [card_json(c) for c in bouquet],
            "score": score_bouquet([CARDS[c] for c in bouquet]).to_json(),
            "points": record["points"][seat],
            "prestige": record["prestige"][seat],
        })
    return {"round": record["round"], "starter": record["starter"],
            "doubled": record["doubled"], "players": players}


def _copy_record(record: JSON) -> JSON:
    return {"round": int(record["round"]), "starter": int(record["starter"]),
            "doubled": bool(record["doubled"]),
            "bouquets": [[int(c) for c in b] for b in record["bouquets"]],
            "points": [int(p) for p in record["points"]],
            "prestige": [int(p) for p in record["prestige"]]}


def round_summary(record: JSON) -> JSON:
    """One row of the round table: points scored and totals after the round, by seat."""
    return {"round": record["round"], "starter": record["starter"],
            "doubled": record["doubled"], "points": list(record["points"]),
            "prestige": list(record["prestige"])}


def _round_started(state: IkebanaState) -> Event:
    """The line a round opens the log with: who starts it."""
    return Event("round_started", {"round": state.round, "starter": state.starter})


def next_starter(prestige: list[int], previous: Seat) -> Seat:
    """The highest total starts; ties go to the first tied seat clockwise from ``previous``."""
    best = max(prestige)
    seats = len(prestige)
    return next(s for s in ((previous + d) % seats for d in range(seats))
                if prestige[s] == best)


def _can_draw(state: IkebanaState) -> bool:
    return bool(state.deck) or any(len(pile) > 1 for pile in state.piles)


def _draw(state: IkebanaState, events: list[Event]) -> None:
    """Put the top card of the deck in hand, first rebuilding the deck if it is empty."""
    if not state.deck:
        rng = Rng(state.rng)
        deck: list[int] = []
        for pile in state.piles:
            deck.extend(pile[:-1])
            del pile[:-1]
        rng.shuffle(deck)
        state.rng = rng.state
        state.deck = deck
        events.append(Event("reshuffled", {"cards": len(deck)}))
    if not state.deck:  # pragma: no cover - ruled out by the card count (module docstring)
        raise IllegalAction("no_cards", "there is no card to draw")
    card = state.deck.pop()
    state.hand = card
    events.append(Event("drew", {"seat": state.current, "card": card_json(card),
                                 "deck": len(state.deck)}))


ENGINE = IkebanaEngine()
