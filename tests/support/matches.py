"""A stored finished match for tests that need one: a random game played here with the
conformance suite's player and imported through ``POST /api/matches/import`` as a public
match (an import without ``"private": false`` is private)."""

from __future__ import annotations

from typing import Any

from app.games import ENGINES
from app.games.base import SYSTEM_SEAT, TABLE_OPTION_NAMES
from app.tables.engine import apply_any
from tests.games.conformance import playout
from tests.support.client import ApiClient


def stored_match(base: str, game: str, seed: int, options: dict[str, Any] | None = None,
                 seats: int | None = None) -> tuple[str, list[Any], ApiClient]:
    """A random game of ``game`` played to its end and imported as a finished match:
    (its id, the engine state after each step, the importer). ``options`` may hold table
    options too (``bot_delay``, ``clock``...); the game is played with the engine's only."""
    engine = ENGINES[game]
    seats = seats or engine.min_players
    game_options = {k: v for k, v in (options or {}).items() if k not in TABLE_OPTION_NAMES}
    final, log = playout(engine, seats, game_options, seed, deep_checks=False)
    states = [engine.setup(seats, game_options, seed)]
    for seat, action in log:
        states.append(apply_any(engine, states[-1], seat, action)[0])
    record = {
        "format": "ludoteca.match", "format_version": 1, "game": game, "seats": seats,
        "options": options or {}, "seed": seed, "private": False,
        "players": [{"seat": s, "name": f"Original {s}"} for s in range(seats)],
        "outcome": engine.outcome(final).to_json(),
        "log": [{"seq": i + 2, "seat": seat, "action": action,
                 "source": "system" if seat == SYSTEM_SEAT else "player"}
                for i, (seat, action) in enumerate(log)],
    }
    importer = ApiClient(base, "Archivo")
    r = importer.request("POST", "/api/matches/import", json=record)
    assert r.status_code == 201, r.text
    return r.json()["id"], states, importer
