"""The table answers built without pydantic (app/api/shapes.py ``summary_json``) are the JSON
the response model gives, field for field and in the same order; the routes that send them
still document ``TableOut`` in the OpenAPI document."""

from __future__ import annotations

from typing import Any

import httpx
import orjson
import pytest
from starlette.requests import Request

from app.api.schemas import TableOut
from app.api.shapes import json_response, summary_json, summary_out
from app.tables.core.state import TableStatus
from tests.support.client import ApiClient


def request(host: bytes = b"example.org", scheme: str = "https") -> Request:
    return Request({"type": "http", "method": "GET", "path": "/", "headers": [
        (b"host", host)], "scheme": scheme, "server": ("example.org", 443),
        "query_string": b"", "root_path": ""})


def summary(**changes: Any) -> dict[str, Any]:
    base = {
        "id": "t1", "game": "hanabi", "status": TableStatus.WAITING, "version": 3,
        "seat_count": 3, "options": {"clue_tokens": 8, "variant": "ñ", "list": [1, None]},
        "private": False, "host": {"id": "p0", "name": "Ana"},
        "seats": [
            {"seat": 0, "connected": True, "away_for": None, "autopilot": False,
             "player": {"id": "p0", "name": "Ana", "bot": False}},
            {"seat": 1, "connected": False, "away_for": 12, "autopilot": True,
             "player": {"id": "b1", "name": "Bot", "bot": True}},
            {"seat": 2, "connected": False, "away_for": None, "autopilot": False,
             "player": None}],
        "spectators": {"count": 2, "names": ["Eve"]},
        "created_at": "2026-05-04T03:02:01+00:00", "outcome": None, "rematch_of": None,
        "branch_of": None,
    }
    return {**base, **changes}


@pytest.mark.parametrize("changes, viewer", [
    ({}, None),
    ({}, "p0"),
    ({"private": True}, None),  # no links for a stranger
    ({"private": True}, "b1"),  # links for a seated player
    ({"status": TableStatus.FINISHED, "outcome": {"scores": [25, 25, 25], "why": None}}, "x"),
    ({"branch_of": {"match": "m1", "step": 7}, "rematch_of": "t0"}, None),
    ({"spectators": {"count": 0, "names": []}, "version": 1}, "p0"),
])
def test_the_json_is_the_models_own(changes: dict[str, Any], viewer: str | None) -> None:
    s = summary(**changes)
    fast = summary_json(request(), s, "inv-1", viewer)
    slow = summary_out(request(), s, "inv-1", viewer).model_dump(mode="json")
    assert fast == slow
    assert list(fast) == list(slow) and list(fast["seats"][0]) == list(slow["seats"][0])
    assert orjson.loads(json_response(fast).body) == slow
    assert (fast["invite_url"] is None) == (s["private"] and viewer not in ("p0", "b1"))


def test_the_routes_answer_what_their_model_documents(shared_server) -> None:
    base = shared_server.url
    host = ApiClient(base, "Host")
    guest = ApiClient(base, "Guest")
    table = host.create_table("hanabi", 3)
    joined = httpx.post(f"{base}/api/tables/{table['id']}/join", headers=guest.headers,
                        json={})
    assert joined.status_code == 200 and joined.headers["content-type"] == "application/json"
    body = joined.json()
    assert body["seat"] == 1 and TableOut.model_validate(body["table"]).model_dump(
        mode="json") == body["table"]
    one = httpx.get(f"{base}/api/tables/{table['id']}").json()
    assert TableOut.model_validate(one).model_dump(mode="json") == one
    listed = httpx.get(f"{base}/api/tables").json()

    def still(t: dict[str, Any]) -> dict[str, Any]:  # away_for grows between two calls
        return {**t, "seats": [{**s, "away_for": None} for s in t["seats"]]}
    assert [still(t) for t in listed if t["id"] == table["id"]] == [still(one)]
    left = httpx.post(f"{base}/api/tables/{table['id']}/leave", headers=guest.headers)
    assert left.status_code == 200 and left.json()["version"] > one["version"]
    alone = ApiClient(base, "Alone")
    mine = alone.create_table("hanabi", 2)
    gone = httpx.post(f"{base}/api/tables/{mine['id']}/leave", headers=alone.headers)
    assert gone.status_code == 200 and gone.json() is None  # the last one out: deleted
    paths = httpx.get(f"{base}/openapi.json").json()["paths"]

    def schema(path: str, method: str, status: str) -> Any:
        return paths[path][method]["responses"][status]["content"]["application/json"][
            "schema"]
    table_ref = {"$ref": "#/components/schemas/TableOut"}
    assert schema("/api/tables/{table_id}", "get", "200") == table_ref
    assert schema("/api/tables", "post", "201") == table_ref
    assert schema("/api/tables", "get", "200")["items"] == table_ref
    assert schema("/api/tables/{table_id}/join", "post", "200") == {
        "$ref": "#/components/schemas/JoinedOut"}
    assert table_ref in schema("/api/tables/{table_id}/leave", "post", "200")["anyOf"]


def test_links_follow_the_host_and_scheme_of_each_request() -> None:
    s = summary()
    for host, scheme in [(b"example.org", "https"), (b"other.net:8080", "http"),
                         (b"example.org", "http"), (b"example.org", "https")]:
        url = summary_json(request(host, scheme), s, "inv-1", None)["url"]
        assert url == f"{scheme}://{host.decode()}/tables/t1"
        assert url == summary_out(request(host, scheme), s, "inv-1", None).url


def starlette_json(content: Any) -> bytes:
    """What FastAPI's JSONResponse writes for a response model's data."""
    import json

    return json.dumps(content, ensure_ascii=False, allow_nan=False, indent=None,
                      separators=(",", ":")).encode()


def test_player_and_start_answers_are_the_bytes_their_model_gives(shared_server) -> None:
    from app.api.schemas import PlayerCreated, PlayerOut

    base = shared_server.url
    created = httpx.post(f"{base}/api/players", json={"name": "Zoë  \u00f1 \"q\" 😀"})
    assert created.status_code == 201 and created.headers["content-type"] == "application/json"
    model = PlayerCreated.model_validate(created.json())
    assert created.content == starlette_json(model.model_dump(mode="json"))
    me = httpx.get(f"{base}/api/players/me",
                   headers={"Authorization": f"Bearer {model.token}"})
    assert me.status_code == 200 and me.headers["content-type"] == "application/json"
    assert me.content == starlette_json(PlayerOut(id=model.id, name=model.name).model_dump(
        mode="json"))
    host = ApiClient(base, "Host")
    guest = ApiClient(base, "Guest")
    table = host.create_table("hanabi", 2)
    guest.join(table["id"])
    started = httpx.post(f"{base}/api/tables/{table['id']}/start", headers=host.headers)
    assert started.status_code == 200 and started.headers["content-type"] == "application/json"
    assert started.json()["status"] == "playing"
    assert TableOut.model_validate(started.json()).model_dump(mode="json") == started.json()
    assert list(started.json()) == list(TableOut.model_fields)
