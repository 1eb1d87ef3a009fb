"""Debian's nginx run with the proxy configuration docker-compose.yml mounts (deploy/
nginx.conf), in front of app processes on loopback: tests/cluster/test_behind_nginx.py and
bench.scale use it."""

from __future__ import annotations

import shutil
import socket
import subprocess
import time
from pathlib import Path

import yaml

from tests.support.server import free_port

ROOT = Path(__file__).resolve().parents[2]


def compose_nginx_conf() -> str:
    """The proxy's configuration exactly as docker-compose.yml gives it to nginx: the
    repository file its `proxy` service mounts at /etc/nginx/nginx.conf."""
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    mounts = [v.split(":") for v in compose["services"]["proxy"]["volumes"]]
    (source,) = [m[0] for m in mounts if m[1] == "/etc/nginx/nginx.conf"]
    return (ROOT / source).read_text()


class Nginx:
    def __init__(self, conf: str, workdir: Path) -> None:
        binary = shutil.which("nginx") or "/usr/sbin/nginx"
        if not Path(binary).exists():
            raise RuntimeError("nginx is not installed; `python3 -m app test` installs it")
        self.binary = binary
        self.port = free_port()
        self.dir = workdir
        (workdir / "logs").mkdir(parents=True, exist_ok=True)
        self.conf = workdir / "nginx.conf"
        self.conf.write_text(conf.replace("listen 8080;", f"listen 127.0.0.1:{self.port};"))
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def _argv(self, *extra: str) -> list[str]:
        return [self.binary, "-p", str(self.dir), "-c", str(self.conf), "-e",
                str(self.dir / "logs" / "error.log"),
                "-g", f"daemon off; pid {self.dir / 'nginx.pid'};", *extra]

    def check(self) -> None:
        subprocess.run(self._argv("-t"), check=True, capture_output=True)

    def start(self) -> None:
        self.process = subprocess.Popen(self._argv(), stdout=subprocess.DEVNULL,
                                        stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", self.port)) == 0:
                    return
            time.sleep(0.05)
        raise RuntimeError("nginx did not start")

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(timeout=10)
