"""Scale-out under CPU quotas: 1, 2, 3 server processes, each held to a fraction of a core.

    python -m bench.scale [--processes 1 2 3] [--modes direct nginx forwarded floor transport]
                          [--quota 0.25] [--tables 30] [--duration 8] [--latency]
                          [--profile PATH]

Each server process runs in its own cgroup (v1 ``cpu`` controller at /sys/fs/cgroup/cpu,
root needed) with ``cpu.cfs_quota_us`` = quota x period, so on a 2-core machine three
processes can be measured as three small machines. PostgreSQL, Redis, nginx and the load
generators (bench.drive, in their own processes) run outside the quotas. Tables are seated
with the quota lifted, then measured closed-loop (saturation): delivered actions/s, the
server CPU per action (all processes, from /proc), and the cgroup's throttled time. Each
mode starts its own server processes on a database of its own (a mode measured second on
the same processes came out dearer, whatever the order).

Modes:
- ``direct``: table k is created through process k mod N (which owns it) and its sockets
  connect there;
- ``nginx``: every request and socket goes through Debian's nginx running deploy/nginx.conf,
  the file docker-compose.yml mounts in its proxy (its upstreams pointed at these processes),
  as a user would: create the table, open its invite link's page, join, connect, start. The
  creating request lands anywhere (nginx hashes it by request id); the first join lands on
  the process nginx hashes the table's id to, which has the table handed over (app/tables/
  registry.py ``take``). Printed: how many tables were handed over while seating, and the
  share of the generators' actions that were forwarded to another process while driving;
- ``forwarded``: every socket connects to a process that does not own its table (each message
  goes through one forwarding hop; these processes run with hand-overs off,
  ``LUDOTECA_TABLE_HANDOVER=0``); printed with its cost per action over ``direct``.
- ``floor`` (after the one-process runs): bench.wsfloor, the same move's work on bare
  websockets (parse, apply, every seat's view, the durable append, the sends), under the same
  quota and generator; prints the platform's overhead over it as a ratio of CPU per action.
- ``transport`` (after the one-process runs): bench.wsfloor ``--replay``, the transport alone:
  the same sockets, parse, durable append and sends of the same messages (recorded from
  games played before the run), without the engine's work; prints what is left of a move's
  CPU once the transport's is taken away (the engine's work, and the platform's).

``--latency`` then runs one process ``direct`` paced at half of the saturation it measured:
latency from an action's send to the last seat's new state, p50/p99.

PostgreSQL runs with fsync on (``--no-fsync`` to turn it off); every action is durable before
any push in every mode.

``--repeat K`` runs the whole sequence of process counts and modes K times over, one
after the other (1, 2, 3, 1, 2, 3, ...), then prints for each mode and process count the
median delivered rate with its spread, the ratio of the medians, and each repeat's own ratio
(its N processes over its one): a single run's ratio moves about ±15 % on two cores.

``--server-checkout PATH`` runs the server processes from another checkout (a ``git worktree``
of an older commit, with this venv) under the same generators, quota and database: an older
commit and this one measured alternately on one machine (issue 22's "a third of today's cost"
holds across machines only as such a ratio).
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

from bench.drive import Slot, generator_process
from tests.support.postgres import PostgresCluster
from tests.support.redis import RedisServer
from tests.support.server import LiveServer

CGROUP_ROOT = Path("/sys/fs/cgroup/cpu")
PERIOD_US = 100_000
# the lobby's per-player limits would stop one player hosting a slot's spare tables
BENCH_ENV = {"LUDOTECA_TABLES_PER_MINUTE": "0", "LUDOTECA_MAX_HOSTED_TABLES": "1000",
             "LUDOTECA_TABLES_PER_MINUTE_PER_IP": "0", "LUDOTECA_PLAYERS_PER_MINUTE_PER_IP": "0"}


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Cgroup:
    """One cgroup v1 ``cpu`` group holding a process to a share of a core."""

    period_us = PERIOD_US  # the CFS period the share is given over (``--period-ms``)

    def __init__(self, name: str) -> None:
        self.path = CGROUP_ROOT / name
        self.path.mkdir(exist_ok=True)
        (self.path / "cpu.cfs_period_us").write_text(str(Cgroup.period_us))

    def limit(self, cores: float | None) -> None:
        quota = -1 if cores is None else int(cores * Cgroup.period_us)
        (self.path / "cpu.cfs_quota_us").write_text(str(quota))

    def add(self, pid: int) -> None:
        (self.path / "cgroup.procs").write_text(str(pid))

    def throttled_s(self) -> float:
        for line in (self.path / "cpu.stat").read_text().splitlines():
            if line.startswith("throttled_time "):
                return int(line.split()[1]) / 1e9
        return 0.0

    def remove(self) -> None:
        for pid in (self.path / "cgroup.procs").read_text().split():
            try:
                (CGROUP_ROOT / "cgroup.procs").write_text(pid)
            except OSError:
                pass
        for _ in range(50):  # a process that has just exited may still be listed a moment
            try:
                self.path.rmdir()
                return
            except FileNotFoundError:
                return
            except OSError:
                time.sleep(0.1)


def check_cgroups() -> None:
    if not (CGROUP_ROOT / "cgroup.procs").exists():
        raise SystemExit(f"no cgroup v1 cpu controller at {CGROUP_ROOT}")
    if not os.access(CGROUP_ROOT, os.W_OK):
        raise SystemExit(f"{CGROUP_ROOT} is not writable: run as root")


class Generators:
    """``count`` generator processes sharing the slots."""

    def __init__(self, slots: list[Slot], count: int, game: str, seats: int,
                 per_slot: int) -> None:
        ctx = mp.get_context("spawn")
        self.pipes = []
        self.procs = []
        for g in range(count):
            parent, child = ctx.Pipe()
            proc = ctx.Process(target=generator_process, args=(
                child, slots[g::count], game, seats, per_slot, 1000 + g), daemon=True)
            proc.start()
            self.pipes.append(parent)
            self.procs.append(proc)

    def ask(self, command: tuple[Any, ...]) -> list[Any]:
        for pipe in self.pipes:
            pipe.send(command)
        return [pipe.recv() for pipe in self.pipes]

    def stop(self) -> None:
        for pipe in self.pipes:
            try:
                pipe.send(("stop",))
                pipe.recv()
            except (OSError, EOFError):
                pass
        for proc in self.procs:
            proc.join(timeout=5)
            if proc.is_alive():
                proc.kill()


def quantile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    if len(values) == 1:
        return values[0]
    return statistics.quantiles(values, n=100)[int(q * 100) - 1]


def machine_ticks() -> tuple[int, int]:
    """(idle, total) CPU ticks of the whole machine so far (/proc/stat)."""
    fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    return fields[3] + fields[4], sum(fields[:8])


def kernel_counts(pid: int) -> dict[str, int]:
    """A process's kernel counters so far: context switches it gave up the CPU for (waiting:
    each is one wake-up of its loop or a thread), forced ones (preempted or throttled), and
    its read and write system calls (every thread; /proc/<pid>/io and task/*/status)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    tick_us = 1e6 / os.sysconf("SC_CLK_TCK")
    out = {"us user": int(int(fields[11]) * tick_us), "us system": int(int(fields[12]) * tick_us),
           "wakeups": 0, "preempted": 0, "reads": 0, "writes": 0}
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            text = (task / "status").read_text()
        except OSError:
            continue
        for row in text.splitlines():
            if row.startswith("voluntary_ctxt_switches:"):
                out["wakeups"] += int(row.split()[1])
            elif row.startswith("nonvoluntary_ctxt_switches:"):
                out["preempted"] += int(row.split()[1])
    for row in Path(f"/proc/{pid}/io").read_text().splitlines():
        if row.startswith("syscr:"):
            out["reads"] = int(row.split()[1])
        elif row.startswith("syscw:"):
            out["writes"] = int(row.split()[1])
    return out


def cluster_counts(servers: list[LiveServer]) -> dict[str, int]:
    """The routers' counters summed over the processes (/metrics.json): requests, sockets
    and client frames forwarded to another owner, tables handed over."""
    from tests.support.server import OPERATOR

    total: dict[str, int] = {}
    for server in servers:
        if not getattr(server, "url", None):  # the floor: no platform, no counters
            continue
        try:
            figures = httpx.get(f"{server.url}/metrics.json", headers=OPERATOR,
                                timeout=10).json().get("cluster") or {}
        except (httpx.HTTPError, ValueError):
            continue
        for key, value in figures.items():
            if isinstance(value, int):
                total[key] = total.get(key, 0) + value
    return total


def measure(servers: list[LiveServer], groups: list[Cgroup], slots: list[Slot],
            args: argparse.Namespace, quota: float, period: float | None = None,
            per_slot: int | None = None, window: Any = None) -> dict[str, Any]:
    """Seat the slots (no quota), then drive them under the quota; the figures."""
    for group in groups:
        group.limit(None)
    gens = Generators(slots, args.generators, args.game, args.seats,
                      per_slot or args.games_per_slot)
    try:
        counts0 = cluster_counts(servers)
        replies = gens.ask(("seat",))
        failed = [r[1] for r in replies if r[0] != "seated"]
        if failed:
            raise RuntimeError(f"seating failed: {failed[0]}")
        seated_s = max(r[1] for r in replies)
        for group in groups:
            group.limit(quota)
        time.sleep(0.5)
        seated_counts = cluster_counts(servers)
        pids = [s.process.pid for s in servers]  # type: ignore[union-attr]
        for pipe in gens.pipes:
            pipe.send(("run", args.warmup, args.duration, period))
        time.sleep(args.warmup)
        if window is not None:
            window(True)
        cpu0 = [cpu_seconds(p) for p in pids]
        kernel0 = [kernel_counts(p) for p in pids]
        idle0 = machine_ticks()
        thr0 = [g.throttled_s() for g in groups]
        t0 = time.perf_counter()
        time.sleep(args.duration)
        cpu1 = [cpu_seconds(p) for p in pids]
        kernel1 = [kernel_counts(p) for p in pids]
        idle1 = machine_ticks()
        if window is not None:
            window(False)
        thr1 = [g.throttled_s() for g in groups]
        t1 = time.perf_counter()
        results = [pipe.recv()[1] for pipe in gens.pipes]
        counts1 = cluster_counts(servers)
    finally:
        gens.stop()
        for group in groups:
            group.limit(None)
    delivered = sum(r["delivered"] for r in results)
    seconds = statistics.mean(r["seconds"] for r in results)
    latencies = sorted(x for r in results for x in r["latencies"])
    errors: dict[str, int] = {}
    for r in results:
        for k, v in r["errors"].items():
            errors[k] = errors.get(k, 0) + v
    cpu = [b - a for a, b in zip(cpu0, cpu1, strict=True)]
    kernel = {key: sum(b[key] - a[key] for a, b in zip(kernel0, kernel1, strict=True))
              for key in kernel0[0]}
    return {
        # per delivered action, all processes: how often the processes woke up, were
        # preempted, read and wrote (sockets, the database, Redis)
        "per_action": {key: value / max(1, delivered) for key, value in kernel.items()},
        "rate": delivered / seconds, "delivered": delivered,
        "cpu_per_action_us": 1e6 * sum(cpu) / max(1, delivered),
        "cpu_share": [c / (t1 - t0) for c in cpu],
        "throttled_share": [(b - a) / (t1 - t0) for a, b in zip(thr0, thr1, strict=True)],
        "p50_ms": 1000 * quantile(latencies, 0.5), "p99_ms": 1000 * quantile(latencies, 0.99),
        "max_ms": 1000 * latencies[-1] if latencies else float("nan"),
        "missed": sum(r["missed"] for r in results),
        "starved": sum(r["starved"] for r in results), "errors": errors,
        "seated_s": seated_s, "tables": len(slots) * (per_slot or args.games_per_slot),
        # while seating: tables handed over; while driving: client frames forwarded (the
        # generators' actions, counted over warm-up and measurement alike) per action
        "handed_over": seated_counts.get("handed_over", 0) - counts0.get("handed_over", 0),
        # None: the processes do not count them (a checkout before the counters)
        "forwarded_frames": counts1["forwarded_frames"] - seated_counts["forwarded_frames"]
        if "forwarded_frames" in counts1 else None,
        # the whole machine's idle share over the window: near 0, the processes' quota is
        # not what limits the rate (generators, nginx, PostgreSQL and whatever else runs
        # here share the same cores)
        "machine_idle": (idle1[0] - idle0[0]) / max(1, idle1[1] - idle0[1]),
        "driven": sum(r.get("driven", r["delivered"]) for r in results),
    }


def slots_for(mode: str, servers: list[LiveServer], proxy: Any, tables: int) -> list[Slot]:
    n = len(servers)
    out = []
    for k in range(tables):
        owner = servers[k % n]
        if mode == "direct":
            out.append(Slot(owner.url, owner.ws_url, k))
        elif mode == "forwarded":
            out.append(Slot(owner.url, servers[(k + 1) % n].ws_url, k))
        else:  # as a user would: create, open the invite link, join, play, all via nginx
            out.append(Slot(proxy.url, proxy.ws_url, k, invite_page=True))
    return out


def line(label: str, m: dict[str, Any], base: float | None = None) -> str:
    ratio = f" ({m['rate'] / base:.2f}x one process)" if base else ""
    shares = "/".join(f"{100 * c:.0f}" for c in m["cpu_share"])
    throttled = "/".join(f"{100 * t:.0f}" for t in m["throttled_share"])
    extra = ""
    if m["starved"]:
        extra += f", {m['starved']} slots ran out of seated games"
    if m["errors"]:
        extra += f", errors {m['errors']}"
    if m.get("handed_over"):
        extra += f"; {m['handed_over']} of {m['tables']} tables handed over while seating"
    extra += f"; machine idle {100 * m['machine_idle']:.0f} %"
    if m.get("per_action"):
        extra += "; per action: " + ", ".join(f"{value:.1f} {key}" for key, value
                                              in m["per_action"].items())
    if m.get("forwarded_frames") is not None and len(m["cpu_share"]) > 1:
        extra += (f"; forwarded: {m['forwarded_frames']} client frames, "
                  f"{100 * m['forwarded_frames'] / max(1, m['driven']):.1f} % of the actions")
    return (f"{label}: {m['rate']:.0f} actions/s{ratio}; server CPU {m['cpu_per_action_us']:.0f}"
            f" us/action (each process {shares} % of a core, throttled {throttled} % of the "
            f"time); latency p50 {m['p50_ms']:.1f} p99 {m['p99_ms']:.1f} ms{extra}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--processes", type=int, nargs="+", default=[1, 2, 3])
    parser.add_argument("--modes", nargs="+", default=["direct", "nginx", "forwarded", "floor"],
                        choices=["direct", "nginx", "forwarded", "floor", "transport"])
    parser.add_argument("--quota", type=float, default=0.25,
                        help="share of a core each server process may use")
    parser.add_argument("--period-ms", type=float, default=PERIOD_US / 1000,
                        help="the CFS period the quota is given over: a process that has "
                             "spent its share waits for the next period (100 ms: Linux's "
                             "default; shorter periods cut those waits from the latency)")
    parser.add_argument("--tables", type=int, default=30,
                        help="tables played at once per server process")
    parser.add_argument("--games-per-slot", type=int, default=4,
                        help="tables seated per slot before measuring (a finished game's "
                             "slot moves on to the next)")
    parser.add_argument("--duration", type=float, default=8)
    parser.add_argument("--warmup", type=float, default=2)
    parser.add_argument("--generators", type=int, default=2)
    parser.add_argument("--game", default="hanabi")
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--latency", action="store_true",
                        help="also one process paced at half its saturation: latency")
    parser.add_argument("--latency-share", type=float, default=0.5,
                        help="the share of the saturation rate --latency offers")
    parser.add_argument("--no-fsync", action="store_true")
    parser.add_argument("--repeat", type=int, default=1, metavar="K",
                        help="run the whole sequence K times and print each mode's median "
                             "rates and ratios over the repeats")
    parser.add_argument("--server-checkout", metavar="PATH",
                        help="run the server processes from another checkout of the project "
                             "(e.g. a `git worktree` of an older commit), with this venv: "
                             "the same generators, quota and database measure both")
    parser.add_argument("--profile", metavar="PATH",
                        help="instead: one process, direct, closed loop, its measured window "
                             "profiled (CPU time, written to PATH); prints where it goes")
    parser.add_argument("--profile-rate", type=float, metavar="ACTIONS_PER_S",
                        help="with --profile: paced at this many actions/s offered instead of "
                             "closed loop")
    args = parser.parse_args()
    global SERVER_ROOT
    if args.server_checkout:
        SERVER_ROOT = Path(args.server_checkout).resolve()
        if not (SERVER_ROOT / "app" / "cli.py").exists():
            raise SystemExit(f"{SERVER_ROOT} is not a checkout of this project")
    Cgroup.period_us = int(args.period_ms * 1000)
    check_cgroups()

    tmp = Path(tempfile.mkdtemp(prefix="ludoteca-scale-"))
    postgres = PostgresCluster.find()
    redis = RedisServer.find()
    if postgres is None or redis is None:
        raise SystemExit("PostgreSQL and redis-server are needed (python3 -m app test "
                         "installs them)")
    postgres.start(fsync=not args.no_fsync)
    redis.start()
    print(f"quota {args.quota} of a core per server process (CFS period {args.period_ms:g} ms); "
          f"{args.tables} tables per "
          f"process played at once ({args.game} x{args.seats}, closed loop), {args.duration:.0f}"
          f" s measured; PostgreSQL (fsync {'off' if args.no_fsync else 'on'}) + Redis; "
          f"{args.generators} generator processes; {os.cpu_count()} cores"
          + (f"; servers from {SERVER_ROOT}" if SERVER_ROOT else ""), flush=True)
    one: dict[str, float] = {}
    rates: dict[str, dict[int, list[float]]] = {}
    try:
        if args.profile:
            profile_run(args, tmp, postgres, redis)
            return
        for k in range(args.repeat):
            if args.repeat > 1:
                print(f"repeat {k + 1} of {args.repeat}", flush=True)
            for n in args.processes:
                for mode, rate in run_processes(n, args, tmp, postgres, redis, one):
                    rates.setdefault(mode, {}).setdefault(n, []).append(rate)
                if n == 1 and "floor" in args.modes:
                    floor_run(args, tmp, postgres, one)
                if n == 1 and "transport" in args.modes:
                    transport_run(args, postgres, one)
        if args.repeat > 1:
            for text in repeat_summary(rates):
                print(text, flush=True)
        if args.latency and "direct" in one:
            latency_run(args, tmp, postgres, redis, one["direct"], one.get("direct1"))
    finally:
        redis.stop()
        postgres.stop()


# --server-checkout: the checkout the server processes run from (None: this one)
SERVER_ROOT: Path | None = None


def start_servers(n: int, tmp: Path, postgres: PostgresCluster, redis: RedisServer,
                  label: str, python_args: tuple[str, ...] = (),
                  extra_env: dict[str, str] | None = None
                  ) -> tuple[list[LiveServer], list[Cgroup]]:
    url = postgres.new_database(f"scale_{label}_{int(time.time() * 1000) % 10**9}")
    servers: list[LiveServer] = []
    groups: list[Cgroup] = []
    env = {**BENCH_ENV, "LUDOTECA_REDIS_URL": redis.url, **(extra_env or {})}
    for i in range(n):
        server = LiveServer(url, tmp / f"{label}-data{i}", env=env, python_args=python_args,
                            root=SERVER_ROOT)
        server.start()
        servers.append(server)
        group = Cgroup(f"ludoteca-bench-{os.getpid()}-{label}-{i}")
        group.add(server.process.pid)  # type: ignore[union-attr]
        groups.append(group)
    return servers, groups


def run_processes(n: int, args: argparse.Namespace, tmp: Path, postgres: PostgresCluster,
                  redis: RedisServer, one: dict[str, float]) -> list[tuple[str, float]]:
    """Every mode's run at ``n`` processes; returns each mode's delivered actions/s."""
    done: list[tuple[str, float]] = []
    # `forwarded` measures the forwarding hop itself: its processes never hand a table
    # over (else the first socket would bring each table to where it lands)
    for modes, env, label in (([m for m in args.modes if m in ("direct", "nginx")], None,
                               f"n{n}"),
                              ([m for m in args.modes if m == "forwarded" and n > 1],
                               {"LUDOTECA_TABLE_HANDOVER": "0"}, f"n{n}f")):
        if modes:
            done += run_modes(n, modes, args, tmp, postgres, redis, one, env, label)
    return done


def run_modes(n: int, modes: list[str], args: argparse.Namespace, tmp: Path,
              postgres: PostgresCluster, redis: RedisServer, one: dict[str, float],
              env: dict[str, str] | None, label: str) -> list[tuple[str, float]]:
    # each mode on server processes and a database of its own: measured after another mode
    # on the same processes (its tables left seated, their players gone), a mode came out
    # 10-30 % dearer an action on a calm machine, so the ratios moved with --modes' order
    return [(mode, run_mode(n, mode, args, tmp, postgres, redis, one, env, f"{label}{mode[0]}"))
            for mode in modes]


def run_mode(n: int, mode: str, args: argparse.Namespace, tmp: Path,
             postgres: PostgresCluster, redis: RedisServer, one: dict[str, float],
             env: dict[str, str] | None, label: str) -> float:
    """One mode at ``n`` processes, printed; returns its delivered actions/s."""
    from tests.support.nginx import Nginx, compose_nginx_conf

    servers, groups = start_servers(n, tmp, postgres, redis, label, extra_env=env)
    proxy = None
    try:
        if mode == "nginx":
            conf = compose_nginx_conf()
            upstreams = "\n".join(f"    server 127.0.0.1:{s.port} max_fails=1 fail_timeout=5s;"
                                  for s in servers)
            lines = [ln for ln in conf.splitlines() if "server app-" not in ln]
            at = next(i for i, ln in enumerate(lines) if "hash $table_key" in ln)
            lines.insert(at + 1, upstreams)
            proxy = Nginx("\n".join(lines) + "\n", tmp / f"nginx-{n}")
            proxy.start()
        slots = slots_for(mode, servers, proxy, args.tables * n)
        m = measure(servers, groups, slots, args, args.quota)
        base = one.get(mode) if n > 1 else None
        if n == 1:
            one[mode] = m["rate"]
        if mode == "forwarded":
            base = one.get("direct")
        title = f"{n} process{'es' if n > 1 else ''}, {mode}"
        print(line(title, m, base), flush=True)
        if mode == "forwarded" and "direct" in args.modes:
            direct = one.get(f"direct{n}")
            if direct:
                print(f"  forwarding cost: {m['cpu_per_action_us'] - direct:.0f} us of "
                      f"server CPU per action over direct", flush=True)
        if mode == "direct":
            one[f"direct{n}"] = m["cpu_per_action_us"]
        return float(m["rate"])
    finally:
        if proxy is not None:
            proxy.stop()
        for server in servers:
            server.stop()
        for group in groups:
            group.remove()


def repeat_summary(rates: dict[str, dict[int, list[float]]]) -> list[str]:
    """--repeat's lines: for each mode and process count, the median rate over the repeats
    (min-max), the ratio of that median to one process's median, and the ratio of each repeat
    (its N processes over its own one process) with their median and how many of them reach
    issue 22's 0.9·N."""
    lines = []
    for mode, by_n in rates.items():
        ones = by_n.get(1)
        for n, values in sorted(by_n.items()):
            repeats = f"{len(values)} repeat{'s' if len(values) > 1 else ''}"
            text = (f"over {repeats}, {n} process{'es' if n > 1 else ''}, {mode}: "
                    f"median {statistics.median(values):.0f} actions/s "
                    f"({min(values):.0f}-{max(values):.0f})")
            if ones and n > 1:
                ratios = [v / o for v, o in zip(values, ones, strict=False)]
                met = sum(r >= 0.9 * n for r in ratios)
                of_medians = statistics.median(values) / statistics.median(ones)
                text += (f"; ratio of the medians {of_medians:.2f}x"
                         f"; each repeat's ratio {', '.join(f'{r:.2f}x' for r in ratios)}"
                         f" (median {statistics.median(ratios):.2f}x; {met} of {len(ratios)} "
                         f">= {0.9 * n:.1f}x)")
            lines.append(text)
    return lines


class FloorServer:
    """bench.wsfloor in a subprocess: the same move's work on bare websockets."""

    def __init__(self, database_url: str, replay: bool = False) -> None:
        from tests.support.server import free_port

        self.port = free_port()
        self.ws_url = f"ws://127.0.0.1:{self.port}"
        self.process = subprocess.Popen(
            [sys.executable, "-m", "bench.wsfloor", "--port", str(self.port), "--database-url",
             database_url.replace("+asyncpg", ""), *(["--replay"] if replay else [])],
            stdout=subprocess.PIPE,
            cwd=Path(__file__).resolve().parents[1])
        assert self.process.stdout is not None
        if self.process.stdout.readline().strip() != b"ready":
            raise RuntimeError("bench.wsfloor did not start")

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=10)


def floor_run(args: argparse.Namespace, tmp: Path, postgres: PostgresCluster,
              one: dict[str, float]) -> None:
    """The floor under the same quota and generator: the platform's overhead as a ratio;
    with ``--latency``, the floor paced at the same share of its own saturation too (what a
    paced action costs with no platform: the machine's part of that cost)."""
    m = floor_measure(args, postgres)
    print(line("floor (bare websockets: parse, apply, views, durable append, sends)", m),
          flush=True)
    direct = one.get("direct1")
    if direct:
        print(f"  platform overhead: {direct / m['cpu_per_action_us']:.2f}x the floor's "
              f"server CPU per action ({direct:.0f} against {m['cpu_per_action_us']:.0f}"
              f" us); delivered {one['direct'] / m['rate']:.2f}x the floor's rate",
              flush=True)
    if args.latency:
        target = m["rate"] * args.latency_share
        paced = floor_measure(args, postgres, args.tables / target)
        print(latency_line(f"floor latency at {args.latency_share:g} of its saturation",
                           target, paced, args.quota)
              + f"; {paced['cpu_per_action_us'] / m['cpu_per_action_us']:.2f}x its "
                "closed-loop CPU per action", flush=True)


def transport_run(args: argparse.Namespace, postgres: PostgresCluster,
                  one: dict[str, float]) -> None:
    """The transport alone (bench.wsfloor --replay) under the same quota and generator: what
    a move costs with no engine, and what is left of the real server's move without it."""
    # it runs about three times as fast as a move: seat three times the games, so that no
    # slot runs out of them before the window ends
    more = argparse.Namespace(**{**vars(args), "games_per_slot": 3 * args.games_per_slot})
    m = floor_measure(more, postgres, replay=True)
    print(line("transport (bare websockets: parse, durable append, sends of recorded "
               "messages; no engine)", m), flush=True)
    direct = one.get("direct1")
    if direct:
        rest = direct - m["cpu_per_action_us"]
        print(f"  the transport is {m['cpu_per_action_us'] / direct:.2f}x the server's CPU per "
              f"action ({m['cpu_per_action_us']:.0f} of {direct:.0f} us); the rest, {rest:.0f}"
              " us, is the engine's work and the platform's", flush=True)


def floor_measure(args: argparse.Namespace, postgres: PostgresCluster,
                  period: float | None = None, replay: bool = False) -> dict[str, Any]:
    """bench.wsfloor (a fresh one, its own database) driven under the quota; ``replay``:
    its transport alone."""
    url = postgres.new_database(f"scale_floor_{int(time.time() * 1000) % 10**9}")
    floor = FloorServer(url, replay)
    group = Cgroup(f"ludoteca-bench-{os.getpid()}-floor")
    group.add(floor.process.pid)
    try:
        slots = [Slot("", floor.ws_url, k, floor=True) for k in range(args.tables)]
        return measure([floor], [group], slots, args, args.quota,  # type: ignore[list-item]
                       period=period)
    finally:
        floor.stop()
        group.remove()


def latency_line(label: str, target: float, m: dict[str, Any], quota: float) -> str:
    return (f"{label} ({target:.0f} actions/s offered, one process, quota {quota}): "
            f"delivered {m['rate']:.0f}/s, p50 {m['p50_ms']:.1f} ms, p99 {m['p99_ms']:.1f} ms, "
            f"max {m['max_ms']:.1f} ms, missed slots {m['missed']}, server CPU "
            f"{m['cpu_per_action_us']:.0f} us/action (throttled "
            f"{100 * m['throttled_share'][0]:.0f} % of the time); per action: "
            + ", ".join(f"{v:.1f} {k}" for k, v in m["per_action"].items()))


def latency_run(args: argparse.Namespace, tmp: Path, postgres: PostgresCluster,
                redis: RedisServer, saturated: float, closed_cpu: float | None = None) -> None:
    servers, groups = start_servers(1, tmp, postgres, redis, "lat")
    try:
        target = saturated * args.latency_share
        slots = slots_for("direct", servers, None, args.tables)
        period = len(slots) / target
        m = measure(servers, groups, slots, args, args.quota, period=period)
        ratio = (f"; {m['cpu_per_action_us'] / closed_cpu:.2f}x its closed-loop CPU per "
                 "action") if closed_cpu else ""
        print(latency_line(f"latency at {args.latency_share:g} of saturation", target, m,
                           args.quota) + ratio, flush=True)
    finally:
        for server in servers:
            server.stop()
        for group in groups:
            group.remove()


def profile_run(args: argparse.Namespace, tmp: Path, postgres: PostgresCluster,
                redis: RedisServer) -> None:
    """One process, direct, closed loop, profiled during the measured window only (CPU
    time: bench.profserve): the functions its CPU goes to."""
    import pstats

    path = str(Path(args.profile).resolve())
    servers, groups = start_servers(1, tmp, postgres, redis, "prof",
                                    ("-m", "bench.profserve", path))
    process = servers[0].process
    assert process is not None

    def window(start: bool) -> None:
        process.send_signal(signal.SIGUSR1 if start else signal.SIGUSR2)

    try:
        period = args.tables / args.profile_rate if args.profile_rate else None
        m = measure(servers, groups, slots_for("direct", servers, None, args.tables), args,
                    args.quota, period=period, window=window)
        label = f"paced at {args.profile_rate:g}/s" if period else "closed loop"
        print(line(f"1 process, direct, {label}, profiled", m), flush=True)
        time.sleep(1)  # the profile is written by the server's signal handler
    finally:
        for server in servers:
            server.stop()
        for group in groups:
            group.remove()
    stats = pstats.Stats(path)
    stats.sort_stats("tottime").print_stats(35)
    stats.sort_stats("cumulative").print_stats(50)


if __name__ == "__main__":
    main()
