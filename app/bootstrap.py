"""Set up ./.venv with the project (and its test extras when testing), then hand over to
``app.cli`` inside it. Standard library only: this runs before anything is installed."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VENV = ROOT / ".venv"


def _python() -> Path:
    return VENV / "bin" / "python"


def _ensure_venv(extras: str) -> None:
    if not _python().exists():
        print("ludoteca: creating .venv …", flush=True)
        venv.EnvBuilder(with_pip=True).create(VENV)
    stamp = VENV / f".installed-{extras or 'base'}"
    digest = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()
    if stamp.exists() and stamp.read_text() == digest:
        return
    print("ludoteca: installing dependencies …", flush=True)
    target = f".[{extras}]" if extras else "."
    subprocess.run([str(_python()), "-m", "pip", "install", "-q", "--upgrade", "pip"], check=True)
    subprocess.run([str(_python()), "-m", "pip", "install", "-q", "-e", target], check=True,
                   cwd=ROOT)
    stamp.write_text(digest)


def main() -> None:
    args = sys.argv[1:] or ["serve"]
    extras = "test" if args[0] == "test" else ""
    inside = Path(sys.prefix).resolve() == VENV.resolve()
    if not inside:
        _ensure_venv(extras)
        os.execv(str(_python()), [str(_python()), "-m", "app.cli", *args])
    else:
        _ensure_venv(extras)
        from app.cli import main as cli_main

        cli_main(args)
