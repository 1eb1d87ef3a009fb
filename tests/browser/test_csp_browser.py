"""The Content-Security-Policy in Chromium: every page (lobby, docs, rules, errors, and a
table of every installed game in play, seen by a seated player and by a spectator) loads and
runs with no violation reported, and its scripts work (the game board is drawn)."""

from __future__ import annotations

import httpx
import pytest

from app.api.deps import sign
from app.api.pages import swagger_ui_dir
from tests.support.client import ApiClient

pytestmark = pytest.mark.browser

WATCH = """
window.__csp = [];
document.addEventListener("securitypolicyviolation",
  (e) => window.__csp.push(`${location.pathname}: ${e.violatedDirective} ${e.blockedURI}`));
"""


def started_tables(base: str) -> tuple[ApiClient, list[dict]]:
    """A started table of every game, hosted by one player."""
    games = httpx.get(base + "/api/games", timeout=10).json()
    most = max(g["min_players"] for g in games)
    players = [ApiClient(base, f"CSP{i}") for i in range(most)]
    tables = []
    for game in games:
        table = players[0].create_table(game["id"], game["min_players"])
        invite = table["invite_url"].rsplit("/", 1)[1]
        for other in players[1:game["min_players"]]:
            assert other.join(table["id"], invite=invite).status_code == 200
        assert players[0].start(table["id"]).status_code == 200
        tables.append(table)
    return players[0], tables


def test_no_page_violates_the_policy(worker_server, browser) -> None:
    base = worker_server.url
    host, tables = started_tables(base)
    games = [t["game"] for t in tables]
    pages = ["/", "/docs", "/join/not-a-token", "/rules/nope",
             *[f"/rules/{g}" for g in games]]
    problems: list[str] = []
    seated = browser.new_context()
    # the browser's identity cookie for the host (the test server's key is known)
    seated.add_cookies([{"name": "ludoteca_player", "value": sign(host.token, "test-secret"),
                         "url": base}])
    spectator = browser.new_context()
    for context in (seated, spectator):
        context.add_init_script(WATCH)
        page = context.new_page()
        page.on("console", lambda m: problems.append(m.text)
                if "Content Security Policy" in m.text else None)
        for path in pages:
            page.goto(base + path)
            page.wait_for_load_state("networkidle")
            problems.extend(page.evaluate("window.__csp"))
        if context is spectator and swagger_ui_dir() is not None:
            page.goto(base + "/docs")
            page.wait_for_selector(".opblock", timeout=15_000)  # Swagger UI ran
            problems.extend(page.evaluate("window.__csp"))
        for table in tables:
            page.goto(f"{base}/tables/{table['id']}")
            if context is seated:
                page.wait_for_selector("#conn-status.ok", timeout=15_000)
                page.wait_for_function(
                    "() => document.getElementById('game').children.length > 0",
                    timeout=15_000)
            page.wait_for_load_state("networkidle")
            problems.extend(page.evaluate("window.__csp"))
    seated.close()
    spectator.close()
    assert not problems, problems
