"""Server-rendered pages: lobby, table, invite links, rules, the API docs; and the browser's
cookies (identity, language). The renderer and the error page are in ``app.api.rendering``."""

from __future__ import annotations

import importlib.util
from functools import lru_cache
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Form, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from app.api.deps import (
    COOKIE,
    MaybePlayer,
    RegistryDep,
    RepoDep,
    create_player,
    sign,
    watch_key,
    watch_key_ok,
)
from app.api.limits import RateLimited, get_limits
from app.api.match_access import MatchKey, readable_match
from app.api.rendering import error_page, render, safe_next, script_json, templates
from app.api.schemas import MatchOut
from app.api.security import REDOC_CSP, secure_cookies
from app.api.shapes import match_out, result_of
from app.config import TEMPLATES, get_settings
from app.errors import AppError
from app.games import ENGINES
from app.i18n import LANGUAGES, pick_language, translate
from app.names import BadName, clean_name
from app.tables.actor import TableActor

router = APIRouter(include_in_schema=False)
__all__ = ["error_page", "render", "router", "script_json", "templates"]


@router.get("/", response_class=HTMLResponse)
async def lobby(request: Request, player: MaybePlayer) -> HTMLResponse:
    return render(request, "lobby.html", player)


@router.post("/session")
async def set_name(request: Request, repo: RepoDep, name: str = Form(""),
                   next: str = Form("/")) -> Response:  # noqa: A002
    """The name form: a new guest player kept in a signed, HttpOnly cookie."""
    target = safe_next(next)
    try:
        clean = clean_name(name)
    except BadName as exc:
        lang = pick_language(request.cookies.get("lang"),
                             request.headers.get("accept-language"))
        return error_page(request, 422, exc.key, str(exc), name_form=True, back=target,
                          name_error=translate(lang, exc.key), name_value=name[:64],
                          here=target)
    try:
        get_limits(request).new_player(request)
    except RateLimited as exc:
        return error_page(request, 429, "error.rate_limited", exc.message, back=target,
                          headers=exc.headers)
    player, token = await create_player(repo, clean)
    response = RedirectResponse(target, status_code=303)
    settings = get_settings()
    # HttpOnly: no script reads it. SameSite=Lax, not Strict: an invite link opened from a
    # chat or a mail is a cross-site navigation, and Strict would hide the player's identity
    # on exactly that first page (they would be asked their name again); Lax still keeps the
    # cookie off every cross-site POST, fetch and frame.
    response.set_cookie(COOKIE, sign(token, settings.resolved_secret_key()),
                        max_age=365 * 24 * 3600, httponly=True, samesite="lax",
                        secure=secure_cookies(request, settings))
    return response


@router.get("/lang/{code}")
async def set_language(code: str, request: Request, next: str = "/") -> Response:  # noqa: A002
    """Switch the pages' language (a cookie); a link from another site changes nothing."""
    response = RedirectResponse(safe_next(next), status_code=303)
    # a link needs no Origin; browsers that say where a navigation came from are heeded
    same_site = request.headers.get("sec-fetch-site") in (None, "same-origin", "none")
    if code in LANGUAGES and same_site:
        response.set_cookie("lang", code, max_age=365 * 24 * 3600, httponly=True,
                            samesite="lax", secure=secure_cookies(request))
    return response


@router.get("/tables/{table_id}", response_class=HTMLResponse)
async def table_page(table_id: str, request: Request, player: MaybePlayer,
                     registry: RegistryDep) -> HTMLResponse:
    return table_view(request, player, await registry.get(table_id), invite=None)


@router.get("/join/{token}", response_class=HTMLResponse)
async def join_page(token: str, request: Request, player: MaybePlayer,
                    registry: RegistryDep) -> HTMLResponse:
    try:
        actor = await registry.by_invite(token)
    except AppError as exc:
        if exc.status != 404:
            raise
        # an invite to a table that is gone says so in words, not as a bare "not found"
        return error_page(request, 404, "error.dead_invite", exc.message)
    return table_view(request, player, actor, invite=token)


@router.get("/watch/{table_id}/{key}", response_class=HTMLResponse)
async def watch_page(table_id: str, key: str, request: Request, player: MaybePlayer,
                     registry: RegistryDep) -> HTMLResponse:
    """The spectator link: watch the table (no name needed; a name lets you chat)."""
    actor = await registry.get(table_id)
    if not watch_key_ok(actor.table.id, actor.table.invite_token, key):
        raise AppError("not_found", "this spectator link is not valid", 404)
    return table_view(request, player, actor, invite=None, watch=key)


def table_view(request: Request, player: Any, actor: TableActor,
               invite: str | None, watch: str | None = None) -> HTMLResponse:
    game = ENGINES[actor.table.game].catalogue_entry()  # type: ignore[attr-defined]
    # a private table opened without its invite (or spectator link) by someone not seated
    # there: the page says so (the table itself refuses to show them anything)
    locked = actor.table.private and invite is None and watch is None and (
        player is None or actor.seat_of(player.id) is None)
    table = actor.summary()
    arrival = invite_arrival(table, player, invite)
    # one who came by the invite too late to sit may watch without a name, as the lobby's
    # "watch" button does (the invite link already lets them watch)
    watch_link = (f"/watch/{actor.table.id}/{watch_key(actor.table.id, actor.table.invite_token)}"
                  if arrival and player is None else None)
    return render(request, "table.html", player, table=table, invite=invite, game=game,
                  locked=locked, watch=watch, arrival=arrival, watch_link=watch_link)


def invite_arrival(table: dict[str, Any], player: Any, invite: str | None) -> str | None:
    """What an invite link's visitor who has no seat there finds, said before they give a
    name: ``started`` (the game is under way, they can watch), ``full`` (every seat taken
    before the start), ``finished``; None when there is a free seat to take (they are seated
    at once, the usual way) or they have a seat already."""
    if invite is None:
        return None
    if player is not None and any(s["player"] is not None and s["player"]["id"] == player.id
                                  for s in table["seats"]):
        return None
    status = table["status"]
    if status == "playing":
        return "started"
    if status == "finished":
        return "finished"
    if status == "waiting" and all(s["player"] is not None for s in table["seats"]):
        return "full"
    return None


@router.get("/matches/{match_id}", response_class=HTMLResponse)
async def replay_page(match_id: str, request: Request, player: MaybePlayer,
                      repo: RepoDep, key: MatchKey = None) -> HTMLResponse:
    """A finished game, step by step (static/js/replay.js). A private table's: for its
    players, its host and whoever holds its link (``?key=``, passed on to the page's own
    calls); "no such match" to anyone else (app/api/match_access.py)."""
    row = await readable_match(repo, match_id, player, key)
    game = ENGINES[row.game].catalogue_entry()  # type: ignore[attr-defined]
    match = MatchOut(**match_out(row)).model_dump()
    # "play on from here" offers the table's own settings, prefilled with the match's
    table_options = [o for o in game["options"] if o.get("platform")]
    values = {o["name"]: row.options[o["name"]] for o in table_options if o["name"] in row.options}
    response = render(request, "replay.html", player, match=match, game=game,
                      private=row.private, key=key if row.private else None,
                      match_json=script_json(match),
                      branch_json=script_json({"options": table_options, "values": values}))
    if row.private:  # a page only its players (or its link's holders) may see: kept nowhere
        response.headers["Cache-Control"] = "no-store"
    return response


@router.get("/players/{player_id}", response_class=HTMLResponse)
async def player_page(player_id: str, request: Request, player: MaybePlayer,
                      repo: RepoDep) -> HTMLResponse:
    """A player's finished games with their results (a private table's only to its players
    and host: ``Repository.finished_tables``)."""
    shown = await repo.player(player_id)
    if shown is None:
        raise AppError("not_found", "no such player", 404)
    viewer = player.id if player else None
    rows = await repo.finished_tables(None, player_id, 100, 0, branches=False,
                                      viewer_id=viewer)
    games = [{**match_out(r), "result": result_of(r, player_id)} for r in rows]
    # games played on from a moment of another match: kept apart from the real ones
    rows = await repo.finished_tables(None, player_id, 50, 0, branches=True,
                                      viewer_id=viewer)
    branches = [{**match_out(r), "result": result_of(r, player_id)} for r in rows]
    return render(request, "player.html", player, shown=shown, matches=games,
                  branches=branches)


@router.get("/rules/{game_id}", response_class=HTMLResponse)
async def rules_page(game_id: str, request: Request, player: MaybePlayer) -> HTMLResponse:
    engine = ENGINES.get(game_id)
    if engine is None or not (TEMPLATES / "rules" / f"{game_id}.html").exists():
        raise AppError("not_found", "no such game (or no rules page for it yet)", 404)
    return render(request, f"rules/{game_id}.html", player,
                  game=engine.catalogue_entry())  # type: ignore[attr-defined]


def _package_static(package: str, marker: str) -> Path | None:
    """The ``static`` folder a package ships (found, not imported), if it holds ``marker``."""
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        return None
    folder = Path(next(iter(spec.submodule_search_locations))) / "static"
    return folder if (folder / marker).exists() else None


def swagger_ui_dir() -> Path | None:
    """The API pages' files: Swagger UI (and ReDoc) as the ``fastapi-offline`` package ships
    them, else Swagger UI from ``swagger-ui-py``; None when neither is installed. Served from
    here, so /docs and /redoc need no internet (and no other host in the CSP)."""
    return (_package_static("fastapi_offline", "swagger-ui-bundle.js")
            or _package_static("swagger_ui", "swagger-ui-bundle.js"))


def redoc_available() -> bool:
    folder = swagger_ui_dir()
    return folder is not None and (folder / "redoc.standalone.js").exists()


@router.get("/docs", response_class=HTMLResponse)
async def api_docs(request: Request) -> HTMLResponse:
    """Swagger UI for /openapi.json, every file served from here (the CSP allows no other
    host and no inline script)."""
    return templates.TemplateResponse(request, "docs.html",
                                      {"swagger": swagger_ui_dir() is not None,
                                       "redoc": redoc_available()})


REDOC_LOGO = "https://cdn.redoc.ly/redoc/logo-mini.svg"


@lru_cache(maxsize=1)
def redoc_script() -> str:
    """ReDoc's file with the one address it asks elsewhere (the logo in its menu's footer)
    pointed at our own logo: /redoc loads nothing from another host."""
    folder = swagger_ui_dir()
    assert folder is not None
    return (folder / "redoc.standalone.js").read_text(encoding="utf-8").replace(
        REDOC_LOGO, "/static/img/logo.svg")


@router.get("/redoc/redoc.standalone.js")
async def api_redoc_script() -> Response:
    if not redoc_available():
        raise AppError("not_found", "ReDoc is not installed (fastapi-offline)", 404)
    return Response(redoc_script(), media_type="text/javascript",
                    headers={"Cache-Control": "public, max-age=3600"})


@router.get("/redoc", response_class=HTMLResponse)
async def api_redoc(request: Request) -> HTMLResponse:
    """ReDoc for /openapi.json, served from here like /docs (its CSP allows inline styles,
    see app.api.security.REDOC_CSP)."""
    response = templates.TemplateResponse(request, "redoc.html", {"redoc": redoc_available()})
    response.headers["Content-Security-Policy"] = REDOC_CSP
    return response


@router.get("/healthz")
async def health() -> dict[str, bool]:
    return {"ok": True}
