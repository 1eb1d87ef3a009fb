"""The data directory: private to the server's user, and locked while it is in use.

Modes: the database, its -wal and -shm, the backups and the generated keys hold invite
tokens, token hashes and private chat, so every file is the owner's only (0600) in a
directory only the owner may enter (0700). ``private_files()`` sets the process's umask so
that whatever it creates is born so (SQLite gives the -wal and -shm the database's own
mode); ``make_private()`` tightens what an older version left readable by all.

The lock: ``flock(2)`` on ``ludoteca.lock`` in the data directory (and beside a SQLite
database kept elsewhere). Every server holds it shared for its whole life: the processes of
docker-compose's "scale" profile share one volume, and so may several servers. ``restore``
holds it exclusively: it waits for nobody and is refused while any server (or another
restore) holds it, and a server does not start during a restore. The kernel drops the lock
when its process ends, however it ends, so a crash leaves no stale lock; the file itself is
never deleted (two processes could then lock two different files).
"""

from __future__ import annotations

import contextlib
import fcntl
import os
from collections.abc import Iterator
from pathlib import Path

from sqlalchemy.engine import make_url

from app.config import Settings

LOCK_FILE = "ludoteca.lock"
PRIVATE_UMASK = 0o077
SQLITE_SUFFIXES = ("", "-wal", "-shm")


class DataDirBusy(Exception):
    """The lock is held the other way: the message says by whom and what to do."""


def sqlite_database(settings: Settings) -> Path | None:
    """The SQLite database file of these settings, or None (PostgreSQL, in memory)."""
    url = make_url(settings.resolved_database_url())
    if url.get_backend_name() != "sqlite" or url.database in (None, "", ":memory:"):
        return None
    return Path(url.database).resolve()


def lock_dirs(settings: Settings) -> list[Path]:
    """Where the lock is taken: the data directory, and the SQLite database's directory
    when the database lives elsewhere (servers with other data directories may share it)."""
    dirs = [settings.data_dir.resolve()]
    database = sqlite_database(settings)
    if database is not None and database.parent not in dirs:
        dirs.append(database.parent)
    return dirs


def private_files() -> None:
    """From now on this process creates files 0600 and directories 0700."""
    os.umask(PRIVATE_UMASK)


def make_private(settings: Settings) -> list[str]:
    """The data directory 0700, the SQLite database, its -wal and -shm and the generated keys
    0600, where an older version (or an operator's umask) left them open to others. Returns
    what could not be changed (not ours: the operator decides), each as one phrase."""
    try:
        settings.ensure_data_dir()
    except OSError as exc:
        return [f"{settings.data_dir}: {exc.strerror}"]
    paths = [settings.data_dir, *(settings.data_dir / n for n in ("secret_key",
                                                                  "operator_token"))]
    database = sqlite_database(settings)
    if database is not None:
        paths += [database.with_name(database.name + s) for s in SQLITE_SUFFIXES]
    failed = []
    for path in paths:
        try:
            current = path.stat().st_mode & 0o777
            wanted = current & 0o700
            if current != wanted:
                path.chmod(wanted)
        except FileNotFoundError:
            continue
        except OSError as exc:
            failed.append(f"{path}: {exc.strerror}")
    return failed


def _lock(directory: Path, exclusive: bool) -> int:
    directory.mkdir(mode=0o700, parents=True, exist_ok=True)
    fd = os.open(directory / LOCK_FILE, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
    try:
        fcntl.flock(fd, (fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH) | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        if exclusive:
            raise DataDirBusy(f"{directory} is in use by a running Ludoteca server (or another "
                              "restore): stop every server using it first") from None
        raise DataDirBusy(f"a restore is running in {directory}: start the server once it "
                          "has finished") from None
    except BaseException:
        os.close(fd)
        raise
    return fd


@contextlib.contextmanager
def held(settings: Settings, exclusive: bool) -> Iterator[None]:
    """The lock of every directory of ``lock_dirs``, held for the ``with`` block."""
    fds: list[int] = []
    try:
        for directory in lock_dirs(settings):
            fds.append(_lock(directory, exclusive))
        yield
    finally:
        for fd in fds:
            os.close(fd)  # closing the last descriptor releases the lock


_SERVER_LOCK = contextlib.ExitStack()


def hold_for_life(settings: Settings) -> None:
    """Take the shared lock for the rest of this process (a server's): released by the
    kernel when the process ends."""
    _SERVER_LOCK.enter_context(held(settings, exclusive=False))


def open_for_server(settings: Settings) -> list[str]:
    """What ``serve`` does before it opens the database: files private from now on, the
    lock shared for the process's life (DataDirBusy during a restore), and what an older
    version left open tightened. Returns what to warn about, each as one line."""
    private_files()
    warnings = []
    try:
        hold_for_life(settings)
    except OSError as exc:  # a directory it cannot write (PostgreSQL, keys in the
        # environment): restore cannot lock it either, so it is refused there too
        warnings.append(f"cannot lock the data directory ({exc}): restore cannot see "
                        "this server")
    return warnings + [f"data open to other users, cannot change: {failure}"
                       for failure in make_private(settings)]
