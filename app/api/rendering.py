"""Rendering pages: the templates, the reader's language and strings, error pages, and safe
same-site redirects. Shared by every route module that answers with a page (``pages``,
``room``); route modules never import each other."""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import quote

from fastapi import Request
from fastapi.responses import HTMLResponse
from fastapi.templating import Jinja2Templates
from markupsafe import Markup

from app.config import TEMPLATES
from app.games import ENGINES
from app.i18n import LANGUAGES, catalogue, list_joints, pick_language, translate

templates = Jinja2Templates(directory=str(TEMPLATES))


def safe_next(target: str | None) -> str:
    """Only same-site paths: never redirect to another host. Browsers read "/\\host" and
    "/<tab>/host" as "//host", so backslashes, spaces and control characters are refused."""
    if (not target or not target.startswith("/") or target.startswith("//")
            or any(ch == "\\" or ord(ch) <= 32 or ord(ch) == 127 for ch in target)):
        return "/"
    return target


def script_json(data: Any) -> Markup:
    """JSON to place inside <script type="application/json">: "<", ">" and "&" escaped, so
    no string can close the element or open a comment (quotes may stay as they are)."""
    text = json.dumps(data, ensure_ascii=False)
    return Markup(text.replace("&", "\\u0026").replace("<", "\\u003c").replace(">", "\\u003e"))


def language(request: Request) -> str:
    return pick_language(request.cookies.get("lang"), request.headers.get("accept-language"))


def render(request: Request, name: str, player: Any, **context: Any) -> HTMLResponse:
    lang = language(request)
    strings = catalogue(lang)
    context.update(
        request=request, player=player, lang=lang, languages=LANGUAGES,
        t=lambda key, **kw: translate(lang, key, **kw),
        joints=lambda names: list_joints(list(names), lang),
        i18n_json=script_json(strings),
        games=[e.catalogue_entry() for e in ENGINES.values()],  # type: ignore[attr-defined]
    )
    # where the name form and the language links lead back to; the table screen's QR hint
    # (?room=1: start in the compact layout) survives the name form a phone fills in first
    room = "?room=1" if request.query_params.get("room") == "1" else ""
    context.setdefault("here", quote(request.url.path) + room)
    return templates.TemplateResponse(request, name, context)


def error_page(request: Request, status: int, key: str | None = None,
               message: str = "", headers: dict[str, str] | None = None,
               **context: Any) -> HTMLResponse:
    """An error as a page in the reader's language: the catalogue's ``key`` when it has one,
    else ``message``."""
    lang = language(request)
    text = translate(lang, key) if key and key in catalogue(lang) else message
    if request.method != "GET":  # the language links must not lead back to a POST-only path
        context.setdefault("here", context.get("back") or "/")
    heading = context.pop("heading", None) or translate(
        lang, "error.title_not_found" if status == 404 else "error.title")
    response = render(request, "error.html", None, heading=heading, message=text, **context)
    response.status_code = status
    response.headers.update(headers or {})
    return response
