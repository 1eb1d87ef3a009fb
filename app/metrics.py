"""What the server can tell about its own health: requests, table commands, event-loop lag,
open sockets, tables, group commits, memory and CPU. Served to operators (with the operator
token) at ``/metrics`` in the Prometheus text format and at ``/metrics.json`` (the figures
bench/ reads); the loop lag is also logged once a minute.

Loop lag is how late a 100 ms sleep wakes up: anything that blocks the loop (a long
computation, a slow synchronous call, a garbage-collector pause) shows up here.

No label carries a table id, a player or a path with an id in it: routes are labelled by
their template (``/api/tables/{table_id}``), tables are only counted.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import os
import resource
import time
from collections import deque
from collections.abc import Iterator
from typing import Any

from prometheus_client import (
    GC_COLLECTOR,
    PLATFORM_COLLECTOR,
    PROCESS_COLLECTOR,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    disable_created_metrics,
)
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.registry import Collector
from starlette.types import ASGIApp, Message, Receive, Scope, Send

log = logging.getLogger("ludoteca.metrics")

# no `_created` series beside every counter and histogram: scrapers rarely use them and they
# double the page
disable_created_metrics()

# ------------------------------------------------------------------ counted as things happen
# One set per process (several apps in one process, as in the tests, add up); each app's
# registry (registry_for) shows them beside that app's own figures.

HTTP_REQUESTS = Counter(
    "ludoteca_http_requests", "HTTP requests answered, by route template and status",
    ["method", "route", "status"], registry=None)
HTTP_SECONDS = Histogram(
    "ludoteca_http_request_duration_seconds",
    "Time from a request's arrival to the end of its answer, by route template",
    ["method", "route"], registry=None,
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10))
WEBSOCKETS_OPEN = Gauge(
    "ludoteca_websockets_open", "WebSockets open in this process (piped ones included)",
    registry=None)
WEBSOCKETS = Counter("ludoteca_websockets", "WebSockets opened", registry=None)
COMMANDS = Counter(
    "ludoteca_table_commands",
    "Commands a table's actor handled (act: a player's move, botturn: a bot's; join, chat, "
    "start...), by game and outcome (ok, or the error code it was refused with)",
    ["game", "command", "outcome"], registry=None)
COMMAND_SECONDS = Histogram(
    "ludoteca_table_command_duration_seconds",
    "Time a table's actor spent on a command: validating, storing (the group commit), "
    "sending every connection its view", ["command"], registry=None,
    buckets=(0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5))
LOOP_LAG = Histogram(
    "ludoteca_event_loop_lag_seconds", "How late a 100 ms sleep of the event loop woke up",
    registry=None,
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5))
BATCH_SIZE = Histogram(
    "ludoteca_group_commit_batch_size",
    "Items written in one commit by a group writer (actions, chat lines)", ["writer"],
    registry=None, buckets=(1, 2, 5, 10, 20, 50, 100, 200, 500, 1000))

_SHARED: list[Collector] = [HTTP_REQUESTS, HTTP_SECONDS, WEBSOCKETS_OPEN, WEBSOCKETS, COMMANDS,
                            COMMAND_SECONDS, LOOP_LAG, BATCH_SIZE]


class command:  # noqa: N801 - used like the context manager function it replaced
    """Count and time one command of a table's actor (the hook in TableActor._run):
    ``with metrics.command(game, cmd): ...``. Runs for every move, so the labelled children
    are looked up once per (game, command, outcome) and kept, not asked of the registry."""

    __slots__ = ("game", "name", "started")

    def __init__(self, game: str, cmd: object) -> None:
        self.game = game
        self.name = type(cmd).__name__.lower()

    def __enter__(self) -> None:
        self.started = time.perf_counter()

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 _tb: object) -> None:
        elapsed = time.perf_counter() - self.started
        if kind is None:
            outcome = "ok"
        elif isinstance(exc, Exception):
            outcome = str(getattr(exc, "code", "") or "error")
        else:
            outcome = "error"
        key = (self.game, self.name, outcome)
        children = _COMMAND_CHILDREN.get(key)
        if children is None:
            if len(_COMMAND_CHILDREN) > 10_000:  # (error codes are a closed set; a guard)
                _COMMAND_CHILDREN.clear()
            children = _COMMAND_CHILDREN[key] = (COMMAND_SECONDS.labels(self.name),
                                                 COMMANDS.labels(*key))
        children[0].observe(elapsed)
        children[1].inc()


_COMMAND_CHILDREN: dict[tuple[str, str, str], tuple[Any, Any]] = {}


def batch_committed(writer: str, size: int) -> None:
    """One group commit of ``size`` items (the hook in app/db/batching.py: a quiet server
    commits every action alone, so its labelled child is kept, not asked for each time)."""
    child = _BATCH_CHILDREN.get(writer)
    if child is None:
        child = _BATCH_CHILDREN[writer] = BATCH_SIZE.labels(writer)
    child.observe(size)


_BATCH_CHILDREN: dict[str, Any] = {}


class MetricsMiddleware:
    """Counts and times HTTP requests (labelled by the route's template, never the raw path),
    and keeps the number of open WebSockets."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            WEBSOCKETS.inc()
            WEBSOCKETS_OPEN.inc()
            try:
                await self.app(scope, receive, send)
            finally:
                WEBSOCKETS_OPEN.dec()
            return
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        status = 500  # what the server answers if the app fails before it starts a response

        async def send_status(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await send(message)

        try:
            await self.app(scope, receive, send_status)
        finally:
            route = scope.get("route")
            # a request routed nowhere (404), or forwarded to the table's owner untouched
            template = getattr(route, "path", None) or "other"
            key = (scope.get("method", ""), template, status)
            children = _HTTP_CHILDREN.get(key)
            if children is None:  # looked up once per (method, route, status), then kept
                if len(_HTTP_CHILDREN) > 10_000:  # (routes and statuses are few; a guard)
                    _HTTP_CHILDREN.clear()
                children = _HTTP_CHILDREN[key] = (HTTP_SECONDS.labels(*key[:2]),
                                                  HTTP_REQUESTS.labels(*key[:2], str(status)))
            children[0].observe(time.perf_counter() - started)
            children[1].inc()


_HTTP_CHILDREN: dict[tuple[str, str, int], tuple[Any, Any]] = {}


class StateCollector(Collector):
    """What is read from the app at scrape time: tables by status, connections, stored
    actions and the commits they took, the last minute of loop lag, this process's share of
    a cluster."""

    def __init__(self, state: Any) -> None:
        self.state = state

    def collect(self) -> Iterator[Metric]:
        registry = getattr(self.state, "registry", None)
        if registry is None:  # not started yet
            return
        tables = GaugeMetricFamily("ludoteca_tables", "Tables in this process's memory, by "
                                   "status", labels=["status"])
        statuses: dict[str, int] = {}
        connections = 0
        for actor in list(registry.actors.values()):
            statuses[actor.info.status] = statuses.get(actor.info.status, 0) + 1
            connections += len(actor.connections)
        for status in ("waiting", "playing", "finished"):
            statuses.setdefault(status, 0)
        for status, count in sorted(statuses.items()):
            tables.add_metric([status], count)
        yield tables
        yield GaugeMetricFamily("ludoteca_table_connections",
                                "Connections (players and spectators) at this process's tables",
                                value=connections)
        writer = self.state.repo.writer
        yield CounterMetricFamily("ludoteca_actions_stored", "Actions durably stored",
                                  value=writer.actions)
        yield CounterMetricFamily("ludoteca_action_commits",
                                  "Commits that stored them (group commit: several each)",
                                  value=writer.batches)
        monitor = getattr(self.state, "loop_monitor", None)
        if monitor is not None:
            recent = GaugeMetricFamily("ludoteca_event_loop_lag_recent_seconds",
                                       "Loop lag over the last minute, by quantile",
                                       labels=["quantile"])
            figures = monitor.loop_figures()
            for quantile, key in (("0.5", "p50_ms"), ("0.99", "p99_ms"), ("1", "max_ms")):
                recent.add_metric([quantile], figures[key] / 1000)
            yield recent
            pauses = GaugeMetricFamily("ludoteca_gc_worst_pause_seconds",
                                       "Longest garbage-collector pause since start (or the "
                                       "last reset), by generation", labels=["generation"])
            for generation, worst in enumerate(monitor.gc_worst):
                pauses.add_metric([str(generation)], worst)
            yield pauses
        cluster = registry.cluster
        if cluster is not None:
            yield GaugeMetricFamily("ludoteca_cluster_tables_owned",
                                    "Tables whose lease this process holds",
                                    value=len(cluster.owned))


def registry_for(state: Any) -> CollectorRegistry:
    """One app's registry: the shared counters, its own state, the process and Python."""
    registry = CollectorRegistry(auto_describe=False)
    for collector in [*_SHARED, PROCESS_COLLECTOR, PLATFORM_COLLECTOR, GC_COLLECTOR,
                      StateCollector(state)]:
        registry.register(collector)
    return registry

# The collector's thresholds (``gc.set_threshold``) once start-up is done. Python's default
# (700, 10, 10) runs a full collection of every live object often enough to stall the loop for
# seconds once thousands of sockets and states are alive. A young collection runs after
# 20,000 net new tracked objects and a middle one once three young ones have run, so a middle
# collection examines at most ~100,000 objects (what those young collections left and the
# young generation of the moment): tens of milliseconds. With (50,000, 20) it examined up to
# 1.1 million, and a 2-minute soak of 150 tables stalled the loop for 526-616 ms
# in one such collection (bench/README.md, round 14). The oldest generation is left to the
# same ~10^8 net allocations as before (20,000 x 3 x 1,667): what start-up built is frozen
# out of every collection, and a full collection over a live server's every table is the
# longest pause there is.
GC_THRESHOLDS = (20_000, 3, 1_667)


def tune_collector() -> None:
    """Once start-up is done: keep what it built out of every future collection, and set
    the collector's thresholds (``GC_THRESHOLDS``)."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


TICK = 0.1


class LoopMonitor:
    def __init__(self, window: int = 600) -> None:
        self.lags: deque[float] = deque(maxlen=window)  # the last minute of ticks
        self.worst = 0.0
        self.started = time.monotonic()
        self._task: asyncio.Task[None] | None = None
        # garbage-collector pauses, the usual suspect of a stalled loop
        self.gc_worst = [0.0, 0.0, 0.0]
        self.gc_total = [0.0, 0.0, 0.0]
        self._gc_started = 0.0

    def _on_gc(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._gc_started = time.perf_counter()
            return
        took = time.perf_counter() - self._gc_started
        generation = int(info.get("generation", 0))
        self.gc_worst[generation] = max(self.gc_worst[generation], took)
        self.gc_total[generation] += took

    def start(self) -> None:
        gc.callbacks.append(self._on_gc)
        self._task = asyncio.get_running_loop().create_task(self._run(), name="loop-monitor")

    def gc_figures(self) -> dict[str, list[float]]:
        return {"worst_pause_ms": [round(1000 * w, 2) for w in self.gc_worst],
                "total_ms": [round(1000 * t, 1) for t in self.gc_total]}

    async def stop(self) -> None:
        if self._on_gc in gc.callbacks:
            gc.callbacks.remove(self._on_gc)
        if self._task is not None:
            self._task.cancel()
            try:
                await self._task
            except asyncio.CancelledError:
                pass

    async def _run(self) -> None:
        last_log = time.monotonic()
        while True:
            before = time.monotonic()
            await asyncio.sleep(TICK)
            lag = max(0.0, time.monotonic() - before - TICK)
            LOOP_LAG.observe(lag)
            self.lags.append(lag)
            self.worst = max(self.worst, lag)
            if before - last_log >= 60:
                last_log = before
                figures = self.loop_figures()
                log.info("loop lag ms p50 %.1f p99 %.1f max %.1f (since start %.1f)",
                         figures["p50_ms"], figures["p99_ms"], figures["max_ms"],
                         figures["worst_since_start_ms"])

    def loop_figures(self) -> dict[str, float]:
        lags = sorted(self.lags) or [0.0]

        def pick(q: float) -> float:
            return round(1000 * lags[min(len(lags) - 1, int(q * len(lags)))], 2)

        return {"p50_ms": pick(0.5), "p99_ms": pick(0.99), "max_ms": pick(1.0),
                "worst_since_start_ms": round(1000 * self.worst, 2), "samples": len(lags)}

    def reset_worst(self) -> None:
        self.worst = 0.0
        self.lags.clear()
        self.gc_worst = [0.0, 0.0, 0.0]
        self.gc_total = [0.0, 0.0, 0.0]


def process_figures() -> dict[str, Any]:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    rss_kb = 0
    try:
        with open(f"/proc/{os.getpid()}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    rss_kb = int(line.split()[1])
    except OSError:
        rss_kb = usage.ru_maxrss
    return {"pid": os.getpid(), "rss_mb": round(rss_kb / 1024, 1),
            "cpu_seconds": round(usage.ru_utime + usage.ru_stime, 3),
            "gc_collections": [g["collections"] for g in gc.get_stats()],
            "gc_frozen": gc.get_freeze_count()}
