"""A finished game's whole record: replays step by step, export as one JSON file, and import
from such a file (the same game again from its seed and log, with the same outcome).

Only finished games: a replay or an export shows every card, so a game still being played
never has one (the API answers 404 for those, like any match that does not exist).

The file (``format: "ludoteca.match"``, ``format_version: 1``)::

    {"format", "format_version", "id", "game", "seats", "options", "seed", "private",
     "players": [{"seat", "id", "name"}], "started_at", "finished_at", "outcome",
     "log": [{"seq", "seat", "action", "source", "at"}],
     "chat": [{"kind", "seat", "name", "text", "code", "params", "at"}]}

``private`` says whether the match was a private table's: an import keeps it, and a file
without it (one exported before it was written) is imported as private: the import of a
private match never makes it public.

A branch (a game played on from a moment of another match, app/tables/branching.py) adds
``"position"`` (the engine's dump its game starts from instead of the set-up) and
``"branch_of": {"match", "step"}`` (where it came from); its log replays from the position.

What the server takes from such a file is bounded, because it must be able to serve the
match back (its replay, its export, its page) for as long as it keeps it: every free-form
field (options, actions, chat parameters, the outcome) has a depth and a size limit, names
are checked as the lobby checks them, chat text as live chat is, and dates must be
plausible (not in the future, the moves within the game's own start and end, in order). A
file that does not hold is refused whole (422 ``bad_record``) and nothing is stored.
"""

from __future__ import annotations

import asyncio
import json
import secrets
from collections import OrderedDict
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from app import bounds
from app.db.models import ActionRecord, ChatLine, GameTable, Player
from app.db.repository import Repository, StoredAction, hash_token, now
from app.errors import AppError, not_found
from app.games import ENGINES
from app.games.base import SYSTEM_SEAT, BadOptions, IllegalAction, event_for
from app.names import BadName, clean_chat_text, clean_name
from app.tables import options as table_options
from app.tables.core.ending import Replayed, replay
from app.tables.engine import adapt

FORMAT = "ludoteca.match"
FORMAT_VERSION = 1
MAX_LOG = 20_000
MAX_CHAT = 5_000
SOURCES = ("player", "bot", "timeout", "window", "resign", "vote", "empty")
# (depth, size) of each free-form field: an action is what a WebSocket message could carry
# (inside a message nested at most bounds.MAX_DEPTH deep, of 16 KiB at most), chat
# parameters are a few names and numbers, options a flat mapping
ACTION_BOUNDS = (bounds.MAX_DEPTH - 1, 16 * 1024)
PARAMS_BOUNDS = (4, 2048)
OPTIONS_BOUNDS = (4, 8192)
# an outcome nests up to 10 levels (Ikebana's rounds); it must equal the replay's anyway
OUTCOME_BOUNDS = (bounds.MAX_DEPTH, 256 * 1024)
# a branch's starting position: an engine's whole state (Block and Guess's is the largest)
POSITION_BOUNDS = (bounds.MAX_DEPTH, 256 * 1024)
# no match was played before this, nor in the future (a little slack for the clocks of the
# exporting and the importing server)
EARLIEST = datetime(2000, 1, 1, tzinfo=UTC)
CLOCK_SLACK = timedelta(minutes=5)


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


class BranchOrigin(BaseModel):
    """The match and step a branch plays on from."""

    model_config = ConfigDict(extra="forbid")
    match: str = Field(max_length=64)
    step: int = Field(ge=0, le=10_000_000)


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
    private: bool = Field(default=True, description="whether the match is private (read "
                          "only by its importer and never listed); a file without it is "
                          "imported as private")
    players: list[PlayerEntry] = Field(max_length=12)
    started_at: datetime | None = None
    finished_at: datetime | None = None
    outcome: dict[str, Any] | None = None
    log: list[LogEntry] = Field(max_length=MAX_LOG)
    chat: list[ChatEntry] = Field(default_factory=list, max_length=MAX_CHAT)
    position: dict[str, Any] | None = Field(
        default=None, description="a branch: the position its game starts from")
    branch_of: BranchOrigin | None = None


def _iso(value: datetime | None) -> str | None:
    return value.isoformat() if value is not None else None


async def export(repo: Repository, row: GameTable) -> dict[str, Any]:
    """The record of the finished match ``row`` (one ``finished_row`` gave, checked by the
    caller: who may read it)."""
    actions = await repo.actions(row.id)
    chat = await repo.chat_lines(row.id, limit=None)
    return {
        "format": FORMAT, "format_version": FORMAT_VERSION, "id": row.id, "game": row.game,
        "seats": row.seat_count, "options": row.options, "seed": row.seed,
        "private": row.private,
        "players": [{"seat": s.seat, "id": s.player.id, "name": s.player.name}
                    for s in row.seats],
        "started_at": _iso(row.started_at), "finished_at": _iso(row.finished_at),
        "outcome": row.outcome,
        "log": [{"seq": a.seq, "seat": a.seat, "action": a.action, "source": a.source,
                 "at": a.at.isoformat()} for a in actions],
        "chat": [{"kind": c.kind, "seat": c.seat, "name": c.name, "text": c.text,
                  "code": c.code, "params": c.params, "at": c.created_at.isoformat()}
                 for c in chat],
        **branch_fields(row),
    }


def branch_fields(row: GameTable) -> dict[str, Any]:
    """A branch's position and origin, for its record (nothing for a game from its set-up)."""
    if row.position is None:
        return {}
    origin = {"match": row.branch_of, "step": row.branch_step} if row.branch_of else None
    return {"position": row.position, "branch_of": origin}


def _refuse(message: str) -> AppError:
    return AppError("bad_record", message, 422)


def _check_bounds(data: MatchFile) -> None:
    """Every free-form field within its depth and size (see ``*_BOUNDS``)."""
    checks: list[tuple[Any, str, tuple[int, int]]] = [
        (data.options, "options", OPTIONS_BOUNDS)]
    if data.outcome is not None:
        checks.append((data.outcome, "outcome", OUTCOME_BOUNDS))
    if data.position is not None:
        checks.append((data.position, "position", POSITION_BOUNDS))
    checks += [(e.action, f"log: step {e.seq}: action", ACTION_BOUNDS) for e in data.log]
    checks += [(c.params, f"chat: line {n}: params", PARAMS_BOUNDS)
               for n, c in enumerate(data.chat, start=1) if c.params is not None]
    for value, what, (max_depth, max_bytes) in checks:
        problem = bounds.check(value, what, max_depth, max_bytes)
        if problem is not None:
            raise _refuse(problem)


def _chat_lines(data: MatchFile) -> list[tuple[ChatEntry, str, str | None]]:
    """(line, its checked name, its checked text) for every chat line."""
    out: list[tuple[ChatEntry, str, str | None]] = []
    for n, line in enumerate(data.chat, start=1):
        where = f"chat: line {n}"
        if line.kind == "system":
            if line.code is None:
                raise _refuse(f"{where}: a system line needs a code")
            if line.text is not None or line.name:
                raise _refuse(f"{where}: a system line has a code and params, no text or name")
            out.append((line, "", None))
            continue
        if line.text is None:
            raise _refuse(f"{where}: a message needs its text")
        try:
            name = clean_name(line.name)
        except BadName as exc:
            raise _refuse(f"{where}: name: {exc}") from None
        try:
            text = clean_chat_text(line.text)
        except ValueError as exc:
            raise _refuse(f"{where}: text: {exc}") from None
        out.append((line, name, text))
    return out


def _utc(value: datetime, where: str) -> datetime:
    try:
        moment = value.astimezone(UTC)
    except (OverflowError, ValueError):
        raise _refuse(f"{where}: not a plausible date") from None
    if moment < EARLIEST:
        raise _refuse(f"{where}: not a plausible date (before {EARLIEST.date()})")
    return moment


def _given(value: datetime | None, where: str) -> datetime | None:
    """A date from the file in UTC; None if it has none (or names no time zone)."""
    if value is None or value.tzinfo is None or value.utcoffset() is None:
        return None
    return _utc(value, where)


@dataclass
class _Dates:
    started: datetime
    finished: datetime
    moves: list[datetime]
    chat: list[datetime]


def _dates(data: MatchFile, stamp: datetime) -> _Dates:
    """The match's dates, checked: none in the future, none before the year 2000; the game
    ends after it starts and every move lies between the two, in order. A date the file
    leaves out is taken from its neighbours (the first or last move), else the import's
    own time."""
    latest = stamp + CLOCK_SLACK
    moves_given = [_given(e.at, f"log: step {e.seq}: at") for e in data.log]
    known = [m for m in moves_given if m is not None]
    started = _given(data.started_at, "started_at") or (known[0] if known else stamp)
    finished = _given(data.finished_at, "finished_at") or (known[-1] if known else stamp)
    finished = max(finished, started) if data.finished_at is None else finished
    if started > latest:
        raise _refuse("started_at: in the future")
    if finished > latest:
        raise _refuse("finished_at: in the future")
    if finished < started:
        raise _refuse("finished_at: before the game started (started_at)")
    moves = []
    previous = started
    for entry, given in zip(data.log, moves_given, strict=True):
        at = given or previous
        where = f"log: step {entry.seq}: at"
        if at < started:
            raise _refuse(f"{where}: before the game started (started_at)")
        if at > finished:
            raise _refuse(f"{where}: after the game finished (finished_at)")
        if at < previous:
            raise _refuse(f"{where}: earlier than the step before it")
        moves.append(at)
        previous = at
    chat = []
    for n, line in enumerate(data.chat, start=1):
        at = _given(line.at, f"chat: line {n}: at") or finished
        if at > latest:
            raise _refuse(f"chat: line {n}: at: in the future")
        chat.append(at)
    return _Dates(started, finished, moves, chat)


def _servable(record: dict[str, Any]) -> None:
    """Refuse a file whose match the server could not hand back as JSON."""
    try:
        json.dumps(record, allow_nan=False)
    except (TypeError, ValueError, RecursionError):
        raise _refuse("the match could not be served back as JSON") from None


async def import_match(repo: Repository, data: MatchFile, importer_id: str) -> GameTable:
    """Check the file, replay it from its seed, and store it as a new finished match with
    new guest players of the same names, hosted by the importer and as private as the file
    says (private when it does not say). Raises ``AppError`` (422) saying what is wrong;
    nothing is stored then."""
    engine = ENGINES.get(data.game)
    if engine is None:
        raise AppError("unknown_game", f"no game called {data.game!r}", 422)
    _check_bounds(data)
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
    lines = _chat_lines(data)
    stamp = now()
    dates = _dates(data, stamp)
    steps = [(e.seq, e.seat, e.action) for e in data.log]
    if data.position is not None:
        _check_position(engine, data.seats, data.position)
    try:
        # a long game takes a moment to replay: off the event loop, so tables keep going
        result = await asyncio.to_thread(_replay_file, engine, data, options, steps)
    except IllegalAction as exc:
        raise AppError("illegal_log", f"the log is not a legal game: {exc.message}",
                       422) from None
    if result.outcome is None:
        raise AppError("unfinished_log", "the log does not reach the end of the game", 422)
    if data.outcome is not None and data.outcome != result.outcome:
        raise AppError("outcome_mismatch", "replaying the log gives another outcome than "
                       "the file says", 422)
    players = [Player(id=secrets.token_hex(8), name=names[seat],
                      token_hash=hash_token(secrets.token_urlsafe(32)), created_at=stamp)
               for seat in range(data.seats)]
    last = data.log[-1].seq if data.log else 1
    table = GameTable(
        id=secrets.token_urlsafe(8), game=data.game, seat_count=data.seats, options=options,
        private=data.private, invite_token=secrets.token_urlsafe(18), host_id=importer_id,
        status="finished", seed=data.seed, version=last, created_at=stamp,
        started_at=dates.started, finished_at=dates.finished, outcome=result.outcome,
        position=data.position,
        branch_of=data.branch_of.match if data.branch_of else None,
        branch_step=data.branch_of.step if data.branch_of else None)
    actions = [ActionRecord(table_id=table.id, seq=e.seq, seat=e.seat, action=e.action,
                            source=e.source, created_at=at)
               for e, at in zip(data.log, dates.moves, strict=True)]
    chat = [ChatLine(table_id=table.id, seq=n,
                     seat=c.seat if c.seat is None or c.seat < data.seats else None,
                     player_id=None, name=name, kind=c.kind, text=text, code=c.code,
                     params=c.params, created_at=at)
            for n, ((c, name, text), at) in enumerate(zip(lines, dates.chat, strict=True),
                                                      start=1)]
    _servable({"options": options, "outcome": result.outcome, "position": data.position,
               "log": [a.action for a in actions], "chat": [c.params for c in chat],
               "names": [p.name for p in players] + [c.name for c in chat],
               "text": [c.text for c in chat]})
    await repo.import_match(table, players, actions, chat)
    return table


def _check_position(engine: Any, seats: int, position: dict[str, Any]) -> None:
    """A branch's position from a file: one the engine loads as it is (its dump gives it
    back unchanged), for this many seats."""
    try:
        state = engine.load(json.loads(json.dumps(position)))
        same = json.loads(json.dumps(engine.dump(state))) == position
        seated = int(position.get("seats", -1)) == seats
    except Exception:  # noqa: BLE001 - whatever a made-up position makes the engine raise
        raise _refuse("position: not a position of this game") from None
    if not same or not seated:
        raise _refuse("position: not a position of this game (for this many seats)")


def _replay_file(engine: Any, data: MatchFile, options: dict[str, Any],
                 steps: list[tuple[int, int, dict[str, Any]]]) -> Replayed:
    """The file's game replayed (a branch's from its position, every step of which must
    then be one the views can draw: its replay shows each)."""
    if data.position is None:
        return replay(engine, data.seats, options, data.seed, steps)
    adapter = adapt(engine)
    try:
        result = replay(engine, data.seats, options, data.seed, steps, True,
                        position=data.position)
        for state in result.states or []:
            for seat in [None, *range(data.seats)]:
                adapter.view(state, seat)
            adapter.view_all(state)
    except IllegalAction:
        raise
    except Exception:  # noqa: BLE001 - a made-up position the engine cannot play or show
        raise _refuse("position: not a position this game can be played from") from None
    result.states = None
    return result


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
                                               row.seed, steps, True, None, row.position)
        except IllegalAction as exc:  # a stored log the engine no longer accepts
            raise AppError("replay_failed", f"this match cannot be replayed: {exc.message}",
                           409) from None
        self.entries[match_id] = (row, actions, replayed)
        while len(self.entries) > self.size:
            self.entries.popitem(last=False)
        return self.entries[match_id]


# the replays of the last few matches looked at (the replay pages, branches, rematches of
# branches): one per process
replay_cache = ReplayCache()


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
