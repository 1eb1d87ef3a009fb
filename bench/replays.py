"""What a replay costs: for a random game of each engine at its largest table, the time to
replay the log from the seed keeping every state (``app.tables.core.ending.replay``, as the
replay page's first request does, off the event loop) and the memory those states hold (the
server keeps the last few matches' states: ``app.tables.records.ReplayCache``).

    python -m bench.replays [--seed 3]

Figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import time
import tracemalloc

from app.games import ENGINES
from app.tables.core.ending import replay
from tests.games.conformance import playout


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seed", type=int, default=3)
    args = parser.parse_args()
    print(f"{'game':16} {'seats':>5} {'steps':>6} {'replay s':>9} {'states MB':>10}")
    for game, engine in sorted(ENGINES.items()):
        seats = engine.max_players
        _final, log = playout(engine, seats, {}, args.seed, deep_checks=False)
        steps = [(i + 2, seat, action) for i, (seat, action) in enumerate(log)]
        tracemalloc.start()
        started = time.perf_counter()
        kept = replay(engine, seats, {}, args.seed, steps, keep_states=True)
        took = time.perf_counter() - started
        held, _peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        del kept
        print(f"{game:16} {seats:>5} {len(steps):>6} {took:>9.2f} {held / 1e6:>10.1f}")


if __name__ == "__main__":
    main()
