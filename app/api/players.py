"""Guest identities: created with a name, authenticated by a bearer token."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Path, Query, Request, Response
from pydantic import Field

from app.api.deps import CurrentPlayer, MaybePlayer, RegistryDep, RepoDep, create_player
from app.api.limits import get_limits
from app.api.schemas import MatchOut, MyTableOut, NewPlayer, PlayerCreated, PlayerOut, errors
from app.api.shapes import json_response, match_out, result_of, table_out
from app.errors import not_found
from app.tables.core.commands import Rename

# a player's id (16 characters); at least 3, so that "me" is never read as one: the path
# /api/players/me is the caller's own record, and the schema must not offer it to both routes
PlayerId = Annotated[str, Path(min_length=3, max_length=64)]

router = APIRouter(prefix="/api/players", tags=["players"])


@router.post("", status_code=201, response_model=PlayerCreated,
             responses=errors(403, 422, 429, 503))
async def new_player(body: NewPlayer, request: Request, repo: RepoDep) -> Response:
    """Create a guest player. The returned token is shown once: keep it. At most
    ``LUDOTECA_PLAYERS_PER_MINUTE_PER_IP`` new players a minute from one address (429)."""
    get_limits(request).new_player(request)
    player, token = await create_player(repo, body.name)
    # PlayerCreated's JSON, written out (no response model run over it: tests/api/test_shapes)
    return json_response({"id": player.id, "name": player.name, "bot": False, "token": token},
                         201)


@router.get("/me", response_model=PlayerOut, responses=errors(401, 503))
async def me(player: CurrentPlayer) -> Response:
    return json_response({"id": player.id, "name": player.name, "bot": False})  # PlayerOut's


@router.patch("/me", response_model=PlayerOut, responses=errors(401, 403, 422, 503))
async def rename(body: NewPlayer, player: CurrentPlayer, repo: RepoDep,
                 registry: RegistryDep) -> PlayerOut:
    """Change your display name (same rules as a new one); the tables you sit at show it."""
    await repo.rename_player(player.id, body.name)
    for actor in registry.tables_of(player.id):
        await actor.submit(Rename(player.id, body.name))
    return PlayerOut(id=player.id, name=body.name)


@router.get("/me/tables", response_model=list[MyTableOut], responses=errors(401, 503))
async def my_tables(request: Request, player: CurrentPlayer,
                    registry: RegistryDep) -> list[MyTableOut]:
    """The waiting and playing tables you sit at (private ones too), the ones waiting for
    your move first, then the newest."""
    out = []
    for actor in registry.tables_of(player.id):
        seat = actor.seat_of(player.id)
        out.append(MyTableOut(**table_out(request, actor, player.id).model_dump(), seat=seat,
                              your_turn=seat in actor.waiting_seats()))
    out.sort(key=lambda t: t.created_at, reverse=True)
    out.sort(key=lambda t: not t.your_turn)
    return out
class PlayerMatchOut(MatchOut):
    result: dict[str, Any] = Field(description="this player's seat, place (1 is best; "
                                   "null for a cooperative game, won or lost together), "
                                   "whether they won, their score, and how the game ended")


@router.get("/{player_id}", response_model=PlayerOut, responses=errors(404, 503))
async def player_info(player_id: PlayerId, repo: RepoDep) -> PlayerOut:
    """A player's public name."""
    player = await repo.player(player_id)
    if player is None:
        raise not_found("player")
    return PlayerOut(id=player.id, name=player.name)


@router.get("/{player_id}/matches", response_model=list[PlayerMatchOut],
            responses=errors(401, 404, 503))
async def player_matches(player_id: PlayerId, repo: RepoDep, viewer: MaybePlayer,
                         limit: int = Query(50, ge=1, le=200),
                         offset: int = Query(0, ge=0, le=1_000_000_000),
                         kind: Literal["games", "branches"] = Query(
                             "games", description="games: the player's real games; "
                             "branches: the games they played on from a moment of another "
                             "match (\"what if\"), kept apart from their history")
                         ) -> list[PlayerMatchOut]:
    """A player's finished games, newest first, with their result in each (branches of other
    matches are not among them: ?kind=branches lists those). A private table's game is
    listed only to its players (the player themself among them) and its host."""
    if await repo.player(player_id) is None:
        raise not_found("player")
    rows = await repo.finished_tables(None, player_id, limit, offset, kind == "branches",
                                      viewer_id=viewer.id if viewer else None)
    return [PlayerMatchOut(**match_out(r), result=result_of(r, player_id)) for r in rows]
