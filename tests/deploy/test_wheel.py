"""The package as a self-hoster installs it: the wheel built from the sources (through the
sdist, as `uv build` does), installed with pip into an empty virtual environment together
with the locked dependencies, then `ludoteca serve` started from `/` answers /healthz, the
lobby, a table page and the operator's /metrics; its data goes to the user's data directory,
never the working directory nor site-packages."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import venv
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from app import bootstrap
from tests.deploy.checks import exercise, leftovers, wait_healthy
from tests.support.server import free_port

ROOT = Path(__file__).resolve().parents[2]
IN_CI = os.environ.get("CI", "").lower() == "true"


def _uv() -> str:
    uv = bootstrap.uv_path()
    if not uv.exists():
        pytest.fail(f"{uv} is missing: `python3 -m app test` installs it")
    return str(uv)


@pytest.fixture(scope="module")
def dist() -> Iterator[Path]:
    out = Path(tempfile.mkdtemp(prefix="ludoteca-dist-"))
    result = subprocess.run([_uv(), "build", "--out-dir", str(out)], cwd=ROOT,
                            env=bootstrap.uv_env(), capture_output=True, text=True,
                            timeout=600)
    assert result.returncode == 0, result.stderr[-3000:]
    yield out
    subprocess.run(["rm", "-rf", str(out)], check=False)


def _wheel(dist: Path) -> Path:
    (wheel,) = dist.glob("ludoteca-*.whl")
    return wheel


def test_the_wheel_holds_the_code_and_what_it_serves(dist: Path) -> None:
    with zipfile.ZipFile(_wheel(dist)) as wheel:
        names = set(wheel.namelist())
    expected = set()
    for top, inside in (("app", "app"), ("templates", "app/templates"),
                        ("static", "app/static"), ("migrations", "app/migrations")):
        for path in (ROOT / top).rglob("*"):
            if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc":
                expected.add(f"{inside}/{path.relative_to(ROOT / top).as_posix()}")
    missing = sorted(expected - names)
    assert not missing, f"not in the wheel: {missing[:20]}"
    assert "app/migrations/alembic.ini" in names
    # nothing else: no tests, no caches, no build leftovers
    extra = sorted(n for n in names - expected if not n.startswith("ludoteca-0.1.0.dist-info/"))
    assert not extra, extra
    assert any(n.endswith("entry_points.txt") for n in names)


def test_the_sdist_builds_the_same_wheel_contents(dist: Path) -> None:
    """`uv build` made the wheel from the sdist: so the sdist carries everything."""
    (sdist,) = dist.glob("ludoteca-*.tar.gz")
    import tarfile

    with tarfile.open(sdist) as archive:
        names = {n.split("/", 1)[1] for n in archive.getnames() if "/" in n}
    for needed in ("pyproject.toml", "setup.py", "templates/base.html",
                   "migrations/alembic.ini", "static/css/site.css", "app/cli.py"):
        assert needed in names, needed


@pytest.fixture(scope="module")
def installed(dist: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """An empty venv, the locked dependencies (pip, with their hashes), then the wheel."""
    where = tmp_path_factory.mktemp("wheel-venv")
    env_dir = where / "venv"
    venv.EnvBuilder(with_pip=True).create(env_dir)
    locked = where / "requirements.txt"
    exported = subprocess.run(
        [_uv(), "export", "--frozen", "--no-dev", "--no-emit-project", "--no-header",
         "--format", "requirements-txt", "-o", str(locked)],
        cwd=ROOT, env=bootstrap.uv_env(), capture_output=True, text=True, timeout=120)
    assert exported.returncode == 0, exported.stderr
    pip = [str(env_dir / "bin" / "python"), "-m", "pip", "install", "-q",
           "--disable-pip-version-check"]
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    for args in (["--require-hashes", "-r", str(locked)],
                 ["--no-deps", str(_wheel(dist))]):
        result = subprocess.run([*pip, *args], env=env, capture_output=True, text=True,
                                timeout=900)
        assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    check = subprocess.run([str(env_dir / "bin" / "python"), "-m", "pip", "check"],
                           env=env, capture_output=True, text=True, timeout=120)
    assert check.returncode == 0, check.stdout  # the wheel's requirements are all met
    yield env_dir


def test_ludoteca_serve_from_the_root_directory(installed: Path, tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    # a clean environment: no LUDOTECA_ setting of this machine, a HOME of its own
    env = {"PATH": f"{installed / 'bin'}:/usr/bin:/bin", "HOME": str(home), "LANG": "C.UTF-8"}
    port = free_port()
    env["LUDOTECA_PORT"] = str(port)
    site = next(installed.glob("lib/python3*/site-packages"))
    before_root = sorted(os.listdir("/"))
    log = tmp_path / "server.log"
    with open(log, "wb") as out:
        server = subprocess.Popen([str(installed / "bin" / "ludoteca"), "serve"], cwd="/",
                                  env=env, stdout=out, stderr=subprocess.STDOUT,
                                  start_new_session=True)
    try:
        base = f"http://127.0.0.1:{port}"
        try:
            wait_healthy(base, alive=lambda: server.poll() is None)
        except AssertionError:
            pytest.fail(log.read_text()[-3000:])
        data = home / ".local" / "share" / "ludoteca"
        exercise(base, operator_token=(data / "operator_token").read_text().strip())
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait()
    # its data in the user's data directory; nothing in `/` nor in site-packages
    assert (data / "ludoteca.db").is_file() and (data / "secret_key").is_file()
    assert sorted(os.listdir("/")) == before_root
    assert not (site / "data").exists() and not (site / ".venv").exists()
    assert not leftovers(installed, site)
    # the code that ran is the installed copy, not this checkout
    text = log.read_text()
    assert str(ROOT) not in text, text[-2000:]


def test_python_m_app_in_an_installed_package_needs_no_checkout(installed: Path,
                                                                tmp_path: Path) -> None:
    """`python -m app` where there is no uv.lock around the package: the command itself,
    with no .venv made in site-packages."""
    result = subprocess.run([str(installed / "bin" / "python"), "-m", "app", "serve", "--help"],
                            cwd=tmp_path, capture_output=True, text=True, timeout=60,
                            env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)})
    assert result.returncode == 0 and "--port" in result.stdout, result.stderr
    site = next(installed.glob("lib/python3*/site-packages"))
    assert not (site / ".venv").exists()
    assert sys.prefix != str(installed)
