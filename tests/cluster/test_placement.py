"""A table comes to live where its traffic lands (the hand-over, app/tables/registry.py).

A process that receives a request about a table on a path the proxy hashes by table id
(``/api/tables/<id>``, ``/ws/tables/<id>``, ``/tables/<id>``) and does not own the table
asks the owner to hand it over; the owner does while nobody's socket is at the table there:
its actor drains, its lease goes straight to the asker, which bumps the owner epoch and
rebuilds the table from its log. Real processes, PostgreSQL and Redis, as in the other
cluster tests.
"""

from __future__ import annotations

import asyncio
import random
import time
from typing import Any

import httpx
import pytest

from tests.support.client import ApiClient, SeatClient, play_to_end
from tests.support.server import OPERATOR, LiveServer

LEASE = 2.0

pytestmark = pytest.mark.postgres


def _start(postgres_cluster, redis_server, tmp_path, count: int) -> list[LiveServer]:
    url = postgres_cluster.new_database(f"place_{int(time.time() * 1000) % 10**9}")
    env = {"LUDOTECA_REDIS_URL": redis_server.url, "LUDOTECA_LEASE_SECONDS": str(LEASE)}
    servers = []
    for i in range(count):  # one after the other: two processes must not migrate at once
        server = LiveServer(url, tmp_path / f"p{i}", env=env)
        server.start()
        servers.append(server)
    return servers


def _running(postgres_cluster, redis_server, tmp_path, count: int):
    servers = _start(postgres_cluster, redis_server, tmp_path, count)
    try:
        yield servers
    finally:
        for server in servers:
            server.stop()


@pytest.fixture
def pair(postgres_cluster, redis_server, tmp_path):
    yield from _running(postgres_cluster, redis_server, tmp_path, 2)


@pytest.fixture
def trio(postgres_cluster, redis_server, tmp_path):
    yield from _running(postgres_cluster, redis_server, tmp_path, 3)


def cluster_figures(server: LiveServer) -> dict[str, Any]:
    figures = httpx.get(f"{server.url}/metrics.json", headers=OPERATOR, timeout=10).json()
    return figures["cluster"]  # type: ignore[no-any-return]


def owners(servers: list[LiveServer], table_id: str) -> list[int]:
    """The indexes of the processes that hold the table's lease (one, always)."""
    return [i for i, s in enumerate(servers) if table_id in cluster_figures(s)["tables"]]


async def with_retry(call: Any, tries: int = 50) -> httpx.Response:
    """A request answered 503 ``table_moving`` is retried, as a client does (Retry-After)."""
    for _ in range(tries):
        r = await call()
        if r.status_code != 503:
            return r  # type: ignore[no-any-return]
        assert r.json()["code"] == "table_moving", r.text
        await asyncio.sleep(0.1)
    raise AssertionError("the table kept moving")


async def test_a_table_created_through_a_and_played_through_b_ends_up_owned_by_b(pair) -> None:
    a, b = pair
    host, guest = ApiClient(a.url, "Ana"), ApiClient(b.url, "Ben")
    table = host.create_table("hanabi", 2)
    assert owners(pair, table["id"]) == [0]  # created through A: A owns it first
    invite = table["invite_url"].rsplit("/", 1)[1]

    # the guest joins through B (as the proxy would send a request about this table): B
    # asks A for the table, A has no socket at it, so it moves to B
    joined = httpx.post(f"{b.url}/api/tables/{table['id']}/join", json={"invite": invite},
                        headers=guest.headers, timeout=10)
    assert joined.status_code == 200, joined.text
    assert joined.json()["seat"] == 1
    assert [s["player"]["name"] for s in joined.json()["table"]["seats"]] == ["Ana", "Ben"]
    assert owners(pair, table["id"]) == [1]
    assert cluster_figures(a)["handed_over"] == 1
    assert cluster_figures(b)["taken_over"] == 1

    clients = [SeatClient(b.ws_url, table["id"], p.token) for p in (host, guest)]
    for c in clients:
        await c.open()
    try:
        started = httpx.post(f"{b.url}/api/tables/{table['id']}/start", headers=host.headers,
                             timeout=10)
        assert started.status_code == 200, started.text
        # a call through A now reaches it at B (forwarded: B has the sockets, so it keeps it)
        seen = httpx.get(f"{a.url}/api/tables/{table['id']}", timeout=10).json()
        assert seen["status"] == "playing"
        assert [s["connected"] for s in seen["seats"]] == [True, True]
        assert owners(pair, table["id"]) == [1]
        # the lobby of either process lists it with both players (another process's tables
        # reach a lobby through the summaries their owner publishes now and then: wait for it)
        for server in pair:
            assert await _listed_names(server.url, table["id"]) == ["Ana", "Ben"]

        final = await play_to_end(clients, random.Random(7))
    finally:
        for c in clients:
            await c.close()
    # nothing of the game was forwarded: B served every socket and frame itself
    figures = cluster_figures(b)
    assert figures["forwarded_sockets"] == figures["forwarded_frames"] == 0
    assert owners(pair, table["id"]) == [1]
    record = httpx.get(f"{a.url}/api/matches/{table['id']}", timeout=10).json()
    assert [r["seq"] for r in record["actions"]] == list(range(4, final["version"] + 1))


async def _listed_names(url: str, table_id: str, within: float = 15.0) -> list[str] | None:
    """The seated players' names for a table in a lobby's list, once it lists them all."""
    names = None
    deadline = asyncio.get_running_loop().time() + within
    while asyncio.get_running_loop().time() < deadline:
        async with httpx.AsyncClient(timeout=10) as http:
            listed = {t["id"]: t for t in (await http.get(f"{url}/api/tables")).json()}
        if table_id in listed:
            names = [s["player"]["name"] for s in listed[table_id]["seats"] if s.get("player")]
            if len(names) == len(listed[table_id]["seats"]):
                return names
        await asyncio.sleep(0.2)
    return names


async def test_a_table_with_a_socket_at_its_owner_stays_and_is_forwarded(pair) -> None:
    a, b = pair
    host, guest = ApiClient(a.url, "Ana"), ApiClient(a.url, "Ben")
    table = host.create_table("hanabi", 2)
    invite = table["invite_url"].rsplit("/", 1)[1]
    assert guest.join(table["id"], invite=invite).status_code == 200
    at_a = SeatClient(a.ws_url, table["id"], host.token)
    await at_a.open()
    at_b = SeatClient(b.ws_url, table["id"], guest.token)
    await at_b.open()  # A is busy with the host's socket: it keeps the table
    assert owners(pair, table["id"]) == [0]
    assert cluster_figures(b)["forwarded_sockets"] == 1
    assert cluster_figures(a)["handed_over"] == 0
    await at_a.close()
    await at_b.close()


async def test_concurrent_requests_through_two_other_processes_leave_one_owner(trio) -> None:
    a, b, c = trio
    host = ApiClient(a.url, "Host")
    table = host.create_table("hanabi", 5)
    invite = table["invite_url"].rsplit("/", 1)[1]
    path = f"/api/tables/{table['id']}"
    async with httpx.AsyncClient(timeout=20) as http:
        answers = await asyncio.gather(*(http.get(f"{s.url}{path}")
                                         for _ in range(8) for s in (b, c)))
        for r in answers:  # served, or "try again in a moment"; never a second owner
            assert r.status_code in (200, 503), r.text
            if r.status_code == 503:
                assert r.json()["code"] == "table_moving"
        assert any(r.status_code == 200 for r in answers)
        owner = owners(trio, table["id"])
        assert len(owner) == 1 and owner != [0], owner
        moves = [cluster_figures(s) for s in trio]
        assert sum(m["handed_over"] for m in moves) == sum(m["taken_over"] for m in moves) >= 1

        # the table is whole wherever it went: players join through every process
        guests = [ApiClient(s.url, f"G{i}") for i, s in enumerate(trio)]
        for guest, server in zip(guests, trio, strict=True):
            r = await with_retry(lambda g=guest, s=server: http.post(
                f"{s.url}{path}/join", json={"invite": invite}, headers=g.headers))
            assert r.status_code == 200, r.text
        final = (await http.get(f"{a.url}{path}")).json()
    assert [s["player"]["name"] if s["player"] else None for s in final["seats"]] == \
        ["Host", "G0", "G1", "G2", None]
    assert len(owners(trio, table["id"])) == 1


async def test_joins_accepted_during_a_hand_over_are_all_kept(pair) -> None:
    """Joins sent to the owner while another process takes the table: each one answered 200
    is in the table the new owner serves (the owner drained its queue before letting go);
    one refused with 503 ``table_moving`` is retried and lands at the new owner."""
    a, b = pair
    host = ApiClient(a.url, "Host")
    table = host.create_table("hanabi", 5)
    invite = table["invite_url"].rsplit("/", 1)[1]
    guests = [ApiClient(a.url, f"G{i}") for i in range(4)]
    path = f"/api/tables/{table['id']}"
    async with httpx.AsyncClient(timeout=20) as http:
        async def join(guest: ApiClient) -> httpx.Response:
            return await with_retry(lambda: http.post(
                f"{a.url}{path}/join", json={"invite": invite}, headers=guest.headers))

        answers = await asyncio.gather(http.get(f"{b.url}{path}"),
                                       *(join(g) for g in guests))
        assert answers[0].status_code == 200, answers[0].text
        for r in answers[1:]:
            assert r.status_code == 200, r.text
        served = (await http.get(f"{b.url}{path}")).json()
    assert owners(pair, table["id"]) == [1]
    assert sorted(s["player"]["name"] for s in served["seats"]) == \
        ["G0", "G1", "G2", "G3", "Host"]
    assert sorted(r.json()["seat"] for r in answers[1:]) == [1, 2, 3, 4]
    # their chat lines were stored before the move, and B numbers its own after them
    async with SeatClient(b.ws_url, table["id"], host.token) as client:
        joined: list[dict[str, Any]] = []
        while len(joined) < 4:
            message = await client.recv()
            if message["type"] == "chat" and message["code"] == "joined":
                joined.append(message)
        assert sorted(m["params"]["name"] for m in joined) == ["G0", "G1", "G2", "G3"]
        await client.send({"type": "chat", "text": "hola"})
        while True:
            message = await client.recv()
            if message["type"] == "chat" and message["kind"] == "player":
                break
        assert message["id"] > max(m["id"] for m in joined)


async def test_bots_playing_through_the_hand_over_lose_no_move(pair) -> None:
    """An all-bot game plays at A with nobody connected; B takes it over mid-game. Every move
    either was stored by A before it let go (B replays it) or is made by B: the log has no
    gap and the game ends."""
    a, b = pair
    host = ApiClient(a.url, "Host")
    r = host.request("POST", "/api/tables", json={"game": "hanabi", "seats": 2,
                                                  "options": {"bot_delay": 30}})
    assert r.status_code == 201, r.text
    table_id = r.json()["id"]
    for seat in (1, 0):  # the host gives its own seat to a bot too: a table of bots
        added = host.request("POST", f"/api/tables/{table_id}/bots", json={"seat": seat})
        assert added.status_code == 201, added.text
    assert host.start(table_id).status_code == 200
    path = f"/api/tables/{table_id}"
    deadline = time.monotonic() + 30
    while httpx.get(f"{a.url}{path}", timeout=10).json()["version"] < 10:  # bots at work
        assert time.monotonic() < deadline
        await asyncio.sleep(0.05)
    async with httpx.AsyncClient(timeout=20) as http:
        moved = await with_retry(lambda: http.get(f"{b.url}{path}"))
        assert moved.status_code == 200, moved.text
        assert owners(pair, table_id) == [1]
        assert cluster_figures(a)["handed_over"] == 1
        while (await http.get(f"{b.url}{path}")).json()["status"] != "finished":
            assert time.monotonic() < deadline + 60, "the bots stopped after the move"
            await asyncio.sleep(0.1)
        final = (await http.get(f"{b.url}{path}")).json()
        record = (await http.get(f"{b.url}/api/matches/{table_id}")).json()
    stored = [x["seq"] for x in record["actions"]]
    assert stored == list(range(stored[0], final["version"] + 1))  # no gap, no double
    assert record["outcome"] is not None


async def test_a_rematch_stays_with_the_finished_table_its_players_rematch_from(pair) -> None:
    """The rematch calls go to the finished table's process, which joins each player to the
    new table's actor there: asked for the new table meanwhile, that process keeps it (and
    the other process forwards), so the second player joins the same rematch."""
    a, b = pair
    ana, ben = ApiClient(a.url, "Ana"), ApiClient(a.url, "Ben")
    table = ana.create_table("hanabi", 2)
    invite = table["invite_url"].rsplit("/", 1)[1]
    assert ben.join(table["id"], invite=invite).status_code == 200
    assert ana.start(table["id"]).status_code == 200
    assert ana.request("POST", f"/api/tables/{table['id']}/resign").status_code == 200
    first = ana.request("POST", f"/api/tables/{table['id']}/rematch")
    assert first.status_code == 200, first.text
    new_id = first.json()["table"]["id"]
    seen = httpx.get(f"{b.url}/api/tables/{new_id}", timeout=10)  # B asks A for it: kept
    assert seen.status_code == 200, seen.text
    assert owners(pair, new_id) == [0]
    second = ben.request("POST", f"/api/tables/{table['id']}/rematch")
    assert second.status_code == 200, second.text
    assert second.json()["table"]["id"] == new_id
    names = [s["player"]["name"] for s in second.json()["table"]["seats"]]
    assert sorted(names) == ["Ana", "Ben"]
