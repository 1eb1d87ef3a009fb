"""The operators' figures, behind the operator token (``Authorization: Bearer``):

- ``GET /metrics``: the Prometheus text format (app/metrics.py says what is in it), what
  every operator's scraper reads;
- ``GET /metrics.json``: the same process's figures as JSON, the ones bench/ reads (loop-lag
  percentiles, garbage-collector pauses, tables by status, connections, stored actions,
  memory, CPU and, in a cluster, the ids of the tables this process owns).

Neither is in the OpenAPI document (they are not the players' API), and neither answers
without the token: a table id is a capability to look a table up, private ones included.
"""

from __future__ import annotations

import hmac
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import Response
from prometheus_client.exposition import choose_encoder

from app.config import get_settings
from app.errors import AppError
from app.metrics import process_figures, registry_for

router = APIRouter(tags=["operations"])

TOKEN_HINT = ("send Authorization: Bearer <operator token> (LUDOTECA_OPERATOR_TOKEN, or the "
              "operator_token file in the data directory)")


def require_operator(request: Request) -> None:
    header = request.headers.get("authorization", "")
    if not header.lower().startswith("bearer "):
        raise AppError("operator_token_required", TOKEN_HINT, 401)
    given = header[7:].strip().encode()
    expected = get_settings().resolved_operator_token().encode()
    if not hmac.compare_digest(given, expected):
        raise AppError("bad_operator_token", "that is not the operator token", 403)


@router.get("/metrics", include_in_schema=False)
async def prometheus(request: Request) -> Response:
    """This process's figures in the Prometheus text format (0.0.4, or what the scraper's
    Accept header asks for: OpenMetrics, or text 1.0.0)."""
    require_operator(request)
    state = request.app.state
    registry = getattr(state, "prometheus", None)
    if registry is None:
        registry = state.prometheus = registry_for(state)
    encode, content_type = choose_encoder(request.headers.get("accept", ""))
    return Response(encode(registry), headers={"Content-Type": content_type,
                                               "Cache-Control": "no-store"})


@router.get("/metrics.json", include_in_schema=False)
async def figures(request: Request, reset: bool = False) -> dict[str, Any]:
    """Loop lag, tables by status, connections, stored actions, memory and CPU time.
    ``?reset=true`` clears the loop-lag window (benchmarks do it before measuring)."""
    require_operator(request)
    state = request.app.state
    registry, monitor = state.registry, state.loop_monitor
    statuses: dict[str, int] = {}
    connections = 0
    for actor in registry.actors.values():
        status = actor.table.status.value
        statuses[status] = statuses.get(status, 0) + 1
        connections += len(actor.connections)
    result: dict[str, Any] = {
        "loop_lag": monitor.loop_figures(),
        "gc": monitor.gc_figures(),
        "tables": statuses,
        "connections": connections,
        "stored": {"actions": state.repo.writer.actions, "batches": state.repo.writer.batches},
        "process": process_figures(),
    }
    cluster = registry.cluster
    if cluster is not None:
        result["cluster"] = {"node": cluster.node_id, "url": cluster.internal_url,
                             "tables": sorted(cluster.owned), **cluster.counts}
    if reset:
        monitor.reset_worst()
    return result
