"""``/metrics``: loop lag, tables, connections, stored actions, memory, CPU."""

from __future__ import annotations

import httpx

from tests.support.client import ApiClient


def test_metrics_report_the_server_figures(shared_server) -> None:
    host = ApiClient(shared_server.url, "Ana")
    host.create_table("hanabi", 2)
    body = httpx.get(shared_server.url + "/metrics", timeout=10).json()
    assert body["tables"].get("waiting", 0) >= 1
    assert body["loop_lag"]["samples"] >= 0 and body["loop_lag"]["max_ms"] >= 0
    assert body["process"]["rss_mb"] > 10 and body["process"]["cpu_seconds"] > 0
    assert body["process"]["gc_frozen"] > 1000  # start-up objects kept out of collections
    assert set(body["stored"]) == {"actions", "batches"}
    again = httpx.get(shared_server.url + "/metrics?reset=true", timeout=10).json()
    assert again["loop_lag"]["worst_since_start_ms"] >= 0
