"""``app.backup`` on its own: the generated secret key travels with a SQLite backup, a
damaged backup is refused before anything is replaced, and a busy writer does not stop a
backup (SQLite's online backup reads one snapshot)."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import pytest

from app.backup import KEY_FILE, BackupError, backup, restore
from app.config import Settings
from app.db.session import migrate


def settings_for(data_dir: Path, secret: str = "") -> Settings:
    return Settings(data_dir=data_dir, database_url=f"sqlite+aiosqlite:///{data_dir}/l.db",
                    secret_key=secret)


@pytest.fixture
def live(tmp_path: Path) -> Settings:
    settings = settings_for(tmp_path / "live")
    settings.data_dir.mkdir()
    migrate(settings.resolved_database_url())
    settings.resolved_secret_key()  # generated once in the data dir, as the server does
    return settings


def test_the_generated_secret_key_travels_with_the_backup(live: Settings, tmp_path: Path) -> None:
    saved = backup(tmp_path / "b.db", live)
    assert saved is not None and saved.tables == 0
    kept = tmp_path / f"b.db.{KEY_FILE}"
    assert kept.read_text() == (live.data_dir / KEY_FILE).read_text()
    assert oct(kept.stat().st_mode & 0o777) == "0o600"
    fresh = settings_for(tmp_path / "fresh")
    restore(tmp_path / "b.db", settings=fresh)
    assert (fresh.data_dir / KEY_FILE).read_text() == (live.data_dir / KEY_FILE).read_text()
    assert fresh.resolved_secret_key() == live.resolved_secret_key()


def test_a_damaged_backup_is_refused_and_nothing_is_replaced(live: Settings,
                                                             tmp_path: Path) -> None:
    backup(tmp_path / "b.db", live)
    data = bytearray((tmp_path / "b.db").read_bytes())
    data[100:4096] = b"\xff" * (4096 - 100)  # the first page's schema, overwritten
    (tmp_path / "bad.db").write_bytes(bytes(data))
    with pytest.raises((BackupError, sqlite3.DatabaseError)):
        restore(tmp_path / "bad.db", settings=live, force=True)
    conn = sqlite3.connect(live.data_dir / "l.db")
    assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    conn.close()


def test_no_backup_of_what_is_not_there(tmp_path: Path) -> None:
    with pytest.raises(BackupError, match="no database"):
        backup(tmp_path / "b.db", settings_for(tmp_path / "empty"))
    with pytest.raises(BackupError, match="no backup"):
        restore(tmp_path / "missing.db", settings=settings_for(tmp_path / "empty"))


def test_a_backup_taken_while_another_connection_writes_is_one_consistent_moment(
        live: Settings, tmp_path: Path) -> None:
    path = live.data_dir / "l.db"
    setup = sqlite3.connect(path)
    setup.execute("PRAGMA journal_mode=WAL")
    setup.execute("CREATE TABLE counter (n INTEGER)")
    setup.commit()
    setup.close()
    stop = threading.Event()

    def write() -> None:
        conn = sqlite3.connect(path, timeout=30)
        n = 0
        while not stop.is_set() and n < 20_000:
            n += 1
            conn.execute("INSERT INTO counter VALUES (?)", (n,))
            conn.commit()
        conn.close()

    writer = threading.Thread(target=write)
    writer.start()
    try:
        for i in range(5):
            backup(tmp_path / f"b{i}.db", live)
            copy = sqlite3.connect(tmp_path / f"b{i}.db")
            count, top = copy.execute("SELECT count(*), coalesce(max(n), 0) FROM counter"
                                      ).fetchone()
            copy.close()
            assert count == top  # every row up to one moment, none missing in between
    finally:
        stop.set()
        writer.join()
