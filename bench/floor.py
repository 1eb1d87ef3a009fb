"""REST against its floor: the server's CPU per call beside a bare FastAPI app's, one run.

    python -m bench.floor [--calls 400] [--rounds 5] [--concurrency 4] [--seat-tables 1000]
                          [--profile PATH [--profile-only TEXT]]

Starts the real server on loopback (SQLite in a temp dir, the lobby's rate limits lifted)
and, under the same uvicorn with the same options (``app.cli serve``'s), a floor app: FastAPI
with one JSON read route and one JSON write route (a pydantic body) and nothing else. Each
kind of call is made ``--calls`` times per window (``--concurrency`` at once, keep-alive) and
the server's CPU for the window is read from /proc: µs of server CPU per call.

One window is noisy on a shared machine (the floor's write moved from 175 to 275 µs between
two runs of the same code), so the windows run in ``--rounds`` alternating rounds: the
floor's read and the server's four reads, again and again; then the floor's write and the
server's three writes, again and again (reads first: the tables the write rounds create stay
in the registry, and the list of open tables would go through more of them each round).
Every kind printed is the median of its rounds, with the spread (min-max) beside it, and
each round's figure in order after the table; no round is left out. Each real call's ratio
is its median over the floor's median of the same kind (reads against the floor's read,
writes against its write). Targets (issue 22): reads ≤ 2×, writes ≤ 3×. Beside each write's
ratio it prints its ratio to the floor's write with one durable SQLite commit (WAL,
``synchronous=FULL``, in a thread the route awaits): not a target, what one commit adds,
since the floor's own write stores nothing and each of the server's writes stores something.

Then seats ``--seat-tables`` 4-seat Hanabi tables through REST alone, as a new user's page
does (four players created, the table created, three joins, started), 16 tables at once, and
prints the wall time (target: 1,000 tables in ≤ 20 s).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from pydantic import BaseModel, Field

from app.config import CLIENT_IDLE_SECONDS
from tests.support.server import ROOT, LiveServer, free_port

BENCH_ENV = {"LUDOTECA_TABLES_PER_MINUTE": "0", "LUDOTECA_MAX_HOSTED_TABLES": "100000",
             "LUDOTECA_TABLES_PER_MINUTE_PER_IP": "0", "LUDOTECA_PLAYERS_PER_MINUTE_PER_IP": "0"}


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Body(BaseModel):
    """The floor's write body (a name, checked as the real create-a-player checks its)."""

    name: str = Field(min_length=1, max_length=40)


def floor_app(database: Path | None = None) -> Any:
    """The floor: one JSON read route, one JSON write route; with ``database``, also a
    write route that makes one durable SQLite commit (``/floor/commit``, see ``Committer``)."""
    from fastapi import FastAPI

    app = FastAPI()
    committer = Committer(database) if database is not None else None
    table = {"id": "t" * 12, "game": "hanabi", "status": "waiting", "version": 1,
             "seat_count": 4, "options": {"multicolor": "none", "clue_tokens": 8},
             "seats": [{"seat": s, "player": None} for s in range(4)]}

    @app.get("/floor/read")
    async def read() -> dict[str, Any]:
        return table

    @app.post("/floor/write", status_code=201)
    async def write(body: Body) -> dict[str, Any]:
        return {"id": "p" * 12, "name": body.name, "token": "x" * 40}

    if committer is not None:
        @app.post("/floor/commit", status_code=201)
        async def commit(body: Body) -> dict[str, Any]:
            await committer.insert(body.name)
            return {"id": "p" * 12, "name": body.name, "token": "x" * 40}

    return app


class Committer:
    """The floor's durable write: one row inserted and committed per call, on a SQLite
    database set up as the server's (WAL, ``synchronous=FULL``), in a thread of its own
    that the route awaits, as the server's writes go to aiosqlite's thread. Not a target's
    floor (the issue's floor is a bare route): it tells what one durable commit adds."""

    def __init__(self, path: Path) -> None:
        import sqlite3
        from concurrent.futures import ThreadPoolExecutor

        self.thread = ThreadPoolExecutor(max_workers=1)
        self.db = self.thread.submit(sqlite3.connect, str(path)).result()  # used there only
        self.thread.submit(self._setup).result()

    def _setup(self) -> None:
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=FULL")
        self.db.execute("CREATE TABLE IF NOT EXISTS floor_rows (id INTEGER PRIMARY KEY, "
                        "name TEXT NOT NULL)")
        self.db.commit()

    def _insert(self, name: str) -> None:
        with self.db:  # one transaction, committed
            self.db.execute("INSERT INTO floor_rows (name) VALUES (?)", (name,))

    async def insert(self, name: str) -> None:
        await asyncio.get_running_loop().run_in_executor(self.thread, self._insert, name)


def serve_floor(port: int) -> None:
    """The floor under the server's own uvicorn options (app/cli.py ``serve``)."""
    import uvicorn

    from app.idle import FirstRequestTimeout

    with tempfile.TemporaryDirectory(prefix="ludoteca-floor-") as tmp:
        uvicorn.run(floor_app(Path(tmp) / "floor.db"), host="127.0.0.1", port=port,
                    ws="websockets-sansio", ws_max_size=1 << 20, ws_per_message_deflate=False,
                    log_level="info", log_config=None, proxy_headers=True,
                    http=FirstRequestTimeout)


class Floor:
    def __init__(self) -> None:
        self.port = free_port()
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "bench.floor", "--serve-floor", str(self.port)], cwd=ROOT,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                if httpx.get(f"{self.url}/floor/read", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                time.sleep(0.1)
        raise RuntimeError("the floor app did not start")

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(timeout=10)


# --profile: [the server's pid, whether the window being measured is profiled]
PROFILING: list[Any] = []


def profile_next(on: bool) -> None:
    """Whether the next measured window is profiled (with --profile only)."""
    if PROFILING:
        PROFILING[1:] = [on]


def profiling(on: bool) -> None:
    """Switch the server's profiler (bench.profserve) on or off around a measured window."""
    if len(PROFILING) == 2 and PROFILING[1]:
        os.kill(PROFILING[0], signal.SIGUSR1 if on else signal.SIGUSR2)
        time.sleep(0.05)


async def warm(concurrency: int, make: Any) -> None:
    await asyncio.gather(*(make(-1 - i) for i in range(concurrency)))


async def timed(pid: int, calls: int, concurrency: int, make: Any, first: int = 0) -> float:
    """µs of the server's CPU per call of ``make(i)`` (an awaitable giving a response), for
    ``i`` in ``first .. first + calls - 1``."""
    sem = asyncio.Semaphore(concurrency)

    async def one(i: int) -> None:
        async with sem:
            r = await make(i)
            if r.status_code >= 400:
                raise RuntimeError(f"{r.request.method} {r.request.url}: {r.status_code} "
                                   f"{r.text[:200]}")
    await asyncio.sleep(0.2)
    profiling(True)
    before = cpu_seconds(pid)
    await asyncio.gather(*(one(first + i) for i in range(calls)))
    await asyncio.sleep(0.3)  # let a group commit or a log line land
    used = cpu_seconds(pid) - before
    profiling(False)
    return 1e6 * used / calls


def median(values: list[float]) -> float:
    ordered = sorted(values)
    mid = len(ordered) // 2
    return ordered[mid] if len(ordered) % 2 else (ordered[mid - 1] + ordered[mid]) / 2


def spread(values: list[float]) -> str:
    return f"{min(values):.0f}-{max(values):.0f}"


async def rest(server: LiveServer, floor: Floor, calls: int, concurrency: int, rounds: int,
               profile_only: str | None = None) -> None:
    spid = server.process.pid  # type: ignore[union-attr]
    fpid = floor.process.pid  # type: ignore[union-attr]
    # an idle connection is dropped before the server closes it (app/config.py): the rounds
    # leave some connections idle about 5 s, and one reused as the server closed it failed
    limits = httpx.Limits(max_connections=concurrency, max_keepalive_connections=concurrency,
                          keepalive_expiry=CLIENT_IDLE_SECONDS)
    async with httpx.AsyncClient(base_url=server.url, limits=limits, timeout=60) as c, \
            httpx.AsyncClient(base_url=floor.url, limits=limits, timeout=60) as f:
        host = (await c.post("/api/players", json={"name": "host"})).json()
        auth = {"Authorization": f"Bearer {host['token']}"}
        table = (await c.post("/api/tables", headers=auth, json={
            "game": "hanabi", "seats": 4, "options": {}})).json()
        invite = table["invite_url"].rsplit("/", 1)[1]
        guests: list[dict[str, str]] = []

        async def new_player(i: int) -> httpx.Response:
            r = await c.post("/api/players", json={"name": f"p{i % 100000}"})
            if r.status_code < 400:
                guests.append({"Authorization": f"Bearer {r.json()['token']}"})
            return r

        async def new_table(i: int) -> httpx.Response:
            return await c.post("/api/tables", headers=guests[i % len(guests)], json={
                "game": "hanabi", "seats": 4, "options": {}})

        async def join(i: int) -> httpx.Response:
            return await c.post(f"/api/tables/{table['id']}/join", headers=guests[i],
                                json={"invite": invite})

        async def leave(i: int) -> httpx.Response:
            return await c.post(f"/api/tables/{table['id']}/leave", headers=guests[i])

        floor_specs: list[tuple[str, Any]] = [
            ("read", lambda i: f.get("/floor/read")),
            ("write", lambda i: f.post("/floor/write", json={"name": f"n{i % 100000}"})),
            ("commit", lambda i: f.post("/floor/commit", json={"name": f"n{i % 100000}"})),
        ]
        specs: list[tuple[str, str, Any]] = [
            ("read", "GET /api/games (list games)", lambda i: c.get("/api/games")),
            ("read", "GET /api/tables/{id} (one table)",
             lambda i: c.get(f"/api/tables/{table['id']}", headers=auth)),
            ("read", "GET /api/tables (list open tables)",
             lambda i: c.get("/api/tables", headers=auth)),
            ("read", "GET /api/players/me", lambda i: c.get("/api/players/me", headers=auth)),
            ("write", "POST /api/players (create a player)", new_player),
            ("write", "POST /api/tables (create a table)", new_table),
        ]
        join_label = "POST /api/tables/{id}/join and /leave"
        # warm every kind once (and make the guests that join and create tables)
        for _kind, make in floor_specs:
            await warm(concurrency, make)
        for _kind, _label, make in specs:
            await warm(concurrency, make)
        while len(guests) < 30:
            await new_player(len(guests))
        (await join(0)).raise_for_status()
        (await leave(0)).raise_for_status()
        floor_us: dict[str, list[float]] = {"read": [], "write": [], "commit": []}
        server_us: dict[str, list[float]] = {label: [] for _k, label, _m in specs}
        server_us[join_label] = []

        async def join_and_leave() -> float:
            # three guests join the table and leave it again, over and over (it has three
            # free seats): the CPU of the joins and leaves together, per call
            turns = max(1, calls // 6)
            await asyncio.sleep(0.2)
            profiling(True)
            before = cpu_seconds(spid)
            for r in range(turns):
                for i in range(3):
                    (await join(3 * (r % 10) + i)).raise_for_status()
                for i in range(3):
                    (await leave(3 * (r % 10) + i)).raise_for_status()
            await asyncio.sleep(0.3)
            used = cpu_seconds(spid) - before
            profiling(False)
            return 1e6 * used / (6 * turns)

        # alternating rounds: the floor's read, the server's reads, again and again; then the
        # floor's write, the server's writes, again and again (a busy moment of the machine
        # lands on one window of each kind, not on every window of one kind). The reads'
        # rounds come first: every table a write round creates stays in the registry (deleted
        # ones until the janitor's sweep), and the list of open tables goes through them all
        for side in ("read", "write"):
            for n in range(rounds):
                first = n * calls
                profile_next(False)
                make = dict(floor_specs)[side]
                floor_us[side].append(await timed(fpid, calls, concurrency, make, first))
                if side == "write":  # and the same write with one durable commit
                    floor_us["commit"].append(await timed(
                        fpid, calls, concurrency, dict(floor_specs)["commit"], first))
                for kind, label, make in specs:
                    if kind != side:
                        continue
                    profile_next(profile_only is None or profile_only in label)
                    server_us[label].append(
                        await timed(spid, calls, concurrency, make, first))
                if side == "write":
                    profile_next(profile_only is None or profile_only in join_label)
                    server_us[join_label].append(await join_and_leave())
                kinds = {label: kind for kind, label, _m in specs}
    kinds[join_label] = "write"
    base = {side: median(values) for side, values in floor_us.items()}
    print(f"{rounds} alternating rounds of {calls} calls of each kind; the median of the "
          f"rounds (min-max), the ratio median over median")
    print(f"floor (bare FastAPI, same uvicorn): read {base['read']:.0f} us "
          f"({spread(floor_us['read'])}), write {base['write']:.0f} us "
          f"({spread(floor_us['write'])}) of server CPU per call; the write with one durable "
          f"SQLite commit (not a target's floor) {base['commit']:.0f} us "
          f"({spread(floor_us['commit'])})")
    for label, values in server_us.items():
        kind = kinds[label]
        us = median(values)
        target = 2 if kind == "read" else 3
        verdict = "met" if us <= target * base[kind] else "not met"
        committed = (f"; {us / base['commit']:.1f}x the write with one commit"
                     if kind == "write" else "")
        print(f"  {label:<40} {us:7.0f} us ({spread(values):>9})  {us / base[kind]:5.1f}x "
              f"the floor's {kind} (target <= {target}x: {verdict}){committed}")
    print("each round in order, us: " + "; ".join(
        f"floor {side} {' '.join(f'{v:.0f}' for v in values)}"
        for side, values in floor_us.items()))
    for label, values in server_us.items():
        print(f"  {label:<40} {' '.join(f'{v:.0f}' for v in values)}")


class Http:
    """A bare HTTP/1.1 keep-alive connection for JSON calls: the seating's load generator.
    It shares the machine's cores with the server, and httpx spends about a millisecond of
    CPU per call, as much as the server: this keeps the generator out of the figure."""

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def call(self, method: str, path: str, body: Any = None,
                   token: str | None = None) -> Any:
        """The decoded JSON answer (None when empty); an error status raises."""
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
        assert self.reader is not None
        payload = json.dumps(body).encode() if body is not None else b""
        head = (f"{method} {path} HTTP/1.1\r\nHost: {self.host}:{self.port}\r\n"
                f"Content-Length: {len(payload)}\r\n")
        if body is not None:
            head += "Content-Type: application/json\r\n"
        if token is not None:
            head += f"Authorization: Bearer {token}\r\n"
        self.writer.write(head.encode() + b"\r\n" + payload)
        lines = (await self.reader.readuntil(b"\r\n\r\n")).split(b"\r\n")
        status = int(lines[0].split()[1])
        length = 0
        for line in lines[1:]:
            name, _, value = line.partition(b":")
            if name.lower() == b"content-length":
                length = int(value)
            elif name.lower() == b"transfer-encoding":
                raise RuntimeError("chunked answers are not expected here")
        data = await self.reader.readexactly(length) if length else b""
        if status >= 400:
            raise RuntimeError(f"{method} {path}: {status} {data[:200]!r}")
        return json.loads(data) if data else None

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()


async def seat_tables(server: LiveServer, tables: int, concurrency: int) -> float:
    """Seat ``tables`` 4-seat tables (``concurrency`` at once, one keep-alive connection
    each): the wall time."""
    connections = [Http("127.0.0.1", server.port) for _ in range(concurrency)]
    free: asyncio.Queue[Http] = asyncio.Queue()
    for connection in connections:
        free.put_nowait(connection)

    async def one(k: int) -> None:
        c = await free.get()
        try:
            tokens = [(await c.call("POST", "/api/players", {"name": f"s{k}-{i}"}))["token"]
                      for i in range(4)]
            table = await c.call("POST", "/api/tables", {"game": "hanabi", "seats": 4,
                                                         "options": {}}, tokens[0])
            invite = table["invite_url"].rsplit("/", 1)[1]
            for token in tokens[1:]:
                await c.call("POST", f"/api/tables/{table['id']}/join", {"invite": invite},
                             token)
            await c.call("POST", f"/api/tables/{table['id']}/start", None, tokens[0])
        finally:
            free.put_nowait(c)
    started = time.perf_counter()
    try:
        await asyncio.gather(*(one(k) for k in range(tables)))
    finally:
        for connection in connections:
            connection.close()
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=400)
    parser.add_argument("--concurrency", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=5,
                        help="alternating rounds of --calls calls of each kind (the median "
                             "is printed, with the spread)")
    parser.add_argument("--seat-tables", type=int, default=1000,
                        help="tables to seat through REST (0: skip)")
    parser.add_argument("--profile", metavar="PATH",
                        help="profile the real server's CPU (cProfile, process time) during "
                             "the measured REST calls only (not start-up, not the seating), "
                             "write it to PATH and print where it went")
    parser.add_argument("--profile-only", metavar="TEXT",
                        help="with --profile: only the calls whose label holds TEXT "
                             "(e.g. join, 'create a table')")
    parser.add_argument("--serve-floor", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve_floor:
        serve_floor(args.serve_floor)
        return
    tmp = Path(tempfile.mkdtemp(prefix="ludoteca-floor-"))
    profile = ("-m", "bench.profserve", str(Path(args.profile).resolve())) \
        if args.profile else ()
    server = LiveServer(f"sqlite+aiosqlite:///{tmp / 'floor.db'}", tmp / "data", env=BENCH_ENV,
                        python_args=profile)
    floor = Floor()
    server.start()
    floor.start()
    if args.profile:
        PROFILING[:] = [server.process.pid, False]  # type: ignore[union-attr]
    try:
        asyncio.run(rest(server, floor, args.calls, args.concurrency, args.rounds,
                         args.profile_only))
        if args.seat_tables:
            pid = server.process.pid  # type: ignore[union-attr]
            cpu0, mine0 = cpu_seconds(pid), time.process_time()
            seconds = asyncio.run(seat_tables(server, args.seat_tables, 16))
            per_table_ms = 1e3 * (cpu_seconds(pid) - cpu0) / args.seat_tables
            client_ms = 1e3 * (time.process_time() - mine0) / args.seat_tables
            print(f"seated {args.seat_tables} 4-seat tables through REST in {seconds:.1f} s "
                  f"({args.seat_tables / seconds:.0f} tables/s; server CPU {per_table_ms:.1f}"
                  f" ms per table, 9 calls; the load generator's {client_ms:.1f} ms; target "
                  f"1,000 in <= 20 s)")
    finally:
        floor.stop()
        server.stop()
    if args.profile:
        import pstats

        stats = pstats.Stats(args.profile)
        stats.sort_stats("tottime").print_stats(30)
        stats.sort_stats("cumulative").print_stats(40)


if __name__ == "__main__":
    main()
