"""What the server can tell about its own health: event-loop lag, tables, connections,
stored actions, memory and CPU. Served at ``/metrics`` (JSON) and logged once a minute.

Loop lag is how late a 100 ms sleep wakes up: anything that blocks the loop (a long
computation, a slow synchronous call, a garbage-collector pause) shows up here.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import os
import resource
import time
from collections import deque
from typing import Any

log = logging.getLogger("ludoteca.metrics")

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
