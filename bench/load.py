"""Load on a real server over loopback: many busy tables at once, measured from outside.

Two modes:
- paced (default, open loop, for latency): each table's acting seat sends one legal action
  every ``--period-ms``, on a fixed schedule whatever the server does; an action's latency
  is from its send until every seat of its table holds the new version. A slot that comes
  while the table's previous action is still on its way is counted as missed (the table is
  late), not silently shifted.
- ``--closed`` (for throughput): each table sends its next action as soon as the previous
  one reached every seat.

Games are kept alive for the whole run (a finished table is replaced by a new one). Prints
delivered actions/s, latency p50/p99/max, server CPU per action, server RSS and the
server's own event-loop lag (from ``/metrics.json``). Bounded by ``--duration``.

``--processes N`` (N > 1) runs N server processes sharing one PostgreSQL and one Redis
(both started here from Debian's packages unless ``--database-url``/``--redis-url`` name
them): table k is created through process k mod N, which owns it; its sockets connect to
that process, or, with ``--cross``, to the next one (every message then goes through one
forwarding hop). ``--postgres`` starts a throwaway PostgreSQL for a single process too.
CPU, RSS and loop lag are then summed (CPU, RSS) or the worst (lag) over the processes.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import orjson
from websockets.asyncio.client import ClientConnection, connect

from app.config import CLIENT_IDLE_SECONDS
from app.metrics import LoopMonitor, tune_collector
from tests.support.postgres import PostgresCluster
from tests.support.redis import RedisServer
from tests.support.server import OPERATOR, LiveServer


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@dataclass
class Table:
    id: str
    tokens: list[str]
    sockets: list[ClientConnection] = field(default_factory=list)
    states: list[dict[str, Any] | None] = field(default_factory=list)
    sent_at: dict[int, float] = field(default_factory=dict)  # target version -> send time
    finished: bool = False


class Load:
    def __init__(self, args: argparse.Namespace, servers: list[LiveServer]) -> None:
        self.args = args
        self.servers = servers
        self.clients = [httpx.AsyncClient(base_url=s.url, timeout=60,
                                          limits=httpx.Limits(max_connections=20,
                                                              keepalive_expiry=CLIENT_IDLE_SECONDS))
                        for s in servers]
        self.http = self.clients[0]
        self.latencies: list[float] = []
        self.missed = 0
        self.errors: dict[str, int] = {}
        self.measuring = False
        self.rng = random.Random(7)
        self.players: dict[int, list[str]] = {}
        self.tables_started = 0

    async def new_table(self, n: int) -> Table:
        # table n is created through (and owned by) process n mod N
        http = self.clients[n % len(self.clients)]
        ws_server = self.servers[(n + (1 if self.args.cross else 0)) % len(self.servers)]
        # each slot keeps its players for the whole run: only the table is new
        if n not in self.players:
            self.players[n] = []
            for i in range(self.args.seats):
                r = await http.post("/api/players", json={"name": f"bot{n}-{i}"})
                self.players[n].append(r.json()["token"])
        tokens = self.players[n]
        auth = [{"Authorization": f"Bearer {t}"} for t in tokens]
        r = await http.post("/api/tables", headers=auth[0], json={
            "game": self.args.game, "seats": self.args.seats, "options": {}})
        table = r.json()
        invite = table["invite_url"].rsplit("/", 1)[1]
        for h in auth[1:]:
            await http.post(f"/api/tables/{table['id']}/join", headers=h,
                            json={"invite": invite})
        t = Table(table["id"], tokens)
        for token in tokens:
            ws = await connect(f"{ws_server.ws_url}/ws/tables/{t.id}", max_size=2**22,
                               additional_headers={"Authorization": f"Bearer {token}"},
                               compression=None)
            t.sockets.append(ws)
            t.states.append(None)
        await http.post(f"/api/tables/{t.id}/start", headers=auth[0])
        self.tables_started += 1
        return t

    async def reader(self, table: Table, seat: int) -> None:
        ws = table.sockets[seat]
        try:
            async for raw in ws:
                message = orjson.loads(raw)
                if message["type"] == "state":
                    table.states[seat] = message
                    self.delivered(table)
                elif message["type"] == "error":
                    code = message["code"]
                    self.errors[code] = self.errors.get(code, 0) + 1
        except Exception:  # noqa: BLE001 - closed at the end of the run
            return

    def delivered(self, table: Table) -> None:
        versions = [s["version"] if s else 0 for s in table.states]
        low = min(versions)
        for target in [v for v in table.sent_at if v <= low]:
            sent = table.sent_at.pop(target)
            if self.measuring:
                self.latencies.append(time.perf_counter() - sent)
        if all(s and s["table"]["status"] == "finished" for s in table.states):
            table.finished = True

    def ready(self, table: Table) -> tuple[int, dict[str, Any]] | None:
        """The seat to act and its state, if every seat holds the newest version."""
        if table.sent_at or any(s is None for s in table.states):
            return None
        versions = {s["version"] for s in table.states}  # type: ignore[index]
        if len(versions) != 1:
            return None
        for seat, state in enumerate(table.states):
            if state and seat in state["to_act"] and state["legal_actions"]:
                return seat, state
        return None

    async def send(self, table: Table, seat: int, state: dict[str, Any]) -> None:
        legal = state["legal_actions"]
        # random play ends Hanabi in ~20 moves (three fuses): prefer other moves, so games
        # last their natural length (~70 moves) and the run measures play, not set-up
        kept = [a for a in legal if a.get("type") not in self.args.avoid] or legal
        action = self.rng.choice(kept)
        table.sent_at[state["version"] + 1] = time.perf_counter()
        await table.sockets[seat].send(orjson.dumps(
            {"type": "action", "action": action, "version": state["version"]}).decode())

    async def drive(self, slot: int, deadline: float) -> int:
        """One table slot for the whole run; a finished game is replaced."""
        sent = 0
        table = await self.new_table(slot)
        readers = [asyncio.create_task(self.reader(table, s)) for s in range(self.args.seats)]
        period = self.args.period_ms / 1000
        next_at = time.perf_counter() + self.rng.random() * period
        while time.perf_counter() < deadline:
            if table.finished:
                for ws in table.sockets:
                    await ws.close()
                table = await self.new_table(slot)
                readers = [asyncio.create_task(self.reader(table, s))
                           for s in range(self.args.seats)]
            if self.args.closed:
                turn = self.ready(table)
                if turn is None:
                    await asyncio.sleep(0.001)
                    continue
                await self.send(table, *turn)
                sent += 1
                continue
            await asyncio.sleep(max(0.0, next_at - time.perf_counter()))
            next_at += period
            turn = self.ready(table)
            if turn is None:
                if self.measuring and not table.finished:
                    self.missed += 1
                continue
            await self.send(table, *turn)
            sent += 1
        for ws in table.sockets:
            await ws.close()
        for r in readers:
            r.cancel()
        return sent


def start_servers(args: argparse.Namespace, tmp: Path) -> tuple[list[LiveServer], list[Any]]:
    """The server process(es), and the services started for them (stopped at the end)."""
    services: list[Any] = []
    url = args.database_url
    if not url and (args.processes > 1 or args.postgres):
        cluster = PostgresCluster.find()
        if cluster is None:
            raise SystemExit("PostgreSQL is not installed (apt-get install postgresql)")
        cluster.start()
        services.append(cluster)
        url = cluster.new_database("load")
    url = url or f"sqlite+aiosqlite:///{tmp / 'load.db'}"
    env: dict[str, str] = {}
    if args.processes > 1:
        redis_url = args.redis_url
        if not redis_url:
            redis = RedisServer.find()
            if redis is None:
                raise SystemExit("redis-server is not installed (apt-get install redis-server)")
            redis.start()
            services.append(redis)
            redis_url = redis.url
        env["LUDOTECA_REDIS_URL"] = redis_url
    servers = []
    for i in range(args.processes):
        server = LiveServer(url, tmp / f"data{i}", env=env)
        server.start()  # one after the other: the first one migrates
        servers.append(server)
    return servers, services


async def run(args: argparse.Namespace) -> None:
    tmp = Path(tempfile.mkdtemp(prefix="ludoteca-load-"))
    servers, services = start_servers(args, tmp)
    load = Load(args, servers)

    async def all_metrics(query: str = "") -> list[dict[str, Any]]:
        return [(await c.get(f"/metrics.json{query}", headers=OPERATOR)).json()
                for c in load.clients]

    try:
        pids = [s.process.pid for s in servers]  # type: ignore[union-attr]
        # the drivers run until they are cancelled after the measurement
        deadline = time.perf_counter() + 3600
        drivers = []
        for slot in range(args.tables):  # seat the tables a few at a time
            drivers.append(asyncio.create_task(load.drive(slot, deadline)))
            if slot % 20 == 19:
                await asyncio.sleep(0.2)
        # measure once every table has started and warmed up (setting a table up is a dozen
        # REST and WebSocket calls: at 1,000 tables that takes a while, and a run measured
        # while tables are still being seated measures the seating); this process's own
        # collector is tuned like the server's, and its loop lag is reported: a late client
        # must not pass for a slow server
        seating = time.perf_counter()
        while load.tables_started < args.tables and time.perf_counter() - seating < 600:
            await asyncio.sleep(0.5)
        seated_in = time.perf_counter() - seating
        await asyncio.sleep(args.warmup)
        tune_collector()
        await all_metrics("?reset=true")
        client_lag = LoopMonitor()
        client_lag.start()
        load.measuring = True
        cpu0 = sum(cpu_seconds(p) for p in pids)
        t0, n0 = time.perf_counter(), len(load.latencies)
        before = [m["stored"] for m in await all_metrics()]
        started0 = load.tables_started
        await asyncio.sleep(args.duration)
        load.measuring = False
        cpu1, t1 = sum(cpu_seconds(p) for p in pids), time.perf_counter()
        figures = await all_metrics()
        client = client_lag.loop_figures()
        await client_lag.stop()
        delivered = len(load.latencies) - n0
        stored = {k: sum(m["stored"][k] - b[k] for m, b in zip(figures, before, strict=True))
                  for k in before[0]}
        new_tables = load.tables_started - started0
        for d in drivers:
            d.cancel()
    finally:
        for c in load.clients:
            await c.aclose()
        for server in servers:
            server.stop()
        for service in services:
            service.stop()
    lat = sorted(load.latencies) or [0.0]
    q = statistics.quantiles(lat, n=100) if len(lat) > 1 else [lat[0]] * 99
    rate = delivered / (t1 - t0)
    mode = "closed loop" if args.closed else f"paced every {args.period_ms} ms"
    database = "SQLite" if servers[0].database_url.startswith("sqlite") else "PostgreSQL"
    where = ""
    if args.processes > 1:
        where = (f", {args.processes} processes + Redis"
                 f"{', sockets through the non-owner' if args.cross else ''}")
    print(f"{args.tables} tables of {args.game} x{args.seats} ({args.tables * args.seats} "
          f"sockets), {mode}, {database}{where}; every table seated in {seated_in:.0f} s "
          f"({args.tables / max(seated_in, 1e-9):.0f} tables/s)")
    offered = args.tables * 1000 / args.period_ms if not args.closed else float("nan")
    print(f"offered {offered:.0f} actions/s, delivered {rate:.0f} actions/s, missed slots "
          f"{load.missed}")
    print(f"latency ms: p50 {1000 * q[49]:.1f}  p99 {1000 * q[98]:.1f}  "
          f"max {1000 * lat[-1]:.1f}")
    cpu = (cpu1 - cpu0) / max(1, delivered)
    rss = sum(m["process"]["rss_mb"] for m in figures)
    lag = {k: max(m["loop_lag"][k] for m in figures)
           for k in ("p50_ms", "p99_ms", "worst_since_start_ms")}
    print(f"server CPU {1e6 * cpu:.0f} us/action ({100 * (cpu1 - cpu0) / (t1 - t0):.0f}% of "
          f"a core), RSS {rss:.0f} MB, loop lag ms p50 {lag['p50_ms']} p99 {lag['p99_ms']} "
          f"max {lag['worst_since_start_ms']}, errors {load.errors or 'none'}")
    pauses = [m["gc"]["worst_pause_ms"] for m in figures]
    print(f"stored {stored['actions']} actions in {stored['batches']} commits; "
          f"{new_tables} tables started while measuring; gc worst pause ms by generation "
          f"{pauses}")
    print(f"load generator's own loop lag ms: p99 {client['p99_ms']} max "
          f"{client['worst_since_start_ms']}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--game", default="hanabi")
    parser.add_argument("--period-ms", type=int, default=250)
    parser.add_argument("--duration", type=float, default=20)
    parser.add_argument("--warmup", type=float, default=3)
    parser.add_argument("--closed", action="store_true")
    parser.add_argument("--avoid", nargs="*", default=["play"],
                        help="action types chosen only when nothing else is legal")
    parser.add_argument("--database-url", default="")
    parser.add_argument("--postgres", action="store_true",
                        help="start a throwaway PostgreSQL (Debian's) instead of SQLite")
    parser.add_argument("--processes", type=int, default=1,
                        help="server processes sharing PostgreSQL and Redis")
    parser.add_argument("--redis-url", default="")
    parser.add_argument("--cross", action="store_true",
                        help="connect each table's sockets through a process that does "
                             "not own it")
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
