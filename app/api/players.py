"""Guest identities: created with a name, authenticated by a bearer token."""

from __future__ import annotations

import secrets

from fastapi import APIRouter, Request

from app.api.deps import CurrentPlayer, RepoDep
from app.api.limits import get_limits
from app.api.schemas import NewPlayer, PlayerCreated, PlayerOut, errors
from app.db.models import Player
from app.db.repository import Repository

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
