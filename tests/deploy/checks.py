"""What every deployment test asks of a server it started (an installed wheel, the image's
steps followed here, the image run by an engine): it is healthy, serves the lobby, the
static files and a table page, creates a table, and gives its operator the Prometheus
figures; and what an installed environment must not hold (build leftovers)."""

from __future__ import annotations

import time
from pathlib import Path

import httpx
from prometheus_client.parser import text_string_to_metric_families

from app.games import ENGINES

ROOT = Path(__file__).resolve().parents[2]


def wait_healthy(base: str, alive: object = None, timeout: float = 90) -> None:
    """Until /healthz answers 200; ``alive()`` (when given) False means the server died."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if callable(alive) and not alive():
            raise AssertionError("the server exited before it was healthy")
        try:
            if httpx.get(base + "/healthz", timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.3)
    raise AssertionError(f"{base}/healthz never answered 200")


def exercise(base: str, operator_token: str | None = None) -> str:
    """The pages and API a first visitor and a first game use; returns the new table's id."""
    health = httpx.get(base + "/healthz", timeout=10)
    assert health.status_code == 200 and health.json() == {"ok": True}
    lobby = httpx.get(base + "/", timeout=10)
    assert lobby.status_code == 200 and "<html" in lobby.text.lower(), lobby.text[:500]
    # a static file and a template with it: the package data is there
    asset = sorted((ROOT / "static" / "js").glob("*.js"))[0]
    r = httpx.get(f"{base}/static/js/{asset.name}", timeout=10)
    assert r.status_code == 200 and r.content == asset.read_bytes()
    assert httpx.get(base + "/rules/hanabi", timeout=10).status_code == 200
    games = {g["id"] for g in httpx.get(base + "/api/games", timeout=10).json()}
    assert games == set(ENGINES)

    player = httpx.post(base + "/api/players", json={"name": "Deploy"}, timeout=10)
    assert player.status_code == 201, player.text
    headers = {"Authorization": f"Bearer {player.json()['token']}"}
    table = httpx.post(base + "/api/tables", json={"game": "hanabi", "seats": 2},
                       headers=headers, timeout=10)
    assert table.status_code == 201, table.text
    table_id = table.json()["id"]
    page = httpx.get(f"{base}/tables/{table_id}", timeout=10)
    assert page.status_code == 200 and table_id in page.text

    if operator_token is not None:
        assert httpx.get(base + "/metrics", timeout=10).status_code == 401
        r = httpx.get(base + "/metrics", timeout=10,
                      headers={"Authorization": f"Bearer {operator_token}"})
        assert r.status_code == 200, r.text
        waiting = [s.value for f in text_string_to_metric_families(r.text)
                   if f.name == "ludoteca_tables" for s in f.samples
                   if s.labels.get("status") == "waiting"]
        assert waiting and waiting[0] >= 1, r.text[:2000]
    return table_id


def leftovers(*places: Path) -> list[str]:
    """Build leftovers directly under each of ``places`` (an image's root, a venv, its
    site-packages): setuptools' build/ and *.egg-info, an editable install's finder or
    .pth pointing back at sources. The installed packages' ``.dist-info`` directories are
    what an install keeps, and are fine."""
    found = []
    for place in places:
        for path in place.iterdir():
            name = path.name
            bad = (name == "build" or name.endswith(".egg-info")
                   or name.startswith("__editable__")
                   or (name.endswith(".pth") and "ludoteca" in name.lower()))
            if bad:
                found.append(str(path))
    return sorted(found)
