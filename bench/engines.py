"""Engine throughput: random legal playouts per game, timing apply() and view()."""

from __future__ import annotations

import argparse
import random
import time

from app.games import ENGINES


def run(game_id: str, seats: int, games: int) -> None:
    engine = ENGINES[game_id]
    rng = random.Random(1)
    actions = 0
    apply_time = view_time = 0.0
    views = 0
    start = time.perf_counter()
    for seed in range(games):
        state = engine.setup(seats, {}, seed)
        while engine.outcome(state) is None:
            seat = rng.choice(sorted(engine.to_act(state)))
            action = rng.choice(engine.legal_actions(state, seat))
            t0 = time.perf_counter()
            state, _ = engine.apply(state, seat, action)
            t1 = time.perf_counter()
            engine.view(state, seat)
            t2 = time.perf_counter()
            apply_time += t1 - t0
            view_time += t2 - t1
            actions += 1
            views += 1
    elapsed = time.perf_counter() - start
    print(f"{game_id:12} {seats}p  {games / elapsed:8.1f} games/s  {actions / elapsed:9.0f} "
          f"actions/s  apply {1e6 * apply_time / actions:7.1f} µs  "
          f"view {1e6 * view_time / views:7.1f} µs")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=100)
    args = parser.parse_args()
    for game_id, engine in sorted(ENGINES.items()):
        for seats in (engine.min_players, engine.max_players):
            run(game_id, seats, args.games)


if __name__ == "__main__":
    main()
