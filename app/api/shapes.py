"""The API's output shapes shared by several route modules: a table as the API shows it to
a viewer (with its links), a finished match, and a player's result in one."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from fastapi import Request

from app.api.deps import watch_key
from app.api.schemas import MatchSeat, PlayerOut, TableOut
from app.config import get_settings
from app.db.models import GameTable
from app.tables.actor import TableActor


def absolute(request: Request, path: str) -> str:
    base = get_settings().public_url or str(request.base_url)
    return base.rstrip("/") + path


def table_out(request: Request, actor: TableActor, viewer_id: str | None) -> TableOut:
    return summary_out(request, actor.summary(), actor.table.invite_token, viewer_id)


def summary_out(request: Request, summary: dict[str, Any], invite_token: str,
                viewer_id: str | None) -> TableOut:
    """A table as the API shows it to ``viewer_id``: the invite and spectator links only for
    its players, or for anyone when the table is public."""
    seated = viewer_id is not None and any(
        s["player"] is not None and s["player"]["id"] == viewer_id for s in summary["seats"])
    base = absolute(request, "")  # once: the request's base URL is rebuilt at every ask
    invite = watch = None
    if seated or not summary["private"]:
        invite = f"{base}/join/{invite_token}"
        key = watch_key(summary["id"], invite_token)
        watch = f"{base}/watch/{summary['id']}/{key}"
    return TableOut(**summary, url=f"{base}/tables/{summary['id']}", invite_url=invite,
                    watch_url=watch)


def _iso(value: datetime | None) -> str | None:
    return value.isoformat() if value is not None else None


def match_out(row: GameTable) -> dict[str, Any]:
    return {
        "id": row.id, "game": row.game, "options": row.options, "seed": row.seed,
        "seats": [MatchSeat(seat=s.seat, player=PlayerOut(id=s.player.id, name=s.player.name,
                                                          bot=s.player.bot))
                  for s in row.seats],
        "started_at": _iso(row.started_at), "finished_at": _iso(row.finished_at),
        "outcome": row.outcome,
        "branch_of": {"match": row.branch_of, "step": row.branch_step or 0}
        if row.branch_of else None,
    }


def result_of(row: GameTable, player_id: str) -> dict[str, Any]:
    """How ``player_id`` did in a finished game."""
    seat = next((s.seat for s in row.seats if s.player_id == player_id), None)
    outcome = row.outcome or {}
    place = next((i + 1 for i, group in enumerate(outcome.get("ranking", []))
                  if seat in group), None)
    scores = outcome.get("scores") or []
    return {"seat": seat, "place": place, "won": seat in outcome.get("winners", []),
            "score": scores[seat] if seat is not None and seat < len(scores) else None,
            "end": (outcome.get("details") or {}).get("end") or "finished"}
