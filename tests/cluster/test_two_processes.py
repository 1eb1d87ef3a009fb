"""Two app processes sharing PostgreSQL and Redis (``LUDOTECA_REDIS_URL`` set).

A table lives in one process, its owner; the other forwards REST calls and pipes WebSockets
to it. When the owner is killed, the survivor takes the table over once its lease expires,
clients reconnect, and the game finishes with every action any client saw accepted in the log.
"""

from __future__ import annotations

import asyncio
import random
import time
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed

from tests.cluster.helpers import play_some, reconnect
from tests.support.client import ApiClient, SeatClient, play_to_end, seat_players
from tests.support.server import OPERATOR, LiveServer

LEASE = 2.0  # seconds: short, so a takeover happens quickly in tests

pytestmark = pytest.mark.postgres


@pytest.fixture
def pair(postgres_cluster, redis_server, tmp_path):
    """Two processes, A and B, on one database and one Redis."""
    yield from _pair(postgres_cluster, redis_server, tmp_path, {})


@pytest.fixture
def forwarding_pair(postgres_cluster, redis_server, tmp_path):
    """A and B with hand-overs off (tests/cluster/test_placement.py has them on): whatever
    reaches the process that does not own a table is forwarded to its owner."""
    yield from _pair(postgres_cluster, redis_server, tmp_path,
                     {"LUDOTECA_TABLE_HANDOVER": "0"})


def _pair(postgres_cluster, redis_server, tmp_path, extra: dict[str, str]):
    url = postgres_cluster.new_database(f"cluster_{int(time.time() * 1000) % 10**9}")
    env = {"LUDOTECA_REDIS_URL": redis_server.url, "LUDOTECA_LEASE_SECONDS": str(LEASE),
           **extra}
    a = LiveServer(url, tmp_path / "a", env=env)
    a.start()  # migrates first: two processes must not migrate at once
    b = LiveServer(url, tmp_path / "b", env=env)
    b.start()
    yield a, b
    a.stop()
    b.stop()


def owner_of(server: LiveServer, table_id: str) -> str:
    """Which node (id) owns the table, from the process's operator figures."""
    figures = httpx.get(f"{server.url}/metrics.json", headers=OPERATOR, timeout=10).json()
    return figures["cluster"]["node"] if table_id in figures["cluster"]["tables"] else ""


def node_of(server: LiveServer) -> str:
    return httpx.get(f"{server.url}/metrics.json", headers=OPERATOR,
                     timeout=10).json()["cluster"]["node"]


async def test_a_table_created_through_one_process_is_played_through_the_other(
        forwarding_pair) -> None:
    a, b = forwarding_pair
    players = [ApiClient(a.url, "Ana"), ApiClient(b.url, "Ben")]
    table = players[0].create_table("hanabi", 2)
    assert owner_of(a, table["id"]) == node_of(a)
    invite = table["invite_url"].rsplit("/", 1)[1]

    # the other process lists it, resolves its invite, and forwards joining and starting
    listed = httpx.get(f"{b.url}/api/tables", timeout=10).json()
    assert [t["id"] for t in listed] == [table["id"]]
    assert listed[0]["seats"][0]["player"]["name"] == "Ana"
    page = httpx.get(f"{b.url}/join/{invite}", timeout=10, headers={"Accept": "text/html"})
    assert page.status_code == 200 and "Hanabi" in page.text
    joined = httpx.post(f"{b.url}/api/tables/{table['id']}/join", json={"invite": invite},
                        headers=players[1].headers, timeout=10)
    assert joined.status_code == 200, joined.text
    assert joined.json()["seat"] == 1
    assert owner_of(b, table["id"]) == ""  # still served by A

    # both sockets go through B, which pipes them to A
    clients = [SeatClient(b.ws_url, table["id"], p.token) for p in players]
    for c in clients:
        await c.open()
    started = httpx.post(f"{b.url}/api/tables/{table['id']}/start", headers=players[0].headers,
                         timeout=10)
    assert started.status_code == 200, started.text
    for c in clients:
        await c.wait_status("playing")
    # presence crosses processes too: both seats show as connected in A's lobby
    seats = httpx.get(f"{a.url}/api/tables/{table['id']}", timeout=10).json()["seats"]
    assert [s["connected"] for s in seats] == [True, True]

    final = await play_to_end(clients, random.Random(5))
    assert final["table"]["status"] == "finished"
    for c in clients:
        await c.close()
    record = httpx.get(f"{b.url}/api/matches/{table['id']}", timeout=10).json()
    # create, join and start are versions 1-3; every move after them is stored
    assert [r["seq"] for r in record["actions"]] == list(range(4, final["version"] + 1))


@pytest.mark.slow  # a few processes stopped and started again under load
async def test_killing_the_owner_mid_game_loses_nothing_and_the_survivor_finishes_it(
        pair) -> None:
    a, b = pair
    rng = random.Random(11)
    players, table, _ = seat_players(a.url, "hanabi", 3)
    # one socket straight to the owner, two through the other process
    clients = [SeatClient(a.ws_url, table["id"], players[0].token),
               SeatClient(b.ws_url, table["id"], players[1].token),
               SeatClient(b.ws_url, table["id"], players[2].token)]
    for c in clients:
        await c.open()
    assert players[0].start(table["id"]).status_code == 200
    for c in clients:
        await c.wait_status("playing")
    seen: set[int] = set()
    await play_some(clients, rng, 12, seen)
    before = max(c.state["version"] for c in clients)

    a.stop(kill=True)  # SIGKILL: no lease is handed back, no goodbye to the sockets
    deadline = time.monotonic() + 30
    for c in clients:  # every socket breaks: the piped ones are closed by B with 1012
        try:
            while True:
                await c.recv(timeout=15)
        except (ConnectionClosed, TimeoutError):
            pass
    for c in clients:
        await reconnect(c, [b.ws_url], deadline)
        assert c.state["version"] == before  # nothing accepted was lost
    assert owner_of(b, table["id"]) == node_of(b)

    final = await play_to_end(clients, rng)
    for c in clients:
        await c.close()
    record = httpx.get(f"{b.url}/api/matches/{table['id']}", timeout=10).json()
    stored = [r["seq"] for r in record["actions"]]
    assert stored == list(range(stored[0], final["version"] + 1))  # no gap
    assert seen <= set(stored)
    assert record["outcome"] is not None


async def test_requests_for_a_table_of_a_dead_owner_wait_for_the_takeover(pair) -> None:
    """While the dead owner's lease runs out, the other process answers 503 table_moving
    (retry), never a 500 and never a second owner; then it serves the table itself."""
    a, b = pair
    host = ApiClient(a.url, "Host")
    table = host.create_table("ikebana", 3)
    a.stop(kill=True)
    answers: list[int] = []
    deadline = time.monotonic() + LEASE * 10
    while time.monotonic() < deadline:
        r = httpx.get(f"{b.url}/api/tables/{table['id']}", timeout=10)
        answers.append(r.status_code)
        if r.status_code == 200:
            break
        assert r.status_code == 503 and r.json()["code"] == "table_moving", r.text
        assert r.headers["retry-after"] == "1"
        await asyncio.sleep(0.2)
    assert answers[-1] == 200
    body: dict[str, Any] = r.json()
    assert body["status"] == "waiting" and body["seats"][0]["player"]["name"] == "Host"
    # and it is the owner now: it takes a new player's seat itself
    joined = httpx.post(f"{b.url}/api/tables/{table['id']}/join", json={},
                        headers=ApiClient(b.url, "Late").headers, timeout=10)
    assert joined.status_code == 200, joined.text


def test_a_name_changed_through_one_process_is_seen_at_once_by_the_other(pair) -> None:
    # the bearer-token cache is one process's: in a cluster, a rename made on B must be what
    # A answers with on the very next call (no cache serves the old name)
    a, b = pair
    created = httpx.post(f"{a.url}/api/players", json={"name": "Ana"}, timeout=10).json()
    auth = {"Authorization": f"Bearer {created['token']}"}
    for _ in range(3):  # looked up more than once on A
        assert httpx.get(f"{a.url}/api/players/me", headers=auth, timeout=10).json()["name"] \
            == "Ana"
    renamed = httpx.patch(f"{b.url}/api/players/me", headers=auth, json={"name": "Bea"},
                          timeout=10)
    assert renamed.status_code == 200
    assert httpx.get(f"{a.url}/api/players/me", headers=auth, timeout=10).json()["name"] \
        == "Bea"
