"""Finished games: players, seats, options, seed, every action with its time, and outcome.

A private table's match is read only by its players, its host and whoever holds its private
link (``?key=``), and listed only to its players and host: app/api/match_access.py."""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Query

from app.api.deps import MaybePlayer, RepoDep
from app.api.match_access import MatchKey, readable_match
from app.api.schemas import MatchAction, MatchDetail, MatchOut, errors
from app.api.shapes import match_out

router = APIRouter(prefix="/api/matches", tags=["matches"])


KIND_HELP = "games: real games (from their set-up); branches: games played on from a " \
    "moment of another match (\"what if\"), kept apart"
Kind = Literal["games", "branches"]


@router.get("", response_model=list[MatchOut], responses=errors(401, 503))
async def list_matches(repo: RepoDep, viewer: MaybePlayer, game: str | None = None,
                       player: str | None = None,
                       limit: int = Query(50, ge=1, le=200),
                       offset: int = Query(0, ge=0, le=1_000_000_000),
                       kind: Annotated[Kind, Query(description=KIND_HELP)] = "games",
                       ) -> list[MatchOut]:
    """Finished games, newest first (filter by ?game= or ?player=<player id>); real games,
    or with ?kind=branches the branches of other matches. A private table's match is listed
    only to its players and its host."""
    rows = await repo.finished_tables(game, player, limit, offset, kind == "branches",
                                      viewer_id=viewer.id if viewer else None)
    return [MatchOut(**match_out(r)) for r in rows]


@router.get("/{match_id}", response_model=MatchDetail, responses=errors(401, 404, 503))
async def get_match(match_id: str, repo: RepoDep, viewer: MaybePlayer,
                    key: MatchKey = None) -> MatchDetail:
    """One finished game with its whole action log (enough to replay it from the seed). A
    private table's: for its players, its host and the holders of its link (``key``); 404
    to anyone else, as for a match that does not exist."""
    row = await readable_match(repo, match_id, viewer, key)
    actions = [MatchAction(seq=a.seq, seat=a.seat, action=a.action, source=a.source,
                           at=a.at.isoformat()) for a in await repo.actions(match_id)]
    return MatchDetail(**match_out(row), actions=actions)
