"""Input that used to crash or stick (issue 21): messages and imported files nested deep
enough to break a recursive decoder or encoder, imported dates from the future, imported
names that the lobby would refuse.

Each check talks to a real server: a deeply nested WebSocket message gets ``bad_message``
and the socket stays open; an import the server could not serve back is refused (422), and
one that is accepted can be replayed and exported again.
"""

from __future__ import annotations

import json
import random
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest

from tests.support.client import ApiClient, SeatClient, connect_and_start, play_to_end, seat_players


def nested(depth: int, leaf: Any = 1, key: str | None = "a") -> Any:
    """``depth`` levels of objects (or lists, when ``key`` is None) around ``leaf``."""
    value = leaf
    for _ in range(depth):
        value = {key: value} if key is not None else [value]
    return value


def deep_text(depth: int, key: str = "a") -> str:
    """The JSON text of ``nested(depth)``, written without a recursive encoder."""
    if key:
        return ('{"' + key + '":') * depth + "1" + "}" * depth
    return "[" * depth + "1" + "]" * depth


# ------------------------------------------------------------------ WebSocket messages


@pytest.mark.parametrize("inner", [
    pytest.param('{"type":"action","version":3,"action":{"type":"play","x":%s}}', id="action"),
    pytest.param('{"type":"ephemeral","data":{"x":%s}}', id="ephemeral"),
    pytest.param("%s", id="bare"),
])
@pytest.mark.parametrize("depth", [100, 900, 3000])
async def test_a_deeply_nested_message_is_a_bad_message_and_the_socket_stays_open(
        shared_server, inner: str, depth: int) -> None:
    players, table, _ = seat_players(shared_server.url, "hanabi", 2)
    clients = await connect_and_start(shared_server.ws_url, players, table)
    a = clients[0]
    message = inner.replace("%s", deep_text(depth, key=""))
    assert len(message) < 16 * 1024  # under the size limit: it is the depth that matters
    await a.send(message)
    error = await a.next_of("error")
    assert error["code"] == "bad_message", error
    assert "nested" in error["message"]
    # the connection is still open and the table still plays
    await a.send({"type": "ping"})
    await a.next_of("pong")
    version = max(c.state["version"] for c in clients)
    mover = next(c for c in clients if c.my_turn() and c.state["version"] == version)
    await mover.act(mover.state["legal_actions"][0])
    assert (await mover.wait_version(version + 1))["version"] == version + 1
    for c in clients:
        await c.close()


async def test_a_shallow_unusual_message_still_reaches_the_game(shared_server) -> None:
    """The depth bound is far above what a game needs: a message nested a few levels
    reaches the game, which judges it (Ikebana refuses the unknown field)."""
    players, table, _ = seat_players(shared_server.url, "ikebana", 2)
    clients = await connect_and_start(shared_server.ws_url, players, table)
    mover = next(c for c in clients if c.my_turn())
    bad = {**mover.state["legal_actions"][0], "junk": nested(20)}
    await mover.act(bad)
    error = await mover.next_of("error")
    assert error["code"] == "bad_action", error
    for c in clients:
        await c.close()


# ------------------------------------------------------------------ imported matches


@pytest.fixture(scope="module")
def record(shared_server) -> dict[str, Any]:
    """The export of a finished two-player Hanabi game."""
    import asyncio

    async def play() -> str:
        players, table, _ = seat_players(shared_server.url, "hanabi", 2)
        clients = await connect_and_start(shared_server.ws_url, players, table)
        await clients[0].send({"type": "chat", "text": "hola"})
        await play_to_end(clients, random.Random(3))
        for c in clients:
            await c.close()
        return table["id"]

    table_id = asyncio.run(play())
    return httpx.get(f"{shared_server.url}/api/matches/{table_id}/export", timeout=10).json()


@pytest.fixture(scope="module")
def importer(shared_server) -> ApiClient:
    return ApiClient(shared_server.url, "Archivo")


def post(importer: ApiClient, body: Any) -> httpx.Response:
    """Import as a new player each time (imports count as new tables, rate-limited)."""
    who = ApiClient(importer.base_url, importer.name)
    content = body if isinstance(body, str) else json.dumps(body)
    return httpx.post(f"{who.base_url}/api/matches/import", content=content,
                      headers={**who.headers, "Content-Type": "application/json"},
                      timeout=30)


def copy(record: dict[str, Any]) -> dict[str, Any]:
    return json.loads(json.dumps(record))


def served_back(base: str, match_id: str) -> None:
    """Every way the server shows a match answers (not 500)."""
    for path in (f"/api/matches/{match_id}", f"/api/matches/{match_id}/export",
                 f"/api/matches/{match_id}/replay", f"/api/matches/{match_id}/replay?seat=all",
                 f"/api/matches/{match_id}/views/1?seat=0", f"/matches/{match_id}"):
        r = httpx.get(base + path, timeout=10)
        assert r.status_code == 200, (path, r.status_code, r.text[:300])


def test_an_import_with_deeply_nested_chat_params_is_refused(shared_server, record,
                                                              importer) -> None:
    """The attack of issue 21: accepted (201), then its replay and export answered 500."""
    body = copy(record)
    body["chat"].append({"kind": "system", "seat": None, "name": "", "text": None,
                         "code": "joined", "params": {"__deep__": 0}, "at": None})
    r = post(importer, json.dumps(body).replace('{"__deep__": 0}', deep_text(900)))
    assert r.status_code == 422, r.text[:300]
    assert r.json()["code"] == "bad_record"
    assert "chat" in r.json()["message"] and "nested" in r.json()["message"]


@pytest.mark.parametrize("where", ["action", "params", "options", "outcome"])
@pytest.mark.parametrize("depth", [40, 300, 3000])
def test_every_free_form_field_of_an_import_is_bounded_in_depth(
        shared_server, record, importer, where: str, depth: int) -> None:
    body = copy(record)
    marker = {"__deep__": 0}
    if where == "action":
        body["log"][0]["action"]["extra"] = marker
    elif where == "params":
        body["chat"].append({"kind": "system", "code": "joined", "params": {"x": marker}})
    elif where == "options":
        body["options"]["extra"] = marker
    else:
        body["outcome"]["details"]["extra"] = marker
    text = json.dumps(body).replace('{"__deep__": 0}', deep_text(depth))
    r = post(importer, text)
    assert r.status_code == 422, r.text[:300]
    assert r.json()["code"] == "bad_record"
    assert "nested" in r.json()["message"]


def test_oversized_fields_of_an_import_are_refused(shared_server, record, importer) -> None:
    body = copy(record)
    body["chat"].append({"kind": "system", "code": "joined",
                         "params": {f"k{i}": "x" * 100 for i in range(100)}})
    r = post(importer, body)
    assert r.status_code == 422 and r.json()["code"] == "bad_record", r.text
    assert "chat" in r.json()["message"]
    body = copy(record)
    body["log"][0]["action"]["extra"] = ["x" * 1000] * 30
    r = post(importer, body)
    assert r.status_code == 422 and r.json()["code"] == "bad_record", r.text


def _at(value: datetime) -> str:
    return value.isoformat()


def test_imported_dates_must_be_plausible(shared_server, record, importer) -> None:
    started = datetime.fromisoformat(record["started_at"])
    future = datetime.now(UTC) + timedelta(days=2)
    cases: list[tuple[str, dict[str, Any]]] = [
        ("finished_at", {"finished_at": "9999-12-31T00:00:00+00:00"}),
        ("finished_at", {"finished_at": _at(future)}),
        ("started_at", {"started_at": _at(future), "finished_at": _at(future)}),
        ("finished_at", {"finished_at": _at(started - timedelta(hours=1))}),
        ("started_at", {"started_at": "0001-01-01T00:00:00+01:00"}),
        ("started_at", {"started_at": "1970-01-01T00:00:00+00:00"}),
    ]
    for where, change in cases:
        r = post(importer, {**copy(record), **change})
        assert r.status_code == 422, (change, r.text)
        assert r.json()["code"] == "bad_record" and where in r.json()["message"], r.text
    # a move before the game began, or after it ended, or in the future
    for when in (started - timedelta(minutes=5), future):
        body = copy(record)
        body["log"][2]["at"] = _at(when)
        r = post(importer, body)
        assert r.status_code == 422 and "log" in r.json()["message"], r.text
    # moves out of order in time
    body = copy(record)
    body["log"][1]["at"], body["log"][2]["at"] = body["log"][2]["at"], body["log"][1]["at"]
    if body["log"][1]["at"] != body["log"][2]["at"]:
        r = post(importer, body)
        assert r.status_code == 422 and "log" in r.json()["message"], r.text
    # chat from the future
    body = copy(record)
    body["chat"][0]["at"] = _at(future)
    r = post(importer, body)
    assert r.status_code == 422 and "chat" in r.json()["message"], r.text


def test_an_import_dated_as_exported_is_accepted_and_keeps_its_place(shared_server, record,
                                                                      importer) -> None:
    r = post(importer, record)
    assert r.status_code == 201, r.text
    imported = r.json()
    assert imported["finished_at"][:19] == record["finished_at"][:19]
    served_back(shared_server.url, imported["id"])
    # the public list is newest first by finished_at: the import sits where the original
    # game's end puts it, not at the top
    listed = httpx.get(f"{shared_server.url}/api/matches?limit=100", timeout=10).json()
    ends = [datetime.fromisoformat(m["finished_at"]) for m in listed]
    assert ends == sorted(ends, reverse=True)
    assert imported["id"] in [m["id"] for m in listed]


@pytest.mark.parametrize(("name", "accepted"), [
    ("Ana\u0000", False), ("Ana\nBen", False), ("   ", False), ("\u200b\u200b", False),
    ("x" * 33, False), ("  Ana   María ", True),
])
def test_imported_names_are_checked_like_the_lobby_checks_them(
        shared_server, record, importer, name: str, accepted: bool) -> None:
    for where in ("players", "chat"):
        body = copy(record)
        if where == "players":
            body["players"][0]["name"] = name
        else:
            line = next(c for c in body["chat"] if c["kind"] == "player")
            line["name"] = name
        r = post(importer, body)
        if accepted:
            assert r.status_code == 201, r.text
            served_back(shared_server.url, r.json()["id"])
            export = httpx.get(f"{shared_server.url}/api/matches/{r.json()['id']}/export",
                               timeout=10).json()
            names = [p["name"] for p in export["players"]] + [c["name"] for c in export["chat"]]
            assert "Ana María" in names
        else:
            assert r.status_code == 422, (where, r.text)
            assert r.json()["code"] == "bad_record" and where in r.json()["message"], r.text


def test_chat_text_is_checked_like_live_chat(shared_server, record, importer) -> None:
    body = copy(record)
    line = next(c for c in body["chat"] if c["kind"] == "player")
    line["text"] = "hola\u0000"
    r = post(importer, body)
    assert r.status_code == 422 and "chat" in r.json()["message"], r.text


def test_what_an_import_refuses_is_not_stored(shared_server, record, importer) -> None:
    before = httpx.get(f"{shared_server.url}/api/matches?limit=100", timeout=10).json()
    body = copy(record)
    body["finished_at"] = "9999-12-31T00:00:00+00:00"
    assert post(importer, body).status_code == 422
    after = httpx.get(f"{shared_server.url}/api/matches?limit=100", timeout=10).json()
    assert [m["id"] for m in after] == [m["id"] for m in before]


def test_the_deep_socket_helpers_build_what_they_say() -> None:
    assert json.loads(deep_text(3)) == {"a": {"a": {"a": 1}}}
    assert json.loads(deep_text(2, key="")) == [[1]]
    assert nested(2) == {"a": {"a": 1}}


@pytest.mark.parametrize("depth", [900])
async def test_the_socket_of_another_player_is_not_disturbed(shared_server, depth: int) -> None:
    players, table, _ = seat_players(shared_server.url, "hanabi", 2)
    clients = await connect_and_start(shared_server.ws_url, players, table)
    watcher = SeatClient(shared_server.ws_url, table["id"], None)
    await watcher.open()
    await clients[1].send('{"type":"chat","text":' + deep_text(depth, key="") + "}")
    error = await clients[1].next_of("error")
    assert error["code"] == "bad_message"
    await watcher.send({"type": "ping"})
    assert (await watcher.next_of("pong"))["type"] == "pong"
    for c in (*clients, watcher):
        await c.close()
