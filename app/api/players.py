"""Guest identities: created with a name, authenticated by a bearer token."""

from __future__ import annotations

import secrets

from fastapi import APIRouter, Request

from app.api.deps import CurrentPlayer, RegistryDep, RepoDep
from app.api.limits import get_limits
from app.api.schemas import MyTableOut, NewPlayer, PlayerCreated, PlayerOut, errors
from app.db.models import Player
from app.db.repository import Repository
from app.tables.actor import Rename

router = APIRouter(prefix="/api/players", tags=["players"])


async def create_player(repo: Repository, name: str) -> tuple[Player, str]:
    token = secrets.token_urlsafe(32)
    player = await repo.create_player(secrets.token_hex(8), name, token)
    return player, token


@router.post("", status_code=201, response_model=PlayerCreated,
             responses=errors(403, 422, 429, 503))
async def new_player(body: NewPlayer, request: Request, repo: RepoDep) -> PlayerCreated:
    """Create a guest player. The returned token is shown once: keep it. At most
    ``LUDOTECA_PLAYERS_PER_MINUTE_PER_IP`` new players a minute from one address (429)."""
    get_limits(request).new_player(request)
    player, token = await create_player(repo, body.name)
    return PlayerCreated(id=player.id, name=player.name, token=token)


@router.get("/me", response_model=PlayerOut, responses=errors(401, 503))
async def me(player: CurrentPlayer) -> PlayerOut:
    return PlayerOut(id=player.id, name=player.name)


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
    from app.api.lobby import table_out  # the lobby's own rendering of a table

    out = []
    for actor in registry.tables_of(player.id):
        seat = actor.seat_of(player.id)
        out.append(MyTableOut(**table_out(request, actor, player.id).model_dump(), seat=seat,
                              your_turn=seat in actor.waiting_seats()))
    out.sort(key=lambda t: t.created_at, reverse=True)
    out.sort(key=lambda t: not t.your_turn)
    return out
