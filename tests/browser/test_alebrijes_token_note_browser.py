"""Alebrijes in Chromium: the players' table marks one name with a "ficha inicial" badge,
and what that token is for was said only on the rules page (a phone has no tooltips).
Under the table a short line now says it in words, beside the same badge, in both
languages, at phone and laptop widths; it goes when the game is over and the badge does."""

from __future__ import annotations

import pytest

from tests.browser.comfort import LAPTOP, PHONE, load_table, open_as, seeded_table
from tests.support.client import ApiClient

pytestmark = pytest.mark.browser

NOTE = {"es": "ficha inicial pasa a quien abre cada baza; si al acabar la ronda empatan las "
              "peores puntuaciones, decide quién empieza la siguiente.",
        "en": "start token passes to whoever leads each trick; if the worst scores tie at the "
              "end of the round, it decides who starts the next."}


@pytest.mark.parametrize(("viewport", "lang"), [(PHONE, "es"), (LAPTOP, "en")],
                         ids=["phone-es", "laptop-en"])
def test_the_start_token_is_explained_on_the_table(worker_server, browser, viewport, lang) -> None:
    players = [ApiClient(worker_server.url, name) for name in ("Ana", "Beto", "Celia")]
    table_id = seeded_table(players, "alebrijes", 5, {"first_seat": 0})
    page = open_as(browser, worker_server.url, players[1], viewport, lang).new_page()
    load_table(page, worker_server.url, table_id)
    badge = page.locator(".ab-table tbody .badge")
    assert badge.count() == 1
    token = badge.inner_text().strip()
    note = page.locator(".ab-players #ab-token-note")
    assert note.is_visible()
    text = " ".join(note.inner_text().split())
    box = note.bounding_box()
    width = page.evaluate("() => document.documentElement.scrollWidth")
    page.context.close()
    # the same badge as beside the name, then the words for it
    assert text.startswith(token)
    assert text == NOTE[lang]
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= viewport["width"]
    assert width <= viewport["width"]
