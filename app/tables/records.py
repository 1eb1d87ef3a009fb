"""A finished game's whole record: replays step by step, export as one JSON file, and import
from such a file (the same game again from its seed and log, with the same outcome).

Only finished games: a replay or an export shows every card, so a game still being played
never has one (the API answers 404 for those, like any match that does not exist).

The file (``format: "ludoteca.match"``, ``format_version: 1``)::

    {"format", "format_version", "id", "game", "seats", "options", "seed",
     "players": [{"seat", "id", "name"}], "started_at", "finished_at", "outcome",
     "log": [{"seq", "seat", "action", "source", "at"}],
     "chat": [{"kind", "seat", "name", "text", "code", "params", "at"}]}
"""

from __future__ import annotations

import asyncio
import secrets
from collections import OrderedDict
from datetime import datetime
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from app.db.models import ActionRecord, ChatLine, GameTable, Player
from app.db.repository import Repository, StoredAction, hash_token, now
from app.errors import AppError, not_found
from app.games import ENGINES
from app.games.base import SYSTEM_SEAT, BadOptions, IllegalAction, event_for
from app.names import BadName, clean_name
from app.tables import options as table_options
from app.tables.core.ending import Replayed, replay
from app.tables.engine import adapt

FORMAT = "ludoteca.match"
FORMAT_VERSION = 1
MAX_LOG = 20_000
MAX_CHAT = 5_000
SOURCES = ("player", "bot", "timeout", "window", "resign", "vote", "empty")


# --------------------------------------------------------------------------- the file


class LogEntry(BaseModel):
    model_config = ConfigDict(extra="forbid")
    seq: int = Field(ge=0, le=10_000_000)
    seat: int = Field(ge=SYSTEM_SEAT, le=64)
    action: dict[str, Any]
    source: str = Field(default="player", max_length=16)
    at: datetime | None = None


class PlayerEntry(BaseModel):
    model_config = ConfigDict(extra="forbid")
    seat: int = Field(ge=0, le=64)
    id: str | None = Field(default=None, max_length=64)
    name: str = Field(min_length=1, max_length=256)


class ChatEntry(BaseModel):
    model_config = ConfigDict(extra="forbid")
    kind: str = Field(pattern="^(player|spectator|system)$")
    seat: int | None = Field(default=None, ge=0, le=64)
    name: str = Field(default="", max_length=64)
    text: str | None = Field(default=None, max_length=500)
    code: str | None = Field(default=None, pattern="^[a-z_]{1,32}$")
    params: dict[str, Any] | None = None
    at: datetime | None = None


class MatchFile(BaseModel):
    """An exported match, as ``GET /api/matches/{id}/export`` gives it."""

    model_config = ConfigDict(extra="forbid")
    format: str = Field(pattern=f"^{FORMAT.replace('.', '[.]')}$")
    format_version: int = Field(ge=FORMAT_VERSION, le=FORMAT_VERSION)
    id: str | None = Field(default=None, max_length=64)
    game: str = Field(max_length=32)
    seats: int = Field(ge=1, le=12)
    options: dict[str, Any] = Field(default_factory=dict)
    seed: int = Field(ge=0, le=2**63 - 1)
    players: list[PlayerEntry] = Field(max_length=12)
    started_at: datetime | None = None
    finished_at: datetime | None = None
    outcome: dict[str, Any] | None = None
    log: list[LogEntry] = Field(max_length=MAX_LOG)
    chat: list[ChatEntry] = Field(default_factory=list, max_length=MAX_CHAT)


def _iso(value: datetime | None) -> str | None:
    return value.isoformat() if value is not None else None


async def export(repo: Repository, match_id: str) -> dict[str, Any]:
    row = await finished_row(repo, match_id)
    actions = await repo.actions(match_id)
    chat = await repo.chat_lines(match_id, limit=None)
    return {
        "format": FORMAT, "format_version": FORMAT_VERSION, "id": row.id, "game": row.game,
        "seats": row.seat_count, "options": row.options, "seed": row.seed,
        "players": [{"seat": s.seat, "id": s.player.id, "name": s.player.name}
                    for s in row.seats],
        "started_at": _iso(row.started_at), "finished_at": _iso(row.finished_at),
        "outcome": row.outcome,
        "log": [{"seq": a.seq, "seat": a.seat, "action": a.action, "source": a.source,
                 "at": a.at.isoformat()} for a in actions],
        "chat": [{"kind": c.kind, "seat": c.seat, "name": c.name, "text": c.text,
                  "code": c.code, "params": c.params, "at": c.created_at.isoformat()}
                 for c in chat],
    }


def _aware(value: datetime | None, default: datetime) -> datetime:
    if value is None or value.tzinfo is None or value.utcoffset() is None:
        return default
    return value


async def import_match(repo: Repository, data: MatchFile, importer_id: str) -> GameTable:
    """Check the file, replay it from its seed, and store it as a new finished match with
    new guest players of the same names. Raises ``AppError`` (422) saying what is wrong."""
    engine = ENGINES.get(data.game)
    if engine is None:
        raise AppError("unknown_game", f"no game called {data.game!r}", 422)
    try:
        options = table_options.resolve(engine, data.seats, data.options)
    except BadOptions as exc:
        raise AppError("bad_options", str(exc), 422) from None
    if sorted(p.seat for p in data.players) != list(range(data.seats)):
        raise AppError("bad_record", f"players must fill seats 0 to {data.seats - 1}, "
                       "once each", 422)
    names = {}
    for p in data.players:
        try:
            names[p.seat] = clean_name(p.name)
        except BadName as exc:
            raise AppError("bad_record", f"players: seat {p.seat}: {exc}", 422) from None
    for entry in data.log:
        if entry.source not in SOURCES:
            raise AppError("bad_record", f"log: step {entry.seq}: unknown source "
                           f"{entry.source!r}", 422)
        if entry.seat >= data.seats:
            raise AppError("bad_record", f"log: step {entry.seq}: no seat {entry.seat}", 422)
    steps = [(e.seq, e.seat, e.action) for e in data.log]
    try:
        # a long game takes a moment to replay: off the event loop, so tables keep going
        result = await asyncio.to_thread(replay, engine, data.seats, options, data.seed, steps)
    except IllegalAction as exc:
        raise AppError("illegal_log", f"the log is not a legal game: {exc.message}",
                       422) from None
    if result.outcome is None:
        raise AppError("unfinished_log", "the log does not reach the end of the game", 422)
    if data.outcome is not None and data.outcome != result.outcome:
        raise AppError("outcome_mismatch", "replaying the log gives another outcome than "
                       "the file says", 422)
    stamp = now()
    players = [Player(id=secrets.token_hex(8), name=names[seat],
                      token_hash=hash_token(secrets.token_urlsafe(32)), created_at=stamp)
               for seat in range(data.seats)]
    last = data.log[-1].seq if data.log else 1
    table = GameTable(
        id=secrets.token_urlsafe(8), game=data.game, seat_count=data.seats, options=options,
        private=False, invite_token=secrets.token_urlsafe(18), host_id=importer_id,
        status="finished", seed=data.seed, version=last, created_at=stamp,
        started_at=_aware(data.started_at, stamp), finished_at=_aware(data.finished_at, stamp),
        outcome=result.outcome)
    actions = [ActionRecord(table_id=table.id, seq=e.seq, seat=e.seat, action=e.action,
                            source=e.source, created_at=_aware(e.at, stamp)) for e in data.log]
    chat = [ChatLine(table_id=table.id, seq=n,
                     seat=c.seat if c.seat is None or c.seat < data.seats else None,
                     player_id=None, name=c.name, kind=c.kind, text=c.text, code=c.code,
                     params=c.params, created_at=_aware(c.at, stamp))
            for n, c in enumerate(data.chat, start=1)]
    await repo.import_match(table, players, actions, chat)
    return table


# --------------------------------------------------------------------------- replays


async def finished_row(repo: Repository, match_id: str) -> GameTable:
    row = await repo.table(match_id)
    if row is None or row.status != "finished" or row.game not in ENGINES:
        raise not_found("match")  # a game in progress has no replay: no card leaks
    return row


class ReplayCache:
    """The states of the few most recently replayed matches (a step's view is one look-up
    instead of a replay from the seed)."""

    def __init__(self, size: int = 8) -> None:
        self.size = size
        self.entries: OrderedDict[str, tuple[GameTable, list[StoredAction], Replayed]] = \
            OrderedDict()

    async def get(self, repo: Repository,
                  match_id: str) -> tuple[GameTable, list[StoredAction], Replayed]:
        if match_id in self.entries:
            self.entries.move_to_end(match_id)
            return self.entries[match_id]
        row = await finished_row(repo, match_id)
        actions = await repo.actions(match_id)
        engine = ENGINES[row.game]
        steps = [(a.seq, a.seat, a.action) for a in actions]
        try:
            replayed = await asyncio.to_thread(replay, engine, row.seat_count, row.options,
                                               row.seed, steps, True)
        except IllegalAction as exc:  # a stored log the engine no longer accepts
            raise AppError("replay_failed", f"this match cannot be replayed: {exc.message}",
                           409) from None
        self.entries[match_id] = (row, actions, replayed)
        while len(self.entries) > self.size:
            self.entries.popitem(last=False)
        return self.entries[match_id]


def viewpoint(value: str, seats: int) -> int | str | None:
    """``"spectator"`` (None), ``"all"`` (everything revealed) or a seat number."""
    if value == "spectator":
        return None
    if value == "all":
        return "all"
    if value.isdigit() and int(value) < seats:
        return int(value)
    raise AppError("bad_seat", f"seat is 'spectator', 'all' or 0 to {seats - 1}", 400)


def events_for(events: list[Any], point: int | str | None) -> list[dict[str, Any]]:
    if point == "all":
        return [{"type": e.type, **e.data} for e in events]
    return event_for(events, point if isinstance(point, int) else None)


def steps(actions: list[StoredAction], replayed: Replayed,
          point: int | str | None) -> list[dict[str, Any]]:
    return [{"step": i + 1, "version": a.seq, "seat": a.seat, "action": a.action,
             "source": a.source, "at": a.at.isoformat(),
             "events": events_for(replayed.history[i][1], point)}
            for i, a in enumerate(actions)]


def view_at(row: GameTable, replayed: Replayed, step: int,
            point: int | str | None) -> dict[str, Any]:
    if not 0 <= step < len(replayed.states or []):
        raise AppError("bad_step", f"steps go from 0 to {len(replayed.states or []) - 1}", 400)
    engine = adapt(ENGINES[row.game])
    state = (replayed.states or [])[step]
    if point == "all":
        return engine.view_all(state)  # type: ignore[no-any-return]
    return engine.view(state, point if isinstance(point, int) else None)  # type: ignore[no-any-return]
