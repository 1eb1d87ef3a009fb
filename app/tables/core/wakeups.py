"""The times a table wants to be woken at, and what it does when one comes.

``wakeups(table, now)`` answers every time the table is waiting for, by key: ``"clock"``
(a seat's time runs out), ``"vote"`` (the open vote's deadline), ``"window:<id>"`` (a timed
window closes), ``"bot:<seat>"`` (a bot's pause is over). The shell keeps one timer per key,
reconciled with this after every command, and sends ``Wake(key)`` when one fires. Every
wake-up either does what was due or moves its time on, so a timer never fires in a loop.
"""

from __future__ import annotations

from app.errors import AppError
from app.games.base import IllegalAction
from app.tables.core import bots, play, votes
from app.tables.core.commands import Wake
from app.tables.core.effects import Refuse
from app.tables.core.play import Decision
from app.tables.core.state import TableState, evolve


def wakeups(table: TableState, now: float) -> dict[str, float]:
    if table.vote is None and table.window is None and table.clock.mode == "none" \
            and not (table.bots or table.autopilot):
        return {}  # (most tables, most of the time: nothing to wait for)
    out: dict[str, float] = {}
    if table.vote is not None:
        out["vote"] = table.vote.deadline
    if not table.playing:
        return out
    due = table.clock.next_due()
    if due is not None:
        out["clock"] = due
    if table.window is not None:
        out[f"window:{table.window.window.id}"] = table.window.deadline
    if table.bots or table.autopilot:
        for seat, at in bots.when(table).items():
            out[f"bot:{seat}"] = at
    return out


def wake(table: TableState, cmd: Wake, now: float) -> Decision:
    kind, _, arg = cmd.key.partition(":")
    if kind == "vote":
        return votes.expire(table, now)
    if kind == "clock":
        return _clock(table, now)
    if kind == "window":
        return _window(table, arg, now)
    if kind == "bot" and arg.isdigit():
        return bots.think(table, int(arg), now)
    return table, []


def _clock(table: TableState, now: float) -> Decision:
    """A seat's time ran out: play the game's timeout move for it (one per wake-up: when
    more are due the next wake-up is at once, so what else is queued goes in between)."""
    if not table.playing:
        return table, []
    seat = next((s for s in table.clock.due(now) if s in table.turn.waiting), None)
    if seat is None:
        return table, []
    try:
        action = table.engine.timeout_action(table.game_state, seat)
        return play.accept(table, seat, action, "timeout", now)
    except (AppError, IllegalAction) as exc:  # the engine has no move for it: not again
        clock = table.clock.copy()
        clock.deadlines.pop(seat, None)  # until the next change
        error = AppError("no_timeout_move", f"no timeout move for seat {seat}: {exc}", 500)
        return evolve(table, clock=clock), [Refuse(error)]


def _window(table: TableState, window_id: str, now: float) -> Decision:
    if table.window is None or table.window.window.id != window_id:
        return table, []  # closed already (everyone answered), or a newer window is open
    try:
        return play.close_due_window(table, now)  # (woken early: nothing yet)
    except AppError as exc:  # the engine refuses its own close: a bug; stop the clock
        return evolve(table, window=None), [Refuse(exc)]
