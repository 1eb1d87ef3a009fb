"""Block and Guess in Chromium: a build being made is drawn on the other players' boards at
the builder's scale. The builder's own board is zoomed in twice on the build; the others'
boards showed the whole 640-unit board, so the same blocks were half as large on a phone and
a third as large on a laptop (two boards side by side). Now every board shows the part of
the world the builder's shows (the same viewBox), and at 390 px and 1280 px a placed block is
drawn at least 0.6 times as many screen pixels per board unit on a watcher's board as on the
builder's (0.97 and 0.70 measured; 0.48 and 0.35 before).

Under a build being made, the other players read what its builder's workbench says is wrong
now, and nothing else: blocks still to place are building, not a fault (the boards said "Some
blocks are not placed yet" under every build in the making)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.browser.bg_pages import ARTIFACTS, LAPTOP, PHONE, open_seat, pinned_table
from tests.browser.comfort import act, connect, run, settle

pytestmark = pytest.mark.browser

CATALOGUES = Path(__file__).resolve().parents[2] / "app" / "i18n"


async def to_building(ws_base: str, players: list[Any], table_id: str) -> dict:
    """Drafts through the API until someone builds, then that builder places two blocks."""
    clients = await connect(ws_base, players, table_id)
    try:
        while True:
            state = await settle(clients)
            if state["view"]["phase"] == "build":
                break
            mover = next(c for c in clients if c.state["seat"] in c.state["to_act"]
                         and c.state["legal_actions"])
            await act(mover, mover.state["legal_actions"][0])
        builder = next(c for c in clients if c.state["seat"] in c.state["to_act"])
        for _ in range(2):
            place = next(a for a in builder.state["legal_actions"] if a["type"] == "place")
            await act(builder, place)
        return await settle(clients)
    finally:
        for c in clients:
            await c.close()


# one placed block's width on screen over its width in board units, and the board's viewBox
SCALE = """(b) => {
  const board = document.getElementById(`bg-board-${b}`);
  const block = board.querySelector('.bg-world > [data-block] .bg-face');
  const units = block.getBBox().width;
  return { perUnit: block.getBoundingClientRect().width / units,
           viewBox: board.getAttribute('viewBox') };
}"""


def test_a_live_build_is_drawn_at_the_builders_scale(worker_server, browser) -> None:
    players, table_id = pinned_table(worker_server.url, 4, 3, ["Ana", "Beto", "Cleo", "Dani"])
    state = run(to_building(worker_server.ws_url, players, table_id))
    live = [b for b in state["view"]["builds"] if b["placed"]]
    assert live, state["view"]["builds"]
    # blocks wait in the builder's tray: the view's reasons say some are not placed
    assert len(live[0]["held"]) > len(live[0]["placed"]), live[0]
    assert any(r["code"] == "unplaced" for r in live[0]["reasons"]), live[0]["reasons"]
    builder = live[0]["builder"]
    others = [s for s in range(4) if s != builder]
    for viewport, lang in ((PHONE, "es"), (LAPTOP, "en")):
        pages = [open_seat(browser, worker_server.url, players[s], table_id, viewport, lang)
                 for s in [builder, *others]]
        try:
            own = pages[0].evaluate(SCALE, builder)
            for page in pages[1:]:
                seen = page.evaluate(SCALE, builder)
                assert seen["viewBox"] == own["viewBox"], (viewport, seen, own)
                assert seen["perUnit"] >= 0.6 * own["perUnit"], (viewport, seen, own)
                assert_same_faults(pages[0], page, builder, lang)
                assert not page.errors, page.errors
            ARTIFACTS.mkdir(parents=True, exist_ok=True)
            pages[1].screenshot(path=str(ARTIFACTS / f"live-scale-{viewport['width']}.png"),
                                full_page=True)
        finally:
            for page in pages:
                page.context.close()


def assert_same_faults(own: Any, watcher: Any, builder: int, lang: str) -> None:
    """The watcher's note under the build lists the faults the builder's workbench lists."""
    unplaced = json.loads((CATALOGUES / f"{lang}.json").read_text())[
        "block-and-guess.reason.unplaced"]
    told = own.locator("#my-hand .bg-reasons > li").count()
    note = watcher.locator(f".bg-build[data-builder='{builder}'] .bg-building-note")
    section = watcher.locator(f".bg-build[data-builder='{builder}']").inner_text()
    assert unplaced not in section, section
    if told:
        assert len(note.inner_text().split(" · ")) == told, (note.inner_text(), told)
    else:
        assert note.count() == 0, note.inner_text()
