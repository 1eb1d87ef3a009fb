"""The image built and run for real by a container engine (podman, or docker with a running
daemon), when this machine has one:

1. the base image (``python:3.11-slim-bookworm``): already there, or pulled; where no
   registry can be reached, a stand-in is made locally (root and debootstrap needed): a
   Debian bookworm with its Python 3.11 as a virtual environment at /usr/local, so that
   /usr/local/bin/python3 and pip are where the real base image has them;
2. ``build`` of the Dockerfile (the final image and its size);
3. the image's contents: no build leftovers, the code root's, /data the user's;
4. a container on SQLite (a named volume on /data): its HEALTHCHECK, the user it runs as,
   the pages, a table, the operator's /metrics; restarted on the same volume, the table is
   still there;
5. a container on PostgreSQL (Debian's, started here on loopback).

Containers use the host's network (``--network host``) and listen on 127.0.0.1 on a free
port (``LUDOTECA_HOST``/``LUDOTECA_PORT``, which the image's CMD and HEALTHCHECK read), so no
traffic leaves loopback.

``python -m tests.deploy.engine`` runs it all and prints what it measured;
tests/deploy/test_engine.py runs it under pytest (skipped where there is no engine, failed under
CI=true; `python3 -m app test` installs podman, runc and debootstrap when they are missing).
"""

from __future__ import annotations

import json
import os
import resource
import secrets
import shutil
import socket
import subprocess
import tarfile
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from tests.deploy.checks import exercise, leftovers, wait_healthy
from tests.support.server import free_port

ROOT = Path(__file__).resolve().parents[2]
BASE = "docker.io/library/python:3.11-slim-bookworm"
# one tag per run: two runs at once (two checkouts on one machine) never share an image
IMAGE = f"localhost/ludoteca:engine-test-{secrets.token_hex(4)}"
STAND_IN_LABEL = "org.ludoteca.stand-in"
DEBIAN_MIRROR = "http://deb.debian.org/debian"


class NoEngine(Exception):
    """No usable container engine here (or no base image to build on)."""


def _run(argv: list[str], timeout: float = 600, check: bool = True,
         **kwargs: Any) -> subprocess.CompletedProcess:
    result = subprocess.run(argv, capture_output=True, text=True, timeout=timeout, **kwargs)
    if check and result.returncode != 0:
        raise RuntimeError(f"{' '.join(argv[:6])}… failed ({result.returncode}):\n"
                           f"{result.stdout[-3000:]}\n{result.stderr[-3000:]}")
    return result


def registry_reachable(host: str = "registry-1.docker.io", timeout: float = 10) -> bool:
    """Whether the base image's registry can be reached at all: a network that drops the
    connection silently (CI reaches only PyPI and Debian's mirrors) would otherwise hold the
    pull for its whole timeout before the stand-in is made. Behind a proxy, podman's pull
    is left to find out for itself."""
    if any(os.environ.get(name) for name in ("HTTPS_PROXY", "https_proxy", "ALL_PROXY")):
        return True
    try:
        with socket.create_connection((host, 443), timeout=timeout):
            return True
    except OSError:
        return False


def find_engine() -> str | None:
    """podman, or docker whose daemon answers (a docker client alone is not an engine)."""
    wanted = os.environ.get("LUDOTECA_ENGINE")
    for name in [wanted] if wanted else ["podman", "docker"]:
        if not shutil.which(name):
            continue
        try:
            if _run([name, "info"], timeout=60, check=False).returncode == 0:
                return name
        except subprocess.TimeoutExpired:
            continue
    return None


@dataclass
class Engine:
    name: str
    options: list[str] = field(default_factory=list)  # for build and run alike

    def __call__(self, *args: str, timeout: float = 600, check: bool = True,
                 **kwargs: Any) -> subprocess.CompletedProcess:
        return _run([self.name, *args], timeout=timeout, check=check, **kwargs)

    # ---- the base image

    def has_image(self, ref: str) -> bool:
        return self("image", "inspect", ref, check=False, timeout=60).returncode == 0

    def ensure_base(self) -> str:
        """How the base image came: "present", "pulled" or "stand-in (made here)"."""
        if self.has_image(BASE):
            labels = self.inspect(BASE).get("Config", {}).get("Labels") or {}
            return "stand-in (made here earlier)" if STAND_IN_LABEL in labels else "present"
        try:
            if registry_reachable() and self("pull", BASE, check=False,
                                             timeout=180).returncode == 0:
                return "pulled"
        except subprocess.TimeoutExpired:
            pass
        make_stand_in(self)
        return "stand-in (made here)"

    def inspect(self, ref: str) -> dict[str, Any]:
        return json.loads(self("image", "inspect", ref, timeout=60).stdout)[0]

    def choose_options(self) -> None:
        """podman on some hosts cannot start a container with its defaults (crun on hybrid
        cgroups; file and process limits above what the host lets a container set): try
        runc and the host's own limits then."""
        if self.name != "podman":
            return
        nofile = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
        nproc = resource.getrlimit(resource.RLIMIT_NPROC)[1]
        pid_max = int(Path("/proc/sys/kernel/pid_max").read_text())
        nproc = min(nproc if nproc > 0 else pid_max, pid_max)
        for options in ([], ["--runtime", "runc"],
                        ["--runtime", "runc", "--ulimit", f"nofile={nofile}:{nofile}",
                         "--ulimit", f"nproc={nproc}:{nproc}"]):
            probe = self("run", "--rm", "--network", "host", *options, BASE, "python3", "-c",
                         "print('ok')", check=False, timeout=120)
            if probe.returncode == 0 and probe.stdout.strip() == "ok":
                self.options = options
                return
        raise NoEngine(f"{self.name} cannot start a container here: {probe.stderr[-500:]}")

    # ---- the image

    def build(self) -> float:
        started = time.monotonic()
        extra = ["--format", "docker", "--layers=false"] if self.name == "podman" else []
        self("build", *extra, *self.options, "--network", "host", "--pull=never" if
             self.name == "podman" else "--pull=false", "-t", IMAGE, "-f",
             str(ROOT / "Dockerfile"), str(ROOT), timeout=1800)
        return time.monotonic() - started

    def export(self, into: Path) -> None:
        """The image's files, as a container of it would see them, unpacked under ``into``."""
        container = self("create", IMAGE).stdout.strip().splitlines()[-1]
        try:
            archive = into.parent / "image.tar"
            self("export", "-o", str(archive), container, timeout=600)
            with tarfile.open(archive) as tar:
                tar.extractall(into, filter="fully_trusted")
            archive.unlink()
        finally:
            self.remove(container)

    # ---- containers

    def start(self, env: dict[str, str], volume: str | None = None) -> str:
        args = ["run", "-d", "--network", "host", *self.options]
        for key, value in env.items():
            args += ["-e", f"{key}={value}"]
        if volume:
            args += ["-v", f"{volume}:/data"]
        return self(*args, IMAGE, timeout=120).stdout.strip().splitlines()[-1]

    def logs(self, container: str) -> str:
        result = self("logs", container, check=False, timeout=60)
        return result.stdout + result.stderr

    def remove(self, container: str) -> None:
        """The container and its anonymous volumes (the image's VOLUME when none was
        given)."""
        self("rm", "-f", "-v", "-t", "10", container, check=False, timeout=120)


def make_stand_in(engine: Engine) -> None:
    """A local stand-in for python:3.11-slim-bookworm: debootstrap'd Debian bookworm (its
    Python is 3.11), the Python a virtual environment at /usr/local (python, python3,
    python3.11, pip in /usr/local/bin as in the real image), apt's caches emptied, and this
    machine's trusted certificates (SSL_CERT_FILE, PIP_CERT), so that its builds reach PyPI
    the way this machine does."""
    if os.geteuid() != 0 or not shutil.which("debootstrap"):
        raise NoEngine(f"{BASE} cannot be pulled here, and making a stand-in needs root and "
                       "debootstrap (apt-get install debootstrap)")
    work = Path(tempfile.mkdtemp(prefix="ludoteca-base-"))
    rootfs = work / "root"
    try:
        _run(["debootstrap", "--variant=minbase", "--include=python3,python3-venv",
              "bookworm", str(rootfs), DEBIAN_MIRROR], timeout=1800)
        _run(["chroot", str(rootfs), "/usr/bin/python3", "-m", "venv", "/usr/local"],
             timeout=300)
        # the certificates this machine trusts, where the base image keeps its own: a
        # build here reaches PyPI through whatever this machine's network presents
        trusted = os.environ.get("SSL_CERT_FILE") or os.environ.get("PIP_CERT") or \
            "/etc/ssl/certs/ca-certificates.crt"
        changes = ["ENV PATH=/usr/local/bin:/usr/local/sbin:/usr/sbin:/usr/bin:/sbin:/bin",
                   "ENV LANG=C.UTF-8", 'CMD ["python3"]',
                   f"LABEL {STAND_IN_LABEL}=debootstrap-bookworm"]
        if Path(trusted).is_file():
            bundle = rootfs / "etc" / "ssl" / "certs" / "ca-certificates.crt"
            bundle.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(trusted, bundle)
            changes += [f"ENV {name}=/etc/ssl/certs/ca-certificates.crt"
                        for name in ("SSL_CERT_FILE", "PIP_CERT", "REQUESTS_CA_BUNDLE")]
        for junk in ("var/cache/apt/archives", "var/lib/apt/lists"):
            for path in (rootfs / junk).glob("*"):
                if path.is_file():
                    path.unlink()
        archive = work / "rootfs.tar"
        _run(["tar", "-C", str(rootfs), "--numeric-owner", "-cf", str(archive), "."],
             timeout=600)
        args = ["import"]
        for change in changes:
            args += ["--change", change]
        engine(*args, str(archive), BASE, timeout=600)
    finally:
        shutil.rmtree(work, ignore_errors=True)


# ------------------------------------------------------------------ the checks


def check_contents(engine: Engine, into: Path) -> dict[str, Any]:
    """No uv, no sources, no build/ or *.egg-info; the code root's, /data the user's."""
    engine.export(into)
    environment = into / "opt" / "ludoteca"
    site = next(environment.glob("lib/python3*/site-packages"))
    found = leftovers(into, environment, site, into / "usr" / "local")
    assert not found, f"build leftovers in the image: {found}"
    assert not (into / "src").exists() and not (environment / "bin" / "uv").exists()
    assert not list((into / "usr" / "local" / "bin").glob("uv*")), "uv is in the image"
    installed = {p.name for p in site.iterdir()}
    assert {"app", "fastapi", "uvicorn", "prometheus_client"} <= installed
    assert not {"pytest", "playwright", "ruff"} & installed, "test packages in the image"
    for shipped in ("templates", "static", "migrations"):
        assert (site / "app" / shipped).is_dir(), shipped
    owners = {(p.stat().st_uid, p.stat().st_gid) for p in [environment, *environment.rglob("*")]
              if not p.is_symlink()}
    assert owners == {(0, 0)}, f"the code is not root's alone: {owners}"
    data = into / "data"
    assert (data.stat().st_uid, data.stat().st_gid) == (10001, 10001)
    assert data.stat().st_mode & 0o777 == 0o700, "the data volume is open to other users"
    size = sum(p.stat().st_size for p in environment.rglob("*")
               if p.is_file() and not p.is_symlink())
    return {"environment_mb": round(size / 2**20, 1)}


def _healthcheck(engine: Engine, container: str) -> None:
    """The image's own HEALTHCHECK command, run in the container."""
    image = engine.inspect(IMAGE)
    # docker keeps it in Config, podman beside it (OCI images have none: built as docker's)
    check = image.get("Config", {}).get("Healthcheck") or image.get("Healthcheck")
    assert check, "the image lost its HEALTHCHECK"
    test = check["Test"]
    assert test[0] == "CMD", test
    result = engine("exec", container, *test[1:], check=False, timeout=60)
    assert result.returncode == 0, result.stdout + result.stderr
    if engine.name == "podman":
        assert engine("healthcheck", "run", container, check=False,
                      timeout=60).returncode == 0


def _serve(engine: Engine, env: dict[str, str], volume: str | None,
           token: str) -> tuple[str, str, str]:
    """A container of the image, healthy; (container, base URL, a table id)."""
    port = free_port()
    env = {**env, "LUDOTECA_HOST": "127.0.0.1", "LUDOTECA_PORT": str(port),
           "LUDOTECA_OPERATOR_TOKEN": token}
    container = engine.start(env, volume)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_healthy(base, timeout=120, alive=lambda: engine(
            "inspect", "--format", "{{.State.Running}}", container,
            check=False).stdout.strip() == "true")
    except AssertionError as exc:
        raise AssertionError(f"{exc}\n{engine.logs(container)[-3000:]}") from None
    _healthcheck(engine, container)
    ids = engine("exec", container, "python", "-c",
                 "import os; print(os.getuid(), os.getgid(), os.getcwd())").stdout.split()
    assert ids == ["10001", "10001", "/"], ids
    status = engine("exec", container, "cat", "/proc/1/status").stdout
    uid = next(x for x in status.splitlines() if x.startswith("Uid:")).split()[1:]
    assert uid == ["10001"] * 4, status  # the server itself, not only what exec starts
    table = exercise(base, operator_token=token)
    return container, base, table


def _check_image(engine: Engine, figures: dict[str, Any], log: Any,
                 postgres_url: str | None) -> None:
    image, base = engine.inspect(IMAGE), engine.inspect(BASE)
    figures["image_mb"] = round(image["Size"] / 2**20, 1)
    figures["base_mb"] = round(base["Size"] / 2**20, 1)
    log(f"built in {figures['build_seconds']} s: {figures['image_mb']} MB "
        f"(base {figures['base_mb']} MB)")
    config = image["Config"]
    assert config["User"] == "10001:10001" and config["Cmd"] == ["ludoteca", "serve"]
    assert "/data" in (config.get("Volumes") or {})

    with tempfile.TemporaryDirectory(prefix="ludoteca-export-") as tmp:
        figures.update(check_contents(engine, Path(tmp) / "image"))
    log(f"contents: no leftovers; /opt/ludoteca {figures['environment_mb']} MB")

    token = secrets.token_urlsafe(24)
    volume = f"ludoteca-engine-{secrets.token_hex(4)}"
    engine("volume", "create", volume)
    containers: list[str] = []
    try:
        container, _, table = _serve(engine, {}, volume, token)
        containers.append(container)
        engine("stop", "-t", "20", container, timeout=120)
        again, base_url, _ = _serve(engine, {}, volume, token)  # the same volume
        containers.append(again)
        r = httpx.get(f"{base_url}/api/tables/{table}", timeout=10)
        assert r.status_code == 200, r.text
        logs = engine.logs(again)
        assert token not in logs
        log("SQLite: healthy, uid 10001, pages, a table, /metrics; kept across a restart")
        if postgres_url:
            container, _, _ = _serve(engine, {"DATABASE_URL": postgres_url}, None, token)
            containers.append(container)
            started = engine.logs(container)
            assert "postgresql+asyncpg://" in started and token not in started, started[-2000:]
            log("PostgreSQL: healthy, uid 10001, pages, a table, /metrics")
            figures["postgres"] = True
    finally:
        for container in containers:
            engine.remove(container)
        engine("volume", "rm", "-f", volume, check=False)


def run_all(postgres_url: str | None, log: Any = print) -> dict[str, Any]:
    """Everything above; returns the figures. ``postgres_url``: a database the containers
    reach on 127.0.0.1 (None: the PostgreSQL run is left out)."""
    name = find_engine()
    if name is None:
        raise NoEngine("neither podman nor a docker with a running daemon is here")
    engine = Engine(name)
    figures: dict[str, Any] = {"engine": name, "base": engine.ensure_base()}
    engine.choose_options()
    figures["options"] = engine.options
    log(f"{name}: base image {figures['base']}; options {engine.options}")
    figures["build_seconds"] = round(engine.build(), 1)
    try:
        _check_image(engine, figures, log, postgres_url)
    finally:
        engine("rmi", "-f", IMAGE, check=False)
    return figures


def main() -> None:
    from tests.support.postgres import PostgresCluster

    cluster = PostgresCluster.find()
    url = None
    if cluster is not None:
        cluster.start()
        url = cluster.new_database(f"engine_{secrets.token_hex(4)}").replace(
            "postgresql+asyncpg://", "postgresql://")
    try:
        figures = run_all(url)
    finally:
        if cluster is not None:
            cluster.stop()
    print(json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()
