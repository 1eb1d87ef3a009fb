"""A player's history page shows when each game finished in the viewer's own time zone (the
browser's), in the page's language: the server writes the instant in <time datetime> (UTC,
marked so), static/js/local-time.js rewrites its text. Chromium runs with
timezone_id="America/Mexico_City" (UTC-6, no summer time), so the UTC hour never shows."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from tests.support.client import seat_players

pytestmark = pytest.mark.browser

ZONE = "America/Mexico_City"


@pytest.fixture(scope="module")
def finished_player(shared_server):
    """Two players; Hanabi started and given up at once (a finished game in both histories)."""
    players, table, _invite = seat_players(shared_server.url, "hanabi", 2)
    assert players[0].start(table["id"]).status_code == 200
    r = players[0].request("POST", f"/api/tables/{table['id']}/resign")
    assert r.status_code == 200, r.text
    return players[0]


@pytest.mark.parametrize("lang", ["es", "en"])
def test_history_times_are_in_the_viewers_zone(shared_server, browser, finished_player,
                                                lang) -> None:
    context = browser.new_context(timezone_id=ZONE, viewport={"width": 390, "height": 844})
    context.add_cookies([{"name": "lang", "value": lang, "url": shared_server.url}])
    page = context.new_page()
    page.goto(f"{shared_server.url}/players/{finished_player.id}")
    shown = page.locator("#history time").first
    instant = datetime.fromisoformat(shown.get_attribute("datetime"))
    assert instant.utcoffset() is not None, "the instant must carry its zone"
    here = instant.astimezone(ZoneInfo(ZONE))
    page.wait_for_function("() => !document.querySelector('#history time').textContent"
                           ".includes('UTC')")
    text = shown.text_content()
    # Spanish reads 24-hour time ("17:40"), English 12-hour ("05:40 PM")
    hour = here.hour if lang == "es" else (here.hour % 12 or 12)
    assert f"{hour:02d}:{here.minute:02d}" in text, text
    assert f"{instant.hour:02d}:{instant.minute:02d}" not in text, text
    assert str(here.day) in text and ("GMT-6" in text or "CST" in text), text
    page.screenshot(path=f"/tmp/qa9-shots/history-{lang}.png", full_page=True)
    context.close()
