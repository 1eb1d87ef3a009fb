"""Finished games: players, seats, options, seed, every action with its time, and outcome."""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Query

from app.api.deps import RepoDep
from app.api.schemas import MatchAction, MatchDetail, MatchOut
from app.api.shapes import match_out
from app.errors import not_found

router = APIRouter(prefix="/api/matches", tags=["matches"])


KIND_HELP = "games: real games (from their set-up); branches: games played on from a " \
    "moment of another match (\"what if\"), kept apart"
Kind = Literal["games", "branches"]


@router.get("", response_model=list[MatchOut])
async def list_matches(repo: RepoDep, game: str | None = None, player: str | None = None,
                       limit: int = Query(50, ge=1, le=200),
                       offset: int = Query(0, ge=0, le=1_000_000_000),
                       kind: Annotated[Kind, Query(description=KIND_HELP)] = "games",
                       ) -> list[MatchOut]:
    """Finished games, newest first (filter by ?game= or ?player=<player id>); real games,
    or with ?kind=branches the branches of other matches."""
    rows = await repo.finished_tables(game, player, limit, offset, kind == "branches")
    return [MatchOut(**match_out(r)) for r in rows]


@router.get("/{match_id}", response_model=MatchDetail)
async def get_match(match_id: str, repo: RepoDep) -> MatchDetail:
    """One finished game with its whole action log (enough to replay it from the seed)."""
    row = await repo.table(match_id)
    if row is None or row.status != "finished":
        raise not_found("match")
    actions = [MatchAction(seq=a.seq, seat=a.seat, action=a.action, source=a.source,
                           at=a.at.isoformat()) for a in await repo.actions(match_id)]
    return MatchDetail(**match_out(row), actions=actions)
