"""PostgreSQL stopped, then started again, under two app processes (A and B) sharing it and
Redis (Debian's), on loopback: every answer about a storage that is away is a 503
``storage_unavailable`` with ``Retry-After``, on every route and through either process,
never a 500; a move on the socket (straight to the owner or piped through the other
process) gets ``storage_unavailable`` and changes nothing; once PostgreSQL is back
everything works again without a restart, and nothing accepted is lost.

Before, B answered 500 for a table A owned and nobody was at (B asks A to hand it over,
then takes it over: ``asyncpg.CannotConnectNowError`` or a refused connection, raised in the
forwarder, outside the app's exception handlers) and for an invite link (resolved there
too); a 503 had no ``Retry-After``; a move got ``storage_error``."""

from __future__ import annotations

import asyncio
import random
import time
from typing import Any

import httpx
import pytest

from app.db.repository import Repository
from app.db.session import make_engine, make_sessionmaker
from tests.cluster.helpers import Owners, start_pair
from tests.support.client import ApiClient, SeatClient, play_to_end, seat_players

LEASE = 2.0

pytestmark = pytest.mark.postgres


async def read_all(reader: ApiClient, bases: list[str], paths: list[str]
                   ) -> list[tuple[str, httpx.Response]]:
    answers = []
    for base in bases:
        for path in paths:
            html = {"Accept": "text/html"} if path.startswith("/join/") else {}
            r = await asyncio.to_thread(httpx.get, base + path,
                                        headers={**reader.headers, **html}, timeout=30)
            answers.append((base + path, r))
    return answers


def refused_to_try_again(url: str, r: httpx.Response) -> bool:
    """A 503 that says to try again: a Retry-After, and the code (JSON) of a storage away
    (or of a table that was being taken over when it went)."""
    assert r.status_code == 503, (url, r.status_code, r.text[:300])
    assert r.headers.get("retry-after") == "1", (url, dict(r.headers))
    if r.headers.get("content-type", "").startswith("application/json"):
        assert r.json()["code"] in ("storage_unavailable", "table_moving"), (url, r.text)
        return r.json()["code"] == "storage_unavailable"
    return True


async def test_postgres_away_then_back_under_two_processes(
        postgres_cluster, redis_server, tmp_path) -> None:
    database = postgres_cluster.new_database(f"pg_away_{int(time.time() * 1000) % 10**9}")
    a, b = start_pair(database, tmp_path, redis_server.url, redis_server.url, LEASE)
    owners = Owners(redis_server.url)
    try:
        players, table, _ = seat_players(a.url, "hanabi", 2)
        table_id = table["id"]
        await owners.wait_owner(table_id, a, 5)
        # each player at A itself and through B (A keeps the table: sockets are at it)
        at_a = [SeatClient(a.ws_url, table_id, p.token) for p in players]
        for c in at_a:
            await c.open()
        piped = [SeatClient(b.ws_url, table_id, p.token) for p in players]
        for c in piped:
            await c.open()
        assert owners.owner(table_id) == owners.node(a)
        clients = at_a + piped
        assert players[0].start(table_id).status_code == 200
        for c in clients:
            await c.wait_status("playing")
        # a table of A's nobody is at (B asks for it, then takes it over), and one of B's
        _, quiet, quiet_invite = seat_players(a.url, "hanabi", 2)
        await owners.wait_owner(quiet["id"], a, 5)
        _, of_b, _ = seat_players(b.url, "hanabi", 2)
        await owners.wait_owner(of_b["id"], b, 5)
        reader = ApiClient(a.url, "Lector")
        paths = [f"/api/tables/{quiet['id']}", f"/join/{quiet_invite}",
                 f"/api/tables/{table_id}", f"/api/tables/{of_b['id']}", "/api/tables",
                 "/api/matches", "/api/players/me/tables"]
        mover = next(c for c in at_a if c.my_turn())
        mover_piped = piped[at_a.index(mover)]
        version, view = mover.state["version"], mover.state["view"]
        action = mover.state["legal_actions"][0]

        await asyncio.to_thread(postgres_cluster.pause)
        try:
            answers = await read_all(reader, [b.url, a.url], paths)
            unavailable = [refused_to_try_again(url, r) for url, r in answers
                           if r.status_code != 200]  # (a live table's read needs no database)
            assert any(unavailable), [(url, r.status_code) for url, r in answers]
            # a move, straight to the owner and piped through B: refused, nothing changed
            for c in (mover, mover_piped):
                await c.act(action, version)
                error = await c.next_of("error", timeout=30)
                assert error["code"] == "storage_unavailable", error
        finally:
            await asyncio.to_thread(postgres_cluster.resume)
        for c in clients:
            await c.send({"type": "sync"})
            synced = await c.next_of("state", timeout=30)
            assert synced["version"] == version
        assert mover.state["view"] == view

        # back: the same move goes through (the pools reconnect by themselves), and every
        # read answers again, through both processes
        deadline = time.monotonic() + 60
        while mover.state["version"] == version:
            assert time.monotonic() < deadline, mover.received[-3:]
            await mover.act(action, version)
            reply = await mover.recv(30)
            while reply["type"] == "chat":
                reply = await mover.recv(30)
            if reply["type"] == "error":
                assert reply["code"] in ("storage_unavailable", "table_moving"), reply
                await asyncio.sleep(0.3)
        while True:
            answers = await read_all(reader, [b.url, a.url], paths)
            late = [(url, r.status_code) for url, r in answers if r.status_code != 200]
            if not late:
                break
            for url, r in answers:
                if r.status_code != 200:
                    refused_to_try_again(url, r)
            assert time.monotonic() < deadline, late
            await asyncio.sleep(0.5)
        for c in clients:
            await c.wait_version(version + 1)
        final: dict[str, Any] = await play_to_end(at_a, random.Random(4))
        for c in clients:
            await c.close()
        engine = make_engine(database)
        repo = Repository(make_sessionmaker(engine))
        try:  # every accepted action is in the log, without a gap
            seqs = [x.seq for x in await repo.actions(table_id)]
        finally:
            await repo.close()
            await engine.dispose()
        assert seqs == list(range(seqs[0], final["version"] + 1))
        text = a.log_path.read_text() + b.log_path.read_text()
        assert "Exception in ASGI application" not in text
    finally:
        a.stop()
        b.stop()
