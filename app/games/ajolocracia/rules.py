"""Ajolocracia (RULES.md §4): a pure, simultaneous drafting engine on ``app.games.base``.

Picking. Every turn all seats pick at once. ``to_act`` is every seat while the game runs: a
seat without a pick must pick; a seat with a pick may replace it (``pick`` again) or take it
back (``unpick``) while others are still choosing. The turn resolves atomically inside the
``apply`` of the pick that completes the table (every seat has a pick): all picks are revealed
together, placed, hands pass, a final single card is placed automatically, and a finished
round is scored and the next dealt. Random play still ends (with probability one): a
missing seat always has a legal pick, and the last missing pick always resolves the turn.
Turn timers should hurry :meth:`AjolocraciaEngine.waiting_for` (seats with no pick yet);
``timeout_action`` for a seat that has picked re-sends its pick unchanged.

A pick is one action: ``{"type": "pick", "card": id}``, or, for a seat with an INE in front of
it (placed in an earlier turn), ``{"type": "pick", "card": id, "second": id}`` — the second
card is the "Ajolocracia!" pick. Sending both at once means an INE holder never races the
table between its two picks.

Secrecy. Until the reveal nobody learns anything about another seat's pick: views show only
whether each seat has picked (not which card, nor whether it used its INE: "Ajolocracia!"
is announced with the reveal), and hand sizes count the picked cards, which stay in the
hand until the reveal. Card ids are a random permutation drawn at setup, independent of the
deal, so an id says nothing about the card. Whatever the last step of a round shows in its
events (the reveal, the last cards, the scores) stays in the view (``last_reveal``,
``last_cards``, ``results``), so the end of the game leaks nothing either.

Rulings: with two Ambystomas revealed together and fewer free environments than
Ambystomas, the most valuable ones take the environments; the INE that goes back is the
earliest one placed. Scoring rulings are in ``scoring.py``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from itertools import combinations
from typing import Any

from app.games.ajolocracia import bot
from app.games.ajolocracia.data import (
    ENVIRONMENT,
    HAND_SIZE,
    INE,
    KIND,
    KIND_ORDER,
    ROUNDS,
    VALUE,
    full_deck,
)
from app.games.ajolocracia.scoring import round_scores, value_bonus
from app.games.base import (
    JSON,
    Action,
    BaseEngine,
    Event,
    Field,
    OptionSpec,
    Outcome,
    Rng,
    check_action,
    rank_by,
    require,
)

# every action's fields (app.games.base.check_action)
ACTIONS = {"pick": {"card": Field("int"), "second": Field("int", required=False)},
           "unpick": {}}


@dataclass
class AjolocraciaState:
    seats: int
    options: JSON
    rng: int
    kinds: list[str]  # card id -> kind; ids are a random permutation of the deck
    pile: list[int]  # undealt cards, the next dealt first
    hands: list[list[int]]  # sorted by kind then id; picked cards stay until the reveal
    picks: list[list[int]]  # pending picks (hidden): [] or [card] or [card, second]
    tableau: list[list[int]]  # cards placed this round, in order (value cards excluded)
    habitats: list[list[list[int]]]  # this round's [environment, Ambystoma] pairs
    values: list[list[int]]  # value cards, kept across rounds
    discard: list[int] = field(default_factory=list)
    round: int = 1
    turn: int = 1
    results: list[list[JSON]] = field(default_factory=list)  # per round, per seat rows
    bonus: JSON | None = None  # end-of-game value awards (scoring.value_bonus)
    last_reveal: JSON | None = None  # the latest turn's picks, as revealed to everyone
    last_cards: JSON | None = None  # the latest round's automatically placed last cards
    over: bool = False


class AjolocraciaEngine(BaseEngine):
    id = "ajolocracia"
    name = "Ajolocracia"
    min_players = 2
    max_players = 5
    simultaneous = True
    secret_picks = True  # a pick stays unknown to the others until the reveal
    options: tuple[OptionSpec, ...] = (OptionSpec("alternate_direction", "bool", False),)

    # ------------------------------------------------------------------ setup

    def setup(self, seats: int, options: Mapping[str, Any] | None,
              seed: int) -> AjolocraciaState:
        opts = self.check_setup(seats, options)
        rng = Rng.from_seed(seed)
        kinds = full_deck()
        rng.shuffle(kinds)  # which id is which card
        order = list(range(len(kinds)))
        rng.shuffle(order)  # the deal order, independent of the ids
        state = AjolocraciaState(
            seats=seats, options=opts, rng=rng.state, kinds=kinds, pile=order,
            hands=[[] for _ in range(seats)], picks=[[] for _ in range(seats)],
            tableau=[[] for _ in range(seats)], habitats=[[] for _ in range(seats)],
            values=[[] for _ in range(seats)],
        )
        self._deal(state)
        return state

    def opening(self, state: AjolocraciaState) -> list[Event]:
        """The log's first line, as a later round's start gives it."""
        return [self._round_started(state)]

    def _round_started(self, s: AjolocraciaState) -> Event:
        return Event("round_started", {"round": s.round, "direction": self.direction(s),
                                       "hand_size": HAND_SIZE[s.seats]})

    # ------------------------------------------------------------------ queries

    def to_act(self, state: AjolocraciaState) -> set[int]:
        return set() if state.over else set(range(state.seats))

    @staticmethod
    def waiting_for(state: AjolocraciaState) -> set[int]:
        """Seats whose pick is still missing (the ones a turn timer should hurry)."""
        return set() if state.over else {s for s in range(state.seats) if not state.picks[s]}

    @staticmethod
    def turn_marker(state: AjolocraciaState) -> tuple[int, int]:
        """Changes exactly when a new simultaneous turn begins (the actor's turn clock)."""
        return (state.round, state.turn)

    @staticmethod
    def direction(state: AjolocraciaState) -> str:
        """Where hands pass this round: left = seat + 1, right = seat - 1."""
        if state.options["alternate_direction"] and state.round == 2:
            return "right"
        return "left"

    @staticmethod
    def can_pick_two(state: AjolocraciaState, seat: int) -> bool:
        """An INE in front of the seat, placed in an earlier turn (the tableau only grows
        at reveals, so every card in it is from an earlier turn while picking)."""
        return any(state.kinds[c] == INE for c in state.tableau[seat])

    def legal_actions(self, state: AjolocraciaState, seat: int) -> list[Action]:
        if state.over or not self._valid_seat(state, seat):
            return []
        hand = state.hands[seat]
        actions: list[Action] = [{"type": "pick", "card": c} for c in hand]
        if self.can_pick_two(state, seat):
            actions += [{"type": "pick", "card": a, "second": b}
                        for a, b in combinations(hand, 2)]
        if state.picks[seat]:
            actions.append({"type": "unpick"})
        return actions

    def totals(self, state: AjolocraciaState) -> list[int]:
        """Cumulative scores: scored rounds plus, at the end, the value awards."""
        totals = [sum(rows[s]["total"] for rows in state.results) for s in range(state.seats)]
        if state.bonus is not None:
            totals = [t + b for t, b in zip(totals, state.bonus["total"], strict=True)]
        return totals

    def current_scores(self, state: AjolocraciaState) -> list[int]:
        return list(self.totals(state))

    def outcome(self, state: AjolocraciaState) -> Outcome | None:
        if not state.over:
            return None
        scores = self.totals(state)
        value_counts = [len(v) for v in state.values]
        ranking = rank_by(scores, tiebreak=value_counts)
        return Outcome(
            scores=tuple(scores),
            ranking=ranking,
            winners=ranking[0],
            details={
                "rounds": [{"round": r + 1, "scores": _copy_json(rows)}
                           for r, rows in enumerate(state.results)],
                "values": _copy_json(state.bonus),
                "tiebreak": "values",
            },
        )

    # ------------------------------------------------------------------ apply

    def apply(self, state: AjolocraciaState, seat: int,
              action: Action) -> tuple[AjolocraciaState, list[Event]]:
        kind = check_action(action, ACTIONS)
        require(not state.over, "game_over", "the game is over")
        require(self._valid_seat(state, seat), "bad_seat", "no such seat")
        if kind == "pick":
            cards = self._parse_pick(state, seat, action)
            s = self._clone(state)
            s.picks[seat] = cards
            shown = [self._face(s, c) for c in cards]
            events = [Event("picked", {"seat": seat, "cards": shown},
                            visible_to=frozenset({seat}), redacted={"seat": seat})]
            if all(s.picks):
                events += self._resolve_turn(s)
            return s, events
        require(bool(state.picks[seat]), "not_picked", "you have not picked yet")
        s = self._clone(state)
        s.picks[seat] = []
        return s, [Event("unpicked", {"seat": seat})]

    def _parse_pick(self, state: AjolocraciaState, seat: int, action: Action) -> list[int]:
        hand = state.hands[seat]
        card = action["card"]
        require(card in hand, "no_such_card", "that card is not in your hand")
        if "second" not in action:
            return [card]
        second = action["second"]
        require(self.can_pick_two(state, seat), "no_ine",
                "you need an INE in front of you, placed in an earlier turn, to pick two cards")
        require(second in hand, "no_such_card", "that card is not in your hand")
        require(second != card, "same_card", "pick two different cards")
        return sorted((card, second), key=hand.index)  # the order legal_actions lists

    def _resolve_turn(self, s: AjolocraciaState) -> list[Event]:
        """Everyone has picked: reveal, place, pass; finish the round when hands run out."""
        events = [Event("ajolocracia", {"seat": seat})
                  for seat in range(s.seats) if len(s.picks[seat]) == 2]
        placed = []
        for seat in range(s.seats):
            picked = s.picks[seat]
            ine = None
            if len(picked) == 2:
                ine = next(c for c in s.tableau[seat] if s.kinds[c] == INE)
            entry = {"seat": seat, "cards": self._place(s, seat, picked),
                     "ajolocracia": len(picked) == 2, "returned_ine": ine is not None}
            if ine is not None:
                s.tableau[seat].remove(ine)
                s.hands[seat].append(ine)
            placed.append(entry)
            s.picks[seat] = []
        s.last_reveal = {"round": s.round, "turn": s.turn, "automatic": False, "picks": placed}
        direction = self.direction(s)
        # where the hands go next, so that the reveal's one log line can say it too
        events.append(Event("revealed", {**_copy_json(s.last_reveal), "direction": direction}))
        step = 1 if direction == "left" else -1
        hands: list[list[int]] = [[] for _ in range(s.seats)]
        for seat in range(s.seats):
            hands[(seat + step) % s.seats] = self._sorted(s, s.hands[seat])
        s.hands = hands
        s.turn += 1
        events.append(Event("passed", {"direction": direction, "hand_size": len(hands[0])}))
        if len(hands[0]) == 1:
            events += self._place_last_cards(s)
        return events

    def _place(self, s: AjolocraciaState, seat: int, cards: list[int]) -> list[JSON]:
        """Put revealed cards in front of ``seat``, Ambystomas onto free environments."""
        free = self._free_environments(s, seat)
        ambystomas = sorted((c for c in cards if KIND[s.kinds[c]].base > 0),
                            key=lambda c: -KIND[s.kinds[c]].base)
        home = dict(zip(ambystomas, free, strict=False))  # best Ambystoma first
        shown = []
        for card in cards:
            s.hands[seat].remove(card)
            if s.kinds[card] == VALUE:
                s.values[seat].append(card)
            else:
                s.tableau[seat].append(card)
            if card in home:
                s.habitats[seat].append([home[card], card])
            shown.append({**self._face(s, card), "environment": home.get(card)})
        return shown

    def _place_last_cards(self, s: AjolocraciaState) -> list[Event]:
        placed = [{"seat": seat, "cards": self._place(s, seat, list(s.hands[seat])),
                   "ajolocracia": False, "returned_ine": False}
                  for seat in range(s.seats)]
        s.last_cards = {"round": s.round, "turn": s.turn, "automatic": True, "picks": placed}
        return [Event("last_cards", _copy_json(s.last_cards)), *self._end_round(s)]

    def _end_round(self, s: AjolocraciaState) -> list[Event]:
        tableaux = [[s.kinds[c] for c in s.tableau[seat]] for seat in range(s.seats)]
        boosted = [[s.kinds[a] for _, a in s.habitats[seat]] for seat in range(s.seats)]
        rows: list[JSON] = list(round_scores(tableaux, boosted))
        s.results.append(rows)
        for seat in range(s.seats):
            s.discard += s.tableau[seat]
            s.tableau[seat] = []
            s.habitats[seat] = []
        events = [Event("round_scored", {"round": s.round, "scores": _copy_json(rows)})]
        if s.round == ROUNDS:
            s.bonus = value_bonus([len(v) for v in s.values])
            s.over = True
            result = self.outcome(s)
            assert result is not None
            events.append(Event("game_over", {"scores": list(result.scores),
                                              "winners": list(result.winners),
                                              "values": _copy_json(s.bonus)}))
            return events
        s.round += 1
        s.turn = 1
        self._deal(s)
        events.append(self._round_started(s))
        return events

    def _deal(self, s: AjolocraciaState) -> None:
        size = HAND_SIZE[s.seats]
        for seat in range(s.seats):
            s.hands[seat] = self._sorted(s, s.pile[:size])
            s.pile = s.pile[size:]

    # ------------------------------------------------------------------ view

    def view(self, state: AjolocraciaState, seat: int | None) -> JSON:
        me = seat if seat is not None and self._valid_seat(state, seat) else None
        running = self._running(state)
        totals = self.totals(state)
        players = [{
            "seat": p,
            "hand_size": len(state.hands[p]),
            "picked": bool(state.picks[p]),
            "can_pick_two": self.can_pick_two(state, p),
            "tableau": self._tableau_view(state, p),
            "values": len(state.values[p]),
            "running": running[p],
            "score": totals[p],
        } for p in range(state.seats)]
        return {
            "game": self.id,
            "seats": state.seats,
            "me": me,
            "options": dict(state.options),
            "phase": "over" if state.over else "pick",
            "round": state.round,
            "rounds": ROUNDS,
            "turn": state.turn,
            "hand_size_dealt": HAND_SIZE[state.seats],
            "direction": self.direction(state),
            "hand": None if me is None else [self._face(state, c) for c in state.hands[me]],
            "my_pick": None if me is None else list(state.picks[me]),
            "waiting_for": sorted(self.waiting_for(state)),
            "players": players,
            "last_reveal": _copy_json(state.last_reveal),
            "last_cards": _copy_json(state.last_cards),
            "results": [{"round": r + 1, "scores": [dict(row) for row in rows]}
                        for r, rows in enumerate(state.results)],
            "values_bonus": _copy_json(state.bonus),
            "pile": len(state.pile),
            "discard": len(state.discard),
        }

    def view_all(self, state: AjolocraciaState) -> JSON:
        """The spectator's view plus every hand and pick (replays of finished games)."""
        return {**self.view(state, None), "revealed": {
            "hands": [[self._face(state, c) for c in hand] for hand in state.hands],
            "picks": [[self._face(state, c) for c in picks] for picks in state.picks]}}

    def _running(self, state: AjolocraciaState) -> list[JSON]:
        """This round's score so far for every seat (public: only placed cards count)."""
        tableaux = [[state.kinds[c] for c in state.tableau[p]] for p in range(state.seats)]
        boosted = [[state.kinds[a] for _, a in state.habitats[p]] for p in range(state.seats)]
        return list(round_scores(tableaux, boosted))

    def _tableau_view(self, state: AjolocraciaState, seat: int) -> JSON:
        groups: JSON = {"citizenship": [], "isopods_algae": [], "beetles_annelids": [],
                        "institutions": [], "ambystoma": [], "environment": [], "ine": [],
                        "values": [self._face(state, c) for c in state.values[seat]]}
        resident = {env: amb for env, amb in state.habitats[seat]}
        housed = set(resident.values())
        for card in state.tableau[seat]:
            category = KIND[state.kinds[card]].category
            if card in housed:
                continue
            if category == "environment":
                amb = resident.get(card)
                groups["environment"].append(
                    {**self._face(state, card),
                     "ambystoma": None if amb is None else self._face(state, amb)})
            else:
                groups[category].append(self._face(state, card))
        return groups

    # ------------------------------------------------------------------ persistence

    def dump(self, state: AjolocraciaState) -> JSON:
        return _state_json(state)

    def load(self, data: JSON) -> AjolocraciaState:
        return AjolocraciaState(**_state_json(data))

    # ------------------------------------------------------------------ tests and bots

    def timeout_action(self, state: AjolocraciaState, seat: int) -> Action:
        """Out of time: keep a pick already made, else take the bot's choice."""
        require(not state.over, "game_over", "the game is over")
        require(self._valid_seat(state, seat), "bad_seat", "no such seat")
        picks = state.picks[seat]
        if picks:
            action: Action = {"type": "pick", "card": picks[0]}
            if len(picks) == 2:
                action["second"] = picks[1]
            return action
        card = bot.best_card(state.hands[seat], self._own_kinds(state, seat), state.kinds,
                             len(self._free_environments(state, seat)))
        return {"type": "pick", "card": card}

    def scramble(self, state: AjolocraciaState, seat: int | None,
                 rng: Rng) -> AjolocraciaState:
        """Re-deal what ``seat`` cannot see: the pile and the other hands (their pending
        picks included), keeping every id where it is and every size."""
        s = self._clone(state)
        others = [p for p in range(s.seats) if p != seat]
        hidden = list(s.pile) + [c for p in others for c in s.hands[p]]
        faces = [s.kinds[c] for c in hidden]
        rng.shuffle(faces)
        for card, kind in zip(hidden, faces, strict=True):
            s.kinds[card] = kind
        for p in others:
            s.hands[p] = self._sorted(s, s.hands[p])
        return s

    def redeal_unknown(self, state: AjolocraciaState, rng: Rng) -> AjolocraciaState:
        """What no seat knows, dealt anew from ``rng`` (a branch of a replay starts from
        it): the cards of the undealt pile (the next rounds' hands). Every hand has been
        seen by the seats it passed through and stays as it is. The pile's cards keep their
        ids (an id says nothing) and get their kinds again, from a fixed order shuffled, so
        nothing of the old deal survives."""
        s = self._clone(state)
        faces = sorted(s.kinds[c] for c in s.pile)
        rng.shuffle(faces)
        for card, kind in zip(s.pile, faces, strict=True):
            s.kinds[card] = kind
        s.rng = rng.next64()
        return s

    def all_cards(self, state: AjolocraciaState) -> list[Any]:
        zones = [state.pile, state.discard, *state.hands, *state.tableau, *state.values]
        return [(state.kinds[c], c) for zone in zones for c in zone]

    # ------------------------------------------------------------------ helpers

    @staticmethod
    def _valid_seat(state: AjolocraciaState, seat: Any) -> bool:
        return (isinstance(seat, int) and not isinstance(seat, bool)
                and 0 <= seat < state.seats)

    @staticmethod
    def _face(state: AjolocraciaState, card: int) -> JSON:
        return {"id": card, "kind": state.kinds[card]}

    @staticmethod
    def _sorted(state: AjolocraciaState, cards: list[int]) -> list[int]:
        return sorted(cards, key=lambda c: (KIND_ORDER[state.kinds[c]], c))

    @staticmethod
    def _free_environments(state: AjolocraciaState, seat: int) -> list[int]:
        """Environments in front of ``seat`` with no Ambystoma on them, oldest first."""
        taken = {env for env, _ in state.habitats[seat]}
        return [c for c in state.tableau[seat]
                if state.kinds[c] == ENVIRONMENT and c not in taken]

    @staticmethod
    def _own_kinds(state: AjolocraciaState, seat: int) -> list[str]:
        return [state.kinds[c] for c in state.tableau[seat]]

    @staticmethod
    def _clone(state: AjolocraciaState) -> AjolocraciaState:
        """A copy ``apply`` may change. Recorded JSON (results rows, the last reveal, the
        value awards) is never changed in place, so it is shared, not copied."""
        return AjolocraciaState(
            seats=state.seats, options=dict(state.options), rng=state.rng,
            kinds=list(state.kinds), pile=list(state.pile),
            hands=[list(h) for h in state.hands], picks=[list(p) for p in state.picks],
            tableau=[list(t) for t in state.tableau],
            habitats=[[list(pair) for pair in h] for h in state.habitats],
            values=[list(v) for v in state.values], discard=list(state.discard),
            round=state.round, turn=state.turn, results=list(state.results),
            bonus=state.bonus, last_reveal=state.last_reveal, last_cards=state.last_cards,
            over=state.over,
        )


def _state_json(source: Any) -> JSON:
    """The fields of a state (or of its dump) as fresh JSON-ready values."""
    given: JSON = source if isinstance(source, dict) else vars(source)
    out: JSON = {}
    for name in _FIELDS:
        value = given[name]
        if name in _FLAT:
            out[name] = list(value)
        elif name in _NESTED:
            out[name] = [list(inner) for inner in value]
        else:
            out[name] = _copy_json(value)
    return out


_FIELDS = tuple(f.name for f in fields(AjolocraciaState))
_FLAT = frozenset({"kinds", "pile", "discard"})
_NESTED = frozenset({"hands", "picks", "tableau", "values"})


def _copy_json(value: Any) -> Any:
    """A deep copy of JSON-shaped data (dicts, lists, scalars), faster than ``deepcopy``."""
    if isinstance(value, list):
        return [_copy_json(v) for v in value]
    if isinstance(value, dict):
        return {k: _copy_json(v) for k, v in value.items()}
    return value


ENGINE = AjolocraciaEngine()
