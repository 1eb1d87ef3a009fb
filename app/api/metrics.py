"""``GET /metrics``: the server's own figures as JSON (for operators and bench/load.py)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from app.metrics import process_figures

router = APIRouter(tags=["operations"])


@router.get("/metrics")
async def metrics(request: Request, reset: bool = False) -> dict[str, Any]:
    """Loop lag, tables by status, connections, stored actions, memory and CPU time.
    ``?reset=true`` clears the loop-lag window (benchmarks do it before measuring)."""
    state = request.app.state
    registry, monitor = state.registry, state.loop_monitor
    statuses: dict[str, int] = {}
    connections = 0
    for actor in registry.actors.values():
        status = actor.table.status.value
        statuses[status] = statuses.get(status, 0) + 1
        connections += len(actor.connections)
    figures = {
        "loop_lag": monitor.loop_figures(),
        "gc": monitor.gc_figures(),
        "tables": statuses,
        "connections": connections,
        "stored": {"actions": state.repo.writer.actions, "batches": state.repo.writer.batches},
        "process": process_figures(),
    }
    cluster = registry.cluster
    if cluster is not None:
        figures["cluster"] = {"node": cluster.node_id, "url": cluster.internal_url,
                              "tables": sorted(cluster.owned)}
    if reset:
        monitor.reset_worst()
    return figures
