"""Playing in one room: the table screen for a TV, the invite as a QR code, and "continue on
another device" (the hand-off of ``app/api/handoff.py``).

- ``/tables/<id>/screen`` (the host) and ``/screen/<id>/<key>`` (the screen link the host
  hands to a TV): the public board, large, with no seat. Its socket connects as a spectator
  with ``screen=1``, which never gets a cooperative game's "all hands" view.
- ``/tables/<id>/invite-qr.svg``: the invite link as a QR code, for whoever may see the
  invite (its players; anyone at a public table).
- ``POST /api/handoff``: a link and QR code that carry the caller's identity to another
  device once, within minutes; ``/handoff/<code>`` asks that device to confirm (a link
  previewer fetching the page claims nothing), and the confirmation sets its cookie.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from pydantic import BaseModel, Field

from app.api import handoff
from app.api.deps import (
    COOKIE,
    CurrentPlayer,
    MaybePlayer,
    RegistryDep,
    RepoDep,
    absolute,
    screen_key,
    screen_key_ok,
    sign,
    token_from,
    watch_key,
)
from app.api.qr import qr_data_url, qr_markup, qr_svg
from app.api.rendering import error_page, language, render, safe_next
from app.api.schemas import errors
from app.api.security import secure_cookies
from app.config import get_settings
from app.db.repository import now
from app.errors import AppError
from app.games import ENGINES
from app.i18n import translate
from app.tables.actor import TableActor

router = APIRouter()

# the screen's QR code says the phone came from the screen: its table page starts in the
# compact "my hand" layout (the board is on the screen)
ROOM_HINT = "?room=1"


# --------------------------------------------------------------------------- the screen


def invite_url(request: Request, actor: TableActor) -> str:
    return absolute(request, f"/join/{actor.info.invite_token}")


def _screen(request: Request, player: Any, actor: TableActor) -> HTMLResponse:
    game = ENGINES[actor.info.game].catalogue_entry()  # type: ignore[attr-defined]
    lang = language(request)
    link = invite_url(request, actor) + ROOM_HINT
    response = render(
        request, "screen.html", player, table=actor.summary(), game=game,
        watch=watch_key(actor.info.id, actor.info.invite_token), invite_link=link,
        invite_qr=qr_markup(link, translate(lang, "screen.qr_label")))
    # the page holds the invite and the spectator key: never kept by a cache
    response.headers["Cache-Control"] = "no-store"
    return response


@router.get("/tables/{table_id}/screen", response_class=HTMLResponse, include_in_schema=False)
async def host_screen(table_id: str, request: Request, player: MaybePlayer,
                      registry: RegistryDep) -> HTMLResponse:
    """The table screen, for the table's host (others get the screen link from the host)."""
    actor = await registry.get(table_id)
    if player is None or player.id != actor.info.host_id:
        return error_page(request, 403, "error.screen_host_only")
    return _screen(request, player, actor)


@router.get("/screen/{table_id}/{key}", response_class=HTMLResponse, include_in_schema=False)
async def screen_link(table_id: str, key: str, request: Request, player: MaybePlayer,
                      registry: RegistryDep) -> HTMLResponse:
    """The screen link: the table screen on any device (a TV's browser has no identity)."""
    actor = await registry.get(table_id)
    if not screen_key_ok(actor.info.id, actor.info.invite_token, key):
        return error_page(request, 404, "error.bad_screen_link")
    return _screen(request, player, actor)


class ScreenLinkOut(BaseModel):
    url: str = Field(description="the table screen for any device (a TV): worth the invite")


@router.get("/api/tables/{table_id}/screen", response_model=ScreenLinkOut, tags=["room"],
            responses=errors(401, 403, 404, 503))
async def screen_link_for_host(table_id: str, request: Request, player: CurrentPlayer,
                               registry: RegistryDep) -> ScreenLinkOut:
    """The host's screen link for the table (show it on a TV; it shows the invite)."""
    actor = await registry.get(table_id)
    if player.id != actor.info.host_id:
        raise AppError("forbidden", "only the host has the screen link", 403)
    key = screen_key(actor.info.id, actor.info.invite_token)
    return ScreenLinkOut(url=absolute(request, f"/screen/{actor.info.id}/{key}"))


@router.get("/tables/{table_id}/invite-qr.svg", include_in_schema=False)
async def invite_qr(table_id: str, request: Request, player: MaybePlayer,
                    registry: RegistryDep) -> Response:
    """The invite link as a QR code (SVG), for whoever may see the invite link."""
    actor = await registry.get(table_id)
    seated = player is not None and actor.seat_of(player.id) is not None
    if actor.info.private and not seated:
        raise AppError("not_found", "no invite to show here", 404)
    svg = qr_svg(invite_url(request, actor), translate(language(request), "screen.qr_label"))
    return Response(svg, media_type="image/svg+xml",
                    headers={"Cache-Control": "private, max-age=600"})


# --------------------------------------------------------------------------- hand-off


class HandoffIn(BaseModel):
    next: str = Field("/", max_length=256,
                      description="where the other device lands (a path on this site)")


class HandoffOut(BaseModel):
    url: str = Field(description="open it on the other device, once, before it expires")
    qr: str = Field(description="the same link as a QR code (an SVG data: URL)")
    expires_in: int = Field(description="seconds the link stays good")


@router.post("/api/handoff", status_code=201, response_model=HandoffOut, tags=["room"],
             responses=errors(401, 403, 429, 503))
async def new_handoff(body: HandoffIn, request: Request, player: CurrentPlayer,
                      repo: RepoDep) -> HandoffOut:
    """Continue on another device: a link (and its QR code) that signs that device in as you,
    once, within five minutes. This device stays signed in."""
    settings = get_settings()
    token, _ = token_from(request, settings)
    if token is None:  # CurrentPlayer came from this token, so this does not happen
        raise AppError("unauthenticated", "sign in first", 401)
    at = now()
    made = await handoff.create(repo, settings.resolved_secret_key(), player.id, token,
                                safe_next(body.next), at)
    if made is None:
        raise AppError("rate_limited", "too many open hand-off links: use one or wait a "
                       "few minutes", 429)
    url = absolute(request, f"/handoff/{made.code}")
    return HandoffOut(url=url, qr=qr_data_url(url),
                      expires_in=handoff.expires_in(made.expires_at, at))


def _refused(request: Request, reason: str) -> HTMLResponse:
    status = 404 if reason in ("forged", "gone") else 410
    lang = language(request)
    return error_page(request, status, f"handoff.refused.{reason}",
                      heading=translate(lang, "handoff.refused_title"))


@router.get("/handoff/{code}", response_class=HTMLResponse, include_in_schema=False)
async def handoff_page(code: str, request: Request, player: MaybePlayer,
                       repo: RepoDep) -> HTMLResponse:
    """What a hand-off link opens: who this device will be, and a button to confirm (the
    link is claimed only then)."""
    try:
        row = await handoff.peek(repo, get_settings().resolved_secret_key(), code, now())
    except handoff.HandoffRefused as exc:
        return _refused(request, exc.reason)
    owner = await repo.player(row.player_id)
    if owner is None:
        return _refused(request, "gone")
    response = render(request, "handoff.html", player, code=code, owner=owner,
                      next_path=safe_next(row.next_path),
                      already=player is not None and player.id == owner.id)
    response.headers["Cache-Control"] = "no-store"
    return response


@router.post("/handoff/{code}", include_in_schema=False)
async def claim_handoff(code: str, request: Request, repo: RepoDep) -> Response:
    """Claim the link: this device gets the identity (a cookie) and goes where it was sent."""
    settings = get_settings()
    try:
        row, token = await handoff.redeem(repo, settings.resolved_secret_key(), code, now())
    except handoff.HandoffRefused as exc:
        return _refused(request, exc.reason)
    response = RedirectResponse(safe_next(row.next_path), status_code=303)
    # the same cookie as the name form sets (app/api/pages.py)
    response.set_cookie(COOKIE, sign(token, settings.resolved_secret_key()),
                        max_age=365 * 24 * 3600, httponly=True, samesite="lax",
                        secure=secure_cookies(request, settings))
    return response
