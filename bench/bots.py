"""Bot strength: games played in-process, bots against random seats and against themselves.

``python -m bench.bots [--games 1000] [--game ikebana ...] [--players 3 ...] [--mode ...]
[--workers 2]``

Modes (``--mode``, default both for competitive games, ``self`` for Hanabi):

- ``random``: one bot seat against seats that choose uniformly among their legal actions
  (every engine here lists concrete actions, Alebrijes' combinations included, so the uniform
  choice is over the engine's own enumeration). The bot's seat rotates with the game number.
  Prints the bot's share of the wins (a shared victory among k seats counts 1/k), the target
  of twice the fair share (2/N; at 2 players, "nearly always" is taken as 95 %), and the
  average score margin:
  the bot's score minus the mean of the others', signed so that positive favours the bot
  (Allegra counts lowest-wins).
- ``random-type``: as ``random``, but the other seats first choose uniformly among the
  types of their legal actions, then among the actions of that type (Alebrijes lists dozens
  of ways to pass, one per set of cards swapped, against a few plays: a uniform seat nearly
  always passes; this one plays whenever it can about half the time).
- ``self``: every seat a bot. For competitive games the share of the wins of the seat that
  ``random`` mode would give the bot (a sanity check: near 1/N); for Hanabi (cooperative)
  the mean score and its distribution.

Every mode prints the bot's decision time as median/p99/max for ``choose`` alone (the view
is built by the caller, as the table actor does): CPU time of the deciding thread, which
other processes on the machine do not inflate, and wall-clock time, which they do.

The harness drives engines as the table actor does: seats in ``waiting_for`` (else
``to_act``) act one at a time in a random order (Ajolocracia's simultaneous picks, Allegra's
reveals); in a timed window (Allegra's knock) each seat in it is asked once and may answer
(a policy returning ``None`` stays silent); a window still open after that is closed with a
``SYSTEM_SEAT`` ``close_window`` through ``apply_any``, as at its deadline. A bot gets its
seat's redacted view, legal actions and history (``seat_history`` of the ``(version,
events)`` pairs) and the ``bot_rng`` of the table seed, version and seat.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from multiprocessing import Pool
from typing import Any

from app.games import ENGINES
from app.games.base import CLOSE_WINDOW, SYSTEM_SEAT, Action, Rng
from app.games.bots import Bot, bot_for, bot_rng, seat_history
from app.tables.engine import apply_any, open_window

# the rules the issue measures against (Hanabi: standard rules, no empty clues)
GAME_OPTIONS: dict[str, dict[str, Any]] = {"hanabi": {"empty_clues": False}}
LOWEST_WINS = frozenset({"allegra"})
COOPERATIVE = frozenset({"hanabi"})
MAX_ACTIONS = 20_000  # a game longer than this is a bug in a bot or an engine


@dataclass
class GameResult:
    """One finished game, seen from its designated seat."""

    seat: int
    scores: list[int]
    winners: list[int]
    times: list[float] = field(default_factory=list)  # CPU seconds per bot decision
    walls: list[float] = field(default_factory=list)  # wall-clock seconds per bot decision
    actions: int = 0


Policy = Callable[[Any, Any, int, list[dict[str, Any]], int, int], Action | None]


def random_policy(rng: Rng, by_type: bool = False) -> Policy:
    """A seat that chooses uniformly among its legal actions (always answering windows);
    ``by_type``: uniformly among the action types first, then among that type's actions."""

    def act(engine: Any, state: Any, seat: int, history: list[dict[str, Any]],
            seed: int, version: int) -> Action:
        legal = engine.legal_actions(state, seat)
        if by_type:
            kind = rng.choice(sorted({a["type"] for a in legal}))
            legal = [a for a in legal if a["type"] == kind]
        return rng.choice(legal)

    return act


def bot_policy(bot: Bot, times: list[float], walls: list[float] | None = None) -> Policy:
    """A bot seat; its decision times go to ``times`` (CPU) and ``walls`` (wall clock)."""

    def act(engine: Any, state: Any, seat: int, history: list[dict[str, Any]],
            seed: int, version: int) -> Action:
        view = engine.view(state, seat)
        legal = engine.legal_actions(state, seat)
        rng = bot_rng(seed, version, seat)
        wall, cpu = time.perf_counter(), time.thread_time()
        action = bot.choose(view, legal, history, rng)
        times.append(time.thread_time() - cpu)
        if walls is not None:
            walls.append(time.perf_counter() - wall)
        return action

    act.wants_history = True  # type: ignore[attr-defined]
    return act


def play(game: str, seats: int, seed: int, policies: Sequence[Policy],
         options: dict[str, Any] | None = None, order_rng: Rng | None = None) -> Any:
    """Play one game to the end; returns ``(outcome, actions applied)``."""
    engine = ENGINES[game]
    state = engine.setup(seats, options or GAME_OPTIONS.get(game, {}), seed)
    order = order_rng or Rng.from_seed(seed ^ 0x5EED)
    histories: list[list[dict[str, Any]]] = [[] for _ in range(seats)]
    # only seats that read their history get one (building it for every seat is slow)
    tracked = [s for s in range(seats) if getattr(policies[s], "wants_history", False)]
    version = 0
    waiting_for = getattr(engine, "waiting_for", None)

    def apply(seat: int, action: Action) -> None:
        nonlocal state, version
        state, events = apply_any(engine, state, seat, action)
        version += 1
        for s in tracked:
            histories[s].extend(seat_history([(version, events)], s))

    while engine.outcome(state) is None:
        if version > MAX_ACTIONS:
            raise RuntimeError(f"{game} seed {seed}: no end after {MAX_ACTIONS} actions")
        window = open_window(engine, state)
        if window is not None:
            asked: set[int] = set()
            while True:
                current = open_window(engine, state)
                if current is None or current.id != window.id:
                    break
                pending = sorted(current.seats - asked)
                if not pending:  # nobody else will answer: the deadline closes it
                    apply(SYSTEM_SEAT, {"type": CLOSE_WINDOW, "window": window.id})
                    break
                seat = pending[order.below(len(pending))]
                asked.add(seat)
                action = policies[seat](engine, state, seat, histories[seat], seed, version)
                if action is not None:
                    apply(seat, action)
            continue
        ready = waiting_for(state) if waiting_for is not None else engine.to_act(state)
        if not ready:
            ready = engine.to_act(state)
        candidates = sorted(ready)
        seat = candidates[order.below(len(candidates))]
        action = policies[seat](engine, state, seat, histories[seat], seed, version)
        if action is None:
            raise RuntimeError(f"{game}: seat {seat} must act outside a window")
        apply(seat, action)
    return engine.outcome(state), version


def run_one(job: tuple[str, int, str, int]) -> GameResult:
    """Game number ``index`` of a series: the designated seat rotates with the index."""
    game, seats, mode, index = job
    bot = bot_for(game)
    assert bot is not None
    seat = index % seats
    times: list[float] = []
    walls: list[float] = []
    rng = Rng.from_seed(index * 7919 + seats)
    policies: list[Policy] = []
    for s in range(seats):
        if mode == "self" or s == seat:
            policies.append(bot_policy(bot, times, walls))
        else:
            policies.append(random_policy(rng, by_type=mode == "random-type"))
    outcome, actions = play(game, seats, index, policies)
    return GameResult(seat=seat, scores=list(outcome.scores), winners=list(outcome.winners),
                      times=times, walls=walls, actions=actions)


def summarise(game: str, seats: int, mode: str, results: list[GameResult],
              elapsed: float) -> str:
    timing = (f"decision CPU {_quantiles([t for r in results for t in r.times])}, "
              f"wall {_quantiles([t for r in results for t in r.walls])}")
    head = f"{game:11} {seats}p {mode:6} {len(results):5} games"
    if game in COOPERATIVE:
        scores = [r.scores[0] for r in results]
        spread = statistics.pstdev(scores) if len(scores) > 1 else 0.0
        counts: dict[int, int] = {}
        for s in scores:
            counts[s] = counts.get(s, 0) + 1
        histogram = " ".join(f"{k}:{counts[k]}" for k in sorted(counts))
        return (f"{head}  mean score {statistics.mean(scores):.2f} (sd {spread:.2f})  "
                f"{timing}  [{elapsed:.0f} s]\n    distribution {histogram}")
    share = sum(1 / len(r.winners) for r in results if r.seat in r.winners) / len(results)
    sign = -1 if game in LOWEST_WINS else 1
    margins = [sign * (r.scores[r.seat] - statistics.mean(
        s for i, s in enumerate(r.scores) if i != r.seat)) for r in results]
    if mode.startswith("random"):
        target = min(1.0, 2 / seats)
        verdict = "met" if share >= target or (seats == 2 and share >= 0.95) else "NOT met"
        aim = f"target {target:.3f}: {verdict}"
    else:
        aim = f"fair share {1 / seats:.3f}"
    return (f"{head}  win share {share:.3f} ({aim})  margin {statistics.mean(margins):+.1f}  "
            f"{timing}  [{elapsed:.0f} s]")


def _quantiles(samples: list[float]) -> str:
    """median / p99 / max in milliseconds."""
    if not samples:
        return "-"
    ordered = sorted(samples)
    p99 = ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]
    return (f"{statistics.median(ordered) * 1000:.2f}/{p99 * 1000:.1f}/"
            f"{ordered[-1] * 1000:.0f} ms")


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--game", nargs="*", default=None,
                        help="games to measure (default: every game with a bot)")
    parser.add_argument("--players", type=int, nargs="*", default=None,
                        help="player counts (default: 2 to 4 where the game allows; "
                             "Hanabi 2 to 5)")
    parser.add_argument("--mode", choices=("random", "self", "both", "random-type"),
                        default="both")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args(argv)
    games = [g for g in (args.game or [g for g, e in ENGINES.items() if e.has_bot]) if _has_bot(g)]
    with Pool(args.workers) as pool:
        for game in games:
            engine = ENGINES[game]
            counts = args.players or [n for n in ((2, 3, 4, 5) if game in COOPERATIVE
                                                  else (2, 3, 4))]
            for seats in counts:
                if not engine.min_players <= seats <= engine.max_players:
                    continue
                modes = (["self"] if game in COOPERATIVE
                         else ["random", "self"] if args.mode == "both" else [args.mode])
                for mode in modes:
                    start = time.perf_counter()
                    jobs = [(game, seats, mode, i) for i in range(args.games)]
                    results = list(pool.imap(run_one, jobs, chunksize=8))
                    print(summarise(game, seats, mode, results, time.perf_counter() - start),
                          flush=True)


def _has_bot(game: str) -> bool:
    try:
        if bot_for(game) is not None:
            return True
    except ImportError:
        pass
    print(f"{game}: no bot (skipped)")
    return False


if __name__ == "__main__":
    main()
