"""After a soak: prove nothing was lost by replaying every stored game from seed and log.

For every table the soak started: the log is read from the server's SQLite file directly
(and, for finished games, also from ``GET /api/matches/{id}``, which must agree), replayed
through the engine (:func:`app.games.base.apply_any`, timed-window closes included), and:

- the log is gap-free and ends at the version the server reports (``GET /api/tables/{id}``);
- every version any client saw is in the log (no accepted action lost);
- every view a client received equals the engine's view of the replayed state at that
  version, for that seat (what was seen is what was stored);
- a finished game's replayed outcome equals the stored outcome and the match record's;
  an unfinished game's replay has no outcome.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import sqlite3
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import orjson

from app.games import ENGINES
from app.games.base import engine_options
from app.tables.connections import encode
from app.tables.engine import apply_any


def view_digest(view: Any) -> bytes:
    """A view as the wire carries it, keys sorted, hashed (the soak keeps only digests)."""
    return hashlib.blake2b(orjson.dumps(view, option=orjson.OPT_SORT_KEYS),
                           digest_size=16).digest()


def engine_view_digest(engine: Any, state: Any, seat: int) -> bytes:
    return view_digest(orjson.loads(encode({"v": engine.view(state, seat)}))["v"])


def _normal(value: Any) -> Any:
    return orjson.loads(encode({"v": value}))["v"]


@dataclass
class Verdict:
    tables: int = 0
    finished: int = 0
    actions: int = 0
    window_closes: int = 0
    timeouts: int = 0
    views: int = 0
    lost: int = 0  # versions clients saw that the log does not hold
    problems: list[str] = field(default_factory=list)

    def problem(self, text: str) -> None:
        if len(self.problems) < 50:
            self.problems.append(text)


def verify(db_path: Path, base_url: str, started: dict[str, str],
           seen_versions: dict[str, int],
           views: dict[tuple[str, int, int], bytes]) -> Verdict:
    """``started``: table id → game; ``seen_versions``: the newest version any client saw
    per table; ``views``: (table, seat, version) → digest of the view received."""
    verdict = Verdict()
    by_table: dict[str, dict[int, list[tuple[int, bytes]]]] = {}
    for (table_id, seat, version), digest in views.items():
        by_table.setdefault(table_id, {}).setdefault(version, []).append((seat, digest))
    uri = f"file:{db_path}?mode=ro"
    with contextlib.closing(sqlite3.connect(uri, uri=True, timeout=30)) as db, \
            httpx.Client(base_url=base_url, timeout=30) as http:
        stored_ids = {row[0] for row in db.execute("SELECT id FROM tables")}
        for missing in sorted(set(started) - stored_ids):
            verdict.problem(f"{missing}: started but not stored")
        for table_id, game in sorted(started.items()):
            if table_id in stored_ids:
                _verify_table(db, http, table_id, game, seen_versions.get(table_id, 0),
                              by_table.get(table_id, {}), verdict)
    return verdict


def _verify_table(db: sqlite3.Connection, http: httpx.Client, table_id: str, game: str,
                  seen: int, seen_views: dict[int, list[tuple[int, bytes]]],
                  verdict: Verdict) -> None:
    verdict.tables += 1
    # turn timers and timed windows keep playing after the soak's players stop: read the
    # server, the database, the server again, until nothing moved in between. The server
    # stores an action before it publishes it, so the log never ends before what it reported.
    for _attempt in range(20):
        before = http.get(f"/api/tables/{table_id}")
        row = db.execute("SELECT game, seat_count, options, seed, version, status, outcome "
                         "FROM tables WHERE id = ?", (table_id,)).fetchone()
        log = [(seq, seat, json.loads(action), source) for seq, seat, action, source in
               db.execute("SELECT seq, seat, action, source FROM actions WHERE table_id = ? "
                          "ORDER BY seq", (table_id,))]
        reported = http.get(f"/api/tables/{table_id}")
        if reported.status_code != 200 or before.status_code != 200:
            verdict.problem(f"{table_id}: GET /api/tables answered {reported.status_code}")
            return
        if log and log[-1][0] < before.json()["version"]:
            verdict.problem(f"{table_id}: the server reported version "
                            f"{before.json()['version']} before it was stored")
        moved = [(r.json()["version"], r.json()["status"]) for r in (before, reported)]
        if moved[0] == moved[1]:
            break
        time.sleep(0.3)
    stored_game, seat_count, options, seed, db_version, status, outcome = row
    server = reported.json()
    version = server["version"]
    if stored_game != game or server["status"] != status:
        verdict.problem(f"{table_id}: game/status {stored_game}/{status} vs {game}/"
                        f"{server['status']}")
    if log:
        seqs = [seq for seq, *_ in log]
        if seqs != list(range(seqs[0], seqs[0] + len(seqs))):
            verdict.problem(f"{table_id}: the log has gaps")
        if seqs[-1] != version or db_version != version:
            verdict.problem(f"{table_id}: log ends at {seqs[-1]}, table row says {db_version}, "
                            f"server says {version}")
        start = seqs[0] - 1
    else:
        start = version
    if seen > version:
        verdict.lost += seen - version
        verdict.problem(f"{table_id}: clients saw version {seen}, server holds {version}")
    if status == "finished":
        verdict.finished += 1
        match = http.get(f"/api/matches/{table_id}").json()
        from_api = [(a["seq"], a["seat"], a["action"], a["source"]) for a in match["actions"]]
        if from_api != log or match["outcome"] != json.loads(outcome):
            verdict.problem(f"{table_id}: GET /api/matches differs from the database")

    engine = ENGINES[game]
    state = engine.setup(seat_count, engine_options(json.loads(options)), seed)
    _check_views(engine, state, start, seen_views, table_id, verdict)
    for seq, seat, action, source in log:
        if engine.outcome(state) is not None:
            verdict.problem(f"{table_id}: action {seq} stored after the game ended")
        state, _ = apply_any(engine, state, seat, action)
        verdict.actions += 1
        verdict.window_closes += seat == -1
        verdict.timeouts += source == "timeout"
        _check_views(engine, state, seq, seen_views, table_id, verdict)
    replayed = engine.outcome(state)
    if status == "finished":
        if replayed is None or _normal(replayed.to_json()) != json.loads(outcome):
            verdict.problem(f"{table_id}: replayed outcome differs from the stored one")
        if server["outcome"] != json.loads(outcome):
            verdict.problem(f"{table_id}: server reports another outcome than stored")
    elif replayed is not None:
        verdict.problem(f"{table_id}: replay finished but the table is {status}")


def _check_views(engine: Any, state: Any, version: int,
                 seen_views: dict[int, list[tuple[int, bytes]]], table_id: str,
                 verdict: Verdict) -> None:
    for seat, digest in seen_views.get(version, []):
        verdict.views += 1
        if engine_view_digest(engine, state, seat) != digest:
            verdict.problem(f"{table_id}: seat {seat} saw at version {version} a view the "
                            "stored log does not replay to")
