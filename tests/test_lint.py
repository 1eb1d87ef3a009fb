"""House style as tests: ruff on the whole tree, mypy on the engines (ARCHITECTURE.md) and,
since the whole of app/ came clean, on every module of the server too."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", *args], cwd=ROOT, capture_output=True,
                          text=True)


def test_ruff() -> None:
    result = run("ruff", "check", "app", "tests", "bench", "migrations")
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_on_engines() -> None:
    result = run("mypy", "app/games")
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_on_the_whole_server() -> None:
    result = run("mypy", "app")
    assert result.returncode == 0, result.stdout + result.stderr
