"""Shared dependencies: the registry, the repository, and who is calling.

A caller is identified by a bearer token in the ``Authorization`` header (scripts, bots) or
by the signed identity cookie the browser flow sets; both resolve to the same kind of guest
player. A token is never read from a URL: URLs land in access logs and browser history.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Mapping
from typing import Annotated

from fastapi import Depends, Request
from fastapi.security import HTTPBearer
from starlette.requests import HTTPConnection

from app.api.security import IDENTITY_COOKIE
from app.config import Settings, get_settings
from app.db.models import Player
from app.db.repository import Repository
from app.errors import AppError
from app.tables.registry import Registry

COOKIE = IDENTITY_COOKIE


_SECRET: list[tuple[Settings, str]] = []


def secret_key(settings: Settings | None = None) -> str:
    """The server's secret key, read once per settings (a generated key is read from its file
    in the data directory: a file system call per signed link or cookie otherwise)."""
    settings = settings or get_settings()
    if _SECRET and _SECRET[0][0] is settings:
        return _SECRET[0][1]
    key = settings.resolved_secret_key()
    _SECRET[:] = [(settings, key)]
    return key


def sign(token: str, key: str) -> str:
    mac = hmac.new(key.encode(), token.encode(), hashlib.sha256).hexdigest()[:32]
    return f"{token}.{mac}"


def unsign(value: str, key: str) -> str | None:
    token, _, _mac = value.rpartition(".")
    if not token:
        return None
    return token if hmac.compare_digest(sign(token, key), value) else None


async def create_player(repo: Repository, name: str) -> tuple[Player, str]:
    token = secrets.token_urlsafe(32)
    player = await repo.create_player(secrets.token_hex(8), name, token)
    return player, token


def watch_key(table_id: str, invite_token: str) -> str:
    """The key of a table's spectator link (``/watch/<id>/<key>``): lets anyone holding it
    watch a private table, never sit at it. Derived from the invite token with the server's
    secret, so it needs no storage and cannot be turned back into the invite."""
    key = secret_key()
    message = f"watch:{table_id}:{invite_token}".encode()
    return hmac.new(key.encode(), message, hashlib.sha256).hexdigest()[:32]


def watch_key_ok(table_id: str, invite_token: str, given: str | None) -> bool:
    return given is not None and hmac.compare_digest(watch_key(table_id, invite_token), given)


def screen_key(table_id: str, invite_token: str) -> str:
    """The key of a table's screen link (``/screen/<id>/<key>``): the table screen for a TV,
    which shows the invite as a QR code, so the key is worth the invite (the host hands it
    out). Derived like ``watch_key``, with its own label: neither key gives the other."""
    key = secret_key()
    message = f"screen:{table_id}:{invite_token}".encode()
    return hmac.new(key.encode(), message, hashlib.sha256).hexdigest()[:32]


def screen_key_ok(table_id: str, invite_token: str, given: str | None) -> bool:
    return given is not None and hmac.compare_digest(screen_key(table_id, invite_token), given)


def absolute(conn: HTTPConnection, path: str) -> str:
    """A link to ``path`` on this site as people outside reach it (``LUDOTECA_PUBLIC_URL``
    when set, else the host the request came to)."""
    base = get_settings().public_url or str(conn.base_url)
    return base.rstrip("/") + path


def get_registry(conn: HTTPConnection) -> Registry:
    return conn.app.state.registry


def get_repo(conn: HTTPConnection) -> Repository:
    return conn.app.state.repo


def token_from(conn: HTTPConnection, settings: Settings) -> tuple[str | None, bool]:
    """The caller's token and whether it came from the cookie (browser) or not."""
    header = conn.headers.get("authorization", "")
    if header.lower().startswith("bearer "):
        return header[7:].strip(), False
    cookie = conn.cookies.get(COOKIE)
    if cookie:
        return unsign(cookie, secret_key(settings)), True
    return None, False


async def identify(conn: HTTPConnection) -> Player | None:
    """The calling player, or None for an anonymous caller; a bad token is an error."""
    settings = get_settings()
    # (no query string: no token in it, without parsing one for every call)
    if conn.scope.get("query_string") and "token" in conn.query_params:
        raise AppError("token_in_url", "a token in the URL is refused (URLs land in logs): "
                       "send Authorization: Bearer <token>", 401)
    token, _ = token_from(conn, settings)
    if token is None:
        if conn.headers.get("authorization"):
            raise AppError("bad_token", "that token is not valid", 401)
        return None
    player = await get_repo(conn).player_by_token(token)
    if player is None:
        raise AppError("bad_token", "that token is not valid", 401)
    return player


async def optional_player(request: Request) -> Player | None:
    return await identify(request)


async def required_player(request: HTTPConnection) -> Player:
    player = await identify(request)
    if player is None:
        raise AppError("unauthenticated",
                       "send Authorization: Bearer <token> (from POST /api/players)", 401)
    return player


class _CallingPlayer(HTTPBearer):
    """The bearer scheme as the OpenAPI document declares it (Swagger UI's "Authorize"
    button), answering the calling player itself: the token is read by identify(), which
    also knows the browser's cookie. One dependency for FastAPI to solve per request, where
    a scheme declared beside ``required_player`` made two levels of them."""

    async def __call__(self, request: HTTPConnection) -> Player:  # type: ignore[override]
        return await required_player(request)


bearer = _CallingPlayer(auto_error=False, scheme_name="bearer",
                        description="the token from POST /api/players")


async def _registry(conn: HTTPConnection) -> Registry:
    return conn.app.state.registry


async def _repo(conn: HTTPConnection) -> Repository:
    return conn.app.state.repo


# as dependencies, async functions: FastAPI runs a plain function dependency in a worker
# thread (a thread hop on every request for a dictionary look-up)
RegistryDep = Annotated[Registry, Depends(_registry)]
RepoDep = Annotated[Repository, Depends(_repo)]
MaybePlayer = Annotated[Player | None, Depends(optional_player)]
CurrentPlayer = Annotated[Player, Depends(bearer)]


TEST_SEED_HEADER = "X-Ludoteca-Test-Seed"


def requested_seed(headers: Mapping[str, str], settings: Settings) -> int | None:
    """The seed a test asks for (``LUDOTECA_TEST_SEEDS`` on, tests only); None otherwise:
    with the setting off the header is ignored, so no one outside a test can pin a deal (or
    a branch's re-deal)."""
    if not settings.test_seeds or TEST_SEED_HEADER not in headers:
        return None
    text = headers[TEST_SEED_HEADER]
    if not text.isascii() or not text.isdigit() or len(text) > 19 or int(text) >= 2**63:
        raise AppError("bad_seed", f"{TEST_SEED_HEADER} must be an integer from 0 to 2**63-1",
                       422)
    return int(text)
