"""The group writer alone: CPU per action of a paced server's commits (one action at a time).

    python -m bench.writer [--actions 2000] [--tables 30] [--no-fsync] [--gap-ms 0]
                           [--at-once 1] [--sqlite]

A throwaway PostgreSQL (fsync on, as bench.scale runs it), the app's ``Repository``; every
action is appended and awaited before the next, as actions arriving one by one at a quiet
server are: each is a commit of its own. Printed: this process's CPU per action (user +
system, ``time.process_time``) and wall time per action. ``--gap-ms`` sleeps between actions
(the server's process then sleeps between them too, as a paced one does). The first 10 % are
a warm-up, not measured. ``--at-once N``: N tables' actions appended together each round
(a busy server's batches: N actions a commit, or fewer). ``--sqlite``: the default
deployment's database instead, a SQLite file in a temporary directory (as ``python -m app
serve`` opens it: WAL, ``synchronous=FULL``; ``--no-fsync`` does not apply). The CPU
printed is the whole process's, aiosqlite's thread included. Run it with ``PYTHONPATH`` set to
another checkout to compare.
"""

from __future__ import annotations

import argparse
import asyncio
import time

from tests.support.postgres import PostgresCluster


async def drive(url: str, args: argparse.Namespace) -> tuple[float, float, int]:
    """CPU and wall seconds per measured action, and the commits in all."""
    from app.db.models import GameTable
    from app.db.repository import Repository, now
    from app.db.session import make_engine, make_sessionmaker, migrate

    await asyncio.to_thread(migrate, url)
    repo = Repository(make_sessionmaker(make_engine(url)))
    await repo.create_player("p", "Ana", "token")
    for i in range(args.tables):
        await repo.create_table(GameTable(
            id=f"t{i}", game="hanabi", seat_count=4, options={}, private=False,
            invite_token=f"inv{i}", host_id="p", status="playing", seed=1, version=0,
            created_at=now()), host_seat=0)
    version = [0] * args.tables
    action = {"type": "action", "version": 0, "action": {"type": "play", "card": 2}}
    warm = args.actions // 10
    gap = args.gap_ms / 1000
    cpu = wall = 0.0
    measured = 0
    at_once = args.at_once
    for n in range(0, warm + args.actions, at_once):
        if n == warm // at_once * at_once:
            cpu, wall = time.process_time(), time.perf_counter()
        appends = []
        if n >= warm // at_once * at_once:
            measured += at_once
        for k in range(n, n + at_once):
            i = k % args.tables
            version[i] += 1
            appends.append(repo.append_action(f"t{i}", version[i], k % 4, action, "player",
                                              None))
        if at_once == 1:
            await appends[0]
        else:
            await asyncio.gather(*appends)
        if gap:
            await asyncio.sleep(gap)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    commits = repo.writer.batches
    await repo.close()
    await repo.sessions.kw["bind"].dispose()
    return cpu / measured, wall / measured, commits


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--actions", type=int, default=2000)
    parser.add_argument("--tables", type=int, default=30)
    parser.add_argument("--gap-ms", type=float, default=0.0)
    parser.add_argument("--at-once", type=int, default=1)
    parser.add_argument("--no-fsync", action="store_true")
    parser.add_argument("--sqlite", action="store_true")
    args = parser.parse_args()
    if args.sqlite:
        import tempfile

        import uvloop

        with tempfile.TemporaryDirectory() as tmp:
            url = f"sqlite+aiosqlite:///{tmp}/writer.db"
            cpu, wall, commits = uvloop.run(drive(url, args))
        report(args, cpu, wall, commits, "SQLite (synchronous=FULL)")
        return
    postgres = PostgresCluster.find()
    if postgres is None:
        raise SystemExit("PostgreSQL is not installed here")
    postgres.start(fsync=not args.no_fsync)
    try:
        import uvloop

        url = postgres.new_database(f"writer_{int(time.time() * 1000) % 10**9}")
        cpu, wall, commits = uvloop.run(drive(url, args))
    finally:
        postgres.stop()
    report(args, cpu, wall, commits, f"PostgreSQL fsync {'off' if args.no_fsync else 'on'}")


def report(args: argparse.Namespace, cpu: float, wall: float, commits: int, where: str
           ) -> None:
    gap = args.gap_ms * 1000
    how = "one at a time" if args.at_once == 1 else f"{args.at_once} at once"
    print(f"{args.actions} actions {how} ({commits} commits in all), "
          f"{where}: CPU {cpu * 1e6:.1f}"
          f" us/action, wall {wall * 1e6 - gap:.0f} us/action"
          + (f" besides the {args.gap_ms:g} ms gap" if gap else ""))


if __name__ == "__main__":
    main()
