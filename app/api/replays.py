"""Finished games' replays, export and import (see ``app.tables.records`` for the file), and
branches: a new table playing on from any step of a replay (``app.tables.branching``).

A replay is only for a finished game (a game in progress answers 404): it may show every
card. The server replays the log from the seed (a branch's, from its position); the page
draws each step's view with the game's own client.

A private table's match (its replay, step views, export with its chat, and branches) is for
its players, its host and whoever holds its private link (``?key=``); to anyone else it
answers 404 as a match that does not exist (app/api/match_access.py), checked before the
match is replayed. An import is private unless its file says ``"private": false`` (an
export says what its match was), and is readable by its importer (its host).
"""

from __future__ import annotations

import json
import secrets
from typing import Any

from fastapi import APIRouter, Request
from pydantic import BaseModel, Field, ValidationError

from app.api.deps import CurrentPlayer, MaybePlayer, RegistryDep, RepoDep, requested_seed
from app.api.limits import get_limits
from app.api.match_access import MatchKey, may_read, readable_match
from app.api.schemas import BranchIn, MatchOut, TableOut, errors
from app.api.shapes import match_out, table_out
from app.config import get_settings
from app.errors import AppError
from app.games.base import TABLE_OPTION_NAMES, engine_options
from app.tables import branching, records
from app.tables.core.commands import TakeSeats
from app.tables.registry import Registry

router = APIRouter(prefix="/api/matches", tags=["matches"])
_cache = records.replay_cache


class ReplayStep(BaseModel):
    step: int = Field(description="1 for the first action (step 0 is the set-up)")
    version: int
    seat: int = Field(description="who acted; -1 is the platform (a window's deadline, a "
                      "resignation, an abandon)")
    action: dict[str, Any]
    source: str = Field(description="player, timeout (automatic: time ran out), window, "
                        "resign, vote or empty")
    at: str
    events: list[dict[str, Any]] = Field(description="what happened, as the viewpoint saw it")


class ReplayOut(BaseModel):
    id: str
    game: str
    seats: int
    viewpoint: str
    players: list[dict[str, Any]]
    outcome: dict[str, Any] | None
    opening: list[dict[str, Any]] = Field(
        description="what the log said as the game started (round 1's opening lines), as "
        "the viewpoint saw it: step 0's events")
    steps: list[ReplayStep]
    chat: list[dict[str, Any]]


class StepView(BaseModel):
    step: int
    version: int
    view: dict[str, Any] = Field(description="the game's view at that step, as the viewpoint "
                                 "saw it (or with everything revealed)")


SEAT_HELP = "whose point of view: 'spectator', 'all' (everything revealed) or a seat number"


@router.get("/{match_id}/replay", response_model=ReplayOut,
            responses=errors(400, 401, 404, 409, 503))
async def replay(match_id: str, repo: RepoDep, viewer: MaybePlayer, seat: str = "spectator",
                 key: MatchKey = None) -> ReplayOut:
    """A finished game step by step: every action with what the viewpoint saw happen, and
    its chat (a private table's: see the module doc)."""
    await readable_match(repo, match_id, viewer, key)
    row, actions, replayed = await _cache.get(repo, match_id)
    point = records.viewpoint(seat, row.seat_count)
    chat = await repo.chat_lines(match_id, limit=None)
    return ReplayOut(
        id=row.id, game=row.game, seats=row.seat_count, viewpoint=seat,
        players=[{"seat": s.seat, "id": s.player.id, "name": s.player.name}
                 for s in row.seats],
        # (pydantic makes each step's dict a ReplayStep)
        outcome=row.outcome, opening=records.events_for(replayed.opening, point),
        steps=records.steps(actions, replayed, point),  # type: ignore[arg-type]
        chat=[{"id": c.seq, "kind": c.kind, "seat": c.seat, "name": c.name, "text": c.text,
               "code": c.code, "params": c.params, "at": c.created_at.isoformat()}
              for c in chat])


@router.get("/{match_id}/views/{step}", response_model=StepView,
            responses=errors(400, 401, 404, 409, 503))
async def view(match_id: str, step: int, repo: RepoDep, viewer: MaybePlayer,
               seat: str = "spectator", key: MatchKey = None) -> StepView:
    """The game's view after ``step`` actions (0: the set-up) from ``seat``'s point of view
    (a private table's: see the module doc)."""
    await readable_match(repo, match_id, viewer, key)
    row, actions, replayed = await _cache.get(repo, match_id)
    point = records.viewpoint(seat, row.seat_count)
    shown = records.view_at(row, replayed, step, point)
    version = actions[step - 1].seq if step > 0 else (actions[0].seq - 1 if actions else 1)
    return StepView(step=step, version=version, view=shown)


@router.get("/{match_id}/export", responses=errors(401, 404, 503))
async def export(match_id: str, repo: RepoDep, viewer: MaybePlayer,
                 key: MatchKey = None) -> dict[str, Any]:
    """The whole record of a finished game as one JSON file: game, options, seed, players,
    log, chat and whether it is private (``POST /api/matches/import`` takes it back, as
    private as it was). A private table's: see the module doc."""
    row = await readable_match(repo, match_id, viewer, key)
    return await records.export(repo, row)


_FILE_SCHEMA = records.MatchFile.model_json_schema(ref_template="#/components/schemas/{model}")
IMPORT_BODY = {"requestBody": {"required": True, "content": {"application/json": {
    "schema": {"$ref": "#/components/schemas/MatchFile"}}}}}


def add_components(schema: dict[str, Any]) -> None:
    """Put the match file's schema (read by hand, to cap its size) in the OpenAPI
    document's components, where the import's request body points."""
    components = schema.setdefault("components", {}).setdefault("schemas", {})
    top = {k: v for k, v in _FILE_SCHEMA.items() if k != "$defs"}
    components["MatchFile"] = top
    for name, definition in _FILE_SCHEMA.get("$defs", {}).items():
        components.setdefault(name, definition)


@router.post("/import", status_code=201, response_model=MatchOut,
             responses=errors(401, 413, 422, 429, 503), openapi_extra=IMPORT_BODY)
async def import_match(request: Request, repo: RepoDep, player: CurrentPlayer) -> MatchOut:
    """Reproduce a game from an exported file: the log is replayed from the seed and must be
    legal and reach the same outcome; it is stored as a new finished match, hosted by the
    importer. It is private (read by the importer only, never listed) unless the file says
    ``"private": false``, as the export of a public match does. At most
    ``LUDOTECA_MAX_IMPORT_BYTES`` (2 MiB): 413 ``too_large`` beyond."""
    limit = get_settings().max_import_bytes
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limit:
        raise AppError("too_large", f"a match file is at most {limit} bytes", 413)
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            raise AppError("too_large", f"a match file is at most {limit} bytes", 413)
    try:
        data = records.MatchFile.model_validate(json.loads(body))
    except (ValueError, UnicodeDecodeError, RecursionError) as exc:
        if isinstance(exc, ValidationError):
            first = exc.errors()[0]
            where = ".".join(str(p) for p in first["loc"]) or "body"
            raise AppError("bad_record", f"{where}: {first['msg']}", 422) from None
        if isinstance(exc, RecursionError):
            raise AppError("bad_record", "body: nested too deeply", 422) from None
        raise AppError("bad_record", "body: not valid JSON", 422) from None
    registry: Registry = request.app.state.registry
    async with get_limits(request).new_table(request, registry, player.id):
        table = await records.import_match(repo, data, player.id)
    row = await records.finished_row(repo, table.id)
    return MatchOut(**match_out(row))


@router.post("/{match_id}/branch", status_code=201, response_model=TableOut,
             responses=errors(400, 401, 404, 409, 422, 429, 503))
async def branch(match_id: str, body: BranchIn, request: Request, repo: RepoDep,
                 player: CurrentPlayer, registry: RegistryDep,
                 key: MatchKey = None) -> TableOut:
    """Play on from a moment of a finished match: a new table whose game starts in exactly
    the position after ``step`` actions (the same options, public information and each
    seat's knowledge), with what no seat could know then (the order of a deck, cards nobody
    had seen) dealt anew. It is a normal table (invite, bots, clocks, chat, its own replay)
    that remembers where it came from; its result is kept apart from the players' history.
    ``sandbox``: you take every seat (the hot seat). Who may: anyone for a public match; for
    a private one, whoever may read it (its players, its host, the holders of its link:
    ``key``), and the branch is private; anyone else gets 404, as for no such match. 404
    for a game still running (it has no replay); 409 ``game_over`` at a step where the
    game is over."""
    unknown = sorted(set(body.options) - TABLE_OPTION_NAMES)
    if unknown:
        raise AppError("bad_options", "a branch keeps the match's game options; only the "
                       f"table's own may be set (not: {', '.join(unknown)})", 422)
    seed = requested_seed(request.headers, get_settings())
    if seed is None:
        seed = secrets.randbits(63)
    point = await branching.branch_point(repo, _cache, match_id, body.step, seed,
                                         lambda row: may_read(row, player.id, key))
    row = point.row
    if not body.sandbox and not 0 <= body.seat < row.seat_count:
        raise AppError("bad_seat", f"seats go from 0 to {row.seat_count - 1}")
    options = {**engine_options(row.options),
               **{k: v for k, v in row.options.items() if k in TABLE_OPTION_NAMES},
               **body.options}
    async with get_limits(request).new_table(request, registry, player.id):
        actor = await registry.create(
            player.id, player.name, row.game, row.seat_count, options,
            body.private or row.private, host_seat=0 if body.sandbox else body.seat,
            seed=seed, position=point.position, branch_of=(row.id, point.step))
    if body.sandbox:
        await actor.submit(TakeSeats(player.id))
    return table_out(request, actor, player.id)
