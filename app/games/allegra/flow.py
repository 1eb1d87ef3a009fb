"""Allegra's transitions between turns and rounds: dealing, the knock window closing, the
clear phase, the end of a turn (skips, the round's trigger and last turns), scoring a round.
They change the state given to them: the engine calls them on its own fresh copy."""

from __future__ import annotations

from app.games.allegra.data import GRID_SIZE, MAX_ROUNDS_WITH_TARGET
from app.games.allegra.geometry import display_slots, left_of
from app.games.allegra.scoring import score_round
from app.games.allegra.state import (
    AllegraState,
    copy_json,
    exchanges,
    face_down_count,
    lines_of,
    totals,
)
from app.games.base import JSON, Event, Rng, rank_by


def deal(s: AllegraState) -> None:
    """A new round: shuffle every card, deal 12 face down each, start the discard pile."""
    rng = Rng(s.rng)
    deck = list(range(len(s.values)))
    rng.shuffle(deck)
    s.rng = rng.state
    s.grid = [[deck.pop() for _ in range(GRID_SIZE)] for _ in range(s.seats)]
    s.up = [[False] * GRID_SIZE for _ in range(s.seats)]
    s.discard = [deck.pop()]
    s.deck = deck
    s.current = left_of(s.seats, s.dealer)
    s.phase = "reveal"
    s.reveals = [0] * s.seats
    s.trigger = None
    s.done = [False] * s.seats
    reset_turn(s)


def reset_turn(s: AllegraState) -> None:
    s.hand = s.source = s.knocker = s.held = s.outgoing = None
    s.clearer = s.after_clear = None
    s.eligible, s.knocked, s.passed, s.knockers = [], [], [], []


def start_turn(s: AllegraState, seat: int, events: list[Event]) -> None:
    s.current = seat
    s.phase = "take"
    s.turns += 1
    events.append(Event("turn", {"seat": seat, "final": s.trigger is not None}))


def reshuffle(s: AllegraState, events: list[Event]) -> None:
    rng = Rng(s.rng)
    deck = s.discard[:-1]
    rng.shuffle(deck)
    s.rng = rng.state
    s.deck = deck
    s.discard = s.discard[-1:]
    events.append(Event("reshuffled", {"cards": len(deck)}))


def close_knock(s: AllegraState, events: list[Event]) -> None:
    s.knockers = [k for k in s.eligible if k in s.knocked]
    events.append(Event("knock_closed", {"window": f"knock-{s.windows}",
                                         "knockers": list(s.knockers)}))
    s.phase = "accept" if s.knockers else "place"


def after_action(s: AllegraState, seat: int, after: str, events: list[Event]) -> None:
    """Offer ``seat`` its lines, if any; then go on with ``after``."""
    s.clearer, s.after_clear = seat, after
    if lines_of(s, seat):
        s.phase = "clear"
        events.append(Event("lines", {"seat": seat, "lines": lines_of(s, seat)}))
    else:
        go_on(s, events)


def go_on(s: AllegraState, events: list[Event]) -> None:
    after = s.after_clear
    s.clearer = s.after_clear = None
    if after == "knock_take":
        assert s.knocker is not None and s.held is not None
        if exchanges(s, s.knocker, s.current):
            s.phase = "knock_take"
            return
        events.append(Event("knock_no_exchange", {"seat": s.knocker,
                                                  "value": s.values[s.held]}))
        s.discard.append(s.held)
        s.held = None
        after_action(s, s.current, "end_turn", events)
        return
    end_turn(s, events)


def end_turn(s: AllegraState, events: list[Event]) -> None:
    """Discard the exchanged card, check the end of the round, pass the turn on.

    The loop always returns: without a trigger the active seat still has a face-down card
    (else it would trigger now), so at worst the turn comes back to it; with a trigger the
    walk reaches the trigger seat within one lap.
    """
    if s.outgoing is not None:
        s.discard.append(s.outgoing)
    seat = s.current
    if s.trigger is None and face_down_count(s, seat) == 0:
        s.trigger = seat
        events.append(Event("round_ending", {"seat": seat}))
    if s.trigger is not None:
        s.done[seat] = True
    reset_turn(s)
    nxt = seat
    for _ in range(s.seats):
        nxt = (nxt + 1) % s.seats
        if s.trigger is not None and nxt == s.trigger:
            end_round(s, events)
            return
        if face_down_count(s, nxt) > 0:
            start_turn(s, nxt, events)
            return
        events.append(Event("skipped", {"seat": nxt}))
        if s.trigger is not None:
            s.done[nxt] = True
    raise AssertionError("no seat to play and no end of round")  # pragma: no cover


def end_round(s: AllegraState, events: list[Event]) -> None:
    n = s.seats
    for owner in range(n):
        s.up[owner] = [c is not None for c in s.grid[owner]]
    displays = [[None if s.grid[o][i] is None else s.values[s.grid[o][i]]  # type: ignore[index]
                 for o, i in display_slots(n, seat)] for seat in range(n)]
    scored = score_round(displays, s.trigger)
    before = totals(s)
    record: JSON = {
        "round": s.round, "dealer": s.dealer, "trigger": s.trigger,
        "grids": [[None if c is None else s.values[c] for c in s.grid[o]] for o in range(n)],
        **scored,
        "totals": [t + p for t, p in zip(before, scored["points"], strict=True)],
    }
    s.results.append(record)
    events.append(Event("round_scored", copy_json(record)))
    target = int(s.options["target_score"])
    if target > 0:
        finished = max(record["totals"]) >= target or s.round >= MAX_ROUNDS_WITH_TARGET
    else:
        finished = s.round >= int(s.options["rounds"])
    if finished:
        s.over = True
        s.phase = "over"
        reset_turn(s)
        ranking = rank_by(record["totals"], higher_is_better=False)
        events.append(Event("game_over", {"scores": list(record["totals"]),
                                          "winners": list(ranking[0])}))
        return
    s.round += 1
    s.dealer = left_of(n, s.dealer)
    deal(s)
    events.append(round_started(s))


def round_started(s: AllegraState) -> Event:
    """The line a round opens the log with: who deals and who plays first."""
    return Event("round_started", {"round": s.round, "dealer": s.dealer, "first": s.current})
