"""Several players named in one line read as the language lists them: "Esperando a: Beto y
Cleo", "Waiting for: Beto and Cleo"; a shared victory "Ana y Beto", not "Ana, Beto". Every
page's lists of players (the turn cue, winners, the table screen, spectators, each game's
log and final lines) go through ``andList`` in static/js/i18n.js. Checked in the page's own
module for two and three names in each language, and at a real Ajolocracia table whose turn
cue waits for the two players who have not picked yet."""

from __future__ import annotations

import pytest

from tests.browser.comfort import load_table, open_as
from tests.browser.test_ajolocracia_board_browser import ENGINE, SEED, play, table_at

pytestmark = pytest.mark.browser


@pytest.mark.parametrize(("lang", "two", "three"), [
    ("es", "Ana y Beto", "Ana, Beto y Cleo"),
    ("en", "Ana and Beto", "Ana, Beto, and Cleo")])
def test_names_are_listed_as_the_language_lists_them(worker_server, browser, lang: str,
                                                      two: str, three: str) -> None:
    context = browser.new_context()
    context.add_cookies([{"name": "lang", "value": lang, "url": worker_server.url}])
    page = context.new_page()
    page.goto(worker_server.url + "/rules/ajolocracia")
    listed = page.evaluate("""async () => {
      const { andList } = await import('/static/js/i18n.js');
      return [andList(['Ana']), andList(['Ana', 'Beto']), andList(['Ana', 'Beto', 'Cleo']),
              andList([])]; }""")
    assert listed == ["Ana", two, three, ""]
    context.close()


@pytest.mark.parametrize(("lang", "cue"), [("es", "Esperando a: Beto y Cleo"),
                                           ("en", "Waiting for: Beto and Cleo")])
def test_the_turn_cue_lists_who_it_waits_for(worker_server, browser, lang: str,
                                             cue: str) -> None:
    base = worker_server.url
    players, table_id = table_at(base, worker_server.ws_url, [])
    context = open_as(browser, base, players[0], {"width": 390, "height": 844}, lang)
    page = context.new_page()
    load_table(page, base, table_id)
    card = ENGINE.setup(3, {}, SEED).hands[0][0]  # the pinned deal's first card for Ana
    before = page.locator("#table-app").get_attribute("data-version")
    play(worker_server.ws_url, players, table_id, [(0, {"type": "pick", "card": card})])
    page.wait_for_function(
        "(v) => document.getElementById('table-app').dataset.version !== v", arg=before)
    page.wait_for_function("(cue) => document.getElementById('banner').textContent === cue",
                           arg=cue, timeout=10_000)
    context.close()
