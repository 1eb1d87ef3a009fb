"""The table screen's end of game in Chromium: the summary's chart takes the room the frame
has. It was drawn 190 px high at a 560 px layout whatever the screen: a band across a tall
frame with empty space under it, a narrow strip in a wide one, and on a phone (390 px wide)
the board was a 187 px column beside the seats, zoomed to 0.31 (the chart's 11 px labels at
3.4 px). Now:
- 1280×1024 (room under the summary): the chart fills it, taller than its 190 px at that
  zoom by more than a quarter, and the frame's width;
- 1280×720 (a TV's shape): at least 0.9 of the frame's width;
- 390×844: the board on the whole width above the seats, drawn at zoom 1 (labels at 11 px),
  the chart taller than 190 px;
and the whole summary shows at each size (nothing cut)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from tests.browser.comfort import run
from tests.support.client import connect_and_start, play_to_end, seat_players

pytestmark = pytest.mark.browser


async def finish(ws_base: str, players: list[Any], table: dict[str, Any]) -> None:
    clients = await connect_and_start(ws_base, players, table)
    try:
        await play_to_end(clients, random.Random(1))
    finally:
        for c in clients:
            await c.close()


DRAWN = """() => {
  const s = document.querySelector('.score-chart-svg');
  const z = Number(document.getElementById('screen-app').dataset.zoom);
  return z && Math.abs(Number(s.dataset.height || 190) * z - s.getBoundingClientRect().height) < 2;
}"""

CHART = """() => {
  const app = document.getElementById('screen-app');
  const chart = document.querySelector('#screen-fit .score-chart-svg').getBoundingClientRect();
  const frame = document.getElementById('screen-board').getBoundingClientRect();
  const fit = document.getElementById('screen-fit').getBoundingClientRect();
  return { w: chart.width, h: chart.height, frameW: frame.width, frameH: frame.height,
           fitBottom: fit.bottom, frameBottom: frame.bottom,
           zoom: Number(app.dataset.zoom), fits: app.dataset.fits };
}"""


def test_the_end_chart_uses_the_screens_room(shared_server, browser) -> None:
    players, table, _ = seat_players(shared_server.url, "allegra", 3,
                                     {"rounds": 1, "knock": False})
    run(finish(shared_server.ws_url, players, table))
    url = players[0].request("GET", f"/api/tables/{table['id']}/screen").json()["url"]
    seen = {}
    for width, height in ((1280, 1024), (1280, 720), (390, 844)):
        context = browser.new_context(viewport={"width": width, "height": height})
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc, found=errors: found.append(str(exc)))
        page.goto(url)
        page.wait_for_selector("#screen-app[data-status='finished'] .score-chart-svg")
        # the chart is drawn anew at its new size (a ResizeObserver): wait until it has been
        page.wait_for_function(DRAWN)
        seen[(width, height)] = m = page.evaluate(CHART)
        assert m["fits"] == "true" and m["fitBottom"] <= m["frameBottom"] + 1, m
        assert not errors, errors
        context.close()
    tall, tv, phone = seen[(1280, 1024)], seen[(1280, 720)], seen[(390, 844)]
    assert tall["h"] > 1.25 * 190 * tall["zoom"] and tall["w"] >= 0.9 * tall["frameW"], tall
    assert tv["w"] >= 0.9 * tv["frameW"], tv
    assert phone["zoom"] >= 1 and phone["frameW"] >= 350 and phone["h"] > 190, phone
