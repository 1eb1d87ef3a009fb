"""The waiting table tells its host when the game has no bots, in Chromium: a Hanabi host
fills free seats with "Seat a bot"; a Block and Guess host saw the same free seats with no
button and no word why (the game's "no bots" line appeared only once the game had begun,
when nobody could use it). Checked on a phone in both languages, and gone once every seat
is taken."""

from __future__ import annotations

import pytest

from tests.browser.comfort import PHONE, load_table, open_as
from tests.support.client import ApiClient

pytestmark = pytest.mark.browser


@pytest.mark.parametrize(("lang", "words"), [("es", "no tiene bots"), ("en", "has no bots")])
def test_a_game_without_bots_says_so_while_seats_are_free(worker_server, browser, lang: str,
                                                          words: str) -> None:
    base = worker_server.url
    ana = ApiClient(base, "Ana")
    guess = ana.create_table("block-and-guess", 3, {})
    hanabi = ana.create_table("hanabi", 2, {})
    context = open_as(browser, base, ana, PHONE, lang)
    page = context.new_page()

    load_table(page, base, guess["id"])
    note = page.locator("#no-bots-note")
    assert note.is_visible() and words in note.inner_text()
    box = note.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    assert page.locator("#seats li.seat button").count() == 0  # no bot to seat

    load_table(page, base, hanabi["id"])
    assert page.locator("#seats li.seat button").count() > 0  # "Seat a bot" is there
    assert page.locator("#no-bots-note").count() == 0

    # every seat taken: nothing left to fill, nothing to say
    invite = guess["invite_url"].rsplit("/", 1)[1]
    for seat, name in ((1, "Beto"), (2, "Cleo")):
        assert ApiClient(base, name).join(guess["id"], invite=invite, seat=seat).status_code == 200
    load_table(page, base, guess["id"])
    page.wait_for_selector("#start-button:not([disabled])")
    assert page.locator("#no-bots-note").count() == 0
    context.close()
