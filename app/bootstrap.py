"""Set up ./.venv from the lock file, then hand over to ``app.cli`` inside it. Standard
library only: this runs before anything is installed.

The first run creates ``.venv`` (the standard library's venv, with pip), installs uv into it
from ``requirements-uv.txt`` (one version, pinned by hash), and has uv install exactly what
``uv.lock`` says (``uv sync --locked``: every package pinned with its hashes; the project
itself editable). ``test`` adds the ``test`` extra. Later runs do nothing unless
pyproject.toml, setup.py, uv.lock or requirements-uv.txt changed.

``python3 -m app lock`` refreshes uv.lock after pyproject.toml's dependencies changed (extra
arguments go to ``uv lock``, e.g. ``--upgrade`` or ``--upgrade-package fastapi``).
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VENV = ROOT / ".venv"
LOCK = ROOT / "uv.lock"
UV_REQUIREMENTS = ROOT / "requirements-uv.txt"
# what decides the environment's contents: a change to any of them means a new sync
INPUTS = ("pyproject.toml", "setup.py", "uv.lock", "requirements-uv.txt")
STAMP = VENV / ".ludoteca-sync.json"


def _python() -> Path:
    return VENV / "bin" / "python"


def uv_path() -> Path:
    return VENV / "bin" / "uv"


def pinned_uv_version() -> str:
    """The uv version requirements-uv.txt pins (``uv==X.Y.Z``)."""
    for line in UV_REQUIREMENTS.read_text().splitlines():
        if line.startswith("uv=="):
            return line.split("==", 1)[1].split()[0].rstrip("\\").strip()
    raise RuntimeError(f"{UV_REQUIREMENTS} pins no uv version")


def _digest() -> str:
    digest = hashlib.sha256()
    for name in INPUTS:
        digest.update(name.encode() + b"\0" + (ROOT / name).read_bytes() + b"\0")
    return digest.hexdigest()


def uv_env() -> dict[str, str]:
    """uv's environment: this checkout's .venv, never a Python downloaded behind our back."""
    return {**os.environ, "UV_PROJECT_ENVIRONMENT": str(VENV), "UV_PYTHON_DOWNLOADS": "never",
            "VIRTUAL_ENV": str(VENV)}


def _ensure_uv() -> None:
    if not _python().exists():
        print("ludoteca: creating .venv …", flush=True)
        venv.EnvBuilder(with_pip=True).create(VENV)
    uv = uv_path()
    if uv.exists():
        found = subprocess.run([str(uv), "--version"], capture_output=True, text=True)
        if found.returncode == 0 and found.stdout.split()[1:2] == [pinned_uv_version()]:
            return
    print(f"ludoteca: installing uv {pinned_uv_version()} …", flush=True)
    subprocess.run([str(_python()), "-m", "pip", "install", "-q", "--disable-pip-version-check",
                    "--require-hashes", "--only-binary", ":all:", "-r", str(UV_REQUIREMENTS)],
                   check=True)


def _synced() -> tuple[str, set[str]]:
    try:
        stamp = json.loads(STAMP.read_text())
        return stamp["digest"], set(stamp["extras"])
    except (OSError, ValueError, KeyError, TypeError):
        return "", set()


def ensure_venv(extras: set[str]) -> None:
    """.venv holds exactly uv.lock's packages (with ``extras``), the project editable."""
    digest, installed = _synced()
    if _python().exists() and digest == _digest() and extras <= installed:
        return
    _ensure_uv()
    extras = extras | installed  # `serve` after `test` keeps the test packages
    print("ludoteca: installing the locked dependencies (uv.lock) …", flush=True)
    command = [str(uv_path()), "sync", "--locked", "--python", str(_python())]
    for extra in sorted(extras):
        command += ["--extra", extra]
    result = subprocess.run(command, cwd=ROOT, env=uv_env())
    if result.returncode != 0:
        sys.exit("ludoteca: installing from uv.lock failed (above). If it says the lock needs "
                 "updating, pyproject.toml's dependencies changed: run `python3 -m app lock` "
                 "and commit uv.lock.")
    STAMP.write_text(json.dumps({"digest": _digest(), "extras": sorted(extras)}))


def lock(uv_args: list[str]) -> int:
    """``uv lock``: resolve pyproject.toml's dependencies again and write uv.lock."""
    _ensure_uv()
    return subprocess.call([str(uv_path()), "lock", *uv_args], cwd=ROOT, env=uv_env())


def main() -> None:
    args = sys.argv[1:] or ["serve"]
    if not LOCK.exists():  # an installed package (no checkout around it): nothing to set up
        from app.cli import main as cli_main

        cli_main(args)
        return
    if args[0] == "lock":
        sys.exit(lock(args[1:]))
    ensure_venv({"test"} if args[0] == "test" else set())
    inside = Path(sys.prefix).resolve() == VENV.resolve()
    if not inside:
        os.execv(str(_python()), [str(_python()), "-m", "app.cli", *args])
    from app.cli import main as cli_main

    cli_main(args)
