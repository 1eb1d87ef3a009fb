"""A real server on a SQLite data directory: ``restore`` (even with ``--force``) is refused
while it runs, and its data stays whole and writable; what the server and ``backup`` write
(the database, its -wal and -shm, the backup, the keys) is readable by its user only, in a
directory only its user may enter, also for a data directory made before this rule. Into
PostgreSQL, only an intact dump of a known schema version is restored."""

from __future__ import annotations

import contextlib
import random
import secrets
import sqlite3
import stat
import subprocess
from pathlib import Path

import pytest

from app.backup import backup
from app.config import Settings
from app.datadir import held
from app.db.session import migrate
from tests.support.cli import ludoteca, one_line_refusal
from tests.support.client import SeatClient, connect_and_start, seat_players
from tests.support.server import LiveServer


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def stored_actions(database: Path) -> int:
    with contextlib.closing(sqlite3.connect(f"file:{database}?mode=ro", uri=True)) as db:
        return int(db.execute("SELECT count(*) FROM actions").fetchone()[0])


async def play(clients: list[SeatClient], rng: random.Random, moves: int) -> None:
    """``moves`` calm random moves (Hanabi: no plays, so the game goes on), each seen by all."""
    for _ in range(moves):
        version = clients[0].state["version"]
        mover = next(c for c in clients if c.my_turn())
        legal = mover.state["legal_actions"]
        await mover.act_until_accepted(rng.choice([a for a in legal if a["type"] != "play"]
                                                  or legal))
        for c in clients:
            await c.wait_version(version + 1)


async def test_restore_is_refused_while_the_server_runs_and_everything_is_private(
        tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir(mode=0o755)  # as an older version (or an operator) left it
    database = data / "ludoteca.db"
    # the secret key generated into the data directory, as a default install does
    server = LiveServer(f"sqlite+aiosqlite:///{database}", data,
                        env={"LUDOTECA_SECRET_KEY": ""})
    server.start()
    try:
        players, table, _ = seat_players(server.url, "hanabi", 2)
        clients = await connect_and_start(server.ws_url, players, table)
        await clients[0].send({"type": "chat", "text": "solo entre nosotros"})
        await play(clients, random.Random(5), 6)

        saved = tmp_path / "backups" / "ludoteca.backup"
        done = ludoteca("backup", saved, data)
        assert done.returncode == 0, done.stderr

        # every file holding tokens, hashes or chat: the owner's only, in the owner's dir
        assert mode(data) == 0o700
        for name in ("ludoteca.db", "ludoteca.db-wal", "ludoteca.db-shm", "secret_key"):
            assert mode(data / name) == 0o600, name
        assert mode(saved) == 0o600
        assert mode(saved.with_name(saved.name + ".secret_key")) == 0o600
        assert mode(saved.parent) == 0o700

        # a restore under the running server: refused before anything is touched
        before = stored_actions(database)
        assert before >= 6
        for extra in ((), ("--force",)):
            refusal = one_line_refusal(ludoteca("restore", saved, data, *extra))
            assert "server" in refusal, refusal
        assert sorted(p.name for p in data.iterdir() if "before-restore" in p.name) == []
        assert (data / "ludoteca.db-wal").exists()

        # the server goes on storing into the one database it has
        await play(clients, random.Random(6), 4)
        assert stored_actions(database) == before + 4
        for c in clients:
            await c.close()
    finally:
        server.stop()
    with contextlib.closing(sqlite3.connect(database)) as db:
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    assert stored_actions(database) == before + 4

    # stopped: the restore goes ahead, and what it writes is private too
    done = ludoteca("restore", saved, data, "--force")
    assert done.returncode == 0, done.stderr
    assert stored_actions(database) == before
    assert mode(database) == 0o600
    assert all(mode(p) == 0o600 for p in data.iterdir()), {p.name: oct(mode(p))
                                                          for p in data.iterdir()}

    # a data directory of an older version, readable by all: made private when served
    data.chmod(0o755)
    database.chmod(0o644)
    server.start()
    try:
        assert mode(data) == 0o700
        assert mode(database) == 0o600
        players, table, _ = seat_players(server.url, "hanabi", 2)
        clients = await connect_and_start(server.ws_url, players, table)
        await play(clients, random.Random(7), 2)
        for c in clients:
            await c.close()
        for name in ("ludoteca.db", "ludoteca.db-wal", "ludoteca.db-shm"):
            assert mode(data / name) == 0o600, name
    finally:
        server.stop()


def test_postgresql_restore_takes_only_an_intact_dump_of_a_known_schema(
        postgres_cluster, tmp_path: Path) -> None:
    """Into PostgreSQL, restore loads a pg_dump custom-format file of a Ludoteca database;
    anything else is refused in one line with the database as it was."""

    def database(name: str, *sql: str) -> str:
        url = postgres_cluster.new_database(f"{name}_{secrets.token_hex(4)}")
        migrate(url)
        for statement in sql:
            subprocess.run(["psql", "--no-psqlrc", "--quiet", "--dbname", plain(url),
                            "--command", statement], check=True, capture_output=True)
        return url

    def plain(url: str) -> str:
        return url.replace("postgresql+asyncpg://", "postgresql://")

    def dump(url: str, path: Path) -> Path:
        backup(path, Settings(data_dir=tmp_path / "dumper", database_url=url))
        return path

    def contents(url: str) -> str:
        out = subprocess.run(["pg_dump", "--format=plain", "--dbname", plain(url)],
                             check=True, capture_output=True, text=True).stdout
        # without the random key of psql's \restrict lines (new in each dump)
        return "\n".join(x for x in out.splitlines() if "restrict " not in x)

    live = database("live", "INSERT INTO players (id, name, token_hash, created_at, bot) "
                            "VALUES ('p1', 'Ana', 'h', now(), false)")
    good = dump(live, tmp_path / "good.dump")
    other = postgres_cluster.new_database(f"other_{secrets.token_hex(4)}")
    subprocess.run(["psql", "--no-psqlrc", "--dbname", plain(other), "--command",
                    "CREATE TABLE notes (id serial PRIMARY KEY, body text)"],
                   check=True, capture_output=True)
    bad = {
        "PostgreSQL dump in plain SQL": tmp_path / "text.sql",
        "no Ludoteca schema version": dump(other, tmp_path / "other.dump"),
        "9001_from_the_future": dump(database(
            "newer", "UPDATE alembic_version SET version_num = '9001_from_the_future'"),
            tmp_path / "newer.dump"),
        "damaged": tmp_path / "half.dump",
        "not a pg_dump": tmp_path / "random.dump",
    }
    bad["PostgreSQL dump in plain SQL"].write_text(contents(live))
    bad["damaged"].write_bytes(good.read_bytes()[:good.stat().st_size // 2])
    bad["not a pg_dump"].write_bytes(random.Random(3).randbytes(20_000))
    data = tmp_path / "data"
    before = contents(live)
    for says, path in bad.items():
        refusal = one_line_refusal(ludoteca("restore", path, data, "--force",
                                            database_url=plain(live)))
        assert says in refusal, (path, refusal)
        assert contents(live) == before
    assert ludoteca("restore", good, data, "--force", database_url=plain(live)).returncode == 0
    assert contents(live) == before


def test_a_server_does_not_start_while_a_restore_runs(tmp_path: Path) -> None:
    data = tmp_path / "data"
    database = f"sqlite+aiosqlite:///{data}/ludoteca.db"
    server = LiveServer(database, data)
    with held(Settings(data_dir=data, database_url=database), exclusive=True):
        with pytest.raises(RuntimeError, match="a restore is running"):
            server.start()
        server.stop()  # the exited process's log
    assert not (data / "ludoteca.db").exists()  # it stopped before opening anything
    server.start()  # the restore done: it starts
    server.stop()
