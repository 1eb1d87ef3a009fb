"""Bots at the table: which bot seats the game waits for (worked out here, once), when each
may move (the table's ``bot_delay`` after what it acts on last changed), its move, and a bot
playing an absent player's seat (autopilot, stored as platform actions so a restart and a
replay know which moves were the bot's).

The bot itself thinks in the shell, off the event loop (``Think``); its choice comes back
as a ``BotMove`` and is judged like anyone's move (app/tables/core/play.py).
"""

from __future__ import annotations

from app.errors import AppError
from app.games.base import AUTOPILOT, BOT_DELAY, SYSTEM_SEAT
from app.tables.core.commands import BotMove, HandBack
from app.tables.core.effects import Refuse, Reply, SystemLine, Think
from app.tables.core.play import Decision, accept, stale
from app.tables.core.state import TableState, bot_seats, evolve, name_of_seat


def due(table: TableState) -> frozenset[int]:
    """The bot seats the game waits for now: whose turn it is, who has not picked yet in a
    simultaneous turn, or who may still answer an open timed window."""
    if not (table.bots or table.autopilot) or not table.playing:
        return frozenset()
    bots = bot_seats(table)
    waiting = table.turn.waiting
    if table.window is not None:
        waiting = waiting | table.window.window.seats
    return frozenset(waiting & bots)


def delay(table: TableState) -> float:
    return int(table.setup.options.get(BOT_DELAY.name, BOT_DELAY.default)) / 1000


def when(table: TableState) -> dict[int, float]:
    """When each due bot seat may move: a human-like pause after what it acts on changed."""
    seats = due(table)
    if not seats:
        return {}
    pause = delay(table)
    return {seat: table.context_at[seat] + pause for seat in seats}


def think(table: TableState, seat: int, now: float) -> Decision:
    """A bot's time has come: let it think (if the game still waits for it)."""
    if seat not in due(table) or now < when(table)[seat]:
        return table, []
    return table, [Think(seat, table.version)]


def all_bots(table: TableState) -> bool:
    """Whether every seat is a host's bot (the game may use bot-only conventions then)."""
    return all(p in table.bots for p in table.seats)


def bot_move(table: TableState, cmd: BotMove, now: float) -> Decision:
    """A bot's choice: played if the game still waits for that bot and nothing it acts on
    has changed since it started thinking (else it thinks again, from the table as it is)."""
    if cmd.seat not in due(table) or stale(table, cmd.seat, cmd.version):
        return table, [Reply()]
    try:
        table, effects = accept(table, cmd.seat, cmd.action, "bot", now)
    except AppError as exc:  # the rules refuse it now: the bot thinks again
        return table, [Refuse(exc)]
    return table, [*effects, Reply(table.version)]


def set_autopilot(table: TableState, seat: int, on: bool, source: str,
                  now: float) -> Decision:
    """A bot takes an absent player's seat (``on``), or gives it back."""
    if (seat in table.autopilot) == on or not table.playing:
        return table, []
    autopilot = table.autopilot | {seat} if on else table.autopilot - {seat}
    table, effects = accept(evolve(table, autopilot=autopilot), SYSTEM_SEAT,
                            {"type": AUTOPILOT, "seat": seat, "on": on}, source, now)
    # someone else plays the seat now: what it acts on starts afresh
    context, context_at = list(table.context), list(table.context_at)
    context[seat], context_at[seat] = table.version, now
    table = evolve(table, context=tuple(context), context_at=tuple(context_at))
    code = "bot_plays" if on else "seat_returned"
    return table, [*effects, SystemLine(code, seat, {"name": name_of_seat(table, seat)})]


def hand_back(table: TableState, cmd: HandBack, now: float) -> Decision:
    return set_autopilot(table, cmd.seat, False, "back", now)
