"""The lobby API: the game catalogue and table management (create, join, leave, start)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request, Response
from fastapi.responses import JSONResponse

from app.api.deps import CurrentPlayer, RegistryDep, get_registry, identify, requested_seed
from app.api.limits import get_limits
from app.api.schemas import (
    JoinedOut,
    JoinTable,
    NewBot,
    NewTable,
    TableOut,
    TakeSeatsIn,
    errors,
)
from app.api.shapes import (
    encoded,
    json_response,
    site_base,
    summary_json,
    table_json,
    table_out,
)
from app.config import get_settings
from app.games import ENGINES
from app.tables.core.commands import (
    AddBot,
    BotsPlay,
    Delete,
    Join,
    Leave,
    RemoveBot,
    Start,
    TakeSeats,
)
from app.tables.core.state import TableStatus
from app.tables.registry import Registry

router = APIRouter(prefix="/api", tags=["lobby"])


def abandoned(summary: dict[str, Any]) -> bool:
    """A game in progress that every one of its people has left: each human seat has been
    disconnected for at least the table's absence grace (the time after which the others
    could vote it abandoned), or the table has no live owner to say otherwise. The janitor
    closes such a table later; the lobby does not offer it to watch meanwhile."""
    if summary["status"] != "playing":
        return False
    grace = float(summary.get("options", {}).get("absent_grace_seconds", 120))
    humans = [s for s in summary["seats"] if s["player"] is not None and not s["player"]["bot"]]
    return bool(humans) and all(
        not s["connected"] and (s.get("away_for", grace) or 0) >= grace for s in humans)


@router.get("/games", response_model=list[dict[str, Any]])
async def games(request: Request) -> Response:
    """Every game this server hosts, with player counts and options (types, defaults, values)."""
    # the same for every call while the server runs: encoded once (per application)
    body = getattr(request.app.state, "games_catalogue", None)
    if body is None:
        entries = [engine.catalogue_entry() for engine in ENGINES.values()]  # type: ignore[attr-defined]
        body = request.app.state.games_catalogue = JSONResponse(entries).body
    return Response(body, media_type="application/json")


@router.post("/tables", status_code=201, response_model=TableOut,
             responses=errors(401, 403, 409, 422, 429, 503))
async def create_table(body: NewTable, request: Request, player: CurrentPlayer) -> Response:
    """Create a table; the caller is its host and sits in seat 0. One player hosts at most
    ``LUDOTECA_MAX_HOSTED_TABLES`` waiting or playing tables (409 ``too_many_tables``) and
    creates at most ``LUDOTECA_TABLES_PER_MINUTE`` a minute (429 ``rate_limited``)."""
    seed = requested_seed(request.headers, get_settings())
    registry = get_registry(request)  # (not a dependency: one fewer for FastAPI to solve)
    async with get_limits(request).new_table(request, registry, player.id):
        actor = await registry.create(player.id, player.name, body.game, body.seats,
                                      body.options, body.private, seed=seed)
    return json_response(table_json(request, actor, player.id), 201)


@router.get("/tables", response_model=list[TableOut], responses=errors(401, 422, 503))
async def list_tables(request: Request, game: str | None = None,
                      status: str | None = None) -> Response:
    """Public tables waiting for players or playing (filter with ?game= and ?status=); a
    game everyone has left (each seat away for the table's absence grace) is not listed."""
    # the caller and the registry read here, not as dependencies: each dependency FastAPI
    # solves costs more than the read itself (the same for one table, below)
    player, registry = await identify(request), get_registry(request)
    if registry.cluster is None:  # every table is this process's: each encoded once a state
        return _local_tables(request, registry, game, status)
    tables = [t for t in await registry.public_summaries() if not abandoned(t[0])]
    if game:
        tables = [t for t in tables if t[0]["game"] == game]
    if status:
        tables = [t for t in tables if t[0]["status"] == status]
    tables.sort(key=lambda t: t[0]["created_at"], reverse=True)
    viewer = player.id if player else None
    base = site_base(request)
    return json_response([summary_json(request, summary, invite, viewer, base)
                          for summary, invite in tables])


def _local_tables(request: Request, registry: Registry, game: str | None,
                  status: str | None) -> Response:
    """The list of open tables of a single process: the same tables, order and bytes as
    ``summary_json`` gives them (a public table's answer is everyone's), each table's JSON
    encoded once per state of the table (app/api/shapes.py ``Encoded``)."""
    base = site_base(request)
    listed = []
    for actor in registry.public_tables():
        now = actor.now()  # the time the actor's own summary would be made at
        entry = encoded(request, actor, base, now)
        summary = entry.summary
        if game and summary["game"] != game:
            continue
        if status and summary["status"] != status:
            continue
        if summary["status"] == "playing" and abandoned(entry.summary_at(now)):
            continue
        listed.append((summary["created_at"], entry, now))
    listed.sort(key=lambda t: t[0], reverse=True)
    return Response(b"[" + b",".join(entry.json(now) for _, entry, now in listed) + b"]",
                    media_type="application/json")


@router.get("/tables/{table_id}", response_model=TableOut, responses=errors(401, 404, 503))
async def get_table(table_id: str, request: Request) -> Response:
    player = await identify(request)
    actor = await get_registry(request).get(table_id)
    return json_response(table_json(request, actor, player.id if player else None))


@router.post("/tables/{table_id}/join", response_model=JoinedOut,
             responses=errors(400, 401, 403, 404, 409, 422, 503))
async def join_table(table_id: str, request: Request, player: CurrentPlayer,
                     body: JoinTable | None = None) -> Response:
    """Take a seat (the first free one unless ``seat`` is given). Private tables need ``invite``."""
    body = body or JoinTable()
    actor = await get_registry(request).get(table_id)
    seat = await actor.submit(Join(player.id, player.name, body.seat, body.invite))
    return json_response({"seat": seat, "table": table_json(request, actor, player.id)})


@router.post("/tables/{table_id}/leave", response_model=TableOut | None,
             responses=errors(401, 403, 404, 409, 503))
async def leave_table(table_id: str, request: Request, player: CurrentPlayer) -> Response:
    """Give up your seat before the game starts (the last one to leave deletes the table)."""
    actor = await get_registry(request).get(table_id)
    await actor.submit(Leave(player.id))
    if actor.table.status is TableStatus.DELETED:
        return json_response(None)
    return json_response(table_json(request, actor, player.id))


@router.post("/tables/{table_id}/start", response_model=TableOut,
             responses=errors(401, 403, 404, 409, 503))
async def start_table(table_id: str, request: Request, player: CurrentPlayer) -> Response:
    """Start the game (host only, every seat taken)."""
    actor = await get_registry(request).get(table_id)
    await actor.submit(Start(player.id))
    return json_response(table_json(request, actor, player.id))


@router.delete("/tables/{table_id}", status_code=204,
               responses=errors(401, 403, 404, 409, 503))
async def delete_table(table_id: str, player: CurrentPlayer, registry: RegistryDep) -> Response:
    """Delete a table (host only, before it starts)."""
    actor = await registry.get(table_id)
    await actor.submit(Delete(player.id))
    return Response(status_code=204)


@router.post("/tables/{table_id}/bots", response_model=TableOut, status_code=201,
             responses=errors(400, 401, 403, 404, 409, 422, 503))
async def add_bot(table_id: str, body: NewBot, request: Request, player: CurrentPlayer,
                  registry: RegistryDep) -> TableOut:
    """Seat a server-side bot (host only, before the start): in a free seat, or in the host's
    own seat (the host then watches, and a table can be all bots). Bots move after the
    table's ``bot_delay`` (milliseconds). 422 ``no_bot`` for a game without one."""
    actor = await registry.get(table_id)
    await actor.submit(AddBot(player.id, body.seat))
    return table_out(request, actor, player.id)


@router.delete("/tables/{table_id}/bots/{seat}", response_model=TableOut,
               responses=errors(400, 401, 403, 404, 409, 422, 503))
async def remove_bot(table_id: str, seat: int, request: Request, player: CurrentPlayer,
                     registry: RegistryDep) -> TableOut:
    """Free a bot's seat (host only, before the start)."""
    actor = await registry.get(table_id)
    await actor.submit(RemoveBot(player.id, seat))
    return table_out(request, actor, player.id)


@router.post("/tables/{table_id}/hot-seat", response_model=TableOut,
             responses=errors(400, 401, 403, 404, 409, 503))
async def take_seats(table_id: str, request: Request, player: CurrentPlayer,
                     registry: RegistryDep, body: TakeSeatsIn | None = None) -> TableOut:
    """The hot seat of a branch (host only, before the start): take one free seat more, or
    every free seat, to play a position alone; any of them can still go to a bot. The page
    switches seat by connecting again with ``?seat=N`` (docs/api.md). 409 ``not_a_branch``
    at a real game, where one player has one seat."""
    body = body or TakeSeatsIn()
    actor = await registry.get(table_id)
    await actor.submit(TakeSeats(player.id, body.seat))
    return table_out(request, actor, player.id)


@router.post("/tables/{table_id}/hot-seat/bots", response_model=TableOut,
             responses=errors(400, 401, 403, 404, 409, 422, 503))
async def bots_play(table_id: str, request: Request, player: CurrentPlayer,
                    registry: RegistryDep, body: TakeSeatsIn | None = None) -> TableOut:
    """The hot seat of a branch in play (host only): the game's bot plays one of your seats
    (``seat``) or all of them from now on, to see how the position plays out. 409
    ``not_a_branch`` at a real game (there, a seat goes to a bot only by a vote)."""
    body = body or TakeSeatsIn()
    actor = await registry.get(table_id)
    await actor.submit(BotsPlay(player.id, body.seat))
    return table_out(request, actor, player.id)
