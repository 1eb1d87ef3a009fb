"""The busiest table routes found first: FastAPI 0.16x matches a request against every route
of every router included before the one that holds it, then once more inside that router
(about 17 route matches for a join, ~50 µs of a ~350 µs table read). Here a copy of each of
these routes sits in front of the application's own list: the same route object's endpoint,
dependencies, path and methods, left out of the OpenAPI document (the originals stay where
they were and describe it, so /openapi.json is unchanged).

Nothing before them could answer their requests: each copy is placed in front only if no
route the application lists before the original would take (fully or by path) a request the
copy takes, which ``add`` checks at start-up (a new route in the way stops the application
from starting, in every test too, rather than answering one request wrongly)."""

from __future__ import annotations

import copy
from typing import Any

from fastapi import FastAPI
from fastapi.routing import APIRoute
from starlette.routing import BaseRoute, Match

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


def add(app: FastAPI) -> None:
    """Put a copy of each ``HOT`` route in front of the application's routes."""
    flat = _flat(app.router.routes)  # every route in the order the application tries them
    routes = [route for route, _ in flat]
    front = []
    for method, path in HOT:
        at = next(i for i, r in enumerate(routes)
                  if isinstance(r, APIRoute) and r.path == path and method in (r.methods or ()))
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
        twin.app = handler  # what the application would run for it
        twin.fastpath_twin = True
        front.append(twin)
    app.router.routes[:0] = front


def is_twin(route: BaseRoute) -> bool:
    """A copy put in front by ``add`` (not one more route of the application: what lists the
    application's routes leaves it out)."""
    return getattr(route, "fastpath_twin", False)
