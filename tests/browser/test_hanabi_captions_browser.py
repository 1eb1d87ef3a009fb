"""Hanabi's captions keep their words whole, in Chromium: with the colour avalanche option
the sixth firework's caption read "multicolo" / "ur 0" on a 390 px phone in English (the
word is wider than a phone's 58 px card slot and the caption broke it anywhere). And the
discard pile's last-copy warning speaks of one card as one and of several as several."""

from __future__ import annotations

import pytest

from tests.browser.comfort import load_table, open_as
from tests.support.browser import launch_chromium
from tests.support.client import ApiClient

pytestmark = pytest.mark.browser

# every word of every caption on the board, and the words drawn on more than one line
SPLIT_WORDS = """() => {
  const split = [];
  for (const caption of document.querySelectorAll('#game figcaption')) {
    const walker = document.createTreeWalker(caption, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (const m of node.data.matchAll(/\\S+/g)) {
        const range = document.createRange();
        range.setStart(node, m.index);
        range.setEnd(node, m.index + m[0].length);
        const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
        if (lines.size > 1) split.push(m[0]);
      }
    }
  }
  return split;
}"""


@pytest.fixture(scope="module")
def browser():
    with launch_chromium() as chromium:
        yield chromium


def test_firework_captions_keep_their_words(shared_server, browser) -> None:
    base = shared_server.url
    ana = ApiClient(base, "Ana")
    table = ana.create_table("hanabi", 2, {"multicolor": True, "first_seat": 0})
    bot = ana.request("POST", f"/api/tables/{table['id']}/bots", json={"seat": 1})
    assert bot.status_code == 201, bot.text
    assert ana.start(table["id"]).status_code == 200
    for lang in ("es", "en"):
        for width in (390, 1280):
            context = open_as(browser, base, ana, {"width": width, "height": 844}, lang)
            page = context.new_page()
            load_table(page, base, table["id"])
            captions = page.locator("#game .fireworks figcaption").all_inner_texts()
            assert len(captions) == 6, captions  # the sixth colour is there
            assert page.evaluate(SPLIT_WORDS) == [], f"{lang} at {width} px"
            assert page.evaluate("document.documentElement.scrollWidth") <= width
            context.close()


@pytest.mark.parametrize(("lang", "one", "several"), [
    ("es", "¡No la descartéis!", "¡No las descartéis!"),
    ("en", "Don't discard it!", "Don't discard them!")])
def test_the_last_copy_warning_agrees_with_its_cards(shared_server, browser, lang: str,
                                                     one: str, several: str) -> None:
    """The discard pile's warning, drawn by Hanabi's client (discards) from a view where one,
    then two, still-needed cards have lost all but their last copy: 'red 3, green 4. Don't
    discard it!' once read as if one card were meant."""
    context = browser.new_context()
    context.add_cookies([{"name": "lang", "value": lang, "url": shared_server.url}])
    page = context.new_page()
    page.goto(shared_server.url + "/rules/hanabi")
    warnings = page.evaluate("""async () => {
      const { t, el } = await import('/static/js/i18n.js');
      const { discards } = await import('/static/js/games/hanabi.js');
      const colors = ['red', 'green', 'black', 'blue', 'yellow'];
      const copies = Object.fromEntries(colors.map((c) => [c, [3, 2, 2, 2, 1]]));
      const fireworks = Object.fromEntries(colors.map((c) => [c, 0]));
      const view = (discard) => ({ colors, copies, fireworks, discard, over: null });
      return [[{ color: 'red', rank: 3 }],
              [{ color: 'red', rank: 3 }, { color: 'green', rank: 4 }]].map((discard) =>
        discards({ t, el }, view(discard)).querySelector('.last-copy-warning').textContent);
    }""")
    assert warnings[0].endswith(one) and ", " not in warnings[0], warnings
    assert warnings[1].endswith(several) and ", " in warnings[1], warnings
    context.close()
