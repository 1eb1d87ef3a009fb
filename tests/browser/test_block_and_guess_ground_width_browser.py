"""Block and Guess in Chromium at every width from a phone to a laptop: the word on every
board's ground strip is 12 px or more on screen. At 900 px the page's side column leaves
the game 556 px, and the boards sat side by side as if the window were the game's: the
workbench's board beside its tools was 254 px wide, a watched build 240 px, their word
9 px. Now they go side by side only where the game's own width has room (container
queries, and a grid of columns at least 23rem wide), and stack under that; the workbench
still fits one laptop screen with Submit, the guessed build with its answers."""

from __future__ import annotations

import pytest

from tests.browser.bg_pages import check_bench, inside, open_seat, pinned_table, still
from tests.browser.comfort import run
from tests.browser.test_block_and_guess_ground_label_browser import (
    LABELS,
    check_labels,
    guessing,
    play_until,
    two_placed,
)

pytestmark = pytest.mark.browser

# a phone, the width where the page's side column appears, and what lies between it and a
# laptop (the game's column grows from 556 px to 844 px)
WIDTHS = [(390, "es", "mesa"), (900, "en", "table"), (1000, "en", "table"),
          (1100, "en", "table"), (1280, "en", "table")]


def test_the_ground_word_is_legible_at_every_width(worker_server, browser) -> None:
    players, table_id = pinned_table(worker_server.url, 4, 3, ["Ana", "Beto", "Cleo", "Dani"])
    state = run(play_until(worker_server.ws_url, players, table_id, two_placed))
    builder = next(b["builder"] for b in state["view"]["builds"] if len(b["placed"]) >= 2)
    watcher = (builder + 1) % 4  # the other team's builder, building too

    def look(seat: int, width: int, lang: str, word: str, where: str, then=None) -> list[str]:
        viewport = {"width": width, "height": 800}
        page = open_seat(browser, worker_server.url, players[seat], table_id, viewport, lang)
        try:
            sizes = {b["id"]: round(b["size"], 1) for b in page.evaluate(LABELS)}
            seen = check_labels(page, word, f"{where} at {width} px seat {seat} {sizes}")
            if then:
                then(page, viewport, f"{where} at {width} px seat {seat}")
            return seen
        finally:
            page.context.close()

    for width, lang, word in WIDTHS:
        mine = look(builder, width, lang, word, "building",
                    lambda page, viewport, where: check_bench(page, viewport, where))
        assert f"bg-board-{watcher}" in mine and f"bg-board-{builder}" in mine
        assert f"bg-board-{builder}" in look(watcher, width, lang, word, "watching")
    run(play_until(worker_server.ws_url, players, table_id, guessing))
    guesser = next(s for s in range(4) if s not in (builder, watcher))
    for width, lang, word in WIDTHS:
        def answers(page, viewport, where):
            # the build and every answer in one screen (beside it or under it)
            still(page)
            boxes = [page.locator("#my-hand .bg-guess-board").bounding_box()] + \
                [c.bounding_box() for c in page.locator("#my-hand .bg-guess").all()]
            assert len(boxes) > 1 and all(inside(b, viewport) for b in boxes), (where, boxes)
        seen = look(guesser, width, lang, word, "guessing", answers)
        assert any(s.startswith("bg-guess-board-") for s in seen), seen
        look(builder, width, lang, word, "guessed")
