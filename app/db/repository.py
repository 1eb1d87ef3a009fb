"""Every query the application makes, as plain async functions over a session factory.

The table actor calls these; nothing else writes tables, seats or actions. The frequent ones
(a bearer token's player, a table's row, seats and status) are Core statements on a pooled
connection rather than an ORM session: the same SQL at a fraction of the CPU.
"""

from __future__ import annotations

import asyncio
import hashlib
import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, cast

from sqlalchemy import (
    ColumnElement,
    Connection,
    Table,
    delete,
    func,
    insert,
    or_,
    select,
    update,
)
from sqlalchemy.ext.asyncio import async_sessionmaker
from sqlalchemy.orm import selectinload

from app.db.chat_writer import ChatWriter
from app.db.models import ActionRecord, ChatLine, DeviceHandoff, GameTable, Player, TableSeat
from app.db.player_writer import PlayerWriter
from app.db.table_writer import TableWriter
from app.db.writer import GroupWriter, PendingAction, StaleOwner

__all__ = ["Repository", "StaleOwner", "StoredAction", "hash_token", "now"]


def now() -> datetime:
    return datetime.now(UTC)


def chat_row(table_id: str, seq: int, *, at: datetime, kind: str, seat: int | None,
             player_id: str | None, name: str, text: str | None, code: str | None,
             params: dict[str, Any] | None) -> dict[str, Any]:
    """A ``chat_lines`` row as a dict (for the chat writer, or a seat write's ``chat``)."""
    return {"table_id": table_id, "seq": seq, "seat": seat, "player_id": player_id,
            "name": name, "kind": kind, "text": text, "code": code, "params": params,
            "created_at": at}


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass
class StoredAction:
    seq: int
    seat: int
    action: dict[str, Any]
    source: str
    at: datetime


class Identities:
    """This process's memory of bearer tokens: the hash of a token → its player.

    Only used where this process is the only one that writes players (a single process; a
    cluster reads the database every time, since a rename on another process would not be
    seen here). What it holds cannot go stale unnoticed: a token's player never changes
    (tokens are never rotated: a device hand-off gives the second device the same token),
    players are never deleted, and the one thing that changes, the name, changes through
    ``Repository.rename_player``, which forgets the player's entries here before it returns.
    A future deletion or token rotation must call ``forget`` the same way.

    Bounded: past ``limit`` entries the oldest are dropped (the next call reads them again).
    ``generation`` moves on every ``forget``, so a look-up that read the database before a
    rename does not store what it read after it."""

    def __init__(self, limit: int = 50_000) -> None:
        self.limit = limit
        self.by_hash: dict[str, Player] = {}
        self.generation = 0

    def get(self, token_hash: str) -> Player | None:
        return self.by_hash.get(token_hash)

    def put(self, token_hash: str, player: Player, generation: int) -> None:
        if generation != self.generation:  # something was forgotten meanwhile
            return
        if len(self.by_hash) >= self.limit:
            for old in list(self.by_hash)[: max(1, self.limit // 10)]:
                del self.by_hash[old]
        self.by_hash[token_hash] = player

    def forget(self, player_id: str) -> None:
        self.generation += 1
        for key in [k for k, p in self.by_hash.items() if p.id == player_id]:
            del self.by_hash[key]


LIVE_STATUSES = ("waiting", "playing")


class HostedTables:
    """Which waiting or playing tables each player hosts, kept from this process's own table
    writes: the number a new table is checked against (``LUDOTECA_MAX_HOSTED_TABLES``) without
    going through every live table.

    Only where this process writes every table (a single process; a cluster counts in the
    database, where the other processes' tables are). Exact because every change of a
    table's host or status is a write through the repository, and it is noted here only once
    that write has committed: a new table (``create_table``), a host handing over by leaving
    (``save_seats``), a start (still live), an end (``set_status``, or the game's last action
    with its outcome: ``append_action``) and a deletion (``delete_table``). The tables a
    restart brings back are noted by the registry (``note``)."""

    def __init__(self) -> None:
        self.host_of: dict[str, str] = {}  # live table → its host
        self.counts: dict[str, int] = {}  # host → live tables

    def count(self, player_id: str) -> int:
        return self.counts.get(player_id, 0)

    def note(self, table_id: str, host_id: str, status: str) -> None:
        """``table_id`` is hosted by ``host_id`` and has this status now."""
        if status not in LIVE_STATUSES:
            self.end(table_id)
            return
        old = self.host_of.get(table_id)
        if old == host_id:
            return
        if old is not None:
            self._less(old)
        self.host_of[table_id] = host_id
        self.counts[host_id] = self.counts.get(host_id, 0) + 1

    def host_is(self, table_id: str, host_id: str) -> None:
        """A live table's host is ``host_id`` now (a table not known here is not live)."""
        if table_id in self.host_of:
            self.note(table_id, host_id, "waiting")

    def end(self, table_id: str) -> None:
        """``table_id`` is no longer waiting or playing (finished, expired, deleted)."""
        host = self.host_of.pop(table_id, None)
        if host is not None:
            self._less(host)

    def _less(self, host_id: str) -> None:
        left = self.counts[host_id] - 1
        if left:
            self.counts[host_id] = left
        else:
            del self.counts[host_id]


def _player(row: Any) -> Player:
    return Player(id=row.id, name=row.name, token_hash=row.token_hash,
                  created_at=row.created_at, bot=row.bot)


def _values(row: Any) -> dict[str, Any]:
    """An ORM instance's column values, for a Core insert (unset ones left to their
    defaults)."""
    values = {}
    for column in type(row).__table__.columns:
        value = getattr(row, column.key)
        if value is not None:
            values[column.key] = value
    return values


class Repository:
    def __init__(self, sessions: async_sessionmaker, cache_identities: bool = False) -> None:
        self.sessions = sessions
        self.engine = sessions.kw["bind"]
        # bearer token → player in memory (see Identities: one process only)
        self.identities: Identities | None = Identities() if cache_identities else None
        # accepted actions go through the group-commit writer (app/db/writer.py)
        self.writer = GroupWriter(sessions.kw["bind"])
        # chat lines too, in their own batches (app/db/chat_writer.py)
        self.chat_writer = ChatWriter(sessions.kw["bind"])
        # and new players (app/db/player_writer.py)
        self.player_writer = PlayerWriter(sessions.kw["bind"])
        # and tables' rows, seats and status (app/db/table_writer.py)
        # (on SQLite the chat lines waiting meanwhile share its commits)
        self.table_writer = TableWriter(sessions.kw["bind"], chat=self.chat_writer)
        # the live tables each player hosts, when this process writes every table (turned
        # on by the registry of a single process: app/tables/registry.py)
        self.hosted: HostedTables | None = None

    async def close(self) -> None:
        await self.writer.close()
        await self.chat_writer.close()
        await self.player_writer.close()
        await self.table_writer.close()

    # ------------------------------------------------------------------ players

    async def create_player(self, player_id: str, name: str, token: str) -> Player:
        # the row's columns as they are (read back from an ORM instance before: ~2 us more)
        row = {"id": player_id, "name": name, "token_hash": hash_token(token),
               "created_at": now(), "bot": False}
        player = Player(**row)
        generation = self.identities.generation if self.identities is not None else 0
        # stored with the other players created meanwhile (one commit for all of them)
        await self.player_writer.append(row)
        if self.identities is not None:
            self.identities.put(player.token_hash, player, generation)
        return player

    async def rename_player(self, player_id: str, name: str) -> None:
        try:
            async with self.engine.begin() as conn:
                await conn.execute(update(Player).where(Player.id == player_id)
                                   .values(name=name))
        finally:
            if self.identities is not None:
                self.identities.forget(player_id)

    async def create_bot(self, name: str, bot_id: str | None = None) -> Player:
        """A bot player for one seat (``bot_id``: its id, chosen by the table that seats it);
        its token is random and never handed out."""
        bot = Player(id=bot_id or secrets.token_urlsafe(12), name=name,
                     token_hash=hash_token(secrets.token_urlsafe(32)), created_at=now(),
                     bot=True)
        async with self.sessions() as s, s.begin():
            s.add(bot)
        return bot

    async def player_by_token(self, token: str) -> Player | None:
        """The player whose bearer token this is (None: no one's). The player returned may
        be shared with other callers: read it, never change it."""
        token_hash = hash_token(token)
        cache = self.identities
        if cache is not None:
            player = cache.get(token_hash)
            if player is not None:
                return player
        generation = cache.generation if cache is not None else 0
        async with self.engine.connect() as conn:
            row = (await conn.execute(select(Player.__table__)
                                      .where(Player.token_hash == token_hash))).first()
        if row is None:  # not cached either: a token nobody holds stays unknown
            return None
        player = _player(row)
        if cache is not None:
            cache.put(token_hash, player, generation)
        return player

    # ------------------------------------------------------------------ device hand-offs

    async def create_handoff(self, handoff: DeviceHandoff, live_limit: int) -> bool:
        """Store a new hand-off (and forget the long expired ones); False when the player
        already has ``live_limit`` unused, unexpired ones."""
        at = handoff.created_at
        async with self.sessions() as s, s.begin():
            await s.execute(delete(DeviceHandoff).where(
                DeviceHandoff.expires_at < at - timedelta(days=1)))
            live = await s.scalar(select(func.count()).select_from(DeviceHandoff).where(
                DeviceHandoff.player_id == handoff.player_id,
                DeviceHandoff.used_at.is_(None), DeviceHandoff.expires_at > at))
            if (live or 0) >= live_limit:
                return False
            s.add(handoff)
        return True

    async def handoff(self, handoff_id: str) -> DeviceHandoff | None:
        async with self.sessions() as s:
            return await s.get(DeviceHandoff, handoff_id)

    async def claim_handoff(self, handoff_id: str, at: datetime) -> DeviceHandoff | None:
        """Mark a hand-off used, if it is still unused and unexpired at ``at``: one atomic
        update, so of two devices opening the same link at once only one gets it."""
        async with self.sessions() as s, s.begin():
            result = await s.execute(
                update(DeviceHandoff)
                .where(DeviceHandoff.id == handoff_id, DeviceHandoff.used_at.is_(None),
                       DeviceHandoff.expires_at > at)
                .values(used_at=at))
            if result.rowcount != 1:
                return None
            return await s.get(DeviceHandoff, handoff_id)

    async def players_by_id(self, ids: list[str]) -> dict[str, Player]:
        if not ids:
            return {}
        async with self.sessions() as s:
            rows = await s.scalars(select(Player).where(Player.id.in_(ids)))
            return {p.id: p for p in rows}

    # ------------------------------------------------------------------ tables

    # a table's row, seats and status: in the table writer's shared transactions
    # (app/db/table_writer.py); each call returns once its write is committed

    async def create_table(self, table: GameTable | Mapping[str, Any], host_seat: int) -> None:
        """Store a new table's row (an ORM instance, or its column values: the registry's
        way, without building an instance to read it back) and its host's seat."""
        if isinstance(table, GameTable):
            values = _values(table)
        else:  # unset columns left to their defaults, as ``_values`` leaves them
            values = {key: value for key, value in table.items() if value is not None}
        table_id, host_id = values["id"], values["host_id"]
        seat = {"table_id": table_id, "seat": host_seat, "player_id": host_id}

        def write(conn: Connection) -> None:
            conn.execute(insert(GameTable).values(values))
            conn.execute(insert(TableSeat).values(seat))

        await self.table_writer.write(write)
        if self.hosted is not None:
            self.hosted.note(table_id, host_id, values["status"])

    async def save_seats(self, table_id: str, seats: list[str | None], host_id: str,
                         version: int, epoch: int | None = None,
                         chat: list[dict[str, Any]] | None = None) -> None:
        """The table's seats (and host and version), fenced by ``epoch``; ``chat``: chat
        lines (``chat_row``'s) stored by the same transaction (a join's or a leave's system
        line: one commit, not one for the seats and another for the line), or with neither
        if the write fails."""
        rows = [{"table_id": table_id, "seat": seat, "player_id": player_id}
                for seat, player_id in enumerate(seats) if player_id is not None]
        lines = list(chat or ())

        def write(conn: Connection) -> None:
            _fenced_update(conn, table_id, epoch, host_id=host_id, version=version)
            conn.execute(delete(TableSeat).where(TableSeat.table_id == table_id))
            if rows:
                conn.execute(insert(TableSeat), rows)
            if lines:
                conn.execute(insert(cast(Table, ChatLine.__table__)), lines)

        await self.table_writer.write(write)
        if lines:
            self.chat_writer.stored_elsewhere(len(lines))
        if self.hosted is not None:
            self.hosted.host_is(table_id, host_id)

    async def set_status(self, table_id: str, status: str, version: int,
                         epoch: int | None = None, **fields: Any) -> None:
        def write(conn: Connection) -> None:
            _fenced_update(conn, table_id, epoch, status=status, version=version, **fields)

        await self.table_writer.write(write)
        if self.hosted is not None and status not in LIVE_STATUSES:
            self.hosted.end(table_id)

    async def append_action(self, table_id: str, seq: int, seat: int, action: dict[str, Any],
                            source: str, finished_outcome: dict[str, Any] | None,
                            epoch: int = 0) -> None:
        """Store one accepted action (and the result if it ended the game); return when it is
        durable. Many tables' actions share one transaction (group commit)."""
        await self.writer.append(PendingAction(table_id, seq, seat, action, source,
                                               finished_outcome, now(), epoch))
        if finished_outcome is not None and self.hosted is not None:
            self.hosted.end(table_id)  # the game is over: the table is finished

    # ------------------------------------------------------------------ ownership

    async def take_over(self, table_id: str) -> GameTable | None:
        """Bump a table's owner epoch, then read it (with its seats): from now on only writes
        carrying the new epoch are accepted, so reading the log after the bump sees every
        write a previous owner could still make."""
        async with self.engine.begin() as conn:
            await conn.execute(update(GameTable).where(GameTable.id == table_id)
                               .values(owner_epoch=GameTable.owner_epoch + 1))
        return await self.table(table_id)

    async def take_over_active(self) -> None:
        """The single-process start: this process now owns every waiting or playing table."""
        async with self.sessions() as s, s.begin():
            await s.execute(update(GameTable)
                            .where(GameTable.status.in_(("waiting", "playing")))
                            .values(owner_epoch=GameTable.owner_epoch + 1))

    async def note_idle(self, idle: list[tuple[str, int, float]]) -> None:
        """At a graceful stop: (table id, owner epoch, seconds nobody has been at it) for
        each live table nobody is at; a table another process has taken over since is left
        as that process keeps it."""
        if not idle:
            return
        columns = GameTable.__table__.c
        async with self.engine.begin() as conn:
            for table_id, epoch, seconds in idle:
                await conn.execute(update(GameTable)
                                   .where(columns.id == table_id, columns.owner_epoch == epoch)
                                   .values(idle_seconds=seconds))

    async def forget_idle(self, table_ids: list[str]) -> None:
        """The idle time noted at the last stop has been read back: cleared, so a later crash
        (which notes nothing) does not charge it a second time."""
        columns = GameTable.__table__.c
        async with self.engine.begin() as conn:
            for start in range(0, len(table_ids), 500):
                await conn.execute(update(GameTable)
                                   .where(columns.id.in_(table_ids[start:start + 500]))
                                   .values(idle_seconds=None))

    async def active_table_ids(self) -> list[str]:
        """The ids of every waiting or playing table (a cluster's sweep, every few seconds:
        one Core statement, no ORM session)."""
        async with self.engine.connect() as conn:
            columns = GameTable.__table__.c
            rows = await conn.scalars(select(columns.id)
                                      .where(columns.status.in_(("waiting", "playing"))))
            return list(rows)

    async def public_active_tables(self) -> list[GameTable]:
        """Public tables waiting or playing, newest first (the lobby of a cluster)."""
        async with self.sessions() as s:
            rows = await s.scalars(select(GameTable)
                                   .where(GameTable.status.in_(("waiting", "playing")),
                                          GameTable.private.is_(False))
                                   .options(selectinload(GameTable.seats))
                                   .order_by(GameTable.created_at.desc()))
            return list(rows)

    async def hosted_count(self, player_id: str) -> int:
        """Waiting or playing tables this player hosts, across every process."""
        async with self.engine.connect() as conn:
            count = await conn.scalar(select(func.count()).select_from(GameTable)
                                      .where(GameTable.host_id == player_id,
                                             GameTable.status.in_(("waiting", "playing"))))
            return int(count or 0)

    async def actions(self, table_id: str) -> list[StoredAction]:
        async with self.sessions() as s:
            rows = await s.scalars(select(ActionRecord).where(ActionRecord.table_id == table_id)
                                   .order_by(ActionRecord.seq))
            return [StoredAction(r.seq, r.seat, r.action, r.source, r.created_at) for r in rows]

    async def delete_table(self, table_id: str, epoch: int | None = None) -> None:
        async with self.engine.begin() as conn:
            await conn.run_sync(_fenced_update, table_id, epoch, status="deleted")
            await conn.execute(delete(ChatLine).where(ChatLine.table_id == table_id))
            await conn.execute(delete(TableSeat).where(TableSeat.table_id == table_id))
            await conn.execute(delete(ActionRecord).where(ActionRecord.table_id == table_id))
            await conn.execute(delete(GameTable).where(GameTable.id == table_id))
        if self.hosted is not None:
            self.hosted.end(table_id)

    async def table(self, table_id: str) -> GameTable | None:
        async with self.sessions() as s:
            return await s.scalar(select(GameTable).where(GameTable.id == table_id)
                                  .options(selectinload(GameTable.seats)))

    async def table_id_by_invite(self, token: str) -> str | None:
        async with self.engine.connect() as conn:
            return await conn.scalar(select(GameTable.id)
                                     .where(GameTable.invite_token == token))

    async def active_tables(self) -> list[GameTable]:
        """Tables to bring back after a restart."""
        async with self.sessions() as s:
            rows = await s.scalars(select(GameTable)
                                   .where(GameTable.status.in_(("waiting", "playing")))
                                   .options(selectinload(GameTable.seats)))
            return list(rows)

    async def finished_tables(self, game: str | None, player_id: str | None, limit: int,
                              offset: int, branches: bool | None = None, *,
                              viewer_id: str | None) -> list[GameTable]:
        """Finished games, newest first, as ``viewer_id`` (None: anonymous) may see them
        listed: every public one, and a private table's only where the viewer sat or hosts
        (never to anyone else, whatever the filters); ``branches``: only games played on
        from another match (True), only real games (False), both (None)."""
        visible: ColumnElement[bool] = GameTable.private.is_(False)
        if viewer_id is not None:
            visible = or_(visible, GameTable.host_id == viewer_id,
                          GameTable.seats.any(TableSeat.player_id == viewer_id))
        query = (select(GameTable).where(GameTable.status == "finished", visible)
                 .options(selectinload(GameTable.seats))
                 .order_by(GameTable.finished_at.desc(), GameTable.id)
                 .limit(limit).offset(offset))
        if game:
            query = query.where(GameTable.game == game)
        if player_id:
            query = query.where(GameTable.seats.any(TableSeat.player_id == player_id))
        if branches is not None:
            query = query.where(GameTable.position.is_not(None) if branches
                                else GameTable.position.is_(None))
        async with self.sessions() as s:
            return list(await s.scalars(query))

    # ------------------------------------------------------------------ chat

    def queue_chat_line(self, table_id: str, seq: int, *, at: datetime, kind: str,
                        seat: int | None, player_id: str | None, name: str, text: str | None,
                        code: str | None, params: dict[str, Any] | None
                        ) -> asyncio.Future[None]:
        """Store one chat line (a message or a system line) with the next commit of the chat
        writer; the future is done once it is stored."""
        return self.chat_writer.append(chat_row(
            table_id, seq, at=at, kind=kind, seat=seat, player_id=player_id, name=name,
            text=text, code=code, params=params))

    async def chat_lines(self, table_id: str, limit: int | None = 100) -> list[ChatLine]:
        """The table's chat, oldest first (the newest ``limit`` lines; None: every line)."""
        query = select(ChatLine).where(ChatLine.table_id == table_id).order_by(
            ChatLine.seq.desc())
        if limit is not None:
            query = query.limit(limit)
        async with self.sessions() as s:
            rows = list(await s.scalars(query))
        return rows[::-1]

    # ------------------------------------------------------------------ rematches

    async def rematch_of(self, table_id: str) -> tuple[str, str] | None:
        """The (id, invite token) of the rematch of ``table_id``, if one was created."""
        async with self.sessions() as s:
            row = (await s.execute(
                select(GameTable.id, GameTable.invite_token)
                .where(GameTable.rematch_of == table_id, GameTable.status != "deleted")
                .order_by(GameTable.created_at).limit(1))).first()
        return None if row is None else (row[0], row[1])

    async def player(self, player_id: str) -> Player | None:
        async with self.sessions() as s:
            return await s.get(Player, player_id)

    async def import_match(self, table: GameTable, players: list[Player],
                           actions: list[ActionRecord], chat: list[ChatLine]) -> None:
        """Store an imported finished game (its players, seats, log and chat) at once."""
        async with self.sessions() as s, s.begin():
            s.add_all(players)
            await s.flush()
            s.add(table)
            await s.flush()
            s.add_all([TableSeat(table_id=table.id, seat=seat, player_id=p.id)
                       for seat, p in enumerate(players)])
            s.add_all(actions)
            s.add_all(chat)

def _fenced_update(conn: Connection, table_id: str, epoch: int | None,
                   **values: Any) -> None:
    """Update a table's row, refused (:class:`StaleOwner`) if another process has taken the
    table over since ``epoch`` (None: no fence, for callers outside an owning actor)."""
    statement = update(GameTable).where(GameTable.id == table_id)
    if epoch is not None:
        statement = statement.where(GameTable.owner_epoch == epoch)
    result = conn.execute(statement.values(**values))
    if epoch is not None and result.rowcount != 1:
        raise StaleOwner(f"table {table_id} is owned by another process now")
