"""The table actor's own cost per action: no sockets, no database.

    python -m bench.actor [--games 30] [--game hanabi] [--seats 4]
                          [--pause-ms MS] [--evict-mb MB]
                          [--against CHECKOUT [--rounds 3]]

Plays ``--games`` whole games through a ``TableActor`` whose storage is the in-memory
repository of the actor tests and whose connections write to nothing, so what is left is
validation, ``apply``, every seat's view, the state messages and their encoding. Prints the
CPU time per action (``time.process_time``). Run it under
``valgrind --tool=callgrind`` for an instruction count that other work on the machine does
not disturb (the figures in bench/README.md are ``Ir`` divided by the actions).

``--pause-ms`` and ``--evict-mb`` measure the same actions as a server at low load meets
them: between two actions the event loop sleeps (``--pause-ms``: the process is switched
out, as when a paced server waits for its next frame) and/or something else walks through
memory (``--evict-mb``: what other processes on the same core, the generators and the
database, do to its caches). Only each action's own CPU is counted, never the pause or the
walk, so the figure is the same work hot or cold; ``--modes`` prints them side by side.

``--against CHECKOUT`` (another checkout of the project, e.g. ``git worktree add /tmp/old
53edcfa``) measures both in one run: the same bench in each checkout, in turn, ``--rounds``
times, in fresh processes; prints each round and the best of each (the least disturbed by
other work on the machine).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import re
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

from app.games import ENGINES
from app.tables.actor import TableActor
from app.tables.connections import Connection
from app.tables.core.commands import Act, Join, Start
from app.tables.core.state import TableStatus, new_table
from app.tables.engine import adapt
from tests.tables.support import MemoryRepo


async def play(game: str, seats: int, games: int, pause: float = 0.0,
               evict: bytearray | None = None) -> tuple[int, float]:
    engine = ENGINES[game]
    waiting_for = adapt(engine).waiting_for
    options = {o.name: o.default for o in engine.options} | {"turn_seconds": 0}
    rng = random.Random(1)
    actions, cpu = 0, 0.0

    async def send_text(_text: str) -> None:
        return None

    async def close(_code: int, _reason: str) -> None:
        return None

    for g in range(games):
        players = [f"p{i}" for i in range(seats)]
        table = new_table(id=f"t{g}", engine=adapt(engine), seat_count=seats,
                          options=options, private=False, invite_token="invite", seed=g,
                          created_at=datetime.now(UTC), host_id=players[0], host_name="P0")
        actor = TableActor(table, MemoryRepo())  # type: ignore[arg-type]
        actor.start()
        for i in range(1, seats):
            await actor.submit(Join(players[i], f"P{i}"))
        writers = []
        for player in players:
            connection = Connection(player, send_text, close, 10_000)
            writers.append(asyncio.get_running_loop().create_task(connection.writer()))
            await actor.connect(connection)
        await actor.submit(Start(players[0]))
        while actor.table.status is TableStatus.PLAYING:
            if pause:
                await asyncio.sleep(pause)
            if evict is not None:
                _walk(evict)
            start = time.process_time()
            # a seat the game waits for (in a simultaneous turn, one that has not chosen)
            seat = min(waiting_for(actor.state) or engine.to_act(actor.state))
            legal = engine.legal_actions(actor.state, seat)
            # Hanabi: random plays end a game in ~20 moves; keep games their natural length
            calm = [a for a in legal if a.get("type") != "play"] or legal
            await actor.submit(Act(players[seat], rng.choice(calm), actor.table.version))
            actions += 1
            await asyncio.sleep(0)
            cpu += time.process_time() - start
        await actor.stop()
        for w in writers:
            w.cancel()
    return actions, cpu


def _walk(memory: bytearray) -> None:
    """Touch every cache line of ``memory`` (writes, so each line is owned here)."""
    memory[::64] = bytes(len(range(0, len(memory), 64)))


MODES = {"hot": (0.0, 0), "pause": (None, 0), "evict": (0.0, None), "both": (None, None)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--game", default="hanabi")
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--against", metavar="CHECKOUT",
                        help="also measure another checkout, in turn with this one")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--pause-ms", type=float, default=0.0,
                        help="the event loop sleeps this long between two actions")
    parser.add_argument("--evict-mb", type=int, default=0,
                        help="walk this many MiB of memory between two actions")
    parser.add_argument("--modes", nargs="+", choices=sorted(MODES),
                        help="instead: each of these in turn (pause and evict use "
                             "--pause-ms, default 4, and --evict-mb, default 16), "
                             "and each one's cost against hot")
    args = parser.parse_args()
    if args.against:
        compare(args)
        return
    if args.modes:
        costs = {}
        for mode in args.modes:
            pause, mb = MODES[mode]
            pause = (args.pause_ms or 4.0) / 1000 if pause is None else pause
            mb = (args.evict_mb or 16) if mb is None else mb
            costs[mode] = measure(args, pause, mb)
            print(line(args, costs[mode], mode, pause, mb, costs.get("hot")), flush=True)
        return
    cost = measure(args, args.pause_ms / 1000, args.evict_mb)
    print(line(args, cost, None, args.pause_ms / 1000, args.evict_mb, None))


def measure(args: argparse.Namespace, pause: float, mb: int) -> tuple[int, float]:
    evict = bytearray(mb << 20) if mb else None
    return asyncio.run(play(args.game, args.seats, args.games, pause, evict))


def line(args: argparse.Namespace, cost: tuple[int, float], mode: str | None, pause: float,
         mb: int, hot: tuple[int, float] | None) -> str:
    actions, cpu = cost
    us = 1e6 * cpu / max(actions, 1)
    between = [f"{1000 * pause:g} ms asleep"] if pause else []
    between += [f"{mb} MiB walked"] if mb else []
    text = f"{args.game} x{args.seats}: {actions} actions, {us:.0f} us of CPU per action " \
           f"(actor, views, encoding)"
    if mode is not None:
        text = f"{mode:5} " + text
    if between:
        text += "; between two actions " + " and ".join(between)
    if hot is not None and mode != "hot":
        text += f"; {us / (1e6 * hot[1] / max(hot[0], 1)):.2f}x hot"
    return text


def compare(args: argparse.Namespace) -> None:
    here = Path(__file__).resolve().parents[1]
    checkouts = {"this": here, "other": Path(args.against).resolve()}
    best: dict[str, float] = {}
    for r in range(args.rounds):
        for label, root in checkouts.items():
            out = subprocess.run(
                [sys.executable, "-m", "bench.actor", "--games", str(args.games), "--game",
                 args.game, "--seats", str(args.seats)], cwd=root, capture_output=True,
                text=True, check=True, env={**os.environ, "PYTHONPATH": str(root)}).stdout
            us = float(re.search(r"(\d+) us of CPU", out).group(1))  # type: ignore[union-attr]
            best[label] = min(best.get(label, us), us)
            print(f"round {r + 1} {label} ({root}): {out.strip()}", flush=True)
    print(f"best of {args.rounds}: this checkout {best['this']:.0f} us, {args.against} "
          f"{best['other']:.0f} us of CPU per action ({args.game} x{args.seats}, "
          f"{args.games} games)")


if __name__ == "__main__":
    main()
