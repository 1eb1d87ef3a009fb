"""Every benchmark in bench/ is runnable as ``python -m bench.<name> --help`` (what
bench/README.md tells a reader to try first): it imports and describes its options. The
benchmarks' figures are printed by running them, never asserted here."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
RUNNABLE = sorted(p.stem for p in (ROOT / "bench").glob("*.py")
                  if "\ndef main(" in p.read_text())


def test_the_benchmarks_of_issue_22_are_there() -> None:
    assert {"actor", "load", "scale", "floor", "wsfloor"} <= set(RUNNABLE)


@pytest.mark.parametrize("name", RUNNABLE)
def test_a_benchmark_answers_help(name: str) -> None:
    done = subprocess.run([sys.executable, "-m", f"bench.{name}", "--help"], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("usage:")
    assert f"bench.{name}" in done.stdout or name in done.stdout
