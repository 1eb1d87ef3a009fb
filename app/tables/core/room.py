"""Who is in the room: connecting (seated players, spectators, private tables' links),
leaving, asking for a fresh state, and chatting. A seat whose player leaves or comes back
during a game is said in the chat (a few times, not on every flicker of a connection); a
player who comes back has their seat back from the bot at once."""

from __future__ import annotations

from app.errors import AppError, forbidden
from app.tables.core import buckets, presence, votes
from app.tables.core.commands import Chat, Connect, Disconnect, HandBack, Sync
from app.tables.core.effects import (
    Broadcast,
    ChatLine,
    Effect,
    FollowUp,
    Reply,
    SendChat,
    SendState,
    SystemLine,
)
from app.tables.core.play import Decision
from app.tables.core.state import (
    Conn,
    TableState,
    TableStatus,
    evolve,
    name_of_seat,
    same_secret,
    seat_of,
)
from app.tables.core.views import chat_allowed
from app.tables.limits import CHAT_BURST, CHAT_PER_SECOND, CONNECTIONS_PER_PLAYER


def presence_changed(table: TableState, now: float) -> Decision:
    """After a connection came or went: away and back lines, the seat handed back from the
    bot, and a vote that is no longer possible cancelled."""
    table, left, back = presence.track(table, now)
    effects: list[Effect] = []
    if table.status is TableStatus.PLAYING:
        announced = set(table.presence.announced)
        for seat in sorted(left):
            player = table.seats[seat] or ""
            allowed, table = buckets.spend(table, ("presence", player),
                                           buckets.PRESENCE_PER_SECOND,
                                           buckets.PRESENCE_BURST, now)
            if allowed:
                announced.add(seat)
                effects.append(SystemLine("away", seat, {"name": name_of_seat(table, seat)}))
        for seat in sorted(back):
            if seat in announced:
                announced.discard(seat)
                effects.append(SystemLine("back", seat, {"name": name_of_seat(table, seat)}))
            if seat in table.autopilot:  # the player is back: the seat is theirs at once
                effects.append(FollowUp(HandBack(seat)))
        table = evolve(table, presence=evolve(table.presence, announced=frozenset(announced)))
    table, cancelled = votes.recheck(table, now)
    return table, [*effects, *cancelled]


def connect(table: TableState, cmd: Connect, now: float) -> Decision:
    seat = seat_of(table, cmd.player_id)
    if cmd.seat is not None:  # one of several seats its player holds (a hot seat)
        if not 0 <= cmd.seat < table.seat_count or cmd.player_id is None or \
                table.seats[cmd.seat] != cmd.player_id:
            raise AppError("not_your_seat", "that seat is not yours: connect without a seat, "
                           "or with one you hold", 409)
        seat = cmd.seat
    if seat is None and table.private and not cmd.watch and \
            not same_secret(cmd.invite, table.invite_token):
        raise forbidden("this table is private: you need its invite or spectator link")
    if cmd.player_id is not None:
        mine = sum(1 for c in table.conns.values() if c.player_id == cmd.player_id)
        if mine >= CONNECTIONS_PER_PLAYER:
            raise AppError("too_many_connections",
                           f"at most {CONNECTIONS_PER_PLAYER} connections per player to one "
                           "table: close another tab first", 429)
    conn = Conn(cmd.conn, cmd.player_id, cmd.name, seat, cmd.screen)
    table = evolve(table, conns={**table.conns, cmd.conn: conn})
    table, effects = presence_changed(table, now)
    # the newcomer gets everything so far; everyone else, the new presence
    return table, [SendState(cmd.conn, history=True), SendChat(cmd.conn), *effects,
                   Broadcast(exclude=cmd.conn), Reply(seat)]


def disconnect(table: TableState, cmd: Disconnect, now: float) -> Decision:
    if cmd.conn not in table.conns:
        return table, [Reply()]
    table = evolve(table, conns={i: c for i, c in table.conns.items() if i != cmd.conn})
    table = buckets.forget(table, ("live", cmd.conn))
    table, effects = presence_changed(table, now)
    return table, [*effects, Broadcast(), Reply()]


def sync(table: TableState, cmd: Sync, now: float) -> Decision:
    return table, [SendState(cmd.conn, history=True), Reply()]


def chat(table: TableState, cmd: Chat, now: float) -> Decision:
    conn = table.conns.get(cmd.conn)
    if conn is None:
        raise forbidden("connect to the table to chat")
    seat = conn.seat if conn.seat is not None else seat_of(table, conn.player_id)
    name = table.names.get(conn.player_id or "", "")
    if seat is None:
        if conn.player_id is None:
            raise forbidden("choose a name to chat")
        if not chat_allowed(table, None):
            raise AppError("spectator_chat_closed",
                           "the host does not let spectators chat at this table", 403)
        name = conn.name or name
    elif not chat_allowed(table, seat):
        raise AppError("chat_closed", "the game closes the chat to you for now", 409)
    player = conn.player_id or ""
    allowed, table = buckets.spend(table, ("chat", player), CHAT_PER_SECOND, CHAT_BURST, now)
    if not allowed:
        wait = buckets.retry_after(table, ("chat", player), CHAT_PER_SECOND, CHAT_BURST, now)
        raise AppError("chat_rate", f"you are chatting too fast: wait {max(1, round(wait))} s",
                       429)
    kind = "player" if seat is not None else "spectator"
    return table, [ChatLine(kind, seat, player, name, cmd.text), Reply()]
