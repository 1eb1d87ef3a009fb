"""The lobby of a named player, in Chromium: the "continue on another device" button sat
flush on the "your tables" card below it (no gap at 390 or 1280 px, the button's edge on
the card's border); it keeps the 12 px every card keeps from what follows."""

from __future__ import annotations

import pytest

from tests.support.browser import name_yourself

pytestmark = pytest.mark.browser


@pytest.mark.parametrize(("width", "lang", "greeting"),
                         [(390, "es", "Hola, Ana"), (1280, "en", "Hello, Ana")])
def test_the_handoff_button_does_not_touch_the_next_card(shared_server, browser, width: int,
                                                         lang: str, greeting: str) -> None:
    context = browser.new_context(viewport={"width": width, "height": 844},
                                  is_mobile=width < 500, has_touch=width < 500)
    context.add_cookies([{"name": "lang", "value": lang, "url": shared_server.url}])
    page = context.new_page()
    name_yourself(page, shared_server.url, "Ana", greeting)
    page.wait_for_selector("#handoff-button")
    gap = page.evaluate("""() => {
      const button = document.getElementById('handoff-button').getBoundingClientRect();
      const card = document.getElementById('my-tables').closest('section').getBoundingClientRect();
      return card.top - button.bottom; }""")
    assert gap >= 8, f"{gap} px between the button and the card at {width} px"
    context.close()
