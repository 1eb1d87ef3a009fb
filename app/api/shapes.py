"""The API's output shapes shared by several route modules: a table as the API shows it to
a viewer (with its links), a finished match, and a player's result in one."""

from __future__ import annotations

import weakref
from datetime import datetime
from functools import lru_cache
from typing import Any

import orjson
from fastapi import Request, Response

from app.api.deps import secret_key, watch_key
from app.api.schemas import MatchSeat, PlayerOut, TableOut
from app.config import get_settings
from app.db.models import GameTable
from app.tables.actor import TableActor
from app.tables.core import presence, views
from app.tables.core.state import TableState


def absolute(request: Request, path: str) -> str:
    return site_base(request) + path


_BASES: dict[tuple[Any, ...], str] = {}


def site_base(request: Request) -> str:
    """This site's address as the caller reached it (``LUDOTECA_PUBLIC_URL`` when set), no
    trailing slash (a list of tables finds it once, not once per table); kept per (scheme,
    Host, server, root path): Starlette builds the URL anew at every ask."""
    public = get_settings().public_url
    if public:
        return public.rstrip("/")
    scope = request.scope
    key = (scope.get("scheme"), request.headers.get("host"), scope.get("server"),
           scope.get("root_path", ""))
    base = _BASES.get(key)
    if base is None:
        if len(_BASES) > 1000:  # the Host header is the client's to choose: bounded
            _BASES.clear()
        base = _BASES[key] = str(request.base_url).rstrip("/")
    return base


@lru_cache(maxsize=4096)
def _watch_key(secret: str, table_id: str, invite_token: str) -> str:
    return watch_key(table_id, invite_token)


def table_out(request: Request, actor: TableActor, viewer_id: str | None) -> TableOut:
    return summary_out(request, actor.summary(), actor.table.invite_token, viewer_id)


def summary_out(request: Request, summary: dict[str, Any], invite_token: str,
                viewer_id: str | None) -> TableOut:
    """A table as the API shows it to ``viewer_id``: the invite and spectator links only for
    its players, or for anyone when the table is public."""
    return TableOut(**summary, **_links(request, summary, invite_token, viewer_id))


def _links(request: Request, summary: dict[str, Any], invite_token: str,
           viewer_id: str | None, base: str | None = None) -> dict[str, Any]:
    """``base``: ``site_base(request)`` when the caller has it already (a list of tables)."""
    seated = viewer_id is not None and any(
        s["player"] is not None and s["player"]["id"] == viewer_id for s in summary["seats"])
    base = base or site_base(request)
    invite = watch = None
    if seated or not summary["private"]:
        invite = f"{base}/join/{invite_token}"
        key = _watch_key(secret_key(), summary["id"], invite_token)
        watch = f"{base}/watch/{summary['id']}/{key}"
    return {"url": f"{base}/tables/{summary['id']}", "invite_url": invite, "watch_url": watch}


# The frequent table answers (one table, the open tables, a new table, a join) skip pydantic:
# the JSON of ``TableOut`` is built here, field for field (tests/api/test_shapes.py checks it
# against the model's own), and sent as is; the routes still declare ``TableOut`` as their
# response model, so the OpenAPI document is the same.


def _player(player: dict[str, Any] | None) -> dict[str, Any] | None:
    if player is None:
        return None
    return {"id": player["id"], "name": player["name"], "bot": player.get("bot", False)}


def summary_json(request: Request, summary: dict[str, Any], invite_token: str,
                 viewer_id: str | None, base: str | None = None) -> dict[str, Any]:
    """What ``summary_out(...).model_dump(mode="json")`` gives, without pydantic
    (``base``: the site's address, ``site_base(request)``, when the caller has it)."""
    links = _links(request, summary, invite_token, viewer_id, base)
    spectators = summary.get("spectators") or {"count": 0, "names": []}
    branch = summary.get("branch_of")
    return {
        "id": summary["id"], "game": summary["game"], "status": str(summary["status"]),
        "version": summary["version"], "seat_count": summary["seat_count"],
        "options": summary["options"], "private": summary["private"],
        "host": _player(summary["host"]),
        "seats": [{"seat": s["seat"], "player": _player(s["player"]),
                   "connected": s["connected"],
                   "away_for": None if s.get("away_for") is None else float(s["away_for"]),
                   "autopilot": s.get("autopilot", False)} for s in summary["seats"]],
        "created_at": summary["created_at"], "outcome": summary.get("outcome"),
        "spectators": {"count": spectators["count"], "names": list(spectators["names"])},
        "rematch_of": summary.get("rematch_of"),
        "branch_of": None if branch is None else {"match": branch["match"],
                                                  "step": branch["step"]},
        **links,
    }


def table_json(request: Request, actor: TableActor, viewer_id: str | None) -> dict[str, Any]:
    return summary_json(request, actor.summary(), actor.table.invite_token, viewer_id)


# ---------------------------------------------------------------- a public table, encoded once
#
# The list of open tables sends, for each of this process's public tables, what
# ``summary_json`` gives it with no viewer (a public table's links are everyone's, so the
# answer is the same for every caller). It is encoded once per state of the table: a
# ``TableState`` is never changed in place (app/tables/core/state.py), so the same object is
# the same table, and the one part of its summary that moves with time alone, how long an
# away seat has been away (``away_for``), is left as a gap, filled at each call from the same
# ``presence.away_for`` and rounding ``views.summary`` uses. Summaries of other processes'
# tables (a cluster's, published to Redis or read from the database) still go through
# ``summary_json`` field by field. tests/api/test_listing.py compares both, byte for byte.


class Encoded:
    """A public table's JSON (as ``summary_json`` with no viewer) for one state of the table
    and one site address, in pieces around the away seats' ``away_for``."""

    __slots__ = ("table", "base", "summary", "pieces", "gaps")

    def __init__(self, request: Request, table: TableState, base: str, now: float) -> None:
        if table.setup.private:  # its links are only for its players: never the same for all
            raise ValueError("only a public table's answer is the same for everyone")
        self.table, self.base = table, base
        self.summary = summary = views.summary(table, now)
        doc = summary_json(request, summary, table.setup.invite_token, None, base)
        self.gaps = [i for i, seat in enumerate(doc["seats"]) if seat["away_for"] is not None]
        if not self.gaps:
            self.pieces = [orjson.dumps(doc)]
            return
        head, tail = _around(doc, "seats")
        pieces, current = [], head + b"["
        for i, seat in enumerate(doc["seats"]):
            if i:
                current += b","
            if i in self.gaps:
                before, after = _around(seat, "away_for")
                pieces.append(current + before)
                current = after
            else:
                current += orjson.dumps(seat)
        pieces.append(current + b"]" + tail)
        self.pieces = pieces

    def away(self, now: float) -> list[float]:
        """The gaps' values at ``now``: what ``views.summary`` says for each away seat."""
        table = self.table
        return [round(presence.away_for(table, seat, now) or 0.0, 1) for seat in self.gaps]

    def json(self, now: float) -> bytes:
        if not self.gaps:
            return self.pieces[0]
        pieces = self.pieces
        out = [pieces[0]]
        for k, value in enumerate(self.away(now), 1):
            out.append(orjson.dumps(float(value)))
            out.append(pieces[k])
        return b"".join(out)

    def summary_at(self, now: float) -> dict[str, Any]:
        """The table's summary as ``views.summary`` gives it at ``now``."""
        if not self.gaps:
            return self.summary
        seats = list(self.summary["seats"])
        for seat, value in zip(self.gaps, self.away(now), strict=True):
            seats[seat] = {**seats[seat], "away_for": value}
        return {**self.summary, "seats": seats}


def _around(obj: dict[str, Any], key: str) -> tuple[bytes, bytes]:
    """The JSON of ``obj`` (orjson's, compact) in two pieces: up to ``key``'s value, and
    after it."""
    keys = list(obj)
    at = keys.index(key)
    before = {k: obj[k] for k in keys[:at]}
    after = {k: obj[k] for k in keys[at + 1:]}
    head = orjson.dumps(before)[:-1] + (b"," if before else b"") + orjson.dumps(key) + b":"
    return head, (b"," + orjson.dumps(after)[1:]) if after else b"}"


_ENCODED: weakref.WeakKeyDictionary[TableActor, Encoded] = weakref.WeakKeyDictionary()


def encoded(request: Request, actor: TableActor, base: str, now: float) -> Encoded:
    """``actor``'s public table as the list of open tables shows it (encoded again only
    when the table or the site's address has changed)."""
    entry = _ENCODED.get(actor)
    if entry is None or entry.table is not actor.table or entry.base != base:
        entry = _ENCODED[actor] = Encoded(request, actor.table, base, now)
    return entry


def json_response(content: Any, status_code: int = 200) -> Response:
    """``content`` as JSON, encoded once (orjson), no response model run over it."""
    return Response(orjson.dumps(content), status_code=status_code,
                    media_type="application/json")


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
    """How ``player_id`` did in a finished game. A cooperative game (Hanabi) is won or lost
    together, so it has no place: everyone sits in its ranking's one group, and a place of 1
    would read as first for a team that lost."""
    seat = next((s.seat for s in row.seats if s.player_id == player_id), None)
    outcome = row.outcome or {}
    cooperative = bool((outcome.get("details") or {}).get("cooperative"))
    place = None if cooperative else next(
        (i + 1 for i, group in enumerate(outcome.get("ranking", [])) if seat in group), None)
    scores = outcome.get("scores") or []
    return {"seat": seat, "place": place, "won": seat in outcome.get("winners", []),
            "score": scores[seat] if seat is not None and seat < len(scores) else None,
            "end": (outcome.get("details") or {}).get("end") or "finished"}
