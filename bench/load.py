"""Load on a real server over loopback: many tables playing at once with generic clients.

Prints the round trip of each action (sent → every seat of the table saw the new version)
as percentiles, and the overall action rate. Bounded by the games' own length.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from pathlib import Path

from tests.support.client import ApiClient, SeatClient
from tests.support.server import LiveServer


def seat_table(server: LiveServer, game: str, seats: int, n: int) -> tuple[list[ApiClient], str]:
    """Players, a table, every seat taken, started (blocking HTTP: done before timing)."""
    players = [ApiClient(server.url, f"bot{n}-{i}") for i in range(seats)]
    table = players[0].create_table(game, seats)
    invite = table["invite_url"].rsplit("/", 1)[1]
    for p in players[1:]:
        p.join(table["id"], invite=invite)
    players[0].start(table["id"])
    return players, table["id"]


async def play_table(server: LiveServer, players: list[ApiClient], table_id: str, seed: int,
                     latencies: list[float]) -> int:
    clients = [SeatClient(server.ws_url, table_id, p.token) for p in players]
    for c in clients:
        await c.open()
    rng = random.Random(seed)
    moves = 0
    while True:
        newest = max(c.state["version"] for c in clients)
        for c in clients:
            await c.wait_version(newest)
        if clients[0].state["table"]["status"] == "finished":
            break
        mover = rng.choice([c for c in clients if c.my_turn()])
        t0 = time.perf_counter()
        await mover.act(rng.choice(mover.state["legal_actions"]))
        await asyncio.gather(*(c.wait_version(newest + 1) for c in clients))
        latencies.append(time.perf_counter() - t0)
        moves += 1
    for c in clients:
        await c.close()
    return moves


async def main_async(args: argparse.Namespace) -> None:
    tmp = Path(tempfile.mkdtemp(prefix="ludoteca-bench-"))
    url = args.database_url or f"sqlite+aiosqlite:///{tmp / 'bench.db'}"
    server = LiveServer(url, tmp / "data")
    server.start()
    try:
        latencies: list[float] = []
        tables = [seat_table(server, args.game, args.seats, i) for i in range(args.tables)]
        t0 = time.perf_counter()
        moves = await asyncio.gather(*(play_table(server, players, table_id, i, latencies)
                                       for i, (players, table_id) in enumerate(tables)))
        elapsed = time.perf_counter() - t0
    finally:
        server.stop()
    q = statistics.quantiles(latencies, n=100)
    print(f"{args.tables} tables of {args.game} ({args.seats} seats), {sum(moves)} actions "
          f"in {elapsed:.1f} s = {sum(moves) / elapsed:.0f} actions/s")
    print(f"round trip ms: p50 {1000 * q[49]:.1f}  p95 {1000 * q[94]:.1f}  "
          f"p99 {1000 * q[98]:.1f}  max {1000 * max(latencies):.1f}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--seats", type=int, default=2)
    parser.add_argument("--game", default="hanabi")
    parser.add_argument("--database-url", default="")
    asyncio.run(main_async(parser.parse_args()))


if __name__ == "__main__":
    main()
