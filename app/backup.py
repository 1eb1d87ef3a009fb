"""``python3 -m app backup PATH`` and ``python3 -m app restore PATH``: the data a self-hoster
keeps, saved while the server runs and brought back into a fresh data directory.

- SQLite (the default): SQLite's online backup API copies the database from a read
  snapshot, in one step. In WAL mode readers do not block the writer, so the server keeps
  playing; what the copy holds is the database as it was at one moment: every action
  stored by then, none half-stored. The copy is checked (``PRAGMA integrity_check``) before
  it replaces PATH. The secret key the server generated in its data directory (it signs
  the browser's identity cookie) goes beside it as ``PATH.secret_key``, so players keep
  their identity after a restore; a key set in ``LUDOTECA_SECRET_KEY`` is the operator's
  to keep.
- PostgreSQL: ``pg_dump --format=custom`` (a consistent snapshot too; the server keeps
  writing) and ``pg_restore``, the documented lines, run for you with the connection of
  ``LUDOTECA_DATABASE_URL`` (the password through ``PGPASSWORD``, never on the command
  line).

``restore`` refuses to overwrite a database that already holds tables unless ``--force`` is
given (then a SQLite file is first moved aside, never deleted). Restore with the server
stopped; it migrates the restored data to the current schema when it starts.
"""

from __future__ import annotations

import glob
import os
import shutil
import sqlite3
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy.engine import URL, make_url

from app.config import Settings, get_settings

KEY_FILE = "secret_key"


class BackupError(Exception):
    """A backup or restore that could not be done; the message says why and what to do."""


@dataclass
class Summary:
    """What a database holds, to print after a backup or a restore."""

    tables: int
    finished: int
    actions: int

    def __str__(self) -> str:
        return (f"{self.tables} tables ({self.finished} finished matches), "
                f"{self.actions} stored actions")


# ------------------------------------------------------------------ SQLite


def _sqlite_path(url: URL) -> Path:
    if not url.database or url.database == ":memory:":
        raise BackupError("this SQLite database lives in memory: there is nothing to back up")
    return Path(url.database)


def _summary(conn: sqlite3.Connection) -> Summary:
    try:
        tables, finished = conn.execute(
            "SELECT count(*), coalesce(sum(status = 'finished'), 0) FROM tables").fetchone()
        actions = conn.execute("SELECT count(*) FROM actions").fetchone()[0]
    except sqlite3.DatabaseError:
        return Summary(0, 0, 0)
    return Summary(int(tables), int(finished), int(actions))


def _check(conn: sqlite3.Connection, what: str) -> None:
    result = conn.execute("PRAGMA integrity_check").fetchone()[0]
    if result != "ok":
        raise BackupError(f"{what} failed SQLite's integrity check: {result}")


def _copy(source: Path, target: Path) -> Summary:
    """Copy ``source`` into the new file ``target`` through the online backup API."""
    src = sqlite3.connect(f"file:{source}?mode=ro", uri=True, timeout=30)
    try:
        dst = sqlite3.connect(target)
        try:
            src.backup(dst)  # one step: a single read snapshot, the writer never waits
            _check(dst, "the copy")
            dst.execute("PRAGMA journal_mode=DELETE")  # one self-contained file
            return _summary(dst)
        finally:
            dst.close()
    finally:
        src.close()


def _sqlite_backup(url: URL, settings: Settings, path: Path) -> Summary:
    source = _sqlite_path(url)
    if not source.exists():
        raise BackupError(f"no database at {source}: check LUDOTECA_DATA_DIR or "
                          "LUDOTECA_DATABASE_URL")
    partial = path.with_name(path.name + ".partial")
    partial.unlink(missing_ok=True)
    try:
        summary = _copy(source, partial)
        os.replace(partial, path)  # PATH is either the old backup or the whole new one
    finally:
        partial.unlink(missing_ok=True)
    key = settings.data_dir / KEY_FILE
    if not settings.secret_key and key.exists():
        kept = path.with_name(path.name + "." + KEY_FILE)
        shutil.copyfile(key, kept)
        kept.chmod(0o600)
    return summary


def _sqlite_restore(url: URL, settings: Settings, path: Path, force: bool) -> Summary:
    if not path.exists():
        raise BackupError(f"no backup at {path}")
    target = _sqlite_path(url)
    target.parent.mkdir(parents=True, exist_ok=True)
    source = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        _check(source, "the backup")
    finally:
        source.close()
    if target.exists():
        existing = sqlite3.connect(target)
        try:
            holds = _summary(existing).tables
        finally:
            existing.close()
        if holds and not force:
            raise BackupError(f"{target} already holds {holds} tables: restore into an empty "
                              "data directory, or add --force (the current file is kept "
                              "beside it)")
        aside = target.with_name(f"{target.name}.before-restore-{int(time.time())}")
        os.replace(target, aside)
        for suffix in ("-wal", "-shm"):
            target.with_name(target.name + suffix).unlink(missing_ok=True)
        print(f"the previous database is kept as {aside}")
    summary = _copy(path, target)
    key = path.with_name(path.name + "." + KEY_FILE)
    if key.exists() and not settings.secret_key:
        settings.data_dir.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(key, settings.data_dir / KEY_FILE)
        (settings.data_dir / KEY_FILE).chmod(0o600)
    return summary


# ------------------------------------------------------------------ PostgreSQL


def _pg_tool(name: str) -> str:
    """Debian's wrapper on PATH, else the newest installed version's own binary."""
    found = shutil.which(name)
    if found is None:
        versions = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
        found = versions[-1] if versions else None
    if found is None:
        raise BackupError(f"{name} is not installed (Debian: apt-get install postgresql-client)")
    return found


def _pg_args(url: URL) -> tuple[list[str], dict[str, str]]:
    args = ["--dbname", url.database or "postgres"]
    if url.host:
        args += ["--host", url.host]
    if url.port:
        args += ["--port", str(url.port)]
    if url.username:
        args += ["--username", url.username]
    env = {**os.environ}
    if url.password:
        env["PGPASSWORD"] = str(url.password)
    return args, env


def pg_dump_command(url: URL, path: Path) -> list[str]:
    """The documented line: ``pg_dump --format=custom --no-owner --file PATH <connection>``."""
    args, _ = _pg_args(url)
    return [_pg_tool("pg_dump"), "--format=custom", "--no-owner", "--file", str(path), *args]


def _run(command: list[str], env: dict[str, str]) -> str:
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise BackupError(f"{Path(command[0]).name} failed: {done.stderr.strip()}")
    return done.stdout


def _pg_summary(url: URL) -> Summary:
    args, env = _pg_args(url)
    out = _run([_pg_tool("psql"), *args, "--no-psqlrc", "--tuples-only", "--no-align",
                "--field-separator", " ", "--command",
                "SELECT (SELECT count(*) FROM tables), (SELECT count(*) FROM tables WHERE "
                "status = 'finished'), (SELECT count(*) FROM actions)"], env)
    tables, finished, actions = (int(x) for x in out.split())
    return Summary(tables, finished, actions)


def _pg_holds_tables(url: URL) -> bool:
    args, env = _pg_args(url)
    out = _run([_pg_tool("psql"), *args, "--no-psqlrc", "--tuples-only", "--no-align",
                "--command", "SELECT to_regclass('public.tables') IS NOT NULL"], env)
    if out.strip() != "t":
        return False
    return _pg_summary(url).tables > 0


def _pg_backup(url: URL, path: Path) -> None:
    partial = path.with_name(path.name + ".partial")
    _, env = _pg_args(url)
    try:
        _run(pg_dump_command(url, partial), env)
        os.replace(partial, path)
    finally:
        partial.unlink(missing_ok=True)


def _pg_restore(url: URL, path: Path, force: bool) -> Summary:
    if not path.exists():
        raise BackupError(f"no backup at {path}")
    if _pg_holds_tables(url) and not force:
        raise BackupError(f"the database {url.database} already holds tables: restore into "
                          "an empty database, or add --force (which replaces them)")
    args, env = _pg_args(url)
    command = [_pg_tool("pg_restore"), "--no-owner", "--exit-on-error", "--single-transaction",
               *(["--clean", "--if-exists"] if force else []), *args, str(path)]
    _run(command, env)
    return _pg_summary(url)


# ------------------------------------------------------------------ commands


def _url(settings: Settings) -> URL:
    return make_url(settings.resolved_database_url())


def backup(path: Path, settings: Settings | None = None) -> Summary | None:
    """Write the backup to ``path``; what it holds (SQLite; None for a PostgreSQL dump)."""
    settings = settings or get_settings()
    url = _url(settings)
    path = path.expanduser().resolve()
    path.parent.mkdir(parents=True, exist_ok=True)
    if url.get_backend_name() == "sqlite":
        return _sqlite_backup(url, settings, path)
    if url.get_backend_name() == "postgresql":
        _pg_backup(url, path)
        return None
    raise BackupError(f"no backup for {url.get_backend_name()} databases")


def restore(path: Path, force: bool = False, settings: Settings | None = None) -> Summary:
    settings = settings or get_settings()
    url = _url(settings)
    path = path.expanduser().resolve()
    if url.get_backend_name() == "sqlite":
        return _sqlite_restore(url, settings, path, force)
    if url.get_backend_name() == "postgresql":
        return _pg_restore(url, path, force)
    raise BackupError(f"no restore for {url.get_backend_name()} databases")


def main(command: str, path: str, force: bool = False) -> int:
    """The CLI's entry: print what was saved or restored, or why not (exit status 1)."""
    try:
        if command == "backup":
            saved = backup(Path(path))
            print(f"backup written to {path}" + (f": {saved}" if saved else ""))
        else:
            summary = restore(Path(path), force)
            print(f"restored from {path}: {summary}; start the server to use it")
    except BackupError as exc:
        print(f"ludoteca {command}: {exc}", file=sys.stderr)
        return 1
    return 0
