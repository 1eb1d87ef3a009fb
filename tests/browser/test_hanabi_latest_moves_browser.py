"""Hanabi on a phone, in Chromium: the log sits below the whole board and the room's boxes
(about two screens down at 390 px), so the clue a partner had just given you, or what a
misplay had cost, meant a long scroll away from your cards. The round's latest moves (one a
seat, the newest last) now sit under the status bar, in the first screen; a laptop, whose
log is beside the board, does not repeat them."""

from __future__ import annotations

import pytest

from tests.browser.comfort import load_table, open_as, play_moves
from tests.support.client import ApiClient

pytestmark = pytest.mark.browser


def test_the_latest_moves_are_in_the_first_screen_of_a_phone(worker_server, browser) -> None:
    base = worker_server.url
    players = [ApiClient(base, name) for name in ("Ana", "Beto", "Celia")]
    table = players[0].create_table("hanabi", 3, {"first_seat": 0})
    invite = table["invite_url"].rsplit("/", 1)[1]
    for seat, p in enumerate(players[1:], start=1):
        assert p.join(table["id"], invite=invite, seat=seat).status_code == 200
    assert players[0].start(table["id"]).status_code == 200
    play_moves(worker_server.ws_url, players, table["id"], [
        (0, {"type": "clue", "target": 1, "rank": 1}),
        (1, {"type": "clue", "target": 0, "color": "red"}),
        (2, {"type": "clue", "target": 0, "rank": 5}),
        (0, {"type": "clue", "target": 2, "color": "blue"}),
    ])

    context = open_as(browser, base, players[0], {"width": 390, "height": 844}, "es")
    page = context.new_page()
    load_table(page, base, table["id"])
    log = page.locator("#log li").all_inner_texts()
    assert len(log) == 4
    latest = page.locator("#game .latest-moves")
    assert latest.locator("h3").inner_text() == "Últimas jugadas"
    assert latest.locator("li").all_inner_texts() == log[-3:]
    assert log[-3].startswith("Beto → Ana: rojo")
    # numbered as in the log: the fourth move reads 4.
    assert latest.locator("ol").get_attribute("start") == "2"
    # in the first screen of the page, where the log is screens below
    top = page.evaluate("""() => document.querySelector('#game .latest-moves')
      .getBoundingClientRect().top + window.scrollY""")
    log_top = page.evaluate("""() => document.getElementById('log')
      .getBoundingClientRect().top + window.scrollY""")
    assert top < 844 < log_top, (top, log_top)
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
    page.screenshot(path="/tmp/hb-review/latest-es-390.png")
    context.close()

    context = open_as(browser, base, players[1], {"width": 1280, "height": 800}, "en")
    page = context.new_page()
    load_table(page, base, table["id"])
    assert not page.locator("#game .latest-moves").is_visible()
    assert page.locator("#log").is_visible()
    context.close()
