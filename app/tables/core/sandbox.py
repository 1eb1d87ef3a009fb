"""The hot seat of a branch: its host may take every seat, to study a position alone.

A branch (a game played on from a moment of a finished match, app/tables/branching.py) is a
normal table; on top of that its host may sit in more than one seat before the start (one
free seat more, or all of them), and give any of them to a bot instead (``AddBot`` takes the
host's own seat). While playing, each of the host's connections is for one of those seats
(``Connect.seat``): it is pushed that seat's view only, and its moves are that seat's; the
page switches seat by connecting again. Once playing, the host may give any of their seats,
or all, to the game's bot (``BotsPlay``) and watch how the position plays out. Only
branches: at a real game one player is one seat.
"""

from __future__ import annotations

from app.errors import AppError, forbidden
from app.tables.core import bots
from app.tables.core.commands import BotsPlay, TakeSeats
from app.tables.core.effects import Effect, Reply, SystemLine
from app.tables.core.play import Decision, not_playing
from app.tables.core.seating import _bad_seat, _seated, game_started
from app.tables.core.state import TableState, TableStatus, seats_of


def _branch_only(table: TableState) -> None:
    if table.branch_of is None:
        raise AppError("not_a_branch", "only a branch of a finished match has a hot seat "
                       "(at a real game one player has one seat)", 409)


def take_seats(table: TableState, cmd: TakeSeats, now: float) -> Decision:
    _branch_only(table)
    if cmd.player_id != table.host_id:
        raise forbidden("only the host can take more seats")
    if table.status is not TableStatus.WAITING:
        raise game_started("seats are taken before the game starts")
    free = [s for s, p in enumerate(table.seats) if p is None]
    if cmd.seat is not None:
        if not 0 <= cmd.seat < table.seat_count:
            raise _bad_seat(table)
        if cmd.seat not in free:
            if table.seats[cmd.seat] == cmd.player_id:
                return table, [Reply(sorted(seats_of(table, cmd.player_id)))]
            raise AppError("seat_taken", "that seat is taken", 409)
        free = [cmd.seat]
    if not free:
        return table, [Reply(sorted(seats_of(table, cmd.player_id)))]
    seats = list(table.seats)
    for seat in free:
        seats[seat] = cmd.player_id
    table, effects = _seated(table, seats, table.host_id, now)
    name = table.names.get(cmd.player_id, "")
    lines = [SystemLine("joined", seat, {"name": name}) for seat in free]
    return table, [*effects, *lines, Reply(sorted(seats_of(table, cmd.player_id)))]


def bots_play(table: TableState, cmd: BotsPlay, now: float) -> Decision:
    """The bot plays the host's seat (or every seat of theirs) from now on; the answer is
    every seat a bot now plays."""
    _branch_only(table)
    if cmd.player_id != table.host_id:
        raise forbidden("only the host can hand seats to the bot")
    if table.status is not TableStatus.PLAYING:
        raise not_playing()
    if not table.engine.has_bot:
        raise AppError("no_bot", "this game has no bot (see its rules page)", 422)
    mine = seats_of(table, cmd.player_id)
    if cmd.seat is not None:
        if cmd.seat not in mine:
            raise AppError("not_your_seat", "the bot takes one of your own seats", 409)
        mine = frozenset({cmd.seat})
    effects: list[Effect] = []
    for seat in sorted(mine - table.autopilot):
        table, more = bots.set_autopilot(table, seat, True, "host", now)
        # the host chose it, nobody went away: the line says so
        effects += [SystemLine("bot_plays_seat", e.seat, {**(e.params or {}), "seat": seat + 1})
                    if isinstance(e, SystemLine) and e.code == "bot_plays" else e for e in more]
    return table, [*effects, Reply(sorted(table.autopilot))]
