"""Hanabi's fireworks sit in one row on the table page, in Chromium: with the colour
avalanche option (six colours) the sixth firework went to a row of its own at 1280 px (the
laptop puts the fireworks in half the board's width, and the slots kept their full width).
Checked with five and six colours, in Spanish and English, on a laptop and a phone."""

from __future__ import annotations

import pytest

from tests.browser.comfort import load_table, open_as
from tests.support.client import ApiClient

pytestmark = pytest.mark.browser

# each firework's box: its top, left and right edges, and its card's width
SLOTS = """() => [...document.querySelectorAll('#game .fireworks .slot')].map((slot) => {
  const box = slot.getBoundingClientRect();
  const card = slot.querySelector('svg').getBoundingClientRect();
  return { top: Math.round(box.top), left: box.left, right: box.right,
           card: Math.round(card.width) };
})"""


@pytest.mark.parametrize("multicolor", [True, False])
def test_the_fireworks_keep_one_row(worker_server, browser, multicolor: bool) -> None:
    base = worker_server.url
    ana = ApiClient(base, "Ana")
    table = ana.create_table("hanabi", 2, {"multicolor": multicolor, "first_seat": 0})
    bot = ana.request("POST", f"/api/tables/{table['id']}/bots", json={"seat": 1})
    assert bot.status_code == 201, bot.text
    assert ana.start(table["id"]).status_code == 200
    for lang in ("es", "en"):
        for width in (1280, 390):
            context = open_as(browser, base, ana, {"width": width, "height": 844}, lang)
            page = context.new_page()
            load_table(page, base, table["id"])
            slots = page.evaluate(SLOTS)
            where = f"{lang} at {width} px"
            assert len(slots) == (6 if multicolor else 5), where
            assert len({s["top"] for s in slots}) == 1, f"{where}: {slots}"
            # side by side without overlapping, every card as wide as the others
            pairs = zip(slots, slots[1:], strict=False)
            assert all(a["right"] <= b["left"] for a, b in pairs), where
            assert len({s["card"] for s in slots}) == 1, f"{where}: {slots}"
            assert page.evaluate("document.documentElement.scrollWidth") <= width, where
            context.close()
