"""What each reader is told: the table's public summary, and the state message of a seat
(``None``: a spectator), its view and legal actions, redacted to what it may know.

A state message is the part every seat is told alike (``shared``: worked out once per
broadcast) plus the seat's own part; the shell encodes it once per seat, not per socket.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from functools import lru_cache
from typing import Any

from app.games.base import Event, event_for
from app.tables.core.presence import away_for, connected_seats
from app.tables.core.state import START, Step, TableState, TableStatus


def _rounded(value: float | None) -> float | None:
    return None if value is None else round(value, 1)


@lru_cache(maxsize=4096)
def _iso(moment: datetime) -> str:
    """A creation time as ISO text (the same for every push of a table: worked out once)."""
    return moment.isoformat()


def summary(table: TableState, now: float) -> dict[str, Any]:
    """The public description of the table (no hidden information, no invite token)."""
    connected = connected_seats(table)  # (a hot seat's player is at each of its seats)
    watchers = [c for c in table.conns.values() if c.seat is None]
    seats = []
    for seat, pid in enumerate(table.seats):
        here = seat in connected or pid in table.bots
        seats.append({
            "seat": seat, "connected": here,
            "away_for": None if pid is None or here else _rounded(away_for(table, seat, now)),
            "autopilot": seat in table.autopilot,
            "player": None if pid is None else {"id": pid, "name": table.names.get(pid),
                                                "bot": pid in table.bots}})
    setup = table.setup
    return {
        "id": setup.id,
        "game": setup.game,
        "status": table.status,  # a StrEnum: the JSON has its text
        "version": table.version,
        "seat_count": setup.seat_count,
        "options": setup.options,
        "private": setup.private,
        "host": {"id": table.host_id, "name": table.names.get(table.host_id)},
        "seats": seats,
        # who is watching: the names of spectators who chose one, and how many in all
        "spectators": {"count": len(watchers),
                       "names": sorted({c.name for c in watchers if c.name})},
        "created_at": _iso(setup.created_at),
        "outcome": table.outcome,
        "rematch_of": setup.rematch_of,
        "branch_of": branch_json(setup.branch_of),
    }


def branch_json(origin: tuple[str, int] | None) -> dict[str, Any] | None:
    """A branch's origin as the summary says it: the finished match and step it plays on
    from (None: a game from its set-up)."""
    return None if origin is None else {"match": origin[0], "step": origin[1]}


def sees_all(table: TableState, seat: int | None) -> bool:
    """Whether ``seat`` gets the view with nothing hidden: only spectators, only in a
    cooperative game whose host allowed it."""
    return (seat is None and table.engine.cooperative
            and bool(table.setup.options.get("spectators_see_all", False)))


def spectator_chat_allowed(table: TableState) -> bool:
    if not table.setup.options.get("spectator_chat", True):
        return False
    # spectators who see every card must not tell the players theirs
    return not (sees_all(table, None) and table.status is TableStatus.PLAYING)


def chat_allowed(table: TableState, seat: int | None) -> bool:
    """Whether ``seat`` may chat now (None: a spectator); the game may close it to a seat."""
    if seat is None:
        return spectator_chat_allowed(table)
    if not table.playing:
        return True
    return table.engine.chat_allowed(table.game_state, seat)


def source_json(table: TableState) -> dict[str, Any]:
    """What produced the current version: a player, or the platform (timeout, window,
    resign, vote, empty...): the page marks automatic moves in the log."""
    last = table.history.last()
    # (the log's opening lines at the start are no move: the start's state is a player's)
    if last is not None and last.version == table.version and last.source not in (
            "player", START):
        return {"source": last.source, "by": last.seat}
    return {"source": "player", "by": None}


def _step_source(step: Step) -> dict[str, Any]:
    if step.source == "player":
        return {"source": "player", "by": None}
    return {"source": step.source, "by": step.seat}


def shared(table: TableState, now: float, table_summary: dict[str, Any] | None = None
           ) -> dict[str, Any]:
    """The part of a state message that is the same for every seat."""
    clock = table.clock.to_json(now)
    window = None
    if table.window is not None:
        remaining = max(0.0, round(table.window.deadline - now, 1))
        window = {**table.window.window.to_json(), "remaining": remaining}
    return {
        "type": "state",
        "version": table.version,
        "table": table_summary or summary(table, now),
        "to_act": sorted(table.turn.to_act),
        # whom the game waits for: in simultaneous games a seat that has chosen may still
        # be in to_act (to change its mind) but is no longer waited for
        "waiting_for": sorted(table.turn.waiting),
        **source_json(table),
        "deadlines": clock["remaining"],
        "clock": clock,
        "window": window,
        "spectators_see_all": sees_all(table, None),
        "vote": table.vote.to_json(now) if table.vote is not None else None,
    }


def history_json(history: Sequence[Step], seat: int | None) -> list[dict[str, Any]]:
    """The whole log as ``seat`` may see it (a (re)connecting client rebuilds from it)."""
    return [{"version": step.version, "events": event_for(step.events, seat),
             **_step_source(step)} for step in history]


def rematch_json(table: TableState, seat: int | None) -> dict[str, Any] | None:
    if table.rematch is None:
        return None
    out: dict[str, Any] = {"table": table.rematch[0]}
    if seat is not None and table.rematch[1]:
        # the players are invited (the new table may be private); spectators only learn
        # which table it is
        out["invite"] = table.rematch[1]
    return out


def state_message(table: TableState, seat: int | None, now: float,
                  events: Sequence[Event] = (), shared_part: dict[str, Any] | None = None,
                  with_history: bool = False, screen: bool = False) -> dict[str, Any]:
    """What ``seat`` (None: a spectator; ``screen``: a table screen, never the all-hands
    view) is sent: its view and legal actions, and what
    every seat is told alike. (Once per seat per change: kept to the calls it needs.)"""
    message = {**(shared_part or shared(table, now)), **own_part(table, seat, events, screen)}
    if with_history:
        message["history"] = history_json(table.history, seat)
    return message


def own_part(table: TableState, seat: int | None, events: Sequence[Event] = (),
             screen: bool = False) -> dict[str, Any]:
    """The part of ``seat``'s state message that is its own, in the message's order after
    the shared part."""
    engine, state = table.engine, table.game_state
    playing = table.status is TableStatus.PLAYING and state is not None
    legal: list[Any] = []
    if seat is None:
        reveal = sees_all(table, None) and not screen
        if state is None:
            view = None
        else:
            view = engine.view_all(state) if reveal else engine.view(state, None)
        chat = spectator_chat_allowed(table)
    else:
        if state is None:
            view = None
        else:
            view = engine.view(state, seat)
        if playing:
            acting = table.turn.acting  # worked out already when several seats may act
            legal = acting[seat] if engine.acts_on_legal and seat in acting else \
                engine.legal_actions(state, seat)
        chat = engine.chat_allowed(state, seat) if playing and engine.closes_chat else True
    return {
        "seat": seat,
        "view": view,
        "legal_actions": legal,
        "events": event_for(events, seat) if events else [],
        "chat_allowed": chat,
        "rematch": None if table.rematch is None else rematch_json(table, seat),
    }
