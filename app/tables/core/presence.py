"""Who is at the table: connected seats, seats away and for how long, absent seats (away
past the table's grace period), and whether anybody is here at all (expiry of empty
tables). Queries and bookkeeping; the commands that change connections are in room.py."""

from __future__ import annotations

from app.tables.core.state import Presence, TableState, TableStatus, evolve, seat_of
from app.tables.options import option


def connected_seats(table: TableState) -> frozenset[int]:
    """The seats whose player is connected (a hot seat's player, connected as one of its
    seats, is at every one of them)."""
    players = {c.player_id for c in table.conns.values() if c.seat is not None}
    if not players:
        return frozenset()
    return frozenset(s for s, pid in enumerate(table.seats) if pid in players)


def away_for(table: TableState, seat: int, now: float) -> float | None:
    since = table.presence.away_since.get(seat)
    return None if since is None else max(0.0, now - since)


def absent_seats(table: TableState, now: float) -> list[int]:
    """Seats away for longer than the table's grace period."""
    grace = float(option(table.options, "absent_grace_seconds", 120))
    return sorted(s for s, since in table.presence.away_since.items()
                  if table.seats[s] is not None and now - since >= grace)


def idle_for(table: TableState, now: float) -> float:
    return now - table.presence.idle_since


def rebind(table: TableState) -> TableState:
    """Connections follow their player's seat after the seats changed (a connection for
    one of several seats its player holds keeps that seat while the player holds it)."""
    conns = {i: evolve(c, seat=c.seat if c.seat is not None and c.player_id is not None
                       and table.seats[c.seat] == c.player_id else seat_of(table, c.player_id))
             for i, c in table.conns.items()}
    return evolve(table, conns=conns)


def track(table: TableState, now: float) -> tuple[TableState, set[int], set[int]]:
    """Bring the away-since marks up to date: (new table, seats that just left, seats that
    just came back). A bot's seat is never away."""
    here = connected_seats(table)
    away = dict(table.presence.away_since)
    left, back = set(), set()
    for seat, pid in enumerate(table.seats):
        if pid is None:
            away.pop(seat, None)
        elif seat in here or pid in table.bots:
            if away.pop(seat, None) is not None:
                back.add(seat)
        elif seat not in away:
            away[seat] = now
            left.add(seat)
    busy = bool(here) if table.status is TableStatus.PLAYING else bool(table.conns)
    was = table.presence
    idle_since = now if busy or was.busy else was.idle_since  # idle from when the last left
    presence = Presence(away, was.announced, idle_since, busy)
    return evolve(table, presence=presence), left, back
