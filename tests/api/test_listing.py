"""The list of open tables of a single process (app/api/lobby.py ``_local_tables``), each
table's JSON encoded once per state of the table (app/api/shapes.py ``Encoded``), is byte
for byte what building every summary field by field gives (``summary_json`` over
``actor.summary()``, as the list was made before), at every step of tables' lives and as
time passes: joins, leaves, a start, bots, connections coming and going, spectators, seats
away for longer and longer, a game everyone left, deletion. A private table never shows,
nor its invite; the registry's index of public tables drops the ones that ended."""

from __future__ import annotations

from typing import Any

import orjson
import pytest
from starlette.requests import Request

from app.api.lobby import _local_tables, abandoned
from app.api.shapes import Encoded, json_response, summary_json
from app.db.repository import Repository
from app.tables.core.commands import AddBot, Delete, Join, Leave, Start
from app.tables.core.state import TableStatus
from app.tables.registry import LIVE, Registry
from tests.tables.support import FakeClock, close_registry, connect, open_registry

PLAYERS = ("p0", "p1", "p2", "p3", "p4")


def request(host: bytes = b"example.org") -> Request:
    return Request({"type": "http", "method": "GET", "path": "/api/tables", "headers": [
        (b"host", host)], "scheme": "https", "server": ("example.org", 443),
        "query_string": b"", "root_path": ""})


def before(req: Request, registry: Registry, viewer: str | None, game: str | None = None,
           status: str | None = None) -> bytes:
    """The list as it was made before: every actor held gone through, each summary made and
    built into its JSON field by field for this viewer."""
    tables = [(a.summary(), a.table.invite_token) for a in registry.actors.values()
              if not a.table.private and a.table.status in LIVE]
    tables = [t for t in tables if not abandoned(t[0])]
    if game:
        tables = [t for t in tables if t[0]["game"] == game]
    if status:
        tables = [t for t in tables if t[0]["status"] == status]
    tables.sort(key=lambda t: t[0]["created_at"], reverse=True)
    return json_response([summary_json(req, s, invite, viewer) for s, invite in tables]).body


def same(registry: Registry, clock: FakeClock, host: bytes = b"example.org") -> list[Any]:
    """The list now, checked against the old way for several viewers and filters, and again
    a moment later (the seats away for longer); answered decoded."""
    req = request(host)
    now = _local_tables(req, registry, None, None).body
    for viewer in (None, "p0", "p3", "nobody"):
        assert now == before(req, registry, viewer)
    for game, status in (("hanabi", None), ("ikebana", None), (None, "waiting"),
                         (None, "playing"), ("hanabi", "playing")):
        assert _local_tables(req, registry, game, status).body == before(
            req, registry, None, game, status)
    start = clock.now
    for step in (0.04, 0.02, 0.05, 1.0, 7.33, 0.1):
        clock.now += step
        assert _local_tables(req, registry, None, None).body == before(req, registry, None)
    clock.now = start
    assert _local_tables(req, registry, None, None).body == now
    return orjson.loads(now)


async def open_with_players(tmp_path) -> tuple[Repository, Registry]:
    repo, registry = await open_registry(tmp_path)
    for p in PLAYERS:
        await repo.create_player(p, p.upper(), f"tok-{p}")
    return repo, registry


async def create(registry: Registry, clock: FakeClock, host: str, game: str, seats: int,
                 private: bool = False, **options: Any) -> Any:
    actor = await registry.create(host, host.upper(), game, seats, options, private)
    actor._clock = clock  # every table on the test's clock (the seats' time away)
    return actor


@pytest.mark.asyncio
async def test_the_list_is_the_one_built_field_by_field_at_every_step(tmp_path) -> None:
    repo, registry = await open_with_players(tmp_path)
    clock = FakeClock()
    try:
        assert same(registry, clock) == []
        a = await create(registry, clock, "p0", "hanabi", 4)
        secret = await create(registry, clock, "p1", "hanabi", 2, private=True)
        b = await create(registry, clock, "p2", "ikebana", 2, absent_grace_seconds=30)
        listed = same(registry, clock)
        assert [t["id"] for t in listed] == [b.table.id, a.table.id]  # newest first
        assert secret.table.invite_token.encode() not in _local_tables(
            request(), registry, None, None).body

        # a join, shown at once (the same table's next state is encoded anew)
        await a.submit(Join("p3", "P3"))
        listed = same(registry, clock)
        assert [s["player"] and s["player"]["id"] for s in listed[1]["seats"]] == [
            "p0", "p3", None, None]
        # the host connects: no longer away; a spectator comes
        host_conn, _ = await connect(a, "p0")
        watcher, _ = await connect(a, None, "Eve")
        listed = same(registry, clock)
        assert listed[1]["seats"][0]["connected"] and listed[1]["seats"][0]["away_for"] is None
        assert listed[1]["spectators"] == {"count": 1, "names": ["Eve"]}
        # a bot sits down, someone leaves
        await a.submit(AddBot("p0", 2))
        await a.submit(Leave("p3"))
        listed = same(registry, clock)
        assert listed[1]["seats"][1]["player"] is None and listed[1]["seats"][2]["player"]["bot"]
        clock.now += 12.34
        await a.disconnect(host_conn)
        await a.disconnect(watcher)
        clock.now += 3.21
        listed = same(registry, clock)
        assert listed[1]["seats"][0]["away_for"] == 3.2 and listed[1]["spectators"]["count"] == 0

        # started: playing; everyone away past the grace: abandoned, left out; back: listed
        await b.submit(Join("p4", "P4"))
        await b.submit(Start("p2"))
        listed = same(registry, clock)
        assert listed[0]["status"] == "playing" and listed[0]["id"] == b.table.id
        clock.now += 31
        listed = same(registry, clock)
        assert b.table.id not in [t["id"] for t in listed]
        back, _ = await connect(b, "p4")
        assert b.table.id in [t["id"] for t in same(registry, clock)]
        await b.disconnect(back)

        # another site address: the links follow it
        listed = same(registry, clock, b"other.net:8080")
        assert listed[-1]["url"] == f"https://other.net:8080/tables/{a.table.id}"

        # deleted: gone from the list and from the index the list goes through
        await a.submit(Delete("p0"))
        assert a.table.status is TableStatus.DELETED
        assert [t["id"] for t in same(registry, clock)] == [b.table.id]  # (p4 just left)
        assert a.table.id in registry.actors  # still held (until the janitor's sweep)...
        assert a.table.id not in registry._listed  # ...but no longer gone through
        assert secret.table.id not in registry._listed  # private: never
    finally:
        await close_registry(repo, registry)


@pytest.mark.asyncio
async def test_a_private_table_is_never_encoded_for_everyone(tmp_path) -> None:
    repo, registry = await open_with_players(tmp_path)
    clock = FakeClock()
    try:
        secret = await create(registry, clock, "p1", "hanabi", 2, private=True)
        with pytest.raises(ValueError):
            Encoded(request(), secret.table, "https://example.org", clock.now)
        assert registry.public_tables() == []
        assert _local_tables(request(), registry, None, None).body == b"[]"
    finally:
        await close_registry(repo, registry)


def test_the_list_over_http_follows_joins_leaves_and_starts(shared_server) -> None:
    """Through the server: each change shows in the very next list, and a private table's
    invite never does."""
    import httpx

    from tests.support.client import ApiClient

    base = shared_server.url
    host, guest = ApiClient(base, "Host"), ApiClient(base, "Guest")
    table = host.create_table("hanabi", 2)
    hidden = host.create_table("hanabi", 2, private=True)

    def mine() -> dict[str, Any]:
        answer = httpx.get(f"{base}/api/tables", headers=guest.headers)
        assert answer.status_code == 200
        assert hidden["id"] not in answer.text
        assert hidden["invite_url"].rsplit("/", 1)[1] not in answer.text
        return next(t for t in answer.json() if t["id"] == table["id"])

    first = mine()
    guest.join(table["id"])
    joined = mine()
    assert joined["version"] > first["version"]
    assert joined["seats"][1]["player"]["name"] == "Guest"
    httpx.post(f"{base}/api/tables/{table['id']}/leave", headers=guest.headers)
    assert mine()["seats"][1]["player"] is None
    guest.join(table["id"])
    httpx.post(f"{base}/api/tables/{table['id']}/start", headers=host.headers)
    assert mine()["status"] == "playing"
