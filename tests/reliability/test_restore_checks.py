"""``python3 -m app restore PATH --force`` refuses every file that is not an intact Ludoteca
backup before it touches anything: one line on stderr, exit status 1, no traceback, and the
data directory exactly as it was (byte for byte). A backup of an older schema version is
restored (the server migrates it when it starts); the lock of app/datadir.py lets servers
share a data directory and keeps a restore (or a second one) out while any of them runs."""

from __future__ import annotations

import random
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from app.backup import BackupError, backup
from app.config import Settings
from app.datadir import LOCK_FILE, DataDirBusy, held
from app.db.session import migrate
from tests.support.cli import ludoteca, one_line_refusal

PG_TEXT_DUMP = b"""--
-- PostgreSQL database dump
--

-- Dumped from database version 16.4
SET statement_timeout = 0;
SET lock_timeout = 0;
CREATE TABLE public.tables (id character varying(32) NOT NULL);
COPY public.tables (id) FROM stdin;
\\.
"""


def settings_for(data_dir: Path) -> Settings:
    return Settings(data_dir=data_dir,
                    database_url=f"sqlite+aiosqlite:///{data_dir}/ludoteca.db")


def files(data_dir: Path) -> dict[str, bytes]:
    """Every file of the data directory but the lock (which holds nothing)."""
    return {p.name: p.read_bytes() for p in sorted(data_dir.iterdir())
            if p.is_file() and p.name != LOCK_FILE}


@pytest.fixture
def live(tmp_path: Path) -> Settings:
    """A data directory holding a migrated database with a little in it, its WAL not yet
    checkpointed, and the generated secret key."""
    settings = settings_for(tmp_path / "live")
    settings.data_dir.mkdir()
    migrate(settings.resolved_database_url())
    settings.resolved_secret_key()
    add_player(settings.data_dir / "ludoteca.db", "Ana")
    return settings


def add_player(database: Path, name: str) -> None:
    """A committed write left in the WAL, as by a server that was killed: the process ends
    without closing its connection, so nothing checkpoints the WAL into the database."""
    code = ("import os, sqlite3, sys; c = sqlite3.connect(sys.argv[1]); "
            "c.execute('PRAGMA journal_mode=WAL'); "
            "c.execute(\"INSERT INTO players (id, name, token_hash, created_at) VALUES "
            "(?, ?, ?, CURRENT_TIMESTAMP)\", (sys.argv[2], sys.argv[2], sys.argv[2])); "
            "c.commit(); os._exit(0)")
    subprocess.run([sys.executable, "-c", code, str(database), name], check=True)
    assert Path(f"{database}-wal").stat().st_size > 0


@pytest.fixture
def good(live: Settings, tmp_path: Path) -> Path:
    path = tmp_path / "good.backup"
    backup(path, live)
    return path


def other_schema(path: Path) -> None:
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)")
    conn.execute("INSERT INTO notes (body) VALUES ('not a game server')")
    conn.commit()
    conn.close()


def altered(good: Path, path: Path, change: str) -> None:
    """A copy of the good backup with one SQL statement run on it."""
    path.write_bytes(good.read_bytes())
    conn = sqlite3.connect(path)
    conn.execute(change)
    conn.commit()
    conn.close()


KINDS = {
    "empty": ("empty", lambda good, p: p.write_bytes(b"")),
    "other schema": ("not a Ludoteca backup", lambda good, p: other_schema(p)),
    "truncated half": ("damaged",
                       lambda good, p: p.write_bytes(good.read_bytes()[:good.stat().st_size
                                                                       // 2])),
    "three pages": ("damaged", lambda good, p: p.write_bytes(good.read_bytes()[:3 * 4096])),
    "random bytes": ("not a SQLite", lambda good, p: p.write_bytes(
        random.Random(7).randbytes(50_000))),
    "postgres text dump": ("PostgreSQL", lambda good, p: p.write_bytes(PG_TEXT_DUMP)),
    "postgres custom dump": ("PostgreSQL", lambda good, p: p.write_bytes(
        b"PGDMP\x01\x0e\x00\x04\x08\x01\x01" + bytes(200))),
    "newer schema version": ("9001_from_the_future", lambda good, p: altered(
        good, p, "UPDATE alembic_version SET version_num = '9001_from_the_future'")),
    "a table missing": ("chat_lines", lambda good, p: altered(good, p,
                                                              "DROP TABLE chat_lines")),
}


@pytest.mark.parametrize("kind", list(KINDS))
def test_a_file_that_is_not_an_intact_backup_is_refused_and_nothing_changes(
        kind: str, live: Settings, good: Path, tmp_path: Path) -> None:
    says, make = KINDS[kind]
    bad = tmp_path / "bad.backup"
    make(good, bad)
    before = files(live.data_dir)
    assert "ludoteca.db-wal" in before  # the live WAL too must stay where and what it is
    refusal = one_line_refusal(ludoteca("restore", bad, live.data_dir, "--force"))
    assert says in refusal and str(bad) in refusal, refusal
    assert files(live.data_dir) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "bad.backup", "good.backup", "good.backup.secret_key", "live"]


def test_a_refusal_into_an_empty_data_directory_leaves_it_empty(good: Path,
                                                                tmp_path: Path) -> None:
    bad = tmp_path / "bad.backup"
    other_schema(bad)
    fresh = tmp_path / "fresh"
    one_line_refusal(ludoteca("restore", bad, fresh))
    assert not fresh.exists() or files(fresh) == {}


def test_an_older_schema_version_is_restored_and_migrated_at_start(live: Settings,
                                                                   tmp_path: Path) -> None:
    old = tmp_path / "old.db"
    migrate(f"sqlite+aiosqlite:///{old}", revision="0003")
    fresh = tmp_path / "fresh"
    done = ludoteca("restore", old, fresh)
    assert done.returncode == 0, done.stderr
    migrate(f"sqlite+aiosqlite:///{fresh}/ludoteca.db")  # what `serve` does first
    conn = sqlite3.connect(fresh / "ludoteca.db")
    assert conn.execute("SELECT count(*) FROM chat_lines").fetchone() == (0,)
    conn.close()


def test_restore_over_a_database_puts_every_file_aside_and_nothing_is_lost(
        live: Settings, good: Path, tmp_path: Path) -> None:
    add_player(live.data_dir / "ludoteca.db", "Bea")  # after the backup
    before = files(live.data_dir)
    done = ludoteca("restore", good, live.data_dir, "--force")
    assert done.returncode == 0, done.stderr
    aside = {p.name: p for p in live.data_dir.iterdir() if ".before-restore-" in p.name}
    # the database with its WAL (the last commits live there until a checkpoint), as a set
    # SQLite opens together: NAME, NAME-wal, NAME-shm
    (db_aside,) = [p for n, p in aside.items() if n.startswith("ludoteca.db.") and "-" not in
                   n.rsplit(".before-restore-", 1)[1]]
    assert aside[db_aside.name + "-wal"].read_bytes() == before["ludoteca.db-wal"]
    assert db_aside.read_bytes() == before["ludoteca.db"]
    conn = sqlite3.connect(db_aside)  # opened with its WAL: Bea is there
    assert conn.execute("SELECT name FROM players ORDER BY name").fetchall() == [
        ("Ana",), ("Bea",)]
    conn.close()
    restored = sqlite3.connect(live.data_dir / "ludoteca.db")
    assert restored.execute("SELECT name FROM players").fetchall() == [("Ana",)]
    restored.close()


def test_restore_with_a_postgresql_url_refuses_a_sqlite_backup_in_one_line(
        good: Path, tmp_path: Path) -> None:
    refusal = one_line_refusal(ludoteca(
        "restore", good, tmp_path / "pgdata",
        database_url="postgresql://nobody@127.0.0.1:1/ludoteca"))
    assert "SQLite" in refusal and "PostgreSQL" in refusal, refusal


def test_a_missing_backup_is_one_line(tmp_path: Path) -> None:
    refusal = one_line_refusal(ludoteca("restore", tmp_path / "nowhere.db", tmp_path / "d"))
    assert "no backup" in refusal


# ------------------------------------------------------------------ the lock


def test_servers_share_the_lock_and_a_restore_is_kept_out(tmp_path: Path) -> None:
    settings = settings_for(tmp_path / "data")
    with held(settings, exclusive=False), held(settings, exclusive=False):
        with pytest.raises(DataDirBusy, match="server"), held(settings, exclusive=True):
            pass
    with held(settings, exclusive=True):
        with pytest.raises(DataDirBusy, match="restore"), held(settings, exclusive=False):
            pass
        with pytest.raises(DataDirBusy), held(settings, exclusive=True):
            pass
    with held(settings, exclusive=True):  # released: free again
        pass


def test_two_restores_cannot_race(live: Settings, good: Path, tmp_path: Path) -> None:
    with held(live, exclusive=True):  # the first restore, still at work
        refusal = one_line_refusal(ludoteca("restore", good, live.data_dir, "--force"))
    assert "in use" in refusal


def test_no_backup_in_the_middle_of_a_restore(live: Settings, tmp_path: Path) -> None:
    with held(live, exclusive=True), pytest.raises(BackupError, match="restore is running"):
        backup(tmp_path / "b.db", live)
    assert not (tmp_path / "b.db").exists()
