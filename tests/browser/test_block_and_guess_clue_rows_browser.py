"""Block and Guess' clue card (7 objects) lays out evenly on a phone and on a laptop: every
row holds as many objects as every other, and every column too. Two CSS columns read 3 then
4 at 1280 px (their rows 2, 2, 2 and 1); now the list is one column while its section is
narrow and one row of 7 once it has room."""

from __future__ import annotations

import pytest

from tests.browser.bg_pages import LAPTOP, PHONE, open_seat, pinned_table

pytestmark = pytest.mark.browser

# items whose tops (or lefts) are this close share a row (a column): a badge beside a name
# moves the line's text a pixel or two
NEAR = 8


def groups(values: list[float]) -> list[int]:
    """How many values fall in each cluster of values within NEAR of the cluster's first."""
    counts: list[int] = []
    start = None
    for value in sorted(values):
        if start is None or value - start > NEAR:
            start = value
            counts.append(0)
        counts[-1] += 1
    return counts


@pytest.mark.parametrize("viewport", [PHONE, LAPTOP], ids=["390", "1280"])
def test_the_clue_cards_objects_sit_in_even_rows(worker_server, browser, viewport) -> None:
    players, table_id = pinned_table(worker_server.url, 3, 0, ["Ana", "Beto", "Cleo"])
    # a builder's page: their target (and the other builder's) carries a badge
    page = open_seat(browser, worker_server.url, players[0], table_id, viewport, "es")
    page.wait_for_selector(".bg-objects li.target")
    boxes = page.evaluate("""() => [...document.querySelectorAll('.bg-objects li')].map((li) => {
        const r = li.getBoundingClientRect(); return [r.left, r.top]; })""")
    assert len(boxes) == 7
    rows, columns = groups([top for _left, top in boxes]), groups([left for left, _top in boxes])
    assert len(set(rows)) == 1, f"{viewport['width']} px: items per row {rows}"
    assert len(set(columns)) == 1, f"{viewport['width']} px: items per column {columns}"
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    page.context.close()
