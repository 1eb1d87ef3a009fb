"""Hanabi's captions keep their words whole, in Chromium: with the colour avalanche option
the sixth firework's caption read "multicolo" / "ur 0" on a 390 px phone in English (the
word is wider than a phone's 58 px card slot and the caption broke it anywhere). And the
discard pile's last-copy warning speaks of one card as one and of several as several."""

from __future__ import annotations

import pytest

from tests.browser.comfort import act, connect, load_table, open_as, run
from tests.support.client import ApiClient

pytestmark = pytest.mark.browser

# the words of every caption on the board drawn on more than one line
SPLIT_WORDS = """() => {
  const split = [];
  for (const caption of document.querySelectorAll('#game figcaption')) {
    const walker = document.createTreeWalker(caption, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      // a word may break where its catalogue put a soft hyphen ("multi-" / "colour"),
      // drawn with its hyphen; each part between those stays on one line
      for (const m of node.data.matchAll(/[^\\s\\u00ad]+/g)) {
        // the line of its first letter and of its last (a letter's last box: the hyphen
        // drawn at a soft hyphen's break comes first, on the line above)
        const line = (at) => {
          const range = document.createRange();
          range.setStart(node, at);
          range.setEnd(node, at + 1);
          const boxes = range.getClientRects();
          return Math.round(boxes[boxes.length - 1].top);
        };
        if (line(m.index) !== line(m.index + m[0].length - 1)) split.push(m[0]);
      }
    }
  }
  return split;
}"""


def test_firework_captions_keep_their_words(worker_server, browser) -> None:
    base = worker_server.url
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



def test_hand_captions_break_multicolour_only_at_its_hyphen(worker_server, browser) -> None:
    """Ana clues the bot's hand "multicolour": every card of it reads "multicolour" or
    "not multicolour" under it, a word wider than the 58 px slot of another player's card on
    a phone. It broke anywhere ("multicolo" / "ur"); the catalogue's soft hyphen lets it
    break as "multi-" / "colour" and nowhere else."""
    base = worker_server.url
    ana = ApiClient(base, "Ana")
    table = ana.create_table("hanabi", 2, {"multicolor": True, "first_seat": 0})
    bot = ana.request("POST", f"/api/tables/{table['id']}/bots", json={"seat": 1})
    assert bot.status_code == 201, bot.text
    assert ana.start(table["id"]).status_code == 200

    async def clue() -> None:
        (client,) = await connect(worker_server.ws_url, [ana], table["id"])
        try:
            await act(client, {"type": "clue", "target": 1, "color": "multi"})
        finally:
            await client.close()

    run(clue())
    for lang, word in (("es", "multicolor"), ("en", "multicolour")):
        context = open_as(browser, base, ana, {"width": 390, "height": 844}, lang)
        page = context.new_page()
        load_table(page, base, table["id"])
        captions = page.locator("#game .hands-grid figcaption").all_inner_texts()
        assert len(captions) == 5 and all(word in c.replace("\u00ad", "") for c in captions)
        assert page.evaluate(SPLIT_WORDS) == [], lang
        context.close()

@pytest.mark.parametrize(("lang", "one", "several"), [
    ("es", "¡No la descartéis!", "¡No las descartéis!"),
    ("en", "Don’t discard it!", "Don’t discard them!")])
def test_the_last_copy_warning_agrees_with_its_cards(worker_server, browser, lang: str,
                                                     one: str, several: str) -> None:
    """The discard pile's warning, drawn by Hanabi's client (discards) from a view where one,
    then two, still-needed cards have lost all but their last copy: 'red 3, green 4. Don't
    discard it!' once read as if one card were meant."""
    context = browser.new_context()
    context.add_cookies([{"name": "lang", "value": lang, "url": worker_server.url}])
    page = context.new_page()
    page.goto(worker_server.url + "/rules/hanabi")
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


@pytest.mark.parametrize(("lang", "word"), [("es", "multicolor"), ("en", "multicolour")])
def test_the_log_names_multicolour_in_plain_letters(worker_server, browser, lang: str,
                                                    word: str) -> None:
    """The caption's soft hyphen (U+00AD) was in the catalogue's colour name itself, so it
    travelled into the log: a player who copied "Ana clues Bot 1: multicolour..." pasted an
    invisible character in the middle of the word. The log, and what a selection of it
    copies, have the plain word; the captions keep their break (the tests above)."""
    base = worker_server.url
    ana = ApiClient(base, "Ana")
    table = ana.create_table("hanabi", 2, {"multicolor": True, "first_seat": 0})
    bot = ana.request("POST", f"/api/tables/{table['id']}/bots", json={"seat": 1})
    assert bot.status_code == 201, bot.text
    assert ana.start(table["id"]).status_code == 200

    async def clue() -> None:
        (client,) = await connect(worker_server.ws_url, [ana], table["id"])
        try:
            await act(client, {"type": "clue", "target": 1, "color": "multi"})
        finally:
            await client.close()

    run(clue())
    context = open_as(browser, base, ana, {"width": 390, "height": 844}, lang)
    page = context.new_page()
    load_table(page, base, table["id"])
    first = page.locator("#log li").first.text_content() or ""
    assert word in first, first
    copied = page.evaluate("""() => {
      const selection = window.getSelection();
      selection.selectAllChildren(document.getElementById('log'));
      return selection.toString();
    }""")
    assert word in copied and "\u00ad" not in copied, repr(copied)
    # the clue buttons and the cards' names read the plain word too
    names = page.evaluate("""() => [...document.querySelectorAll('#game [aria-label], #game .clue')]
      .map((n) => n.getAttribute('aria-label') || n.textContent)""")
    assert any(word in n for n in names) and not any("\u00ad" in n for n in names), names
    context.close()


def test_no_warning_for_a_card_its_firework_can_no_longer_reach(worker_server, browser) -> None:
    """All three red 1s discarded: no red card can be played any more, yet the discard pile
    said 'Only one copy left of: red 3. Don’t discard it!' (and marked the red 3s with '!')
    for a card nobody needs. The warning and the marks keep to cards a firework can reach:
    a green 3 with the same copies left is still warned of."""
    context = browser.new_context()
    context.add_cookies([{"name": "lang", "value": "en", "url": worker_server.url}])
    page = context.new_page()
    page.goto(worker_server.url + "/rules/hanabi")
    found = page.evaluate("""async () => {
      const { t, el } = await import('/static/js/i18n.js');
      const { discards } = await import('/static/js/games/hanabi.js');
      const colors = ['red', 'green', 'black', 'blue', 'yellow'];
      const copies = Object.fromEntries(colors.map((c) => [c, [3, 2, 2, 2, 1]]));
      const fireworks = Object.fromEntries(colors.map((c) => [c, 0]));
      const discard = [1, 1, 1, 3].map((rank) => ({ color: 'red', rank }))
        .concat([{ color: 'green', rank: 3 }]);
      const node = discards({ t, el }, { colors, copies, fireworks, discard, over: null });
      const rows = [...node.querySelectorAll('.discard-row')];
      return { warning: node.querySelector('.last-copy-warning')?.textContent ?? '',
               marks: rows.map((row) => row.querySelectorAll('.last-copy').length) };
    }""")
    assert "green 3" in found["warning"] and "red" not in found["warning"], found
    assert found["marks"] == [0, 1], found  # the red row (1, 1, 1, 3), the green row (3)
    context.close()
