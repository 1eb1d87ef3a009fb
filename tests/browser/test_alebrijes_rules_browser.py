"""Alebrijes' rules page in Chromium: it named the suits' symbols and the Ollin effects but
never showed a card, so a newcomer could not tell which mark is Ollin. Now a gallery draws
one card of each suit, a wild card and one with the Ollin mark, with the table's own faces,
at a phone's width and a laptop's."""

from __future__ import annotations

import pytest

from tests.browser.comfort import LAPTOP, PHONE, open_as
from tests.support.client import ApiClient

pytestmark = pytest.mark.browser

OLLIN = {"es": "Con Ollin", "en": "With Ollin"}


@pytest.mark.parametrize(("viewport", "lang"), [(PHONE, "es"), (LAPTOP, "en")],
                         ids=["phone-es", "laptop-en"])
def test_the_rules_show_the_cards_and_the_ollin_mark(worker_server, browser, viewport,
                                                     lang) -> None:
    player = ApiClient(worker_server.url, "Ana")
    page = open_as(browser, worker_server.url, player, viewport, lang).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        page.goto(worker_server.url + "/rules/alebrijes")
        page.wait_for_selector("#ab-gallery svg.abcard")
        cards = page.locator("#ab-gallery svg.abcard")
        assert cards.count() == 6
        arts = [cards.nth(i).get_attribute("data-art") for i in range(6)]
        assert arts == ["blue", "green", "pink", "orange", "wild", "blue"], arts
        marked = page.locator("#ab-gallery li").filter(has=page.locator(".ab-ollin"))
        assert marked.count() == 1 and OLLIN[lang] in marked.inner_text()
        assert cards.nth(5).get_attribute("aria-label").startswith(OLLIN[lang])
        box = cards.nth(0).bounding_box()
        assert box and box["width"] >= 60
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
        assert not errors, errors
        page.screenshot(path=f"/tmp/eb-review/rules-{lang}.png", full_page=True)
    finally:
        page.context.close()
