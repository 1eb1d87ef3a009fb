"""``python3 -m app backup PATH`` while games are being played, then ``restore`` into a fresh
data directory (SQLite) or a fresh database (PostgreSQL): a server started on the restored
data finds every finished match and every action accepted before the backup began, each
table's log a prefix of the original's; a backup taken once play has stopped restores
exactly.
"""

from __future__ import annotations

import asyncio
import os
import random
import secrets
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
import pytest

from app.db.repository import Repository
from app.db.session import make_engine, make_sessionmaker
from tests.support.client import SeatClient, connect_and_start, play_to_end, seat_players
from tests.support.server import ROOT, LiveServer


def command(action: str, path: Path, database_url: str, data_dir: Path,
            *extra: str) -> subprocess.CompletedProcess[str]:
    """``python -m app.cli backup|restore PATH`` as an operator runs it (its own process)."""
    env = {**os.environ, "LUDOTECA_DATABASE_URL": database_url,
           "LUDOTECA_DATA_DIR": str(data_dir), "LUDOTECA_SECRET_KEY": "test-secret"}
    return subprocess.run([sys.executable, "-m", "app.cli", action, str(path), *extra],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)


async def logs(database_url: str, table_ids: list[str]) -> dict[str, list[tuple]]:
    """Every stored action of each table, as (seq, seat, action)."""
    engine = make_engine(database_url)
    repo = Repository(make_sessionmaker(engine))
    try:
        return {t: [(a.seq, a.seat, a.action) for a in await repo.actions(t)]
                for t in table_ids}
    finally:
        await repo.close()
        await engine.dispose()


def fresh_target(database_url: str, tmp_path: Path, request: pytest.FixtureRequest) -> str:
    if database_url.startswith("sqlite"):
        return f"sqlite+aiosqlite:///{tmp_path / 'restored' / 'ludoteca.db'}"
    cluster = request.getfixturevalue("postgres_cluster")
    return cluster.new_database(f"restored_{secrets.token_hex(4)}")


async def keep_playing(clients: list[SeatClient], rng: random.Random, stop: asyncio.Event,
                       acked: dict[str, int], table_id: str) -> None:
    """Calm random moves (Hanabi: no plays unless forced) until ``stop``; ``acked`` holds
    the newest version every client has seen accepted."""
    while not stop.is_set():
        newest = max(c.state["version"] for c in clients)
        state = next(c.state for c in clients if c.state["version"] == newest)
        if state["table"]["status"] == "finished":
            return
        mover = next((c for c in clients if c.my_turn() and c.state["version"] == newest),
                     None)
        if mover is None:
            await asyncio.gather(*(c.wait_version(newest) for c in clients))
            continue
        legal = mover.state["legal_actions"]
        calm = [a for a in legal if a["type"] != "play"] or legal
        await mover.act_until_accepted(rng.choice(calm))
        await asyncio.gather(*(c.wait_version(newest + 1) for c in clients))
        acked[table_id] = newest + 1
        await asyncio.sleep(0.02)


async def test_backup_while_playing_then_restore_into_a_fresh_place(
        database_url: str, tmp_path: Path, request: pytest.FixtureRequest) -> None:
    server = LiveServer(database_url, tmp_path / "data")
    server.start()
    try:
        # two finished matches (with chat), two games in progress
        finished_ids = []
        for seed in (1, 2):
            players, table, _ = seat_players(server.url, "hanabi", 2)
            clients = await connect_and_start(server.ws_url, players, table)
            await clients[0].send({"type": "chat", "text": f"partida {seed}"})
            await play_to_end(clients, random.Random(seed))
            for c in clients:
                await c.close()
            finished_ids.append(table["id"])
        playing = []
        for _ in range(2):
            players, table, _ = seat_players(server.url, "hanabi", 3)
            playing.append((table["id"], await connect_and_start(server.ws_url, players,
                                                                 table)))
        acked = {t: clients[0].state["version"] for t, clients in playing}
        stop = asyncio.Event()
        players_tasks = [asyncio.create_task(keep_playing(clients, random.Random(i), stop,
                                                          acked, t))
                         for i, (t, clients) in enumerate(playing)]
        await asyncio.sleep(0.3)  # play is under way

        backup = tmp_path / "backups" / "ludoteca.backup"
        before = dict(acked)  # everything accepted before the backup began
        done = await asyncio.to_thread(command, "backup", backup, database_url,
                                       tmp_path / "data")
        assert done.returncode == 0, done.stderr
        assert "backup written" in done.stdout
        moved_on = dict(acked)
        while sum(acked.values()) < sum(moved_on.values()) + 3 and not all(
                t.done() for t in players_tasks):
            await asyncio.sleep(0.05)  # the server went on playing after the backup
        stop.set()
        await asyncio.gather(*players_tasks)
        for _, clients in playing:
            for c in clients:
                await c.close()

        # a second backup once play has stopped (the server still running)
        still = tmp_path / "backups" / "still.backup"
        assert command("backup", still, database_url, tmp_path / "data").returncode == 0
        ids = finished_ids + [t for t, _ in playing]
        original = await logs(database_url, ids)
        original_matches = {m: httpx.get(f"{server.url}/api/matches/{m}", timeout=10).json()
                            for m in finished_ids}
    finally:
        server.stop()

    # restore the backup taken during play into a fresh place and serve it
    target = fresh_target(database_url, tmp_path, request)
    done = command("restore", backup, target, tmp_path / "restored")
    assert done.returncode == 0, done.stderr
    restored = await logs(target, ids)
    for match_id in finished_ids:
        assert restored[match_id] == original[match_id]  # every finished match, whole
    for table_id, _ in playing:
        seqs = [seq for seq, _, _ in restored[table_id]]
        assert seqs and seqs[-1] >= before[table_id]  # nothing accepted before it is lost
        # what it holds is the original log up to a moment: no half-stored move
        assert restored[table_id] == original[table_id][:len(restored[table_id])]
    again = LiveServer(target, tmp_path / "restored")
    again.start()
    try:
        for match_id in finished_ids:
            match = httpx.get(f"{again.url}/api/matches/{match_id}", timeout=10).json()
            assert match == original_matches[match_id]
            replay = httpx.get(f"{again.url}/api/matches/{match_id}/replay", timeout=10)
            assert replay.status_code == 200
            assert [c["text"] for c in replay.json()["chat"] if c["kind"] == "player"]
        for table_id, _ in playing:  # the games in progress come back where the backup was
            table: dict[str, Any] = httpx.get(f"{again.url}/api/tables/{table_id}",
                                              timeout=10).json()
            assert table["version"] == restored[table_id][-1][0]
            watcher = SeatClient(again.ws_url, table_id, None)
            await watcher.open()
            assert watcher.state is not None
            assert watcher.state["version"] == table["version"]
            await watcher.close()
    finally:
        again.stop()

    # the backup taken after play restores exactly; restoring over it needs --force
    target2 = fresh_target(database_url, tmp_path / "second", request)
    assert command("restore", still, target2, tmp_path / "second").returncode == 0
    assert await logs(target2, ids) == original
    refused = command("restore", still, target2, tmp_path / "second")
    assert refused.returncode == 1 and "--force" in refused.stderr
    forced = command("restore", still, target2, tmp_path / "second", "--force")
    assert forced.returncode == 0, forced.stderr
    assert await logs(target2, ids) == original
