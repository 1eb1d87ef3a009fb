"""The Allegra engine (RULES.md §5): golf with shared columns and the knock; pure, seeded.

Phases (``state.phase``):

- ``reveal``: at the start of a round every seat turns up 2 face-down cards of its display of
  15 (``{"type": "reveal", "pos": p}``, once per card). Seats do this at the same time; a
  card turned up is seen by everyone at once, so two neighbours never pick the same card.
- ``take``: the active player takes the top card of the deck (``draw``) or of the discard
  pile (``take_discard``); it is shown to everyone.
- ``knock``: after a ``draw`` (3+ players, option ``knock``) a timed window is open
  (:meth:`AllegraEngine.window`): the eligible seats answer ``knock`` or ``no_knock``; the
  window closes early when all have answered, or at its deadline when the actor calls
  :meth:`AllegraEngine.close_window` (unanswered seats do not knock). An answer after it
  closed is refused with ``knock_closed``.
- ``accept``: someone knocked: the active player accepts one knocker
  (``{"type": "accept", "knocker": s}``) or declines (``decline``, the turn goes on).
- ``place``: ``{"type": "keep", "pos": p}`` exchanges the card for the one at ``p``;
  ``{"type": "flip", "pos": p}`` discards it and turns up the face-down card at ``p``.
- ``knock_place``: the accepted knocker R places the card at ``pos`` of R's display and
  takes the card that was there into hand (step a).
- ``knock_take``: the active player takes the card at ``take`` of R's display and puts it at
  ``give`` of their own (step b); the card leaving their display is discarded and R's held
  card goes face up where the taken card was (step c).
- ``clear``: the seat that has just acted (the active player after step 2 or step b-c, R
  after step a) may clear a line (``{"type": "clear", "cells": [p, q, r]}``) or not
  (``skip_clear``). After a clear the lines are looked for again (a cleared column can make
  a row across the gap); the phase ends when there is none left or the seat skips.

Rulings made here (besides those in RULES.md, all shown on the rules page):

- Lines offered after an action are every line of the acting seat's display at that moment,
  including one it declined before or that a neighbour's move completed.
- The card a turn exchanges out of the active display goes to the discard pile at the end of
  the turn, after any cleared cards ("al final de su turno"); a discarded drawn card goes at once.
- The card a knocker takes into hand (step a) is known only to the knocker until it lies
  face up (step c, or the discard pile): its value is in the knocker's view and event
  alone; everyone else sees that R holds a card. If the active player cannot take a card
  at step b (only possible when the one card left in R's display is also the only card left
  in theirs) that card is discarded face up and the turn ends after the active player's
  clear.
- When the deck is empty, every discard under the top one is shuffled into a new deck.
- A player skipped for having no face-down card does not end the round (RULES.md ruling:
  only the active player's completed display does). In the final round a skipped seat has
  had its last move.
- With a target score the number of rounds is open; after
  :data:`~app.games.allegra.data.MAX_ROUNDS_WITH_TARGET` rounds the game ends anyway.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from app.games.allegra import flow
from app.games.allegra.data import (
    DISPLAY_SIZE,
    INITIAL_REVEALS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    deal_values,
)
from app.games.allegra.flow import after_action, close_knock, go_on, start_turn
from app.games.allegra.geometry import Slot, slot_at
from app.games.allegra.state import (
    STATE_FIELDS,
    AllegraState,
    can_knock,
    card_positions,
    clone,
    copy_json,
    exchanges,
    face_down_positions,
    lines_of,
    totals,
    value_at,
)
from app.games.allegra.view import build_view
from app.games.base import (
    JSON,
    Action,
    BaseEngine,
    Event,
    Field,
    OptionSpec,
    Outcome,
    Rng,
    Window,
    action_field,
    check_action,
    first_seat,
    first_seat_option,
    rank_by,
    require,
)

FIELDS: dict[str, frozenset[str]] = {
    "reveal": frozenset({"type", "pos"}),
    "draw": frozenset({"type"}),
    "take_discard": frozenset({"type"}),
    "knock": frozenset({"type"}),
    "no_knock": frozenset({"type"}),
    "accept": frozenset({"type", "knocker"}),
    "decline": frozenset({"type"}),
    "keep": frozenset({"type", "pos"}),
    "flip": frozenset({"type", "pos"}),
    "place": frozenset({"type", "pos"}),
    "clear": frozenset({"type", "cells"}),
    "skip_clear": frozenset({"type"}),
    "exchange": frozenset({"type", "take", "give"}),
}
# every action's fields with their kinds (app.games.base.check_action); positions are
# checked against the display by the rules, with their own error codes
_KINDS = {"pos": Field("int"), "knocker": Field("int"), "cells": Field("ints"),
          "take": Field("int"), "give": Field("int")}
ACTIONS = {kind: {f: _KINDS[f] for f in sorted(names - {"type"})}
           for kind, names in FIELDS.items()}
PHASE_ACTIONS: dict[str, frozenset[str]] = {
    "reveal": frozenset({"reveal"}),
    "take": frozenset({"draw", "take_discard"}),
    "knock": frozenset({"knock", "no_knock"}),
    "accept": frozenset({"accept", "decline"}),
    "place": frozenset({"keep", "flip"}),
    "knock_place": frozenset({"place"}),
    "clear": frozenset({"clear", "skip_clear"}),
    "knock_take": frozenset({"exchange"}),
}
PHASE_HINT = {
    "reveal": "turn up your first two cards",
    "take": "take a card from the deck or the discard pile",
    "knock": "the knock window is open",
    "accept": "accept a knocker or decline",
    "place": "keep the card in your display or discard it and turn a card up",
    "knock_place": "the knocker places the card",
    "clear": "clear a line or go on",
    "knock_take": "take a card from the knocker's display",
}


class AllegraEngine(BaseEngine):
    """Allegra for 2 to 6 players."""

    id = "allegra"
    name = "Allegra"
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    simultaneous = True  # the reveal and the knock window ask several seats at once
    options: tuple[OptionSpec, ...] = (
        OptionSpec("rounds", "int", 3, minimum=1, maximum=10),
        OptionSpec("target_score", "int", 0, minimum=0, maximum=300),
        OptionSpec("knock", "bool", True),
        OptionSpec("knock_seconds", "int", 6, minimum=2, maximum=30),
        first_seat_option(MAX_PLAYERS),
    )

    # ----------------------------------------------------------------------- setup

    def setup(self, seats: int, options: Mapping[str, Any] | None, seed: int) -> AllegraState:
        opts = self.check_setup(seats, options)
        rng = Rng.from_seed(seed)
        values = deal_values(seats, rng)
        starter = first_seat(opts, seats, rng)
        state = AllegraState(seats=seats, options=opts, rng=rng.state, values=values,
                             deck=[], discard=[], grid=[], up=[],
                             dealer=(starter - 1) % seats, current=starter)
        flow.deal(state)
        return state

    @staticmethod
    def opening(state: AllegraState) -> list[Event]:
        """The log's first line, as a later round's start gives it."""
        return [flow.round_started(state)]

    # ----------------------------------------------------------------------- queries

    def to_act(self, state: AllegraState) -> set[int]:
        phase = state.phase
        if state.over:
            return set()
        if phase == "reveal":
            return {s for s in range(state.seats) if state.reveals[s] < INITIAL_REVEALS}
        if phase == "knock":
            return set(state.eligible) - set(state.knocked) - set(state.passed)
        if phase == "knock_place":
            return {state.knocker} if state.knocker is not None else set()
        if phase == "clear":
            return {state.clearer} if state.clearer is not None else set()
        return {state.current}

    def window(self, state: AllegraState) -> Window | None:
        """The knock window, while it is open."""
        if state.over or state.phase != "knock":
            return None
        return Window(id=f"knock-{state.windows}", seconds=state.options["knock_seconds"],
                      seats=frozenset(self.to_act(state)))

    def legal_actions(self, state: AllegraState, seat: int) -> list[Action]:
        if seat not in self.to_act(state):
            return []
        phase = state.phase
        if phase == "reveal":
            return [{"type": "reveal", "pos": p} for p in face_down_positions(state, seat)]
        if phase == "take":
            return [{"type": "draw"}] + ([{"type": "take_discard"}] if state.discard else [])
        if phase == "knock":
            return [{"type": "knock"}, {"type": "no_knock"}]
        if phase == "accept":
            return [*({"type": "accept", "knocker": k} for k in state.knockers),
                    {"type": "decline"}]
        if phase == "place":
            keeps: list[Action] = [{"type": "keep", "pos": p}
                                   for p in card_positions(state, seat)]
            return keeps + [{"type": "flip", "pos": p}
                            for p in face_down_positions(state, seat)]
        if phase == "knock_place":
            return [{"type": "place", "pos": p} for p in card_positions(state, seat)]
        if phase == "clear":
            return [*({"type": "clear", "cells": line} for line in lines_of(state, seat)),
                    {"type": "skip_clear"}]
        assert phase == "knock_take" and state.knocker is not None
        return [{"type": "exchange", "take": q, "give": a}
                for q, a in exchanges(state, state.knocker, seat)]

    # ----------------------------------------------------------------------- apply

    def apply(self, state: AllegraState, seat: int,
              action: Action) -> tuple[AllegraState, list[Event]]:
        kind = check_action(action, ACTIONS)
        require(not state.over, "game_over", "the game is over")
        if kind in ("knock", "no_knock"):
            self._check_answer(state, seat)
        require(seat in self.to_act(state), "not_your_turn", "it is not your turn")
        require(kind in PHASE_ACTIONS[state.phase], "wrong_phase",
                f"you cannot {kind.replace('_', ' ')} now: {PHASE_HINT[state.phase]}")
        s = clone(state)
        events: list[Event] = []
        handler = getattr(self, f"_do_{kind}")
        handler(s, seat, action, events)
        return s, events

    def close_window(self, state: AllegraState, window_id: str) -> tuple[AllegraState,
                                                                          list[Event]]:
        """The knock window's deadline has passed: whoever has not answered does not knock."""
        open_now = self.window(state)
        require(open_now is not None and open_now.id == window_id, "window_closed",
                "that knock window is not open")
        s = clone(state)
        late = sorted(self.to_act(s))
        s.passed.extend(late)
        events = [Event("knock_timeout", {"window": window_id, "seats": late})]
        close_knock(s, events)
        return s, events

    def _check_answer(self, state: AllegraState, seat: int) -> None:
        require(state.phase == "knock", "knock_closed",
                "the knock window has closed: the turn has moved on")
        require(seat != state.current, "own_card", "you cannot knock for your own card")
        require(0 <= seat < state.seats and seat in state.eligible, "cannot_knock",
                "you cannot knock now (3 or fewer cards left in your display, or your last "
                "move of the round is done)")
        require(seat not in state.knocked and seat not in state.passed, "already_answered",
                "you have already answered this knock window")

    def _do_reveal(self, s: AllegraState, seat: int, action: Action,
                   events: list[Event]) -> None:
        pos = _pos(action, "pos")
        owner, index = _face_down_slot(s, seat, pos)
        s.up[owner][index] = True
        s.reveals[seat] += 1
        events.append(Event("revealed", {"seat": seat, "pos": pos, "owner": owner,
                                         "slot": index, "value": value_at(s, owner, index)}))
        if all(r >= INITIAL_REVEALS for r in s.reveals):
            start_turn(s, s.current, events)

    def _do_draw(self, s: AllegraState, seat: int, action: Action,
                 events: list[Event]) -> None:
        if not s.deck:
            flow.reshuffle(s, events)
        card = s.deck.pop()
        s.hand, s.source = card, "deck"
        events.append(Event("drew", {"seat": seat, "value": s.values[card],
                                     "deck": len(s.deck)}))
        eligible = [k for k in _clockwise_from(s.seats, seat) if can_knock(s, k)]
        if eligible:
            s.windows += 1
            s.eligible, s.knocked, s.passed = eligible, [], []
            s.phase = "knock"
            events.append(Event("knock_opened", {"window": f"knock-{s.windows}",
                                                 "seats": eligible,
                                                 "seconds": s.options["knock_seconds"]}))
        else:
            s.phase = "place"

    def _do_take_discard(self, s: AllegraState, seat: int, action: Action,
                         events: list[Event]) -> None:
        require(bool(s.discard), "empty_discard", "the discard pile is empty")
        card = s.discard.pop()
        s.hand, s.source = card, "discard"
        s.phase = "place"
        events.append(Event("took_discard", {"seat": seat, "value": s.values[card]}))

    def _do_knock(self, s: AllegraState, seat: int, action: Action,
                  events: list[Event]) -> None:
        s.knocked.append(seat)
        events.append(Event("knocked", {"seat": seat}))
        if not self.to_act(s):
            close_knock(s, events)

    def _do_no_knock(self, s: AllegraState, seat: int, action: Action,
                     events: list[Event]) -> None:
        s.passed.append(seat)
        events.append(Event("no_knock", {"seat": seat}))
        if not self.to_act(s):
            close_knock(s, events)

    def _do_accept(self, s: AllegraState, seat: int, action: Action,
                   events: list[Event]) -> None:
        knocker = action_field(action, "knocker", int)
        require(knocker in s.knockers, "not_a_knocker", "that player did not knock")
        s.knocker = knocker
        s.phase = "knock_place"
        events.append(Event("accepted", {"seat": seat, "knocker": knocker}))

    def _do_decline(self, s: AllegraState, seat: int, action: Action,
                    events: list[Event]) -> None:
        s.knockers = []
        s.phase = "place"
        events.append(Event("declined", {"seat": seat}))

    def _do_keep(self, s: AllegraState, seat: int, action: Action,
                 events: list[Event]) -> None:
        pos = _pos(action, "pos")
        owner, index = _card_slot(s, seat, pos)
        old, was_up = s.grid[owner][index], s.up[owner][index]
        assert old is not None and s.hand is not None
        s.grid[owner][index], s.up[owner][index] = s.hand, True
        events.append(Event("kept", {"seat": seat, "pos": pos, "owner": owner, "slot": index,
                                     "value": s.values[s.hand], "replaced": s.values[old],
                                     "was_up": was_up}))
        s.outgoing, s.hand = old, None
        after_action(s, seat, "end_turn", events)

    def _do_flip(self, s: AllegraState, seat: int, action: Action,
                 events: list[Event]) -> None:
        pos = _pos(action, "pos")
        owner, index = _face_down_slot(s, seat, pos)
        assert s.hand is not None
        s.discard.append(s.hand)
        s.up[owner][index] = True
        events.append(Event("flipped", {"seat": seat, "discarded": s.values[s.hand],
                                        "pos": pos, "owner": owner, "slot": index,
                                        "value": value_at(s, owner, index)}))
        s.hand = None
        after_action(s, seat, "end_turn", events)

    def _do_place(self, s: AllegraState, seat: int, action: Action,
                  events: list[Event]) -> None:
        pos = _pos(action, "pos")
        owner, index = _card_slot(s, seat, pos)
        taken = s.grid[owner][index]
        assert taken is not None and s.hand is not None
        s.grid[owner][index], s.up[owner][index] = s.hand, True
        placed = {"seat": seat, "pos": pos, "owner": owner, "slot": index,
                  "value": s.values[s.hand]}
        # the card taken into hand is the knocker's secret until it lies face up (step c)
        events.append(Event("knock_placed", {**placed, "taken": s.values[taken]},
                            visible_to=frozenset({seat}), redacted=placed))
        s.held, s.hand = taken, None
        after_action(s, seat, "knock_take", events)

    def _do_exchange(self, s: AllegraState, seat: int, action: Action,
                     events: list[Event]) -> None:
        assert s.knocker is not None and s.held is not None
        take, give = _pos(action, "take"), _pos(action, "give")
        took = _card_slot(s, s.knocker, take)
        gave = _card_slot(s, seat, give)
        require(took != gave, "same_card",
                "that card is in both displays: give a different card of yours")
        taken = s.grid[took[0]][took[1]]
        given = s.grid[gave[0]][gave[1]]
        assert taken is not None and given is not None
        s.grid[gave[0]][gave[1]], s.up[gave[0]][gave[1]] = taken, True
        s.grid[took[0]][took[1]], s.up[took[0]][took[1]] = s.held, True
        events.append(Event("exchanged", {
            "seat": seat, "knocker": s.knocker, "take": take, "give": give,
            "value": s.values[taken], "discarded": s.values[given],
            "placed": s.values[s.held]}))
        s.outgoing, s.held = given, None
        after_action(s, seat, "end_turn", events)

    def _do_clear(self, s: AllegraState, seat: int, action: Action,
                  events: list[Event]) -> None:
        cells = action["cells"]
        require(isinstance(cells, list) and all(type(c) is int for c in cells), "bad_action",
                "cells must be a list of display positions")
        require(sorted(cells) in lines_of(s, seat), "not_a_line",
                "those cards do not form a line of three equal face-up cards")
        value = None
        for pos in sorted(cells):
            owner, index = slot_at(s.seats, seat, pos)
            card = s.grid[owner][index]
            assert card is not None
            value = s.values[card]
            s.discard.append(card)
            s.grid[owner][index], s.up[owner][index] = None, False
        events.append(Event("cleared", {"seat": seat, "cells": sorted(cells), "value": value}))
        remaining = lines_of(s, seat)
        if remaining:  # a cleared column can leave a row of three across its gap
            events.append(Event("lines", {"seat": seat, "lines": remaining}))
        else:
            go_on(s, events)

    def _do_skip_clear(self, s: AllegraState, seat: int, action: Action,
                       events: list[Event]) -> None:
        events.append(Event("kept_lines", {"seat": seat}))
        go_on(s, events)

    # ----------------------------------------------------------------------- results

    def current_scores(self, state: AllegraState) -> list[int]:
        return list(totals(state))

    def outcome(self, state: AllegraState) -> Outcome | None:
        if not state.over:
            return None
        scores = totals(state)
        ranking = rank_by(scores, higher_is_better=False)
        return Outcome(scores=tuple(scores), ranking=ranking, winners=ranking[0],
                       details={"rounds": copy_json(state.results),
                                "target_score": state.options["target_score"],
                                "lowest_wins": True})

    def timeout_action(self, state: AllegraState, seat: int) -> Action:
        """Out of time: no knock, decline, skip clears, draw and turn a card up."""
        legal = self.legal_actions(state, seat)
        require(bool(legal), "not_your_turn", "this seat has nothing to do")
        for wanted in ("no_knock", "decline", "skip_clear", "draw", "flip"):
            for action in legal:
                if action["type"] == wanted:
                    return action
        return legal[0]

    # ----------------------------------------------------------------------- views

    def view(self, state: AllegraState, seat: int | None) -> JSON:
        return build_view(self, state, seat)

    # ----------------------------------------------------------------------- persistence

    def dump(self, state: AllegraState) -> JSON:
        return copy_json({f: getattr(state, f) for f in STATE_FIELDS})

    def load(self, data: JSON) -> AllegraState:
        return AllegraState(**copy_json({f: data[f] for f in STATE_FIELDS}))

    # ----------------------------------------------------------------------- test hooks

    def scramble(self, state: AllegraState, seat: int | None, rng: Rng) -> AllegraState:
        """Re-deal what ``seat`` does not see: the deck, every face-down card, the card a
        knocker holds unless ``seat`` is that knocker (and future shuffles)."""
        s = clone(state)
        hidden = list(s.deck)
        for owner in range(s.seats):
            hidden += [c for c, up in zip(s.grid[owner], s.up[owner], strict=True)
                       if c is not None and not up]
        if s.held is not None and seat != s.knocker:
            hidden.append(s.held)  # only the knocker knows the card in hand
        faces = [s.values[c] for c in hidden]
        rng.shuffle(faces)
        for card, value in zip(hidden, faces, strict=True):
            s.values[card] = value
        s.rng = rng.next64()
        return s

    def redeal_unknown(self, state: AllegraState, rng: Rng) -> AllegraState:
        """What no seat knows, dealt anew from ``rng`` (a branch of a replay starts from
        it): the deck and every face-down card of every display (their ids stay: an id says
        nothing), and the seed of later shuffles. The card a knocker holds is known to the
        knocker and stays. The values are put in a fixed order before the shuffle, so
        nothing of the old deal survives."""
        s = clone(state)
        hidden = list(s.deck)
        for owner in range(s.seats):
            hidden += [c for c, up in zip(s.grid[owner], s.up[owner], strict=True)
                       if c is not None and not up]
        faces = sorted(s.values[c] for c in hidden)
        rng.shuffle(faces)
        for card, value in zip(hidden, faces, strict=True):
            s.values[card] = value
        s.rng = rng.next64()
        return s

    def all_cards(self, state: AllegraState) -> list[Any]:
        cards = [*state.deck, *state.discard]
        for row in state.grid:
            cards += [c for c in row if c is not None]
        cards += [c for c in (state.hand, state.held, state.outgoing) if c is not None]
        return [(c, state.values[c]) for c in cards]


def _pos(action: Action, name: str) -> int:
    pos = action_field(action, name, int)
    require(0 <= pos < DISPLAY_SIZE, "bad_position",
            f"{name} must be a display position from 0 to {DISPLAY_SIZE - 1}")
    return int(pos)


def _card_slot(state: AllegraState, seat: int, pos: int) -> Slot:
    owner, index = slot_at(state.seats, seat, pos)
    require(state.grid[owner][index] is not None, "empty_space",
            "that space is empty (its card was cleared)")
    return owner, index


def _face_down_slot(state: AllegraState, seat: int, pos: int) -> Slot:
    owner, index = _card_slot(state, seat, pos)
    require(not state.up[owner][index], "not_face_down", "that card is already face up")
    return owner, index


def _clockwise_from(seats: int, seat: int) -> list[int]:
    return [(seat + d) % seats for d in range(1, seats)]



ENGINE = AllegraEngine()
