"""A game's own client that does not load (a connection dropped while the page fetched it, a
page cached across an upgrade) leaves no blank board: the table says so, in the player's
language, above a plain view the game can still be played in, with a button that loads the
page again and gets the board back (static/js/table.js ``loadRenderer``)."""

from __future__ import annotations

import pytest

from tests.browser.comfort import load_table, open_as, seeded_table
from tests.support.client import ApiClient

pytestmark = pytest.mark.browser

MODULE = "**/js/games/hanabi.js*"


def test_a_board_that_did_not_load_is_said_and_can_be_loaded_again(worker_server,
                                                                      browser) -> None:
    base = worker_server.url
    ana, beto = ApiClient(base, "Ana"), ApiClient(base, "Beto")
    table_id = seeded_table([ana, beto], "hanabi", 5, {"first_seat": 0})
    context = open_as(browser, base, ana, {"width": 390, "height": 844}, "es")
    page = context.new_page()
    logged: list[str] = []
    page.on("console", lambda m: logged.append(m.type))
    page.route(MODULE, lambda route: route.abort())
    load_table(page, base, table_id)

    notice = page.locator("#load-failed")
    assert notice.is_visible()
    assert "No se pudo cargar el tablero" in notice.inner_text()
    assert "error" in logged  # the reason is in the console for whoever looks
    assert page.locator("#game .hand-dock, #my-hand").count() == 0  # the game's board is not there

    # the plain view can still be played: one of Ana's legal moves, sent
    version = int(page.locator("#table-app").get_attribute("data-version"))
    page.locator("#game .actions button").first.click()
    page.wait_for_function(
        "(v) => Number(document.getElementById('table-app').dataset.version) > v", arg=version)
    assert page.locator("#load-failed").is_visible()  # still said, once, above the new view
    assert page.locator("#load-failed").count() == 1

    # once the module loads, the button brings the board back
    page.unroute(MODULE)
    page.locator("#load-failed button").click()
    page.wait_for_selector("#my-hand", timeout=15_000)
    assert page.locator("#load-failed").count() == 0
    context.close()
