"""Block and Guess in Chromium: a builder asked "which side is the front?" answers with their
build in view. The question's box held only the two buttons; the build was in the boards
further down the page (on a phone, a long scroll away from the buttons). Now the box shows
it, fitted to its blocks, over the buttons: all of it in one screen at 390 px (es) and
1280 px (en), its ground word legible."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.browser.bg_pages import LAPTOP, PHONE, inside, open_seat, pinned_table, still
from tests.browser.comfort import act, connect, run, settle
from tests.browser.test_block_and_guess_ground_label_browser import (
    check_labels,
    guessing,
    play_until,
)

pytestmark = pytest.mark.browser

CATALOGUES = Path(__file__).resolve().parents[2] / "app" / "i18n"


async def ask(ws_base: str, players: list, table_id: str, build: dict) -> None:
    """The build's first guesser asks where its front is."""
    clients = await connect(ws_base, players, table_id)
    try:
        await settle(clients)
        guesser = clients[build["guessers"][0]]
        await act(guesser, {"type": "ask_front", "build": build["builder"]})
        state = await settle(clients)
        assert next(b for b in state["view"]["builds"]
                    if b["builder"] == build["builder"])["asked"], "not asked"
    finally:
        for c in clients:
            await c.close()


@pytest.mark.parametrize("viewport,lang", [(PHONE, "es"), (LAPTOP, "en")],
                         ids=["390-es", "1280-en"])
def test_the_builder_answers_with_the_build_in_view(worker_server, browser, viewport,
                                                    lang) -> None:
    word = json.loads((CATALOGUES / f"{lang}.json").read_text())["block-and-guess.label.ground"]
    players, table_id = pinned_table(worker_server.url, 4, 3, ["Ana", "Beto", "Cleo", "Dani"])
    state = run(play_until(worker_server.ws_url, players, table_id, guessing))
    build = state["view"]["builds"][0]
    run(ask(worker_server.ws_url, players, table_id, build))
    builder = build["builder"]
    page = open_seat(browser, worker_server.url, players[builder], table_id, viewport, lang)
    try:
        box = page.locator("#my-hand.bg-question")
        assert box.count() == 1
        board = box.locator(f"svg.bg-board#bg-front-board-{builder}")
        assert board.count() == 1, "the question's box does not show the build"
        drawn = board.locator(".bg-world > [data-block]").count()
        assert drawn == len(build["placed"]) > 0, (drawn, build["placed"])
        box.scroll_into_view_if_needed()
        still(page)
        for part in [board, *box.locator("button").all()]:
            assert inside(part.bounding_box(), viewport), part.bounding_box()
        assert f"bg-front-board-{builder}" in check_labels(page, word, "asked")
    finally:
        page.context.close()
