"""schemathesis against the OpenAPI schema on a real server (``schemathesis_run.py``), run in
a pytest of its own without pytest-xdist: schemathesis gives all of one test's generated
operations a single node id, and the suite's workers (app/cli.py ``spread``) keep one test
per id, so all but one operation would go untested. Here every operation runs, and the
figures test at its end checks that the calls went past the doors."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent


@pytest.mark.slow  # every operation generated and sent: the suite's longest test (~4 min)
def test_schemathesis_finds_no_fault_in_any_operation() -> None:
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("PYTEST_XDIST", "PYTEST_CURRENT_TEST"))}
    result = subprocess.run(
        [sys.executable, "-m", "pytest", str(HERE / "schemathesis_run.py"), "-p", "no:xdist",
         "-p", "no:cacheprovider", "-q", "--durations=0"],
        cwd=HERE.parents[1], env=env, capture_output=True, text=True, timeout=1800)
    report = result.stdout[-12000:] + result.stderr[-3000:]
    assert result.returncode == 0, report
    summary = result.stdout.strip().splitlines()[-1]  # e.g. "64 passed in 98.21s"
    assert " passed" in summary and "skipped" not in summary, report
