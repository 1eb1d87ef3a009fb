"""Seats before the game: joining, leaving, renaming, the host seating and removing bots,
deleting the table, and starting the game. Every change of seats is stored (``SaveSeats``)
and bumps the table's version."""

from __future__ import annotations

from app.errors import AppError, forbidden
from app.games.base import BadOptions
from app.tables.core import play, presence
from app.tables.core.commands import AddBot, Delete, Join, Leave, RemoveBot, Rename, Start
from app.tables.core.effects import (
    Broadcast,
    CloseAll,
    CreateBot,
    DeleteTable,
    Effect,
    Reply,
    SaveSeats,
    SetStatus,
    Store,
    SystemLine,
)
from app.tables.core.play import Decision
from app.tables.core.state import (
    TableState,
    TableStatus,
    evolve,
    name_of_seat,
    same_secret,
    seat_of,
    seats_of,
)


def game_started(message: str) -> AppError:
    return AppError("game_started", message, 409)


def _bad_seat(table: TableState) -> AppError:
    return AppError("bad_seat", f"seats go from 0 to {table.seat_count - 1}")


def _seated(table: TableState, seats: list[str | None], host: str, now: float,
            **changes: object) -> tuple[TableState, list[Effect]]:
    """The table with new seats (stored, a new version, connections and presence following)."""
    version = table.version + 1
    table = evolve(table, seats=tuple(seats), host_id=host, version=version, **changes)
    table, _left, _back = presence.track(presence.rebind(table), now)
    return table, [Store(SaveSeats(table.seats, host, version)), Broadcast()]


def join(table: TableState, cmd: Join, now: float) -> Decision:
    existing = seat_of(table, cmd.player_id)
    if existing is not None:
        return table, [Reply(existing)]
    if table.status is not TableStatus.WAITING:
        raise game_started("this game has already started")
    if table.private and not same_secret(cmd.invite, table.invite_token):
        raise forbidden("this table is private: you need its invite link")
    free = [s for s, p in enumerate(table.seats) if p is None]
    if cmd.seat is None:
        if not free:
            raise AppError("table_full", "every seat is taken", 409)
        seat = free[0]
    elif not 0 <= cmd.seat < table.seat_count:
        raise _bad_seat(table)
    elif cmd.seat not in free:
        raise AppError("seat_taken", "that seat is taken", 409)
    else:
        seat = cmd.seat
    seats = list(table.seats)
    seats[seat] = cmd.player_id
    table, effects = _seated(table, seats, table.host_id, now,
                             names={**table.names, cmd.player_id: cmd.name})
    return table, [*effects, SystemLine("joined", seat, {"name": cmd.name}), Reply(seat)]


def leave(table: TableState, cmd: Leave, now: float) -> Decision:
    mine = seats_of(table, cmd.player_id)  # (every seat of a branch's hot seat)
    if not mine:
        raise AppError("not_seated", "you are not seated at this table", 409)
    if table.status is not TableStatus.WAITING:
        raise game_started("you cannot leave a game in progress")
    seats = [None if s in mine else p for s, p in enumerate(table.seats)]
    name = table.names.get(cmd.player_id, "")
    humans = [p for p in seats if p is not None and p not in table.bots]
    if not humans and (cmd.player_id == table.host_id or not any(seats)):
        table, effects = delete_table(table)  # bots never host a table by themselves
        return table, [*effects, Reply()]
    host = humans[0] if table.host_id == cmd.player_id else table.host_id
    table, effects = _seated(table, seats, host, now)
    return table, [*effects, SystemLine("left", None, {"name": name}), Reply()]


def rename(table: TableState, cmd: Rename, now: float) -> Decision:
    if table.names.get(cmd.player_id, cmd.name) == cmd.name:
        return table, [Reply()]
    return evolve(table, names={**table.names, cmd.player_id: cmd.name}), [Broadcast(), Reply()]


def delete(table: TableState, cmd: Delete, now: float) -> Decision:
    if cmd.player_id != table.host_id:
        raise forbidden("only the host can delete the table")
    if table.status is not TableStatus.WAITING:
        raise game_started("a table can only be deleted before it starts")
    table, effects = delete_table(table)
    return table, [*effects, Reply()]


def delete_table(table: TableState, code: str = "table_deleted",
                 message: str = "the table was deleted") -> Decision:
    table = evolve(table, status=TableStatus.DELETED, version=table.version + 1, conns={})
    return table, [Store(DeleteTable()), CloseAll(code, message)]


def start(table: TableState, cmd: Start, now: float) -> Decision:
    if cmd.player_id != table.host_id:
        raise forbidden("only the host can start the game")
    if table.status is not TableStatus.WAITING:
        raise game_started("the game has already started")
    if any(p is None for p in table.seats):
        raise AppError("not_full", "every seat must be taken before the game starts", 409)
    try:
        table, opening = play.begin(table, now)
    except BadOptions as exc:
        # a table stored before its options were checked as they are now (a first seat past
        # the last one): refused with the reason, the table left waiting as it was
        raise AppError("bad_options", str(exc), 422) from None
    table, _left, _back = presence.track(table, now)
    return table, [Store(SetStatus(TableStatus.PLAYING.value, table.version, started=True)),
                   Broadcast(opening), SystemLine("started"), Reply()]


# --------------------------------------------------------------------------- bots


def _check_seating_by_host(table: TableState, player_id: str, seat: int) -> None:
    if player_id != table.host_id:
        raise forbidden("only the host can seat or remove bots")
    if table.status is not TableStatus.WAITING:
        raise game_started("bots are seated before the game starts")
    if not 0 <= seat < table.seat_count:
        raise _bad_seat(table)


def add_bot(table: TableState, cmd: AddBot, now: float) -> Decision:
    if not table.engine.has_bot:
        raise AppError("no_bot", "this game has no bot (see its rules page)", 422)
    _check_seating_by_host(table, cmd.player_id, cmd.seat)
    holder = table.seats[cmd.seat]
    if holder is not None and holder != table.host_id:
        raise AppError("seat_taken", "that seat is taken", 409)
    if not cmd.bot_id:
        raise AppError("internal_error", "a new bot needs an id", 500)
    taken = {table.names.get(p) for p in table.bots}
    name = next(n for n in (f"Bot {i}" for i in range(1, 100)) if n not in taken)
    seats = list(table.seats)
    seats[cmd.seat] = cmd.bot_id  # the host may give their own seat and watch
    table, effects = _seated(table, seats, table.host_id, now,
                             names={**table.names, cmd.bot_id: name},
                             bots=table.bots | {cmd.bot_id})
    return table, [Store(CreateBot(cmd.bot_id, name)), *effects,
                   SystemLine("joined", cmd.seat, {"name": name_of_seat(table, cmd.seat)}),
                   Reply(cmd.seat)]


def remove_bot(table: TableState, cmd: RemoveBot, now: float) -> Decision:
    _check_seating_by_host(table, cmd.player_id, cmd.seat)
    holder = table.seats[cmd.seat]
    if holder is None or holder not in table.bots:
        raise AppError("not_a_bot", "no bot sits in that seat", 409)
    seats = list(table.seats)
    seats[cmd.seat] = None
    table, effects = _seated(table, seats, table.host_id, now, bots=table.bots - {holder})
    return table, [*effects, Reply()]
