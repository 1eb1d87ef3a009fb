"""The table actor's own cost per action: no sockets, no database.

    python -m bench.actor [--games 30] [--game hanabi] [--seats 4]
                          [--against CHECKOUT [--rounds 3]]

Plays ``--games`` whole games through a ``TableActor`` whose storage is the in-memory
repository of the actor tests and whose connections write to nothing, so what is left is
validation, ``apply``, every seat's view, the state messages and their encoding. Prints the
CPU time per action (``time.process_time``). Run it under
``valgrind --tool=callgrind`` for an instruction count that other work on the machine does
not disturb (the figures in bench/README.md are ``Ir`` divided by the actions).

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


async def play(game: str, seats: int, games: int) -> tuple[int, float]:
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
        start = time.process_time()
        while actor.table.status is TableStatus.PLAYING:
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--game", default="hanabi")
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--against", metavar="CHECKOUT",
                        help="also measure another checkout, in turn with this one")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    if args.against:
        compare(args)
        return
    actions, cpu = asyncio.run(play(args.game, args.seats, args.games))
    print(f"{args.game} x{args.seats}: {actions} actions, "
          f"{1e6 * cpu / max(actions, 1):.0f} us of CPU per action (actor, views, encoding)")


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
