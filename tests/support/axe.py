"""axe-core, the accessibility checker, for the browser tests: installed from npm into a
git-ignored cache (never copied into the repository), injected into pages by Playwright.

The install is idempotent (an installed copy is used as it is, so tests run offline once it
is there) and guarded by a file lock for parallel sessions. In CI a missing Node.js/npm or a
failed install fails the test; elsewhere it skips it.
"""

from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
from functools import lru_cache
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
CACHE = ROOT / ".cache" / "axe"
VERSION = "4.14.1"  # pinned: a new axe release may add rules; update on purpose
SCRIPT = CACHE / "node_modules" / "axe-core" / "axe.min.js"
IN_CI = os.environ.get("CI", "").lower() == "true"


def _installed_version() -> str | None:
    package = SCRIPT.parent / "package.json"
    if not SCRIPT.exists() or not package.exists():
        return None
    import json

    return json.loads(package.read_text()).get("version")


def _unavailable(reason: str) -> None:
    if IN_CI:
        pytest.fail(f"axe-core is needed: {reason}")
    pytest.skip(f"axe-core is not available: {reason}")


@lru_cache(maxsize=1)
def axe_source() -> str:
    """axe.min.js, installing axe-core@VERSION with npm first when it is not there yet."""
    CACHE.mkdir(parents=True, exist_ok=True)
    with open(CACHE / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if _installed_version() != VERSION:
            npm = shutil.which("npm")
            if npm is None:
                _unavailable("npm is not installed (Node.js)")
            assert npm is not None
            done = subprocess.run(
                [npm, "install", "--prefix", str(CACHE), "--no-audit", "--no-fund",
                 "--no-save", "--loglevel=error", f"axe-core@{VERSION}"],
                capture_output=True, text=True, timeout=300, check=False)
            if done.returncode != 0 or _installed_version() != VERSION:
                _unavailable(f"npm install axe-core@{VERSION} failed: {done.stderr[-2000:]}")
    return SCRIPT.read_text()


def axe_violations(page: Any, impacts: tuple[str, ...] = ("serious", "critical")) -> list[str]:
    """Run axe on the page as it is now; the violations of those impacts, one line each
    (rule, impact, and the first few offending nodes). Injected through the DevTools
    protocol, which the page's Content-Security-Policy does not govern."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(axe_source())
    result = page.evaluate(
        """async () => (await axe.run(document, {resultTypes: ['violations']})).violations
             .map((v) => ({id: v.id, impact: v.impact, help: v.help,
                           nodes: v.nodes.slice(0, 4).map((n) => n.target.join(' ') + ' :: '
                             + (n.failureSummary || '').replace(/\\s+/g, ' ').slice(0, 160))}))""")
    path = page.evaluate("() => location.pathname")
    return [f"{path}: {v['id']} ({v['impact']}) {v['help']}: {' | '.join(v['nodes'])}"
            for v in result if v["impact"] in impacts]
