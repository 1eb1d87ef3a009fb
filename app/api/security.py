"""Browser-facing protections, as one ASGI middleware: the security headers on every
response, and cross-site request refusal for anything that changes state.

Cross-site requests (CSRF): a request that is not GET/HEAD/OPTIONS and carries no
``Authorization: Bearer`` header (a script's request: no browser adds one to a cross-site
request without a CORS preflight we never grant) must show it comes from our own pages:
``Sec-Fetch-Site: same-origin`` (or ``none``, typed by the user) when the browser sends it,
else an ``Origin`` whose host is this site. A request with neither header is not from a
modern browser: allowed only when it has no identity cookie to abuse. The same rules as Go's
``net/http.CrossOriginProtection``, which explains why no token is needed with them; the
cookie is ``SameSite=Lax`` on top of that.
"""

from __future__ import annotations

import logging
import re
from urllib.parse import urlsplit

from starlette.requests import HTTPConnection, Request
from starlette.responses import JSONResponse, Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.api.rendering import error_page
from app.config import Settings, get_settings

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
IDENTITY_COOKIE = "ludoteca_player"

# scripts, styles, images, fonts and sockets from this site only; no inline script, no
# eval, no plugin, no <base>, forms post here only, never framed
CSP = "; ".join([
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
])

# ReDoc's one exception: it styles itself with generated <style> elements (styled-components,
# no way to give them a nonce), so /redoc alone allows inline styles. Scripts stay files from
# here; the page shows only the public API schema.
REDOC_CSP = CSP.replace("style-src 'self'", "style-src 'self' 'unsafe-inline'")

HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    # invite links (/join/<token>) never reach another site in a Referer; "same-origin"
    # rather than "no-referrer" so that our own POSTs keep a real Origin header
    "Referrer-Policy": "same-origin",
    "Permissions-Policy": ("accelerometer=(), camera=(), geolocation=(), gyroscope=(), "
                           "magnetometer=(), microphone=(), payment=(), usb=()"),
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Resource-Policy": "same-origin",
}


# the same, as the raw (name, value) pairs of an ASGI response
_HEADER_PAIRS = [(name.lower().encode("latin-1"), value.encode("latin-1"))
                 for name, value in HEADERS.items()]


def is_https(conn: HTTPConnection) -> bool:
    """Whether the browser reached us over TLS (uvicorn's proxy_headers turns a trusted
    proxy's X-Forwarded-Proto into the scheme)."""
    return conn.url.scheme in ("https", "wss")


def secure_cookies(conn: HTTPConnection, settings: Settings | None = None) -> bool:
    settings = settings or get_settings()
    return settings.secure_cookies or is_https(conn)


def _own_hosts(conn: HTTPConnection, settings: Settings) -> set[str]:
    hosts = {conn.headers.get("host", "").lower()}
    if settings.public_url:
        hosts.add(urlsplit(settings.public_url).netloc.lower())
    hosts.discard("")
    return hosts


def cross_site_reason(conn: HTTPConnection, settings: Settings | None = None) -> str | None:
    """Why this request may not be trusted as coming from one of our pages, or None."""
    settings = settings or get_settings()
    fetch_site = conn.headers.get("sec-fetch-site")
    if fetch_site is not None:
        if fetch_site in ("same-origin", "none"):
            return None
        return f"refused a {fetch_site} request"
    origin = conn.headers.get("origin")
    if origin is not None:
        if urlsplit(origin).netloc.lower() in _own_hosts(conn, settings):
            return None
        return "refused a request from another site (Origin)"
    if IDENTITY_COOKIE in conn.cookies:
        return "refused a cookie-authenticated request without an Origin header"
    return None


def _is_bearer(conn: HTTPConnection) -> bool:
    return conn.headers.get("authorization", "").lower().startswith("bearer ")


def wants_html(conn: HTTPConnection) -> bool:
    """A page (a form post, a link), not an API call."""
    return (not conn.url.path.startswith("/api")
            and "text/html" in conn.headers.get("accept", ""))


class SecurityMiddleware:
    """Adds the security headers to every HTTP response and refuses cross-site writes."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers") or ())
                present = {name.lower() for name, _ in headers}
                headers.extend(pair for pair in _HEADER_PAIRS if pair[0] not in present)
                message["headers"] = headers
            await send(message)

        if scope["method"] not in SAFE_METHODS:
            conn = HTTPConnection(scope)
            reason = None if _is_bearer(conn) else cross_site_reason(conn)
            if reason is not None:
                response = await self._refusal(scope, receive, conn, reason)
                await response(scope, receive, send_with_headers)
                return
        await self.app(scope, receive, send_with_headers)

    async def _refusal(self, scope: Scope, receive: Receive, conn: HTTPConnection,
                       reason: str) -> Response:
        message = f"{reason}: send the request from this site's pages, or use a bearer token"
        if wants_html(conn):
            return error_page(Request(scope, receive), 403, "error.csrf")
        return JSONResponse({"code": "csrf", "message": message}, status_code=403)


class RedactSecrets(logging.Filter):
    """Keeps capabilities out of the access log: invite tokens in ``/join/<token>`` links
    and ``?invite=``, spectator and screen keys in ``/watch/<id>/<key>``,
    ``/screen/<id>/<key>`` and ``?watch=``, hand-off links ``/handoff/<code>``, and any
    ``?token=`` a script still sends (refused, but logged)."""

    PATTERN = re.compile(r"(/join/|/handoff/|/(?:watch|screen)/[^/?&#\s\"]+/"
                         r"|[?&](?:invite|token|watch)=)[^?&#\s\"]+")

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple):
            # an argument holding none of what the pattern needs (the client's address,
            # the method, the HTTP version, most paths: /api/tables/x/join) is left as it
            # is, tested without running the pattern (a quarter of its cost)
            record.args = tuple(self.PATTERN.sub(r"\1…", a)
                                if isinstance(a, str) and _may_hold_secret(a) else a
                                for a in record.args)
        return True


def _may_hold_secret(text: str) -> bool:
    """Whether ``text`` holds what RedactSecrets.PATTERN needs to match (a query's "=", or
    one of the paths that carry a capability)."""
    return ("=" in text or "/join/" in text or "/handoff/" in text or "/watch/" in text
            or "/screen/" in text)


def redact_access_log() -> None:
    """Install ``RedactSecrets`` (once) on uvicorn's access log, and on its error log, where
    accepted WebSockets are logged with their query string."""
    for name in ("uvicorn.access", "uvicorn.error"):
        logger = logging.getLogger(name)
        if not any(isinstance(f, RedactSecrets) for f in logger.filters):
            logger.addFilter(RedactSecrets())
