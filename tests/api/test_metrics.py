"""The operators' figures: ``/metrics`` (Prometheus text, read back with prometheus-client's
own parser) and ``/metrics.json`` (what bench/ reads), both behind the operator token, and
neither naming a table."""

from __future__ import annotations

import httpx
import pytest
from prometheus_client.openmetrics.parser import (
    text_string_to_metric_families as openmetrics_families,
)
from prometheus_client.parser import text_string_to_metric_families

from tests.support.client import ApiClient, connect_and_start, seat_players
from tests.support.server import OPERATOR, OPERATOR_TOKEN, LiveServer


@pytest.mark.parametrize("path", ["/metrics", "/metrics.json"])
def test_operator_figures_need_the_operator_token(shared_server: LiveServer, path: str) -> None:
    player = ApiClient(shared_server.url, "Ana")  # a player's token is not the operator's
    for headers, status, code in [
            ({}, 401, "operator_token_required"),
            ({"Authorization": "Bearer wrong"}, 403, "bad_operator_token"),
            ({"Authorization": f"Bearer {player.token}"}, 403, "bad_operator_token"),
            ({"Authorization": f"Basic {OPERATOR_TOKEN}"}, 401, "operator_token_required")]:
        r = httpx.get(shared_server.url + path, headers=headers, timeout=10)
        assert (r.status_code, r.json()["code"]) == (status, code), r.text
    assert httpx.get(shared_server.url + path, headers=OPERATOR, timeout=10).status_code == 200
    # not part of the players' API
    paths = httpx.get(shared_server.url + "/openapi.json", timeout=10).json()["paths"]
    assert path not in paths


def test_json_figures(shared_server: LiveServer) -> None:
    host = ApiClient(shared_server.url, "Ana")
    host.create_table("hanabi", 2)
    body = httpx.get(shared_server.url + "/metrics.json", headers=OPERATOR, timeout=10).json()
    assert body["tables"].get("waiting", 0) >= 1
    assert body["loop_lag"]["samples"] >= 0 and body["loop_lag"]["max_ms"] >= 0
    assert body["process"]["rss_mb"] > 10 and body["process"]["cpu_seconds"] > 0
    assert body["process"]["gc_frozen"] > 1000  # start-up objects kept out of collections
    assert set(body["stored"]) == {"actions", "batches"}
    assert "cluster" not in body  # one process
    again = httpx.get(shared_server.url + "/metrics.json?reset=true", headers=OPERATOR,
                      timeout=10).json()
    assert again["loop_lag"]["worst_since_start_ms"] >= 0


def _families(server: LiveServer) -> tuple[dict[str, dict], str]:
    r = httpx.get(server.url + "/metrics", headers=OPERATOR, timeout=10)
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("text/plain; version=0.0.4")
    return {f.name: {"type": f.type, "samples": f.samples}
            for f in text_string_to_metric_families(r.text)}, r.text


def _value(families: dict, family: str, sample: str, **labels: str) -> float:
    found = [s.value for s in families[family]["samples"]
             if s.name == sample and all(s.labels.get(k) == v for k, v in labels.items())]
    return sum(found)


async def test_prometheus_text_holds_the_operators_figures(shared_server: LiveServer) -> None:
    players, table, invite = seat_players(shared_server.url, "hanabi", 2, private=True)
    clients = await connect_and_start(shared_server.url.replace("http", "ws"), players, table)
    try:
        mover = next(c for c in clients if c.my_turn())
        await mover.act_until_accepted(mover.state["legal_actions"][0])
        families, text = _families(shared_server)
    finally:
        for c in clients:
            await c.close()

    # requests by route template, never by a path with a table id or an invite in it
    assert families["ludoteca_http_requests"]["type"] == "counter"
    assert families["ludoteca_tables"]["type"] == "gauge"
    assert _value(families, "ludoteca_http_requests", "ludoteca_http_requests_total",
                  method="POST", route="/api/tables", status="201") >= 1
    assert _value(families, "ludoteca_http_requests", "ludoteca_http_requests_total",
                  route="/api/tables/{table_id}/start") >= 1
    assert table["id"] not in text and invite not in text
    for token in (p.token for p in players):
        assert token not in text
    assert families["ludoteca_http_request_duration_seconds"]["type"] == "histogram"
    assert _value(families, "ludoteca_http_request_duration_seconds",
                  "ludoteca_http_request_duration_seconds_count", route="/api/players") >= 2

    # the actors' commands: the move, the joins, the start; the group commit's batches
    assert _value(families, "ludoteca_table_commands", "ludoteca_table_commands_total",
                  game="hanabi", command="act", outcome="ok") >= 1
    assert _value(families, "ludoteca_table_commands", "ludoteca_table_commands_total",
                  game="hanabi", command="start", outcome="ok") >= 1
    assert _value(families, "ludoteca_table_command_duration_seconds",
                  "ludoteca_table_command_duration_seconds_count", command="act") >= 1
    assert _value(families, "ludoteca_group_commit_batch_size",
                  "ludoteca_group_commit_batch_size_count", writer="group-writer") >= 1
    assert _value(families, "ludoteca_actions_stored", "ludoteca_actions_stored_total") >= 1
    assert _value(families, "ludoteca_action_commits", "ludoteca_action_commits_total") >= 1

    # state at scrape time: tables by status, sockets, loop lag, the process
    assert _value(families, "ludoteca_tables", "ludoteca_tables", status="playing") >= 1
    assert _value(families, "ludoteca_websockets_open", "ludoteca_websockets_open") >= 2
    assert _value(families, "ludoteca_table_connections", "ludoteca_table_connections") >= 2
    assert _value(families, "ludoteca_event_loop_lag_seconds",
                  "ludoteca_event_loop_lag_seconds_count") >= 1
    assert {"ludoteca_event_loop_lag_recent_seconds", "ludoteca_gc_worst_pause_seconds",
            "process_resident_memory_bytes", "process_cpu_seconds",
            "python_gc_collections"} <= families.keys()
    assert _value(families, "process_resident_memory_bytes",
                  "process_resident_memory_bytes") > 10e6
    assert "ludoteca_cluster_tables_owned" not in families  # one process


def test_openmetrics_when_the_scraper_asks_for_it(shared_server: LiveServer) -> None:
    accept = "application/openmetrics-text;version=1.0.0,text/plain;version=0.0.4;q=0.5"
    r = httpx.get(shared_server.url + "/metrics", headers={**OPERATOR, "Accept": accept},
                  timeout=10)
    assert r.headers["content-type"].startswith("application/openmetrics-text; version=1.0.0")
    assert r.text.endswith("# EOF\n")
    names = {f.name for f in openmetrics_families(r.text)}
    assert {"ludoteca_http_requests", "ludoteca_tables", "ludoteca_event_loop_lag_seconds",
            "ludoteca_websockets_open"} <= names


async def test_refused_commands_are_counted_by_their_code(shared_server: LiveServer) -> None:
    before, _ = _families(shared_server)
    players, table, _ = seat_players(shared_server.url, "hanabi", 2)
    r = players[1].start(table["id"])  # only the host starts
    assert r.status_code == 403, r.text
    after, _ = _families(shared_server)
    key = {"game": "hanabi", "command": "start", "outcome": "forbidden"}
    assert (_value(after, "ludoteca_table_commands", "ludoteca_table_commands_total", **key)
            == _value(before, "ludoteca_table_commands", "ludoteca_table_commands_total",
                      **key) + 1)
