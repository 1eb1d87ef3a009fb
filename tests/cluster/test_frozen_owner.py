"""A table's owner frozen (SIGSTOP) past its lease while some of its players' sockets are
piped to it through the other process (app/api/forward.py), on loopback: two app processes
(A and B) sharing PostgreSQL and Redis (Debian's), short leases.

Before, the pipe had no keepalive and never looked at the table's owner again: B took the
table over after its lease ran out, yet the clients piped through B to the frozen A heard
nothing until A woke up. Now B's pipe closes with 1012 (the client's "reconnect") once
the table's owner is no longer the one it pipes to, and the clients play on at B while A
is still frozen. After A wakes up, its count of open WebSockets
(``ludoteca_websockets_open``) comes back to the sockets really open there. Before, it kept
counting sockets whose messages, sent while it was stopped, met the table being given up
when it woke: the actor's stop left those commands unanswered and their handlers waiting
for ever (tests/cluster/test_given_up_commands.py).
"""

from __future__ import annotations

import asyncio
import os
import random
import signal
import time

import pytest

from tests.cluster.helpers import (
    Owners,
    play_some,
    reconnect,
    start_pair,
    until_closed,
    websockets_open,
)
from tests.support.client import SeatClient, seat_players
from tests.support.server import LiveServer

LEASE = 2.0

pytestmark = pytest.mark.postgres


async def wait_websockets_open(server: LiveServer, expected: int, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while (count := websockets_open(server)) != expected:
        assert time.monotonic() < deadline, \
            f"{server.url} counts {count} open WebSockets, {expected} are"
        await asyncio.sleep(0.2)


async def test_sockets_piped_to_a_frozen_owner_reconnect_to_the_new_one_and_play_on(
        postgres_cluster, redis_server, tmp_path) -> None:
    database = postgres_cluster.new_database(f"frozen_{int(time.time() * 1000) % 10**9}")
    a, b = start_pair(database, tmp_path, redis_server.url, redis_server.url, LEASE)
    owners = Owners(redis_server.url)
    rng = random.Random(12)
    try:
        players, table, _ = seat_players(a.url, "hanabi", 3)
        table_id = table["id"]
        await owners.wait_owner(table_id, a, 5)
        direct = SeatClient(a.ws_url, table_id, players[0].token)
        await direct.open()
        second = SeatClient(a.ws_url, table_id, players[1].token)  # a second tab at A
        await second.open()
        # A keeps the table (a socket is at it there): B pipes these two to A
        piped = [SeatClient(b.ws_url, table_id, p.token) for p in players[1:]]
        for c in piped:
            await c.open()
        assert owners.owner(table_id) == owners.node(a)
        assert players[0].start(table_id).status_code == 200
        for c in (direct, *piped):
            await c.wait_status("playing")
        seen: set[int] = set()
        await play_some([direct, *piped], rng, 6, seen)
        before = max(c.state["version"] for c in (direct, *piped))

        assert a.process is not None
        os.kill(a.process.pid, signal.SIGSTOP)
        try:
            # moves and resyncs sent to the frozen A wait in its sockets (some through a
            # pipe), and the second tab leaves while A is stopped
            for c in (direct, second, *piped):
                if c.my_turn():
                    await c.act(c.state["legal_actions"][0])
                await c.send({"type": "sync"})
            leaving = asyncio.create_task(second.close())
            await owners.wait_owner(table_id, b, LEASE * 10)
            # B owns the table now: its pipes to A tell their clients to reconnect, while A
            # is still frozen (before: nothing until A woke up)
            for c in piped:
                assert await until_closed(c, LEASE * 5) == 1012
            deadline = time.monotonic() + LEASE * 5
            for c in piped:
                await reconnect(c, [b.ws_url], deadline)
                assert c.state["version"] == before  # nothing accepted was lost
            stand_in = SeatClient(b.ws_url, table_id, players[0].token)
            await stand_in.open()
            await play_some([stand_in, *piped], rng, 4, seen)
        finally:
            os.kill(a.process.pid, signal.SIGCONT)
        # A wakes up: it has given the table up and tells its own socket to reconnect
        assert await until_closed(direct) == 1012
        await leaving
        await play_some([stand_in, *piped], rng, 2, seen)
        assert owners.owner(table_id) == owners.node(b)

        # A counts the sockets really open there: none (B: the three at the table)
        await wait_websockets_open(a, 0, LEASE * 10)
        await wait_websockets_open(b, 3, LEASE * 10)
        for c in (stand_in, *piped):
            await c.close()
        await wait_websockets_open(b, 0, LEASE * 10)
        await wait_websockets_open(a, 0, LEASE * 10)
    finally:
        a.stop()
        b.stop()
