"""The busiest table routes found first: FastAPI 0.16x matches a request against every route
of every router included before the one that holds it, then once more inside that router
(about 17 route matches for a join, ~50 µs of a ~350 µs table read). Here a copy of each of
these routes sits in front of the application's own list: the same route object's endpoint,
dependencies, path and methods, left out of the OpenAPI document (the originals stay where
they were and describe it, so /openapi.json is unchanged). Each copy calls its endpoint
directly for the usual requests, and through FastAPI's own handler for any other (see
``direct`` below).

Nothing before them could answer their requests: each copy is placed in front only if no
route the application lists before the original would take (fully or by path) a request the
copy takes, which ``add`` checks at start-up (a new route in the way stops the application
from starting, in every test too, rather than answering one request wrongly). A FastAPI that
keeps its routes otherwise than ``_flat`` reads them (a later release may) gets no copies and
a warning in the log: the application answers the same, a little more slowly."""

from __future__ import annotations

import copy
import inspect
import json
import logging
import typing
from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import FastAPI, Request
from fastapi import __version__ as fastapi_version
from fastapi.routing import APIRoute
from pydantic import BaseModel
from starlette.responses import Response
from starlette.routing import BaseRoute, Match
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.api.deps import CurrentPlayer, RepoDep, get_repo, required_player

log = logging.getLogger(__name__)

# (method, path) of the routes put in front: a table's page reads, the lobby's writes, and
# the lobby page's own reads and a new player (each ~15 µs of matching saved; any other
# route pays ~0.6 µs more per copy in front)
HOT = (
    ("GET", "/api/tables/{table_id}"),
    ("POST", "/api/tables"),
    ("POST", "/api/tables/{table_id}/join"),
    ("POST", "/api/tables/{table_id}/leave"),
    ("POST", "/api/tables/{table_id}/start"),
    ("GET", "/api/tables"),
    ("GET", "/api/games"),
    ("GET", "/api/players/me"),
    ("POST", "/api/players"),
)


def _sample(path: str) -> str:
    return path.replace("{table_id}", "sample-table-id")


def _flat(routes: list[Any]) -> list[tuple[Any, Any]]:
    """Each route with the handler the application runs it with, those of included routers
    in their place (FastAPI 0.16x keeps an included router as one entry whose routes carry
    their router's own prefix, ours included without another, and runs each through an
    "effective" handler built with what the inclusion adds)."""
    out: list[tuple[Any, Any]] = []
    for route in routes:
        router = getattr(route, "original_router", None)
        if router is None:
            out.append((route, getattr(route, "app", None)))
            continue
        prefix = getattr(getattr(route, "include_context", None), "prefix", None)
        if prefix:
            raise RuntimeError("a router included with a prefix: its routes' paths differ")
        handlers = {id(c.original_route): c.app for c in route.effective_candidates()
                    if getattr(c, "original_route", None) is not None}
        out.extend((r, handlers.get(id(r), app)) for r, app in _flat(router.routes))
    return out


def _other_method(route: BaseRoute, path: str, method: str) -> bool:
    """Whether ``route`` is another method's route of the very same path (POST /api/tables
    before GET /api/tables): it matches the copy's requests only by path, and a route
    matching by path answers only if no route matches fully (the original does), so it
    never takes them."""
    return (isinstance(route, APIRoute) and route.path == path
            and method not in (route.methods or ()))


def _locate(app: FastAPI) -> tuple[list[tuple[Any, Any]], list[int]] | None:
    """Every route with its handler, in the order the application tries them, and where each
    ``HOT`` route is among them; None when this FastAPI lays its routes out in a way
    ``_flat`` does not know (a version after 0.16x may), or a hot route is not found."""
    try:
        flat = _flat(app.router.routes)
    except (AttributeError, TypeError) as exc:
        log.warning("fastpath: FastAPI %s keeps its routes in a way this version does not "
                    "read (%s); every route is matched the usual way", fastapi_version, exc)
        return None
    routes = [route for route, _ in flat]
    places = []
    for method, path in HOT:
        at = next((i for i, r in enumerate(routes) if isinstance(r, APIRoute)
                   and r.path == path and method in (r.methods or ())), None)
        if at is None:
            log.warning("fastpath: %s %s is not among FastAPI %s's routes as read; every "
                        "route is matched the usual way", method, path, fastapi_version)
            return None
        places.append(at)
    return flat, places


def add(app: FastAPI) -> None:
    """Put a copy of each ``HOT`` route in front of the application's routes. A FastAPI whose
    routes are not laid out as ``_flat`` reads them gets no copies (a warning says so): the
    application answers the same, a little more slowly, rather than not starting."""
    located = _locate(app)
    if located is None:
        return
    flat, places = located
    routes = [route for route, _ in flat]
    front = []
    for (method, path), at in zip(HOT, places, strict=True):
        route, handler = flat[at]
        scope = {"type": "http", "method": method, "path": _sample(path), "root_path": "",
                 "headers": [], "query_string": b""}
        for before in routes[:at]:  # none of them may take this route's requests
            if before.matches(dict(scope))[0] is not Match.NONE and not _other_method(
                    before, path, method):
                raise RuntimeError(f"a route before {method} {path} takes its requests")
        if route.matches(dict(scope))[0] is not Match.FULL:
            raise RuntimeError(f"{method} {path} does not take its own requests")
        twin = copy.copy(route)
        twin.include_in_schema = False
        twin.fastpath_twin = True
        twin.fallback = handler  # what the application would run for it
        twin.app = direct(route, handler)

        front.append(twin)
    app.router.routes[:0] = front


def is_twin(route: BaseRoute) -> bool:
    """A copy put in front by ``add`` (not one more route of the application: what lists the
    application's routes leaves it out)."""
    return getattr(route, "fastpath_twin", False)


# ---------------------------------------------------------------- calling the endpoint directly
#
# FastAPI's handler of a route reads the body, solves the route's dependencies (the bearer
# player, the body, every path, query, header and cookie parameter: ~20 % of a table read's
# CPU, 16 % of a join's) and then calls the endpoint. The copies in front call the same
# endpoint with the same arguments, found directly, for the requests every page and script
# sends: a JSON body (``Content-Type: application/json``) that parses and fits the body's
# model, or none where the body is optional. Any other request (malformed JSON, another
# content type, a body the model refuses...) goes to FastAPI's own handler, its body handed
# over again as it came, so every refusal is FastAPI's, word for word. A bad or missing
# token is refused by the same ``required_player`` the route's dependency runs; FastAPI
# solves that dependency after parsing the body and before validating it, and here it is
# asked after both succeeded (a body that fails either goes to FastAPI), so the first
# error a request meets is the same.

# what an endpoint's parameter may be to be called directly: its type hint, its kind
_KINDS: list[tuple[Any, str]] = [
    (str, "path"),
    (Request, "request"),
    (CurrentPlayer, "player"),
    (RepoDep, "repo"),
    (str | None, "query"),
]


def _kind(name: str, hint: Any, path: str) -> tuple[str, Any]:
    """How the direct call finds the parameter ``name`` of type ``hint`` (a path parameter,
    the request, the calling player, the repository, an optional query string, or the
    body: a model, optional or not)."""
    if hint is str and "{" + name + "}" not in path:
        raise RuntimeError(f"{path}: {name} is not a path parameter")
    for known, kind in _KINDS:
        if hint == known:
            return kind, None
    if isinstance(hint, type) and issubclass(hint, BaseModel):
        return "body", hint
    args = typing.get_args(hint)
    if (len(args) == 2 and args[1] is type(None) and isinstance(args[0], type)
            and issubclass(args[0], BaseModel)):
        return "body?", args[0]
    raise RuntimeError(f"{path}: a parameter the direct call does not know: {name}: {hint}")


Endpoint = Callable[[Request, list[bytes]], Awaitable[Response | None]]


def _direct_call(route: APIRoute) -> Endpoint:
    """The endpoint of ``route`` called with its arguments found directly; None where
    FastAPI's own handler must answer (see above). Refuses, at start-up, a route whose
    parameters it does not know or that FastAPI would treat otherwise (route dependencies,
    parameter defaults other than the ones read here)."""
    endpoint = route.endpoint
    hints = typing.get_type_hints(endpoint, include_extras=True)
    params = inspect.signature(endpoint).parameters
    if route.dependencies:
        raise RuntimeError(f"{route.path}: route dependencies are not called directly")
    answer = hints.get("return")
    if not (isinstance(answer, type) and issubclass(answer, Response)):
        # FastAPI would run anything else through the response model: sent as is here
        raise RuntimeError(f"{route.path}: the endpoint does not return a Response")
    kinds: list[tuple[str, str]] = []
    model: type[BaseModel] | None = None
    optional_body = False
    for name, param in params.items():
        kind, body = _kind(name, hints[name], route.path)
        default_ok = param.default is None if kind in ("query", "body?") else (
            param.default is inspect.Parameter.empty)
        if not default_ok:
            raise RuntimeError(f"{route.path}: {name}'s default is not the expected one")
        if body is not None:
            if model is not None:
                raise RuntimeError(f"{route.path}: two bodies")
            model, optional_body = body, kind == "body?"
        kinds.append((name, kind))

    async def call(request: Request, read: list[bytes]) -> Response | None:
        """The endpoint's answer (None: FastAPI's handler must answer); the body read, if
        read, is appended to ``read``."""
        body = None
        if model is not None:
            raw = await request.body()
            read.append(raw)
            if raw or not optional_body:
                if request.headers.get("content-type") != "application/json":
                    return None
                try:
                    data = json.loads(raw)  # as Starlette's request.json()
                except Exception:  # noqa: BLE001 - malformed, bad UTF-8, nested too deep
                    return None
                if not isinstance(data, dict):
                    return None
                try:
                    # as FastAPI validates a body (pydantic's python mode, from attributes)
                    body = model.model_validate(data, from_attributes=True)
                except Exception:  # noqa: BLE001 - FastAPI's handler refuses it its way
                    return None
        values: dict[str, Any] = {}
        for name, kind in kinds:
            if kind == "path":
                values[name] = request.path_params[name]
            elif kind == "request":
                values[name] = request
            elif kind == "player":
                values[name] = await required_player(request)
            elif kind == "repo":
                values[name] = get_repo(request)
            elif kind == "query":
                values[name] = request.query_params.get(name)
            else:
                values[name] = body
        return await endpoint(**values)

    return call


def direct(route: APIRoute, fallback: ASGIApp) -> ASGIApp:
    """An ASGI application answering ``route``'s requests by calling its endpoint directly,
    or through ``fallback`` (FastAPI's handler) when the request is not the usual kind.
    What the endpoint raises goes up to the application's exception handlers, as from
    FastAPI's handler."""
    call = _direct_call(route)

    async def app(scope: Scope, receive: Receive, send: Send) -> None:
        read: list[bytes] = []
        response = await call(Request(scope, receive, send), read)
        if response is None:
            await fallback(scope, _replay(read, receive), send)
            return
        await response(scope, receive, send)

    return app


def _replay(read: list[bytes], receive: Receive) -> Receive:
    """``receive`` with the body already read (if it was: ``read``) handed over again
    first, whole, as one message."""
    if not read:
        return receive
    pending = list(read)

    async def again() -> Message:
        if pending:
            return {"type": "http.request", "body": pending.pop(), "more_body": False}
        return await receive()

    return again
