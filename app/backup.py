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

``restore`` first checks that the file is an intact Ludoteca backup, before it touches
anything: for SQLite a private copy of it passes SQLite's header, ``PRAGMA
integrity_check``, one Alembic schema version this code knows (head or older) and the
tables the migrations have made by that version; for PostgreSQL, pg_restore reads the same
from the custom-format dump. It is refused while any server uses the data directory (the
lock of app/datadir.py), and it refuses to overwrite a database that already holds tables
unless ``--force`` is given: then the SQLite database is moved aside with its -wal and -shm
(the newest commits live in the WAL) and put back if anything fails; PostgreSQL's
pg_restore runs in one transaction. Every refusal is one line and exit status 1. The
server migrates the restored data to the current schema when it starts. What ``backup``
writes is readable by its user only (0600; new directories 0700).
"""

from __future__ import annotations

import glob
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from sqlalchemy.engine import URL, make_url

from app.config import Settings, get_settings
from app.datadir import SQLITE_SUFFIXES, DataDirBusy, held, private_files
from app.db.session import alembic_config, migrate

KEY_FILE = "secret_key"
SQLITE_MAGIC = b"SQLite format 3\x00"
PG_MAGIC = b"PGDMP"  # pg_dump's custom format
PG_TEXT_MARK = b"PostgreSQL database dump"  # the first lines of its plain SQL format
# a table in ``pg_restore --list``: "215; 1259 16386 TABLE public actions ludoteca"
PG_LISTED_TABLE = re.compile(r"^\d+; \d+ \d+ TABLE \S+ (\S+) ", re.MULTILINE)
WHAT_RESTORE_TAKES = ("restore takes a file written by `python3 -m app backup` (a SQLite "
                      "database, or a pg_dump --format=custom file for PostgreSQL)")


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
        os.close(os.open(target, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))  # private
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
    partial = _beside(path, ".partial")
    partial.unlink(missing_ok=True)
    try:
        summary = _copy(source, partial)
        os.replace(partial, path)  # PATH is either the old backup or the whole new one
    finally:
        partial.unlink(missing_ok=True)
    key = settings.data_dir / KEY_FILE
    if not settings.secret_key and key.exists():
        _private_copy(key, _beside(path, "." + KEY_FILE))
    return summary


def _first_bytes(path: Path) -> bytes:
    with path.open("rb") as f:
        return f.read(4096)


def _refuse_other_kinds(path: Path, head: bytes) -> None:
    """What the file is, when it is plainly not a SQLite backup: one line saying so."""
    if not head:
        raise BackupError(f"{path} is empty: not a Ludoteca backup")
    if head.startswith(PG_MAGIC):
        raise BackupError(f"{path} is a PostgreSQL dump, not a SQLite backup: restore it "
                          "with LUDOTECA_DATABASE_URL set to the PostgreSQL database")
    if PG_TEXT_MARK in head:
        raise BackupError(f"{path} is a PostgreSQL dump in plain SQL, not a Ludoteca "
                          f"backup: {WHAT_RESTORE_TAKES}")
    if not head.startswith(SQLITE_MAGIC):
        raise BackupError(f"{path} is not a SQLite database, so not a Ludoteca backup: "
                          f"{WHAT_RESTORE_TAKES}")


def _stage(path: Path, staging: Path) -> None:
    """A private copy of the backup (and of a WAL beside it) to check and then move in."""
    for source, copy in ((path, staging), (_beside(path, "-wal"), _beside(staging, "-wal"))):
        _remove(copy)
        if source.exists():
            fd = os.open(copy, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600)
            with os.fdopen(fd, "wb") as out, source.open("rb") as src:
                shutil.copyfileobj(src, out)


def _checked(path: Path, staging: Path) -> Summary:
    """Whether the staged copy of ``path`` is an intact Ludoteca database of a schema version
    this code knows; made one self-contained file (no WAL). What it holds, or BackupError."""
    try:
        conn = sqlite3.connect(staging)
    except sqlite3.DatabaseError as exc:
        raise BackupError(f"{path} cannot be opened as a SQLite database: {exc}") from None
    try:
        result = conn.execute("PRAGMA integrity_check").fetchone()[0]
        if result != "ok":
            raise BackupError(f"{path} is damaged: SQLite's integrity check says "
                              f"{' '.join(result.split())}")
        tables = {row[0] for row in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table'")}
        versions = (conn.execute("SELECT version_num FROM alembic_version").fetchall()
                    if "alembic_version" in tables else [])
        _check_schema(path, [v for (v,) in versions], tables)
        conn.execute("PRAGMA journal_mode=DELETE")  # the WAL's pages into the one file
        return _summary(conn)
    except sqlite3.DatabaseError as exc:
        raise BackupError(f"{path} is damaged (SQLite: {exc})") from None
    finally:
        conn.close()


def _check_schema(path: Path, versions: list[str], tables: set[str]) -> None:
    """A schema version this code knows (head or older), with the tables it has there."""
    if not versions:
        raise BackupError(f"{path} is a SQLite database but not a Ludoteca backup: it has no "
                          "Ludoteca schema version")
    head, known = _revisions()
    if len(versions) != 1 or versions[0] not in known:
        raise BackupError(f"{path} has schema version {', '.join(versions)}, which this "
                          f"Ludoteca (schema {head}) does not know: restore it with the "
                          "Ludoteca version that wrote it, or a newer one")
    missing = sorted(_tables_at(versions[0]) - tables)
    if missing:
        raise BackupError(f"{path} lacks tables Ludoteca has at schema version "
                          f"{versions[0]}: {', '.join(missing)}")


@lru_cache
def _revisions() -> tuple[str, frozenset[str]]:
    """The newest schema version and every one this code can migrate from."""
    from alembic.script import ScriptDirectory

    script = ScriptDirectory.from_config(alembic_config())
    return str(script.get_current_head()), frozenset(
        s.revision for s in script.walk_revisions())


@lru_cache
def _tables_at(revision: str) -> frozenset[str]:
    """The tables our migrations have made by ``revision`` (made for real, in a scratch
    SQLite file, so this never drifts from migrations/)."""
    with tempfile.TemporaryDirectory() as scratch:
        migrate(f"sqlite+aiosqlite:///{scratch}/schema.db", revision)
        conn = sqlite3.connect(Path(scratch) / "schema.db")
        try:
            return frozenset(row[0] for row in conn.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table'"))
        finally:
            conn.close()


def _beside(path: Path, suffix: str) -> Path:
    """``path`` with ``suffix`` appended to its name (how SQLite names its -wal and -shm)."""
    return path.with_name(path.name + suffix)


def _remove(path: Path) -> None:
    for suffix in SQLITE_SUFFIXES + ("-journal",):
        _beside(path, suffix).unlink(missing_ok=True)


def _free_stamp(paths: list[Path]) -> str:
    """A suffix no file set aside before has taken (two restores in one second)."""
    base = str(int(time.time()))
    stamp, n = base, 0
    while any(_beside(p, f".before-restore-{stamp}{s}").exists()
              for p in paths for s in SQLITE_SUFFIXES):
        n += 1
        stamp = f"{base}_{n}"
    return stamp


def _move(moves: list[tuple[Path, Path]]) -> list[tuple[Path, Path]]:
    """Each (from, to) renamed; what was done, to undo, even if one fails halfway."""
    done: list[tuple[Path, Path]] = []
    try:
        for old, new in moves:
            os.replace(old, new)
            done.append((old, new))
    except OSError:
        _put_back(done)
        raise
    return done


def _put_back(done: list[tuple[Path, Path]]) -> None:
    for old, new in reversed(done):
        os.replace(new, old)


def _sqlite_restore(url: URL, settings: Settings, path: Path, force: bool) -> Summary:
    if not path.is_file():
        raise BackupError(f"no backup at {path}")
    _refuse_other_kinds(path, _first_bytes(path))
    target = _sqlite_path(url).resolve()
    try:
        with held(settings, exclusive=True):
            return _sqlite_restore_locked(settings, path, target, force)
    except DataDirBusy as exc:
        raise BackupError(str(exc)) from None


def _sqlite_restore_locked(settings: Settings, path: Path, target: Path,
                           force: bool) -> Summary:
    """Check a private copy of the backup; only then set the current database aside (with
    its -wal and -shm: the last commits live in the WAL until a checkpoint) and the secret
    key it would replace, and move the copy in. Anything failing puts all of it back."""
    staging = _beside(target, ".restoring")
    try:
        _stage(path, staging)
        summary = _checked(path, staging)
        holds = _existing_tables(target)
        if holds and not force:
            raise BackupError(f"{target} already holds {holds} tables: restore into an empty "
                              "data directory, or add --force (the current database is "
                              "kept beside it)")
        key = _beside(path, "." + KEY_FILE)
        live_key = settings.data_dir / KEY_FILE
        new_key = key.exists() and not settings.secret_key
        replaced_key = (new_key and live_key.exists()
                        and live_key.read_bytes() != key.read_bytes())
        aside = f".before-restore-{_free_stamp([target, live_key])}"
        moves = [(_beside(target, s), _beside(target, aside + s)) for s in SQLITE_SUFFIXES
                 if _beside(target, s).exists()]
        if replaced_key:
            moves.append((live_key, _beside(live_key, aside)))
        done = _move(moves)
        try:
            os.replace(staging, target)
            if new_key:
                _private_copy(key, live_key)
        except BaseException:
            _remove(target)
            _put_back(done)
            raise
    finally:
        _remove(staging)
    for old, new in done:
        print(f"the previous {old.name} is kept as {new}")
    return summary


def _existing_tables(target: Path) -> int:
    """How many Ludoteca tables the current database holds (read only: nothing in it, nor
    its WAL, changes); 0 for none, or for a file that is no Ludoteca database."""
    if not target.exists():
        return 0
    try:
        conn = sqlite3.connect(f"file:{target}?mode=ro", uri=True)
    except sqlite3.DatabaseError:
        return 0
    try:
        return _summary(conn).tables
    finally:
        conn.close()


def _private_copy(source: Path, target: Path) -> None:
    """``source`` copied to ``target``, readable by the owner only from the start."""
    partial = _beside(target, ".partial")
    partial.unlink(missing_ok=True)
    fd = os.open(partial, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600)
    with os.fdopen(fd, "wb") as out, source.open("rb") as src:
        shutil.copyfileobj(src, out)
    os.replace(partial, target)


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


def _run(command: list[str], env: dict[str, str], what: str = "") -> str:
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        said = " ".join(done.stderr.split())  # one line, whatever the tool printed
        raise BackupError(f"{what or Path(command[0]).name + ' failed'}: {said}")
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
    partial = _beside(path, ".partial")
    partial.unlink(missing_ok=True)
    os.close(os.open(partial, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))  # pg_dump keeps it
    _, env = _pg_args(url)
    try:
        _run(pg_dump_command(url, partial), env)
        os.replace(partial, path)
    finally:
        partial.unlink(missing_ok=True)


def _pg_check(path: Path) -> None:
    """A pg_dump custom-format file holding a Ludoteca database of a schema version this
    code knows, with its tables: read from the file by pg_restore, no database touched."""
    head = _first_bytes(path)
    if head.startswith(SQLITE_MAGIC):
        raise BackupError(f"{path} is a SQLite backup and this server's database is "
                          "PostgreSQL (LUDOTECA_DATABASE_URL): restore loads a SQLite backup "
                          "into SQLite and a pg_dump --format=custom file into PostgreSQL")
    if not head.startswith(PG_MAGIC):
        if not head or PG_TEXT_MARK in head:
            _refuse_other_kinds(path, head)  # empty, or plain SQL: say which
        raise BackupError(f"{path} is not a pg_dump custom-format file, so not a Ludoteca "
                          f"backup: {WHAT_RESTORE_TAKES}")
    env = {**os.environ}
    damaged = f"{path} is damaged or not a Ludoteca backup (pg_restore)"
    listing = _run([_pg_tool("pg_restore"), "--list", str(path)], env, damaged)
    tables = set(PG_LISTED_TABLE.findall(listing))
    versions = []
    if "alembic_version" in tables:
        data = _run([_pg_tool("pg_restore"), "--data-only", "--table=alembic_version",
                     "--file=-", str(path)], env, damaged)
        rows = data.split("FROM stdin;\n", 1)[1:]
        versions = [v for v in rows[0].split("\n\\.", 1)[0].splitlines() if v] if rows else []
    _check_schema(path, versions, tables)


def _pg_restore(url: URL, settings: Settings, path: Path, force: bool) -> Summary:
    if not path.is_file():
        raise BackupError(f"no backup at {path}")
    _pg_check(path)
    try:
        with held(settings, exclusive=True):
            if _pg_holds_tables(url) and not force:
                raise BackupError(f"the database {url.database} already holds tables: restore "
                                  "into an empty database, or add --force (which replaces "
                                  "them)")
            args, env = _pg_args(url)
            command = [_pg_tool("pg_restore"), "--no-owner", "--exit-on-error",
                       "--single-transaction",
                       *(["--clean", "--if-exists"] if force else []), *args, str(path)]
            _run(command, env)  # one transaction: all of it, or nothing changed
            return _pg_summary(url)
    except DataDirBusy as exc:
        raise BackupError(str(exc)) from None


# ------------------------------------------------------------------ commands


def _url(settings: Settings) -> URL:
    return make_url(settings.resolved_database_url())


def backup(path: Path, settings: Settings | None = None) -> Summary | None:
    """Write the backup to ``path``; what it holds (SQLite; None for a PostgreSQL dump)."""
    settings = settings or get_settings()
    url = _url(settings)
    path = path.expanduser().resolve()
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    if url.get_backend_name() == "sqlite":
        try:  # shared, beside the servers: not in the middle of a restore
            with held(settings, exclusive=False):
                return _sqlite_backup(url, settings, path)
        except DataDirBusy as exc:
            raise BackupError(str(exc)) from None
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
        return _pg_restore(url, settings, path, force)
    raise BackupError(f"no restore for {url.get_backend_name()} databases")


def main(command: str, path: str, force: bool = False) -> int:
    """The CLI's entry: print what was saved or restored, or why not (exit status 1)."""
    private_files()  # the backup, its key and anything restored: the owner's only
    try:
        if command == "backup":
            saved = backup(Path(path))
            print(f"backup written to {path}" + (f": {saved}" if saved else ""))
        else:
            summary = restore(Path(path), force)
            print(f"restored from {path}: {summary}; start the server to use it")
    except (BackupError, OSError, sqlite3.Error) as exc:
        print(f"ludoteca {command}: {' '.join(str(exc).split())}", file=sys.stderr)
        return 1
    return 0
