"""A key held down makes one move. Enter on a button acts on every keydown, the repeated ones
of a held key too; after a move the page puts the focus on the next control where that is
the game's next step (Ikebana: Draw, then Keep or Reject). So Enter held on "Robar" a moment
too long kept the card drawn, unseen. The table page now lets a held key's repeats act on
nothing in the game (static/js/table.js); a new press still acts."""

from __future__ import annotations

import pytest

from tests.browser.comfort import PHONE, load_table, new_table, open_as
from tests.support.client import ApiClient

pytestmark = pytest.mark.browser


def test_enter_held_on_draw_does_not_keep_the_card(worker_server, browser) -> None:
    base = worker_server.url
    players = [ApiClient(base, "Ana"), ApiClient(base, "Beto")]
    table_id = new_table(players, "ikebana", start=True)  # Ana (seat 0) starts
    page = open_as(browser, base, players[0], PHONE, "es").new_page()
    load_table(page, base, table_id)
    page.focus("button[data-focus-key='draw']")
    version = page.locator("#table-app").get_attribute("data-version")
    page.keyboard.down("Enter")  # the press: Ana draws
    page.wait_for_function("(v) => document.getElementById('table-app').dataset.version !== v",
                           arg=version)
    page.wait_for_function("() => document.activeElement.dataset.focusKey === 'keep'")
    drawn = page.locator("#table-app").get_attribute("data-version")
    for _ in range(3):  # the key still held: its repeats
        page.keyboard.down("Enter")
    page.keyboard.up("Enter")
    page.wait_for_timeout(1500)
    assert page.locator("#table-app").get_attribute("data-version") == drawn, "a held key kept"
    assert page.locator("button[data-focus-key='keep']").is_visible()
    # a new press keeps it
    page.keyboard.press("Enter")
    page.wait_for_function("(v) => document.getElementById('table-app').dataset.version !== v",
                           arg=drawn)
    page.context.close()
