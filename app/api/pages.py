"""Server-rendered pages: lobby, table, invite links, rules; and the browser identity cookie."""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import quote

from fastapi import APIRouter, Form, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from fastapi.templating import Jinja2Templates

from app.api.deps import COOKIE, MaybePlayer, RegistryDep, RepoDep, sign
from app.api.players import create_player
from app.api.schemas import NewPlayer
from app.config import ROOT, get_settings
from app.errors import AppError
from app.games import ENGINES
from app.i18n import LANGUAGES, catalogue, pick_language, translate
from app.tables.actor import TableActor

router = APIRouter(include_in_schema=False)
templates = Jinja2Templates(directory=str(ROOT / "templates"))


def _safe_next(target: str | None) -> str:
    """Only same-site paths: never redirect to another host."""
    if not target or not target.startswith("/") or target.startswith("//"):
        return "/"
    return target


def render(request: Request, name: str, player: Any, **context: Any) -> HTMLResponse:
    lang = pick_language(request.cookies.get("lang"), request.headers.get("accept-language"))
    strings = catalogue(lang)
    context.update(
        request=request, player=player, lang=lang, languages=LANGUAGES,
        t=lambda key, **kw: translate(lang, key, **kw),
        i18n_json=json.dumps(strings, ensure_ascii=False),
        games=[e.catalogue_entry() for e in ENGINES.values()],  # type: ignore[attr-defined]
        here=quote(request.url.path),
    )
    return templates.TemplateResponse(request, name, context)


@router.get("/", response_class=HTMLResponse)
async def lobby(request: Request, player: MaybePlayer) -> HTMLResponse:
    return render(request, "lobby.html", player)


@router.post("/session")
async def set_name(request: Request, repo: RepoDep, name: str = Form(...),
                   next: str = Form("/")) -> Response:  # noqa: A002
    try:
        clean = NewPlayer(name=name).name
    except ValueError:
        return RedirectResponse(_safe_next(next), status_code=303)
    player, token = await create_player(repo, clean)
    response = RedirectResponse(_safe_next(next), status_code=303)
    settings = get_settings()
    response.set_cookie(COOKIE, sign(token, settings.resolved_secret_key()),
                        max_age=365 * 24 * 3600, httponly=True, samesite="lax",
                        secure=settings.secure_cookies)
    return response


@router.get("/lang/{code}")
async def set_language(code: str, next: str = "/") -> Response:  # noqa: A002
    response = RedirectResponse(_safe_next(next), status_code=303)
    if code in LANGUAGES:
        response.set_cookie("lang", code, max_age=365 * 24 * 3600, samesite="lax")
    return response


@router.get("/tables/{table_id}", response_class=HTMLResponse)
async def table_page(table_id: str, request: Request, player: MaybePlayer,
                     registry: RegistryDep) -> HTMLResponse:
    return table_view(request, player, await registry.get(table_id), invite=None)


@router.get("/join/{token}", response_class=HTMLResponse)
async def join_page(token: str, request: Request, player: MaybePlayer,
                    registry: RegistryDep) -> HTMLResponse:
    return table_view(request, player, await registry.by_invite(token), invite=token)


def table_view(request: Request, player: Any, actor: TableActor,
               invite: str | None) -> HTMLResponse:
    game = ENGINES[actor.info.game].catalogue_entry()  # type: ignore[attr-defined]
    return render(request, "table.html", player, table=actor.summary(), invite=invite, game=game)


@router.get("/rules/{game_id}", response_class=HTMLResponse)
async def rules_page(game_id: str, request: Request, player: MaybePlayer) -> HTMLResponse:
    engine = ENGINES.get(game_id)
    if engine is None:
        raise AppError("not_found", "no such game", 404)
    return render(request, f"rules/{game_id}.html", player,
                  game=engine.catalogue_entry())  # type: ignore[attr-defined]


@router.get("/healthz")
async def health() -> dict[str, bool]:
    return {"ok": True}
