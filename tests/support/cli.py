"""``python3 -m app backup|restore PATH`` as an operator runs it: its own process, the
settings in the environment (no secret key: the generated one travels with backups)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.support.server import ROOT


def ludoteca(action: str, path: Path, data_dir: Path, *extra: str,
             database_url: str = "") -> subprocess.CompletedProcess[str]:
    """The command on ``data_dir`` (its SQLite ``ludoteca.db`` unless ``database_url``)."""
    env = {**os.environ, "LUDOTECA_DATA_DIR": str(data_dir),
           "LUDOTECA_DATABASE_URL": database_url or f"sqlite:///{data_dir}/ludoteca.db"}
    env.pop("LUDOTECA_SECRET_KEY", None)
    return subprocess.run([sys.executable, "-m", "app", action, str(path), *extra],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)


def one_line_refusal(done: subprocess.CompletedProcess[str]) -> str:
    """The one line a refused command printed (exit status 1, no traceback, nothing else)."""
    assert done.returncode == 1, (done.stdout, done.stderr)
    assert "Traceback" not in done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert done.stdout == "", done.stdout
    return lines[0]
