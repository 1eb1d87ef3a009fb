"""Run the real server (``python -m app.cli serve``) in a subprocess on a free port."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[2]
# the operators' token of every test server: /metrics and /metrics.json ask for it
OPERATOR_TOKEN = "test-operator-token"
OPERATOR = {"Authorization": f"Bearer {OPERATOR_TOKEN}"}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class LiveServer:
    def __init__(self, database_url: str, data_dir: Path,
                 env: dict[str, str] | None = None,
                 python_args: tuple[str, ...] = (), root: Path | None = None) -> None:
        self.database_url = database_url
        # the checkout whose code the server runs (bench: another commit's, side by side)
        self.root = root or ROOT
        # before ``-m app.cli``: ("-m", "cProfile", "-o", path) profiles the server (bench)
        self.python_args = python_args
        self.data_dir = data_dir
        self.port = free_port()
        self.extra_env = env or {}
        self.process: subprocess.Popen | None = None
        self.log_path = data_dir.parent / f"server-{self.port}.log"

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self) -> None:
        self.data_dir.mkdir(parents=True, exist_ok=True)
        env = {**os.environ, "LUDOTECA_DATABASE_URL": self.database_url,
               "LUDOTECA_DATA_DIR": str(self.data_dir), "LUDOTECA_SECRET_KEY": "test-secret",
               "LUDOTECA_OPERATOR_TOKEN": OPERATOR_TOKEN,
               # tables may take a fixed seed (app/api/lobby.py requested_seed): tests only
               "LUDOTECA_TEST_SEEDS": "1", **self.extra_env}
        if self.root != ROOT:
            env["PYTHONPATH"] = str(self.root)
        self._log = open(self.log_path, "ab")  # noqa: SIM115 - closed in stop()
        log = self._log
        self.process = subprocess.Popen(
            [sys.executable, *self.python_args, "-m", "app.cli", "serve", "--port",
             str(self.port)],
            cwd=self.root, env=env, stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"server exited: {self.log_path.read_text()[-3000:]}")
            try:
                if httpx.get(f"{self.url}/healthz", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        raise RuntimeError("server did not start")

    def stop(self, kill: bool = False) -> None:
        if self.process is None:
            return
        if kill:
            self.process.kill()
        else:
            self.process.terminate()
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.process = None
        self._log.close()

    def restart(self, kill: bool = True) -> None:
        self.stop(kill=kill)
        self.start()
