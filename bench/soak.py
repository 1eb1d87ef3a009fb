"""Soak: hundreds of tables at once on a real server over loopback, for a bounded time, with
generic players, reconnecting players and garbage senders; then proof that nothing was lost.

- Every table plays a game from the mix (by default every engine in ``app.games.ENGINES``,
  read at run time), with a random seat count; each seat is a WebSocket that plays random
  legal actions on a pace (``--period-ms``). A finished game is replaced by a new table.
- Reconnecting players: seats drop their socket (closed or cut) and come back
  (``--reconnect-rate`` per table per minute).
- Garbage senders: on a share of the tables (``--garbage-share``) a second connection of a
  seated player sends, one at a time, malformed JSON, binary frames, unknown types, bad
  schemas, another seat's actions, stale and future versions, unknown actions and oversized
  messages; each must get an error reply while the table plays on.
- Turn timers: a share of tables (``--timer-share``) has a 1 s turn timer and sometimes
  lets it run out (the server then plays a timeout action).

Prints actions accepted, errors by code, garbage replies, reconnects, latency, server RSS
(start, seated, end, growth), the server's loop lag, and the replay verdict
(bench/soak_verify.py). ``run()`` returns the figures for tests/reliability/test_soak.py.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import random
import shutil
import sqlite3
import statistics
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import orjson
from websockets.asyncio.client import ClientConnection, connect

from app.config import CLIENT_IDLE_SECONDS
from app.games import ENGINES
from app.metrics import tune_collector
from bench.soak_verify import Verdict, verify, view_digest
from tests.support.server import OPERATOR, LiveServer

OVERSIZED = 64 * 1024  # bytes: over the server's message limit (16 KiB by default)
GARBAGE_KINDS = ("malformed_json", "binary", "unknown_type", "bad_schema", "wrong_seat",
                 "stale_version", "future_version", "unknown_action", "oversized")


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


@dataclass
class Seat:
    index: int
    token: str
    ws: ClientConnection | None = None
    state: dict[str, Any] | None = None
    reader: asyncio.Task | None = None


@dataclass
class Table:
    id: str
    game: str
    seats: list[Seat]
    timer: bool
    newest: int = 0
    finished: bool = False
    pending: tuple[int, int, float] | None = None  # (seat, version sent at, when)
    garbage_from: int | None = None  # the version when its garbage sender started


@dataclass
class Figures:
    started: dict[str, str] = field(default_factory=dict)  # table id → game
    games_started: Counter = field(default_factory=Counter)
    games_finished: Counter = field(default_factory=Counter)
    sent: int = 0
    errors: Counter = field(default_factory=Counter)  # code → count, generic players
    garbage: dict[str, Counter] = field(default_factory=dict)  # kind → reply code → count
    # per garbage table: version when its garbage began, newest at its end, seconds it ran
    garbage_tables: list[tuple[str, int, int, float]] = field(default_factory=list)
    reconnects: int = 0
    reconnect_failures: Counter = field(default_factory=Counter)
    http_retries: Counter = field(default_factory=Counter)
    # garbage actions that got no error: (table, version sent, seat, action); each must be
    # in the log as that seat's move (it had become legal for it by the time it arrived)
    garbage_accepted: list[tuple[str, int, int, Any]] = field(default_factory=list)
    garbage_unexplained: int = 0
    latencies: list[float] = field(default_factory=list)
    seen: dict[str, int] = field(default_factory=dict)  # table → newest version seen
    views: dict[tuple[str, int, int], bytes] = field(default_factory=dict)
    view_conflicts: int = 0
    rss: dict[str, float] = field(default_factory=dict)
    rss_samples: list[tuple[float, float]] = field(default_factory=list)
    metrics: dict[str, Any] = field(default_factory=dict)
    server_log_errors: int = 0
    server_log_excerpts: list[str] = field(default_factory=list)  # each error with its context
    verdict: Verdict | None = None
    elapsed: float = 0.0

    @property
    def accepted(self) -> int:
        return self.verdict.actions if self.verdict else 0


class Soak:
    def __init__(self, args: argparse.Namespace, server: LiveServer) -> None:
        self.args = args
        self.server = server
        self.rng = random.Random(args.seed)
        self.games = args.games or sorted(ENGINES)
        self.http = httpx.AsyncClient(base_url=server.url, timeout=60,
                                      limits=httpx.Limits(max_connections=20,
                                                          keepalive_expiry=CLIENT_IDLE_SECONDS))
        self.f = Figures()
        self.deadline = 0.0
        self.tasks: set[asyncio.Task] = set()
        self.sockets: set[ClientConnection] = set()  # every socket opened, until the end

    def spawn(self, coro: Any) -> asyncio.Task:
        task = asyncio.get_running_loop().create_task(coro)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)
        return task

    # ------------------------------------------------------------------ tables and sockets

    async def post(self, path: str, **kwargs: Any) -> httpx.Response:
        """A POST, retried when the pooled connection broke under it (the server closing an
        idle keep-alive connection as the client reuses it: a client-side race)."""
        for attempt in range(3):
            try:
                return await self.http.post(path, **kwargs)
            except httpx.TransportError as exc:
                self.f.http_retries[type(exc).__name__] += 1
                if attempt == 2:
                    raise
                await asyncio.sleep(0.5)
        raise AssertionError("unreachable")

    async def new_player(self, name: str) -> str:
        r = await self.post("/api/players", json={"name": name})
        r.raise_for_status()
        return r.json()["token"]

    async def new_table(self, slot: int, serial: int) -> Table:
        game = self.games[(slot + serial) % len(self.games)]
        engine = ENGINES[game]
        seats = self.rng.randint(engine.min_players, min(engine.max_players, 4))
        timer = self.rng.random() < self.args.timer_share
        tokens = [await self.new_player(f"s{slot}-{serial}-{i}") for i in range(seats)]
        auth = [{"Authorization": f"Bearer {t}"} for t in tokens]
        r = await self.post("/api/tables", headers=auth[0], json={
            "game": game, "seats": seats, "options": {"turn_seconds": 1} if timer else {}})
        if r.status_code != 201:
            raise RuntimeError(f"create {game} x{seats}: {r.status_code} {r.text}")
        body = r.json()
        invite = body["invite_url"].rsplit("/", 1)[1]
        for h in auth[1:]:
            r = await self.post(f"/api/tables/{body['id']}/join", headers=h,
                                json={"invite": invite})
            if r.status_code != 409 or not self.f.http_retries:  # 409: a retried join
                r.raise_for_status()
        table = Table(body["id"], game, [Seat(i, t) for i, t in enumerate(tokens)], timer)
        for seat in table.seats:
            await self.open(table, seat)
        r = await self.post(f"/api/tables/{table.id}/start", headers=auth[0])
        r.raise_for_status()
        self.f.started[table.id] = game
        self.f.games_started[game] += 1
        return table

    async def socket(self, table: Table, token: str) -> ClientConnection:
        ws = await connect(f"{self.server.ws_url}/ws/tables/{table.id}", max_size=2**22,
                           additional_headers={"Authorization": f"Bearer {token}"},
                           compression=None, open_timeout=30)
        self.sockets.add(ws)
        return ws

    async def open(self, table: Table, seat: Seat) -> None:
        seat.ws = await self.socket(table, seat.token)
        seat.reader = self.spawn(self.read(table, seat, seat.ws))

    def record(self, table: Table, seat: int, message: dict[str, Any]) -> None:
        """A state message: remember the digest of its view and the newest version."""
        version = message["version"]
        if message["table"]["status"] == "finished":
            table.finished = True
        if version > table.newest:
            table.newest = version
            self.f.seen[table.id] = version
        if message["view"] is None:
            return
        key = (table.id, seat, version)
        digest = view_digest(message["view"])
        old = self.f.views.setdefault(key, digest)
        if old != digest:
            self.f.view_conflicts += 1

    async def read(self, table: Table, seat: Seat, ws: ClientConnection) -> None:
        try:
            async for raw in ws:
                message = orjson.loads(raw)
                kind = message["type"]
                if kind == "state":
                    seat.state = message
                    self.record(table, seat.index, message)
                    pending = table.pending
                    if pending and message["version"] > pending[1]:
                        if pending[0] == seat.index:
                            self.f.latencies.append(time.perf_counter() - pending[2])
                        table.pending = None
                elif kind == "error":
                    self.f.errors[message["code"]] += 1
                    if table.pending and table.pending[0] == seat.index:
                        table.pending = None
        except Exception:  # noqa: BLE001 - closed by a reconnect or at the end
            return

    async def reconnect(self, table: Table, seat: Seat) -> None:
        ws, seat.ws, seat.state = seat.ws, None, None
        if ws is None:
            return
        if self.rng.random() < 0.5:
            ws.transport.abort()  # cut: no closing handshake, as a lost network would
        else:
            await ws.close()
        await asyncio.sleep(self.rng.uniform(0.05, 0.5))
        try:
            await self.open(table, seat)
            self.f.reconnects += 1
        except Exception as exc:  # noqa: BLE001 - counted and reported
            self.f.reconnect_failures[type(exc).__name__] += 1

    # ------------------------------------------------------------------ playing

    def turn(self, table: Table) -> tuple[Seat, dict[str, Any]] | None:
        if table.pending is not None:
            if time.perf_counter() - table.pending[2] < 5:
                return None
            table.pending = None  # the reply went to a socket that has since dropped
        ready = [s for s in table.seats if s.ws is not None and s.state is not None
                 and s.state["version"] == table.newest and s.index in s.state["to_act"]
                 and s.state["legal_actions"]]
        return self.rng.choice([(s, s.state) for s in ready]) if ready else None

    async def drive(self, slot: int) -> None:
        period = self.args.period_ms / 1000
        serial = 0
        while time.monotonic() < self.deadline:
            table = await self.new_table(slot, serial)
            serial += 1
            if self.rng.random() < self.args.garbage_share:
                self.spawn(self.garbage(table))
            while not table.finished and time.monotonic() < self.deadline:
                await asyncio.sleep(period * self.rng.uniform(0.5, 1.5))
                if self.rng.random() < self.args.reconnect_rate * period / 60:
                    self.spawn(self.reconnect(table, self.rng.choice(table.seats)))
                if table.timer and self.rng.random() < 0.05:
                    await asyncio.sleep(1.5)  # let the turn timer run out
                    continue
                turn = self.turn(table)
                if turn is None:
                    continue
                seat, state = turn
                action = self.rng.choice(state["legal_actions"])
                table.pending = (seat.index, state["version"], time.perf_counter())
                try:
                    await seat.ws.send(orjson.dumps(  # type: ignore[union-attr]
                        {"type": "action", "action": action, "version": state["version"]}
                    ).decode())
                    self.f.sent += 1
                except Exception:  # noqa: BLE001 - the socket is being reconnected
                    table.pending = None
            if table.finished:
                self.f.games_finished[table.game] += 1
            await asyncio.sleep(0.2)  # the last views arrive
            for seat in table.seats:
                if seat.ws is not None:
                    await seat.ws.close()

    # ------------------------------------------------------------------ garbage

    def garbage_message(self, kind: str, table: Table, me: int,
                        state: dict[str, Any]) -> str | bytes:
        # the table's newest version and this seat's own legal actions (its player's socket
        # keeps them current): an illegal move is then judged as such, not as merely stale
        version = max(state["version"], table.newest)
        fresh = table.seats[me].state
        mine = (fresh or state)["legal_actions"]
        to_act = (fresh or state)["to_act"]
        if kind == "malformed_json":
            return '{"type": "action", "version": ' + str(version)
        if kind == "binary":
            return bytes(self.rng.randrange(256) for _ in range(64))
        if kind == "unknown_type":
            return orjson.dumps({"type": "teleport", "to": "the moon"}).decode()
        if kind == "bad_schema":
            return orjson.dumps({"type": "action", "action": "play", "version": "v"}).decode()
        if kind == "oversized":
            return orjson.dumps({"type": "chat", "text": "x" * OVERSIZED}).decode()
        if kind == "wrong_seat":
            others = [a for s in table.seats if s.index != me and s.state
                      for a in s.state["legal_actions"] if a not in mine]
            if me not in to_act and others:
                action = self.rng.choice(others)
            else:
                action = {"type": "no_such_move"}
            return orjson.dumps({"type": "action", "action": action,
                                 "version": version}).decode()
        if kind in ("stale_version", "future_version"):
            action = self.rng.choice(mine) if mine else {"type": "no_such_move"}
            # versions are judged per seat (docs/api.md): the version before last may still
            # be what this seat acts on (another seat's pick changed nothing for it), but
            # version 1, from before the game started, never is
            other = 1 if kind == "stale_version" else version + 5
            return orjson.dumps({"type": "action", "action": action, "version": other}).decode()
        return orjson.dumps({"type": "action", "action": {"type": "no_such_move", "x": [1]},
                             "version": version}).decode()

    async def garbage(self, table: Table) -> None:
        """A second connection of a seated player, sending one bad message at a time and
        reading until the pong of a ping sent after it: the replies in between are its."""
        me = self.rng.choice(table.seats).index
        try:
            ws = await self.socket(table, table.seats[me].token)
        except Exception as exc:  # noqa: BLE001
            self.f.reconnect_failures["garbage_" + type(exc).__name__] += 1
            return
        state: dict[str, Any] | None = None
        start_version, began = table.newest, time.monotonic()
        sent = 0
        try:
            while time.monotonic() < self.deadline - 2:
                while state is None:
                    message = orjson.loads(await asyncio.wait_for(ws.recv(), 30))
                    if message["type"] == "state":
                        state = message
                        self.record(table, me, message)
                if table.finished or state["table"]["status"] == "finished":
                    break
                kind = GARBAGE_KINDS[sent % len(GARBAGE_KINDS)]
                text = self.garbage_message(kind, table, me, state)
                await ws.send(text)
                await ws.send('{"type": "ping"}')
                sent += 1
                codes = []
                while True:
                    message = orjson.loads(await asyncio.wait_for(ws.recv(), 30))
                    if message["type"] == "pong":
                        break
                    if message["type"] == "error":
                        codes.append(message["code"])
                    elif message["type"] == "state":
                        state = message
                        self.record(table, me, message)
                replies = self.f.garbage.setdefault(kind, Counter())
                replies["+".join(codes) or "no error"] += 1
                if not codes and isinstance(text, str) and kind != "oversized":
                    sent_message = orjson.loads(text)
                    if isinstance(sent_message, dict) and "action" in sent_message:
                        self.f.garbage_accepted.append((table.id, sent_message["version"], me,
                                                        sent_message["action"]))
                await asyncio.sleep(self.args.garbage_period_ms / 1000)
        except Exception as exc:  # noqa: BLE001 - reported: garbage must not close us
            self.f.garbage.setdefault("connection", Counter())[type(exc).__name__] += 1
        finally:
            await ws.close()
            self.f.garbage_tables.append((table.id, start_version, table.newest,
                                          time.monotonic() - began))

    # ------------------------------------------------------------------ the run

    async def sample_rss(self, pid: int, t0: float) -> None:
        while True:
            self.f.rss_samples.append((round(time.monotonic() - t0, 1), rss_mb(pid)))
            await asyncio.sleep(5)

    async def run(self) -> Figures:
        pid = self.server.process.pid  # type: ignore[union-attr]
        self.f.rss["start"] = rss_mb(pid)
        t0 = time.monotonic()
        self.deadline = t0 + self.args.duration
        sampler = self.spawn(self.sample_rss(pid, t0))
        drivers = []
        for slot in range(self.args.tables):  # seat the tables a few at a time
            drivers.append(self.spawn(self.drive(slot)))
            if slot % 20 == 19:
                await asyncio.sleep(0.3)
        await asyncio.sleep(min(10.0, self.args.duration / 4))
        self.f.rss["seated"] = rss_mb(pid)
        await self.http.get("/metrics.json?reset=true", headers=OPERATOR)
        results = await asyncio.gather(*drivers, return_exceptions=True)
        for result in results:
            if isinstance(result, BaseException):
                self.f.reconnect_failures["driver_" + type(result).__name__] += 1
        sampler.cancel()
        self.f.elapsed = time.monotonic() - t0
        self.f.metrics = (await self.http.get("/metrics.json", headers=OPERATOR)).json()
        self.f.rss["end"] = rss_mb(pid)
        await asyncio.sleep(1)
        for task in list(self.tasks):
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)
        # sockets a reconnect or a new table opened as the run ended: closed, not leaked
        for ws in self.sockets:
            ws.transport.abort()
        await asyncio.sleep(0.1)
        await self.http.aclose()
        return self.f


def run(args: argparse.Namespace) -> Figures:
    """Start a server, soak it, verify every stored game; bounded by ``args.duration``."""
    tmp = Path(tempfile.mkdtemp(prefix="ludoteca-soak-"))
    db_path = tmp / "soak.db"
    server = LiveServer(f"sqlite+aiosqlite:///{db_path}", tmp / "data")
    server.start()
    # this process keeps a digest of every view, every latency and every version it is sent
    # (for the check at the end) and runs every client on one loop: its collector is
    # tuned like the server's, so that its own pauses do not pass for the server's latency
    thresholds = gc.get_threshold()
    tune_collector()
    try:
        soak = Soak(args, server)
        hard_limit = args.duration + 120 + args.tables * 0.2
        figures = asyncio.run(asyncio.wait_for(soak.run(), hard_limit))
        figures.verdict = verify(db_path, server.url, figures.started, figures.seen,
                                 figures.views)
        figures.garbage_unexplained = unexplained(db_path, figures)
    finally:
        gc.set_threshold(*thresholds)
        gc.unfreeze()
        server.stop()
        log = server.log_path.read_text(errors="replace")
        if args.keep:
            print(f"database and server log kept in {tmp}")
        else:
            shutil.rmtree(tmp, ignore_errors=True)
    figures.server_log_errors, figures.server_log_excerpts = log_errors(log)
    return figures


def log_errors(log: str, context: int = 30) -> tuple[int, list[str]]:
    """Count the server log's errors and keep each one with the lines around it.

    A traceback's lines follow its "ERROR ..." line, so an error's excerpt is the line before
    it and the lines after it up to the next log record (or ``context`` lines).
    """
    lines = log.splitlines()
    hits = [i for i, line in enumerate(lines) if "Traceback" in line
            or line.startswith("ERROR") or " ERROR " in line]
    excerpts: list[str] = []
    covered = -1
    for i in hits:
        if i <= covered:
            continue
        end = min(len(lines), i + context)
        for j in range(i + 1, end):
            if lines[j][:1].isalpha() and not lines[j].startswith(("Traceback", "Exception")) \
                    and ":" in lines[j][:12] and lines[j].split(":", 1)[0].isupper():
                end = j
                break
        excerpts.append("\n".join(lines[max(0, i - 1):end]))
        covered = end - 1
    return len(hits), excerpts


def unexplained(db_path: Path, f: Figures) -> int:
    """Garbage messages that got no error and are not in the log as the sender's own move."""
    count = sum(c["no error"] for c in f.garbage.values()) - len(f.garbage_accepted)
    with contextlib.closing(sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)) as db:
        for table_id, version, seat, action in f.garbage_accepted:
            row = db.execute("SELECT seat, action FROM actions WHERE table_id = ? AND seq = ?",
                             (table_id, version + 1)).fetchone()
            if row is None or row[0] != seat or json.loads(row[1]) != action:
                count += 1
    return count


def report(args: argparse.Namespace, f: Figures) -> str:
    v = f.verdict or Verdict()
    lat = sorted(f.latencies) or [0.0]
    q = statistics.quantiles(lat, n=100) if len(lat) > 1 else [lat[0]] * 99
    lag = f.metrics.get("loop_lag", {})
    collector = f.metrics.get("gc", {})
    sockets = f.metrics.get("connections", "?")
    games = ", ".join(f"{g} {f.games_started[g]}/{f.games_finished[g]}" for g in
                      sorted(f.games_started))
    garbage_sent = sum(sum(c.values()) for k, c in f.garbage.items() if k != "connection")
    unanswered = sum(c["no error"] for c in f.garbage.values())
    kept = [(a, b) for _, a, b, ran in f.garbage_tables if ran >= 3]
    moved = sum(1 for a, b in kept if b > a)
    growth = f.rss.get("end", 0) - f.rss.get("seated", 0)
    lines = [
        f"soak: {args.tables} table slots for {args.duration:.0f} s ({f.elapsed:.0f} s with "
        f"set-up), SQLite, period {args.period_ms} ms, reconnects {args.reconnect_rate}/table/"
        f"min, garbage on {100 * args.garbage_share:.0f}% of tables, timers on "
        f"{100 * args.timer_share:.0f}%",
        f"tables started/finished by game: {games}",
        f"actions: sent {f.sent}, accepted and stored {v.actions} "
        f"({v.actions / max(1.0, f.elapsed):.0f}/s), timed-window closes {v.window_closes}, "
        f"turn-timer timeouts {v.timeouts}",
        f"errors to players by code: {dict(f.errors.most_common()) or 'none'}",
        f"garbage: {garbage_sent} messages, no error {unanswered} (of which stored as the "
        f"sender's own legal move {unanswered - f.garbage_unexplained}, unexplained "
        f"{f.garbage_unexplained}); replies by kind: "
        + "; ".join(f"{k}: {dict(c)}" for k, c in sorted(f.garbage.items())),
        f"garbage tables (garbage for 3 s or more) that kept playing: {moved}/{len(kept)}",
        f"reconnects {f.reconnects}, failures {dict(f.reconnect_failures) or 'none'}; "
        f"HTTP requests retried {dict(f.http_retries) or 'none'}",
        f"latency ms (send → sender sees the new version): p50 {1000 * q[49]:.1f} "
        f"p99 {1000 * q[98]:.1f} max {1000 * lat[-1]:.1f}; server loop lag ms p50 "
        f"{lag.get('p50_ms')} p99 {lag.get('p99_ms')} worst {lag.get('worst_since_start_ms')}"
        f"; collector pauses ms by generation: worst {collector.get('worst_pause_ms')}, "
        f"total {collector.get('total_ms')}",
        f"server RSS MB: start {f.rss.get('start', 0):.0f}, seated "
        f"{f.rss.get('seated', 0):.0f}, end {f.rss.get('end', 0):.0f} (growth while "
        f"soaking {growth:+.0f}); sockets at the end {sockets}; samples "
        + " ".join(f"{t:.0f}s:{m:.0f}" for t, m in f.rss_samples[::max(1, len(f.rss_samples)
                                                                     // 8)]),
        f"replay: {v.tables} tables ({v.finished} finished), {v.actions} actions, {v.views} "
        f"views compared; lost {v.lost}; view conflicts {f.view_conflicts}; problems "
        f"{len(v.problems)}; server log errors {f.server_log_errors}",
    ]
    lines += [f"  problem: {p}" for p in v.problems[:10]]
    lines += [f"  server log error:\n{e}" for e in f.server_log_excerpts[:5]]
    return "\n".join(lines)


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--duration", type=float, default=300, help="seconds of soak")
    p.add_argument("--tables", type=int, default=300, help="tables playing at once")
    p.add_argument("--games", nargs="*", default=None,
                   help="game ids to mix (default: every registered engine)")
    p.add_argument("--period-ms", type=int, default=400, help="pace of each table's moves")
    p.add_argument("--reconnect-rate", type=float, default=2.0,
                   help="reconnects per table per minute")
    p.add_argument("--garbage-share", type=float, default=0.2,
                   help="share of tables with a garbage sender")
    p.add_argument("--garbage-period-ms", type=int, default=250)
    p.add_argument("--timer-share", type=float, default=0.1,
                   help="share of tables with a 1 s turn timer that sometimes runs out")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--keep", action="store_true", help="keep the database and server log")
    return p


def main() -> None:
    args = parser().parse_args()
    unknown = set(args.games or []) - set(ENGINES)
    if unknown:
        raise SystemExit(f"unknown games: {sorted(unknown)}")
    figures = run(args)
    print(report(args, figures))


if __name__ == "__main__":
    main()
