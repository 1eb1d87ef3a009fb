"""Hanabi bot strength and speed: all-bot games in-process, seeds 0..N-1 per player count.

    python -m bench.hanabi_bot [--seeds 1000] [--players 2 3 4 5] [--convention human]
                               [--workers 2] [--option fuses=1 ...]

Prints, per player count: mean score and its standard error, a histogram of scores, the
perfect-game and strikeout rates, and the bot's decision time (median, p99, max). Standard
rules unless ``--option`` says otherwise: no empty clues, 3 fuses, 8 clue tokens, no
multicolor, and the first player drawn from the seed.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from app.games.base import Rng
from app.games.bots import bot_rng, seat_history
from app.games.hanabi.bot import HanabiBot
from app.games.hanabi.rules import ENGINE

STANDARD = {"empty_clues": False, "fuses": 3, "clue_tokens": 8, "multicolor": False}


def play_game(seats: int, seed: int, convention: str,
              options: dict[str, Any]) -> tuple[int, str, list[float]]:
    """One all-bot game: (score, how it ended, decision times in seconds)."""
    bot = HanabiBot(convention)
    state = ENGINE.setup(seats, options, seed)
    history: list[tuple[int, list[Any]]] = []
    times: list[float] = []
    version = 0
    while not state.over:
        seat = state.turn
        view = ENGINE.view(state, seat)
        legal = ENGINE.legal_actions(state, seat)
        seen = seat_history(history, seat)
        rng: Rng = bot_rng(seed, version, seat)
        t0 = time.perf_counter()
        action = bot.choose(view, legal, seen, rng)
        times.append(time.perf_counter() - t0)
        state, events = ENGINE.apply(state, seat, action)
        version += 1
        history.append((version, events))
    return state.score(), str(state.over), times


def _chunk(args: tuple[int, list[int], str, dict[str, Any]]) -> list[tuple[int, str, list[float]]]:
    seats, seeds, convention, options = args
    return [play_game(seats, seed, convention, options) for seed in seeds]


def run(seats: int, seeds: int, convention: str, options: dict[str, Any],
        workers: int) -> None:
    chunks = [(seats, list(range(start, seeds, workers * 4)), convention, options)
              for start in range(workers * 4)]
    start = time.perf_counter()
    if workers > 1:
        with ProcessPoolExecutor(workers) as pool:
            results = [r for part in pool.map(_chunk, chunks) for r in part]
    else:
        results = [r for part in map(_chunk, chunks) for r in part]
    elapsed = time.perf_counter() - start
    scores = [r[0] for r in results]
    times = sorted(t for r in results for t in r[2])
    n = len(scores)
    mean = statistics.fmean(scores)
    sem = statistics.stdev(scores) / math.sqrt(n) if n > 1 else 0.0
    ends = Counter(r[1] for r in results)
    perfect = ends["perfect"] + sum(1 for s, how, _ in results if s == 25 and how != "perfect")
    print(f"{seats} players, {n} games ({convention}, {elapsed:.0f} s): "
          f"mean {mean:.2f} ± {sem:.2f}  perfect {100 * perfect / n:.1f} %  "
          f"strikeout {100 * ends['strikeout'] / n:.1f} %")
    histogram = Counter(scores)
    top = max(histogram.values())
    for score in sorted(histogram):
        bar = "#" * max(1, round(40 * histogram[score] / top))
        print(f"  {score:2d} {histogram[score]:5d} {bar}")
    median = times[len(times) // 2]
    p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
    print(f"  decision time: median {1000 * median:.1f} ms, p99 {1000 * p99:.1f} ms, "
          f"max {1000 * times[-1]:.1f} ms over {len(times)} decisions")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=1000)
    parser.add_argument("--players", type=int, nargs="+", default=[2, 3, 4, 5])
    parser.add_argument("--convention", default="human")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--option", action="append", default=[],
                        help="a table option as name=JSON value, e.g. fuses=1")
    args = parser.parse_args()
    options = dict(STANDARD)
    for item in args.option:
        name, _, value = item.partition("=")
        options[name] = json.loads(value)
    for seats in args.players:
        run(seats, args.seeds, args.convention, options, args.workers)


if __name__ == "__main__":
    main()
