"""Ajolocracia's hand captions on a phone keep their words whole: at 390 px a caption is
about 56 px wide and its words up to 74 px ("Institution", "Ambystoma", "Coleópteros"), so
they broke mid-word without a hyphen ("Institutio/n"). Every card name of both languages is
tried in a caption of the docked hand: no word wider than its caption, none split across
lines; the hand stays the rows it was (the board stays in view)."""

from __future__ import annotations

import pytest

from tests.browser.comfort import load_table, new_table, open_as
from tests.support.client import ApiClient

pytestmark = pytest.mark.browser

MEASURE = """() => {
  const card = document.querySelector('.aj-hand .aj-hand-card');
  const cap = card.querySelector('.aj-cap');
  const names = Object.entries(window.I18N)
    .filter(([k]) => k.startsWith('ajolocracia.kind.') && !k.endsWith('.faces'))
    .map(([, v]) => v);
  const saved = cap.textContent;
  const bad = [];
  let widest = 0;
  for (const name of names) {
    cap.textContent = name;
    const node = cap.firstChild;
    let at = 0;
    for (const word of name.split(' ')) {
      const range = document.createRange();
      range.setStart(node, at); range.setEnd(node, at + word.length);
      at += word.length + 1;
      const rects = [...range.getClientRects()].filter((r) => r.width > 0);
      const box = cap.getBoundingClientRect();
      const w = rects.reduce((s, r) => s + r.width, 0);
      widest = Math.max(widest, w);
      if (rects.length > 1) bad.push(`${word}: split over ${rects.length} lines`);
      else if (rects[0].left < box.left - 0.5 || rects[0].right > box.right + 0.5
               || rects[0].right > card.getBoundingClientRect().right)
        bad.push(`${word}: ${Math.round(w)} px in a ${Math.round(box.width)} px caption`);
    }
  }
  cap.textContent = saved;
  const fontPx = parseFloat(getComputedStyle(cap).fontSize);
  return { bad, widest, fontPx, cap: cap.getBoundingClientRect().width };
}"""


@pytest.mark.parametrize("lang", ["es", "en"])
@pytest.mark.parametrize("width", [390, 360])
def test_hand_captions_keep_whole_words_on_phones(worker_server, browser, lang: str,
                                                  width: int) -> None:
    base = worker_server.url
    players = [ApiClient(base, n) for n in ("Ana", "Beto", "Cleo")]
    table_id = new_table(players, "ajolocracia", start=True)
    page = open_as(browser, base, players[0], {"width": width, "height": 844}, lang).new_page()
    load_table(page, base, table_id)
    page.wait_for_selector(".aj-hand .aj-hand-card")
    assert page.evaluate("document.documentElement.lang") == lang
    rows = page.evaluate("""() => new Set([...document.querySelectorAll('.aj-hand .aj-hand-card')]
        .map((c) => Math.round(c.getBoundingClientRect().top))).size""")
    found = page.evaluate(MEASURE)
    assert found["bad"] == [], f"{lang} at {width} px: {found}"
    assert found["fontPx"] >= 9, f"the captions shrank past legibility: {found}"
    after = page.evaluate("""() => new Set([...document.querySelectorAll('.aj-hand .aj-hand-card')]
        .map((c) => Math.round(c.getBoundingClientRect().top))).size""")
    assert after == rows
    page.context.close()
