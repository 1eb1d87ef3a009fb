"""A throwaway PostgreSQL cluster for tests, from Debian's postgresql package.

PostgreSQL refuses to run as root, so as root the cluster runs as the ``postgres`` user.
"""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class PostgresCluster:
    def __init__(self, bindir: Path, datadir: Path) -> None:
        self.bindir = bindir
        self.datadir = datadir
        self.port = _free_port()
        self.user = "postgres" if os.geteuid() == 0 else None

    @classmethod
    def find(cls) -> PostgresCluster | None:
        candidates = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
        if not candidates:
            return None
        # not under pytest's tmp dirs: those are private to root, and the server runs as postgres
        workdir = Path(tempfile.mkdtemp(prefix="ludoteca-pg-"))
        return cls(Path(candidates[-1]).parent, workdir / "pgdata")

    def _run(self, *args: str) -> None:
        cmd = list(args)
        if self.user:
            cmd = ["runuser", "-u", self.user, "--", *cmd]
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)

    def start(self, fsync: bool = False) -> None:
        """Start the cluster; without ``fsync`` (tests) commits skip the disk flush."""
        self.datadir.parent.mkdir(parents=True, exist_ok=True)
        if self.user:
            shutil.chown(self.datadir.parent, self.user)
            os.chmod(self.datadir.parent, 0o755)
        self._run(str(self.bindir / "initdb"), "-D", str(self.datadir), "-A", "trust",
                  "-U", "postgres", "--no-sync")
        self._run(str(self.bindir / "pg_ctl"), "-D", str(self.datadir), "-w", "-l",
                  str(self.datadir / "log.txt"), "-o",
                  f"-p {self.port} -k {self.datadir} -h 127.0.0.1" + ("" if fsync else " -F"),
                  "start")
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", self.port)) == 0:
                    return
            time.sleep(0.2)
        raise RuntimeError("PostgreSQL did not start")

    def stop(self) -> None:
        try:
            self._run(str(self.bindir / "pg_ctl"), "-D", str(self.datadir), "-m", "immediate",
                      "stop")
        except subprocess.CalledProcessError:
            pass
        shutil.rmtree(self.datadir.parent, ignore_errors=True)

    def pause(self) -> None:
        """Stop the server but keep its data: the database is briefly unavailable."""
        self._run(str(self.bindir / "pg_ctl"), "-D", str(self.datadir), "-m", "fast", "-w",
                  "stop")

    def resume(self) -> None:
        self._run(str(self.bindir / "pg_ctl"), "-D", str(self.datadir), "-w", "-l",
                  str(self.datadir / "log.txt"), "-o",
                  f"-p {self.port} -k {self.datadir} -h 127.0.0.1 -F", "start")

    def new_database(self, name: str) -> str:
        self._run(str(self.bindir / "psql"), "-h", "127.0.0.1", "-p", str(self.port),
                  "-U", "postgres", "-c", f'CREATE DATABASE "{name}"')
        return f"postgresql+asyncpg://postgres@127.0.0.1:{self.port}/{name}"
