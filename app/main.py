"""The application: routers, error handling, static files, and the lifespan that migrates
the database and restores live tables."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import Match, Route

from app.api import life, lobby, matches, metrics, pages, players, replays, room, ws
from app.api.forward import ForwardMiddleware
from app.api.rendering import error_page
from app.api.schemas import complete_error_responses
from app.api.security import SecurityMiddleware, redact_access_log, wants_html
from app.config import STATIC, get_settings
from app.db.repository import Repository
from app.db.session import make_engine, make_sessionmaker, migrate
from app.errors import STORAGE_DOWN, AppError, storage_refusal
from app.metrics import LoopMonitor, MetricsMiddleware, registry_for, tune_collector
from app.tables.cluster import Cluster
from app.tables.registry import Registry

log = logging.getLogger("ludoteca")

# the table WebSocket is not an OpenAPI operation: its messages are summed up here (the whole
# protocol is in docs/api.md)
WEBSOCKET_DESCRIPTION = """
Each table also has a WebSocket, `/ws/tables/{id}` (token in `Authorization: Bearer`; a
spectator may add `?invite=` or a spectator link's `?watch=`). Client messages: `action`
`{action, version}`, `chat` `{text}`, `ephemeral` `{data}`, `sync`, `ping`. Server messages:
`state` (`version, table, seat, view, legal_actions, to_act, waiting_for, events, source, by,
deadlines, clock, window, chat_allowed, spectators_see_all, vote, rematch`, and `history` on
connect), `chat` (`id, kind: player|spectator|system, seat, name, text, code, params, at`),
`ephemeral`, `error` (`code, message`), `closed` (`table_deleted`, `table_expired`), `pong`.
Finished games: `/api/matches/{id}/replay`, `/views/{step}`, `/export`; `POST
/api/matches/import`. See docs/api.md for every field.
"""


# the routers in the order a request is matched against them, the busiest first: FastAPI
# tries every route of every router before the one that holds a request's route, so the
# lobby's (a table's page reads, join, leave, start, new tables) and the players' come
# before the rest. No two routers hold routes that take the same request, so the order
# changes which route is tried first, never which one answers.
ROUTED = (lobby, players, life, replays, matches, metrics, ws, room, pages)


def create_app(database_url: str | None = None, run_migrations: bool = True,
               internal_url: str | None = None) -> FastAPI:
    """The application. ``internal_url``: where other processes of a cluster reach this one
    (``LUDOTECA_INTERNAL_URL`` wins when set)."""
    settings = get_settings()
    url = database_url or settings.resolved_database_url()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        if run_migrations:
            await asyncio.to_thread(migrate, url)
        engine = make_engine(url)
        # one process alone writes the players: their bearer tokens can be remembered here
        # (app/db/repository.py Identities); a cluster reads them from the database each time
        repo = Repository(make_sessionmaker(engine), cache_identities=not settings.redis_url)
        cluster = None
        if settings.redis_url:  # several processes share the tables (docs/operations.md)
            cluster = Cluster(settings.redis_url,
                              settings.internal_url or internal_url or "http://127.0.0.1:8000",
                              settings.lease_seconds)
            await cluster.start()
            log.info("cluster mode: node %s at %s", cluster.node_id, cluster.internal_url)
        registry = Registry(repo, cluster)
        app.state.repo, app.state.registry = repo, registry
        restored = await registry.restore()
        log.info("ludoteca ready: %d table(s) restored", restored)
        # what start-up built (modules, catalogues, restored tables) lives as long as the
        # process: kept out of every future collection; and the collector's thresholds
        # (app/metrics.py says why)
        tune_collector()
        monitor = LoopMonitor()
        app.state.loop_monitor = monitor
        app.state.prometheus = registry_for(app.state)
        monitor.start()
        loop = asyncio.get_running_loop()
        background = [loop.create_task(_evict_forever(registry)),
                      loop.create_task(_housekeep_forever(registry))]
        if cluster is not None:
            background.append(loop.create_task(_sweep_forever(registry,
                                                              cluster.lease_seconds / 2)))
        try:
            yield
        finally:
            for task in background:
                task.cancel()
            await monitor.stop()
            await registry.shutdown()
            if cluster is not None:
                await cluster.stop()
            await repo.close()
            await engine.dispose()

    app = FastAPI(
        title="Ludoteca",
        summary="Self-hosted real-time card games: lobby and match API",
        description=WEBSOCKET_DESCRIPTION,
        version="0.1.0",
        lifespan=lifespan,
        # our own /docs page serves Swagger UI from this server (no CDN): pages.api_docs
        docs_url=None,
        redoc_url=None,
    )
    app.add_middleware(SecurityMiddleware)
    # outermost: a request about a table another process owns goes there untouched
    app.add_middleware(ForwardMiddleware)
    # outside everything: every request and socket this process answers is counted
    app.add_middleware(MetricsMiddleware)
    redact_access_log()
    generate_openapi = app.openapi

    def openapi() -> dict:
        schema = app.openapi_schema
        if schema is None:
            schema = generate_openapi()  # (which keeps it as app.openapi_schema)
            complete_error_responses(schema)
            replays.add_components(schema)
        return schema

    app.openapi = openapi  # type: ignore[method-assign]

    @app.exception_handler(AppError)
    async def app_error(request: Request, exc: AppError) -> Response:
        headers = exc.headers  # Retry-After on rate limits and 503s
        if wants_html(request):
            return error_page(request, exc.status, f"error.{exc.code}", exc.message,
                                    headers=headers)
        return JSONResponse(exc.to_json(), status_code=exc.status, headers=headers)

    async def storage_error(request: Request, exc: Exception) -> Response:
        # the database (or, in a cluster, Redis) is down or refused a write: a clear,
        # retryable error (503, Retry-After), never a 500; any other error of these classes
        # is a bug, answered 500 as any other (app/errors.py says which is which)
        refusal = storage_refusal(exc)
        if refusal is None:
            raise exc
        log.warning("storage unavailable for %s %s: %r", request.method, request.url.path,
                    exc)
        return await app_error(request, refusal)

    for kind in STORAGE_DOWN:
        app.add_exception_handler(kind, storage_error)  # type: ignore[arg-type]

    @app.exception_handler(RequestValidationError)
    async def validation_error(_request: Request, exc: RequestValidationError) -> Response:
        first = exc.errors()[0]
        if first.get("type") == "json_invalid":
            # FastAPI says "1: JSON decode error" (1 being the character offset): say what is
            # wrong and where, as the WebSocket's bad_message does
            why = str((first.get("ctx") or {}).get("error", "")) or "cannot be read"
            why = why.removesuffix(" at")  # "Unterminated string starting at" + where
            offset = first["loc"][-1] if isinstance(first["loc"][-1], int) else None
            at = f" at character {offset}" if offset is not None else ""
            return JSONResponse({"code": "bad_request",
                                 "message": f"body: not valid JSON ({why}{at})"},
                                status_code=422)
        where = ".".join(str(p) for p in first["loc"] if p != "body") or "body"
        message = first["msg"].removeprefix("Value error, ")  # our validators' own words
        return JSONResponse({"code": "bad_request", "message": f"{where}: {message}"},
                            status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> Response:
        if exc.status_code == 400 and "parsing the body" in str(exc.detail):
            # a body that is not even text (bad UTF-8...): the same answer as malformed JSON
            return JSONResponse({"code": "bad_request",
                                 "message": "body: not valid JSON (UTF-8 text)"}, 422)
        code = {404: "not_found", 405: "method_not_allowed"}.get(exc.status_code, "http_error")
        if exc.status_code == 404 and wants_html(request):  # a mistyped address: our page
            return error_page(request, 404, "error.page_not_found", str(exc.detail))
        headers = dict(exc.headers or {})
        if exc.status_code == 405:  # every method of the path, not just one route's
            headers["Allow"] = ", ".join(_allowed_methods(request))
        return JSONResponse({"code": code, "message": str(exc.detail)},
                            status_code=exc.status_code, headers=headers)

    for module in ROUTED:
        app.include_router(module.router)
    swagger = pages.swagger_ui_dir()
    if swagger is not None:  # before /static, which would otherwise answer for it
        app.mount("/static/swagger-ui", StaticFiles(directory=str(swagger)), name="swagger")
    app.mount("/static", StaticFiles(directory=str(STATIC)), name="static")
    return app


def _allowed_methods(request: Request) -> list[str]:
    """The methods the app answers on this request's path. A path spelled out in full is a
    resource of its own: /api/matches/import answers POST, even though GET
    /api/matches/{match_id} would also take that path (and answer 404)."""
    spelled: set[str] = set()
    templated: set[str] = set()
    for route in _every_route(request.app.router.routes):
        route_methods = getattr(route, "methods", None)
        if route_methods and route.matches(request.scope)[0] != Match.NONE:
            (templated if getattr(route, "param_convertors", None) else spelled).update(
                route_methods)
    return sorted(spelled or templated)


def _every_route(routes: list[Any]) -> Iterator[Any]:
    """Every route: the application's own (/openapi.json) and those of our routers, read
    from the routers themselves (all are included without a prefix, so their paths are the
    application's)."""
    yield from (route for route in routes if isinstance(route, Route))
    for module in ROUTED:
        yield from module.router.routes


async def _sweep_forever(registry: Registry, every: float) -> None:
    """In a cluster: take over the tables of processes that have gone."""
    while True:
        await asyncio.sleep(every)
        try:
            adopted = await registry.sweep()
            if adopted:
                log.info("took over %d table(s) whose owner has gone", adopted)
        except Exception:  # noqa: BLE001 - Redis or the database away for a moment
            log.warning("cluster sweep failed", exc_info=True)


async def _evict_forever(registry: Registry, every: float = 60, idle: float = 900) -> None:
    """Finished tables leave memory after a quiet quarter of an hour (storage keeps them)."""
    while True:
        await asyncio.sleep(every)
        registry.evict_idle(idle)


async def _housekeep_forever(registry: Registry) -> None:
    """Waiting tables nobody came to expire; playing tables everyone left are closed as
    abandoned (app/tables/core/ending.py)."""
    settings = get_settings()
    while True:
        await asyncio.sleep(settings.janitor_seconds)
        try:
            await registry.housekeep(settings.waiting_expiry_seconds,
                                     settings.empty_table_seconds)
        except Exception:  # noqa: BLE001 - the next round tries again
            log.exception("housekeeping failed")
