"""The table's rules in one function: ``decide(table, command, now) -> (table, effects)``.

Pure: it reads the table and the command, and answers the next table and what the shell
must do (app/tables/core/effects.py); it never awaits, stores, sends or reads a clock. A
command the table refuses answers the table unchanged and a ``Refuse``. Every command has
one handler, listed in ``HANDLERS``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from app.errors import AppError
from app.tables.core import bots, ending, play, room, sandbox, seating, votes, wakeups
from app.tables.core.commands import (
    Act,
    AddBot,
    BotMove,
    BotsPlay,
    Cast,
    Chat,
    Connect,
    Delete,
    Disconnect,
    Ephemeral,
    HandBack,
    Housekeep,
    Join,
    Leave,
    Propose,
    RemoveBot,
    Rename,
    Resign,
    SetRematch,
    Start,
    Sync,
    TakeSeats,
    Wake,
)
from app.tables.core.effects import Effect, Refuse
from app.tables.core.state import TableState

Handler = Callable[[TableState, Any, float], tuple[TableState, list[Effect]]]

HANDLERS: dict[type, Handler] = {
    Join: seating.join,
    Leave: seating.leave,
    Rename: seating.rename,
    Delete: seating.delete,
    Start: seating.start,
    AddBot: seating.add_bot,
    RemoveBot: seating.remove_bot,
    TakeSeats: sandbox.take_seats,
    BotsPlay: sandbox.bots_play,
    Act: play.act,
    Ephemeral: play.ephemeral,
    BotMove: bots.bot_move,
    HandBack: bots.hand_back,
    Connect: room.connect,
    Disconnect: room.disconnect,
    Sync: room.sync,
    Chat: room.chat,
    Resign: ending.resign,
    Housekeep: ending.housekeep,
    SetRematch: ending.set_rematch,
    Propose: votes.propose,
    Cast: votes.cast,
    Wake: wakeups.wake,
}


def decide(table: TableState, command: Any, now: float) -> tuple[TableState, list[Effect]]:
    """The table after ``command`` at time ``now``, and what the shell must do."""
    handler = HANDLERS[type(command)]
    try:
        return handler(table, command, now)
    except AppError as exc:
        return table, [Refuse(exc)]
