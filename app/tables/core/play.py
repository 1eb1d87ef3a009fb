"""Playing: a seat's move, judged against what that seat knew; the one path every stored
action takes (``accept``); the timed window's deadline; live updates.

Versions per seat (docs/api.md, "Versions"). Every change of the game bumps the table's
version. Each seat also has a *context version*: the version at which what it acts on last
changed. A move sent for version ``v`` is judged on the rules as they stand now when
``context[seat] <= v <= version``, and refused as ``stale_version`` otherwise. A change
moves a seat's context on, except one: another seat's move while both of them could act,
after which this seat can still act and what it acts on (``EngineAdapter.acts_on``: its
legal actions by default) is unchanged. So another seat picking, re-picking or unpicking,
answering a knock or proposing a guess never makes a seat's move stale, and no seat can
keep another from acting by moving often. Platform actions (a window's deadline) move every
seat's context on; a bot taking a seat for an absent player, or giving it back, moves that
seat's only (bots.py).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from app.errors import AppError, forbidden
from app.games.base import AUTOPILOT, CLOSE_WINDOW, SYSTEM_SEAT, Event, IllegalAction
from app.tables.core import buckets
from app.tables.core.commands import Act, Ephemeral
from app.tables.core.effects import (
    AppendAction,
    Broadcast,
    Effect,
    Refuse,
    Relay,
    Reply,
    SendState,
    Store,
    SystemLine,
)
from app.tables.core.state import (
    NO_TURN,
    START,
    Journal,
    OpenWindow,
    Step,
    TableState,
    TableStatus,
    Turn,
    evolve,
    name_of_seat,
    seat_of,
)
from app.tables.engine import EngineAdapter

Decision = tuple[TableState, list[Effect]]


def not_playing() -> AppError:
    return AppError("not_playing", "the game is not in progress", 409)


# --------------------------------------------------------------------------- after a change


def turn_of(table: TableState, before: Turn) -> Turn:
    """Who the game wants now; what each seat acts on is worked out only while several
    seats may act (now, or just before this change)."""
    if not table.playing:
        return NO_TURN
    engine, state = table.engine, table.game_state
    to_act = engine.to_act(state)  # a new set on every call (engines are pure): kept as is
    acting: dict[int, Any] = {}
    if len(to_act) > 1 or len(before.to_act) > 1:
        acting = {s: engine.acts_on(state, s) for s in to_act}
    waiting = engine.waiting_for(state) if engine.has_waiting_for else to_act
    marker = engine.turn_marker(state) if engine.has_turn_marker else None
    return Turn(to_act, waiting, marker, acting)


_NOTHING = object()


def _unchanged_for(seat: int, mover: int, before: Turn, after: Turn) -> bool:
    """Whether ``mover``'s move left what ``seat`` acts on as it was (see the docstring)."""
    if seat == mover or not {seat, mover} <= before.to_act or seat not in after.to_act:
        return False
    acted_on = before.acting.get(seat, _NOTHING)
    return acted_on is not _NOTHING and acted_on == after.acting.get(seat, _NOTHING)


def follow(table: TableState, before: TableState | None, mover: int, now: float,
           **changes: Any) -> TableState:
    """The table with ``changes`` (a new game state, version...) and everything that follows
    from them brought up to date: the turn, each seat's context, the timed window, the clock.
    (One copy of the table is made, and filled in before anyone else can see it.)"""
    table = evolve(table, **changes)
    turn = turn_of(table, before.turn if before is not None else NO_TURN)
    if before is not None and before.game_state is table.game_state:
        context, context_at = table.context, table.context_at  # nothing changed for anyone
    elif before is None or mover == SYSTEM_SEAT or len(before.turn.to_act) < 2:
        # a move while only one seat could act changes what everyone acts on
        seats = table.setup.seat_count
        context, context_at = (table.version,) * seats, (now,) * seats
    else:
        kept = [_unchanged_for(s, mover, before.turn, turn) for s in range(table.seat_count)]
        context = tuple(c if k else table.version for c, k in zip(table.context, kept,
                                                                 strict=True))
        context_at = tuple(c if k else now for c, k in zip(table.context_at, kept,
                                                          strict=True))
    window = _follow_window(table, now) if table.engine.has_window else None
    clock = table.clock
    if clock.mode != "none":
        clock = clock.copy()
        if table.playing:
            pressed = set(turn.waiting) - (set(window.window.seats) if window else set())
            clock.update(now, pressed, turn.marker, table.engine.has_turn_marker)
        else:
            clock.stop(now)
    table.__dict__.update(turn=turn, context=context, context_at=context_at, window=window,
                          clock=clock)
    return table


def _follow_window(table: TableState, now: float) -> OpenWindow | None:
    """The engine's timed window: a new window id starts a new deadline; the same window
    with fewer seats left to answer keeps its deadline."""
    if not table.engine.has_window or not table.playing:
        return None
    window = table.engine.window(table.game_state)
    if window is None:
        return None
    if table.window is not None and table.window.window.id == window.id:
        return OpenWindow(window, table.window.deadline)
    return OpenWindow(window, now + window.seconds)


# --------------------------------------------------------------------------- the one path


def accept(table: TableState, seat: int, action: dict[str, Any], source: str, now: float,
           outcome: dict[str, Any] | None = None) -> Decision:
    """Apply ``action`` for ``seat`` and record it: a new version, the history, the turn,
    the clock; the effects store it, then show everyone. ``outcome``: the result of a game
    the platform ends early (the engine's own outcome otherwise). Raises ``AppError`` (422)
    with the engine's code if the rules refuse it."""
    engine = table.engine
    try:
        if seat == SYSTEM_SEAT:
            state, events = engine.apply(table.game_state, seat, action)
        else:
            state, events = engine.apply_move(table.game_state, seat, action)
    except IllegalAction as exc:
        raise AppError(exc.code, exc.message, 422) from None
    if outcome is None:
        result = engine.outcome(state)
        outcome = result.to_json() if result is not None else None
    version = table.version + 1
    history = table.history.appended(Step(version, events, source, seat))
    if outcome is None:
        after = follow(table, table, seat, now, game_state=state, version=version,
                       history=history)
    else:  # the game is over
        after = follow(table, table, seat, now, game_state=state, version=version,
                       history=history, status=TableStatus.FINISHED, outcome=outcome,
                       vote=None)
    effects: list[Effect] = [Store(AppendAction(version, seat, action, source, outcome)),
                             Broadcast(events)]
    if source == "timeout":
        effects.append(SystemLine("timeout", seat, {"name": name_of_seat(table, seat)}))
    return after, effects


def begin(table: TableState, now: float) -> tuple[TableState, list[Event]]:
    """The game starts: set up (from the seed, or a stored position), every seat's context
    at this version; and the log's opening lines (none for a table that starts from a
    position: its game began elsewhere), the first step of the table's history."""
    state = table.engine.setup(table.seat_count, table.options, table.seed, table.position)
    version = table.version + 1
    events = opening(table.engine, state, table.position)
    history = table.history.appended(Step(version, events, START)) if events else table.history
    return follow(table, None, SYSTEM_SEAT, now, game_state=state,
                  status=TableStatus.PLAYING, version=version, history=history), events


def opening(engine: EngineAdapter, state: Any, position: Any) -> list[Event]:
    """The events the log opens with (round 1's start): the game's ``opening`` hook, for a
    game dealt from its seed."""
    return engine.opening(state) if position is None else []


def resume(table: TableState, game_state: Any, history: Sequence[Step],
           now: float) -> TableState:
    """A table rebuilt from storage (after a restart, or taken over from another process):
    its state replayed from the log, its clock already followed along the log's times.
    Every seat's context starts at this version: clients get a fresh view on reconnecting."""
    return follow(table, None, SYSTEM_SEAT, now, game_state=game_state,
                  history=Journal(history), autopilot=autopilot_from(history))


# --------------------------------------------------------------------------- commands


def stale(table: TableState, seat: int, version: int) -> bool:
    """Whether a move of ``seat`` sent for ``version`` comes from a view of what it acts on
    that has changed since (or from a version that never was)."""
    return not table.context[seat] <= version <= table.version


def act(table: TableState, cmd: Act, now: float) -> Decision:
    # the seat its connection is for (a hot seat's player holds several), else its player's
    known = table.conns.get(cmd.conn) if cmd.conn is not None else None
    seat = known.seat if known is not None and known.seat is not None and \
        known.player_id == cmd.player_id else seat_of(table, cmd.player_id)
    if seat is None:
        raise forbidden("only seated players can act")
    if table.status is not TableStatus.PLAYING:
        raise not_playing()
    refused = not table.context[seat] <= cmd.version <= table.version  # stale(), inlined
    # the actor keeps the deadline, not the client: an answer that arrives after it is
    # judged after the window has closed (the engine then says why it is too late)
    effects: list[Effect] = []
    if table.window is not None:
        table, effects = close_due_window(table, now)
    if refused:
        if cmd.conn is not None:
            effects.append(SendState(cmd.conn))
        effects.append(Refuse(AppError(
            "stale_version", f"your view is out of date (version {cmd.version}, now "
            f"{table.version}): what you could do has changed; here is a fresh one", 409)))
        return table, effects
    try:
        table, done = accept(table, seat, cmd.action, "player", now)
    except AppError as exc:
        return table, [*effects, Refuse(exc)]
    return table, [*effects, *done, Reply(table.version)]


def close_due_window(table: TableState, now: float) -> Decision:
    """Close the open timed window if its deadline has passed (a stored platform action)."""
    open_window = table.window
    if open_window is None or not table.playing or now < open_window.deadline:
        return table, []
    action = {"type": CLOSE_WINDOW, "window": open_window.window.id}
    return accept(table, SYSTEM_SEAT, action, "window", now)


def ephemeral(table: TableState, cmd: Ephemeral, now: float) -> Decision:
    conn = table.conns.get(cmd.conn)
    if not table.engine.has_ephemeral:
        raise AppError("not_supported", "this game has no live updates", 422)
    if conn is None or conn.seat is None:
        raise forbidden("only seated players can send live updates")
    if table.status is not TableStatus.PLAYING:
        raise not_playing()
    allowed, table = buckets.spend(table, ("live", conn.id), buckets.LIVE_PER_SECOND,
                                   buckets.LIVE_BURST, now)
    if not allowed:
        return table, [Reply()]  # over the rate: dropped, like a frame of a moving picture
    try:
        event = table.engine.ephemeral(table.game_state, conn.seat, cmd.data)
    except IllegalAction as exc:
        return table, [Refuse(AppError(exc.code, exc.message, 422))]
    return table, [Relay(conn.id, conn.seat, event), Reply()]


def autopilot_from(history: Iterable[Step]) -> frozenset[int]:
    """The seats a bot plays for their absent player after a stored history."""
    seats: set[int] = set()
    for step in history:
        for event in step.events:
            if event.type == AUTOPILOT:
                (seats.add if event.data["on"] else seats.discard)(event.data["seat"])
    return frozenset(seats)
