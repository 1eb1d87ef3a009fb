"""Allegra's "how the cards lay at the end of the round", in Chromium: each player's grid
shows the display of 15 its caption adds up ("Ana: their display added up to 104"): the
neighbour's shared column and the player's own 12. It showed the own 12 alone, so the cards
on the page did not add up to the number beside them."""

from __future__ import annotations

import random
import re

import pytest

from tests.browser.comfort import PHONE, finish, load_table, new_table, open_as, run
from tests.support.client import ApiClient

pytestmark = pytest.mark.browser

READ = """() => [...document.querySelectorAll('.al-last .al-last-grid')].map((g) => ({
  caption: g.querySelector('figcaption').textContent,
  cells: [...g.querySelectorAll('.al-mini-cell')].map((c) => c.textContent),
}))"""


@pytest.fixture(scope="module")
def finished(worker_server) -> tuple[list[ApiClient], str]:
    players = [ApiClient(worker_server.url, name) for name in ["Ana", "Beto", "Celia"]]
    table_id = new_table(players, "allegra", start=True)
    run(finish(worker_server.ws_url, players, table_id, random.Random(3)))
    return players, table_id


@pytest.mark.parametrize("lang", ["es", "en"])
def test_each_last_grid_shows_the_fifteen_cards_its_caption_adds_up(
        worker_server, browser, finished, lang: str) -> None:
    players, table_id = finished
    context = open_as(browser, worker_server.url, players[0], PHONE, lang)
    try:
        page = context.new_page()
        load_table(page, worker_server.url, table_id)
        grids = page.evaluate(READ)
        assert len(grids) == 3, grids
        for grid in grids:
            said = int(re.findall(r"-?\d+", grid["caption"])[-1])
            assert len(grid["cells"]) == 15, grid
            shown = sum(int(c) for c in grid["cells"] if c != "·")
            assert shown == said, grid
        # the shared columns: each grid's first column is the next seat's last one
        for seat, grid in enumerate(grids):
            nxt = grids[(seat + 1) % 3]["cells"]
            assert grid["cells"][0::5] == nxt[4::5], (seat, grids)
        width = page.evaluate("() => document.documentElement.scrollWidth")
        assert width <= PHONE["width"], width
    finally:
        context.close()
