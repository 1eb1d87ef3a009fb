"""Block and Guess in Chromium: the word under every board's ground line ("mesa", "table")
is legible. The brown strip was 14 board units tall whatever a board showed, and its label
at most 11 units: 6 px on a phone when the workbench is zoomed out to the whole board (640
units in 352 px), 10.6 px on a watcher's board at the default zoom. Now the strip is a fixed
share of the width a board shows, so on the builder's workbench at every zoom, on the other
players' live boards and on the boards fitted to a build (guessing), at 390 px (es) and
1280 px (en), the label's box and its font are 12 px or more on screen, white on the brown
strip at WCAG AA contrast, inside its board and under the ground line, where no block
stands. Nor is it larger than the page's body text (16 px): it grew with the board, 20 px on
the builder's board at 1280 px."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from app.games.block_and_guess import geometry as geo
from tests.browser.bg_pages import (
    LAPTOP,
    PHONE,
    open_seat,
    pinned_table,
    placements,
    seed_for_card,
    version,
    wait_past,
)
from tests.browser.comfort import act, connect, run, settle

pytestmark = pytest.mark.browser

CATALOGUES = Path(__file__).resolve().parents[2] / "app" / "i18n"
TALL = 12  # CSS px: the least height of the label's box on screen
LARGEST = 16  # CSS px: the font's largest size on screen (the page's body text)


async def play_until(ws_base: str, players: list[Any], table_id: str,
                     done: Callable[[dict], bool]) -> dict:
    """Each seat to act takes its first legal action until ``done`` holds of the state."""
    clients = await connect(ws_base, players, table_id)
    try:
        for _ in range(500):
            state = await settle(clients)
            if done(state):
                return state
            mover = next(c for c in clients if c.state["seat"] in c.state["to_act"]
                         and c.state["legal_actions"])
            await act(mover, mover.state["legal_actions"][0])
        raise AssertionError("the table never got there")
    finally:
        for c in clients:
            await c.close()


def two_placed(state: dict) -> bool:
    return any(len(b["placed"]) >= 2 for b in state["view"]["builds"])


def guessing(state: dict) -> bool:
    return state["view"]["phase"] == "guess"


# every board on the page: its box, its ground label's box, words and font size on screen
# (CSS px), the ground line's y, the label's and the strip's colours; read after the next
# frame is drawn (a board's label is sized to it once it is laid out: what is painted)
LABELS = """async () => {
  await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
  return [...document.querySelectorAll('svg.bg-board')].map((board) => {
  const box = (n) => { const r = n.getBoundingClientRect();
    return { left: r.left, right: r.right, top: r.top, bottom: r.bottom, height: r.height }; };
  const label = board.querySelector('.bg-ground-text');
  const line = board.querySelector('.bg-ground-line').getBoundingClientRect();
  const size = label && Number(label.getAttribute('font-size')) * board.getScreenCTM().a;
  const fill = (n) => n && getComputedStyle(n).fill;
  return { id: board.id, board: box(board), label: label && box(label), size,
           words: label && label.textContent, ground: (line.top + line.bottom) / 2,
           ink: fill(label), strip: fill(board.querySelector('.bg-ground')) };
}); }"""


def luminance(rgb: str) -> float:
    """WCAG relative luminance of a computed colour ("rgb(138, 106, 74)")."""
    channels = [int(c) / 255 for c in re.findall(r"\d+", rgb)[:3]]
    r, g, b = (c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: str, b: str) -> float:
    light, dark = sorted((luminance(a), luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def check_labels(page: Any, word: str, where: str) -> list[str]:
    """Every board's ground label on this page is legible (12 px or more, AA contrast on
    the strip), inside its board and under its ground line; returns the boards' ids."""
    boards = page.evaluate(LABELS)
    for b in boards:
        label, board = b["label"], b["board"]
        at = f"{where} {b['id']}: {b}"
        assert label is not None and b["words"] == word, at
        assert label["height"] >= TALL and TALL <= b["size"] <= LARGEST + 0.01, at
        assert contrast(b["ink"], b["strip"]) >= 4.5, at
        assert label["left"] >= board["left"] - 0.5 and label["right"] <= board["right"] + 0.5, at
        assert label["top"] >= b["ground"] and label["bottom"] <= board["bottom"] + 0.5, at
    assert not page.errors, page.errors
    return [b["id"] for b in boards]


@pytest.mark.parametrize("viewport,lang", [(PHONE, "es"), (LAPTOP, "en")],
                         ids=["390-es", "1280-en"])
def test_the_ground_label_is_legible_on_every_board(worker_server, browser, viewport,
                                                    lang) -> None:
    word = json.loads((CATALOGUES / f"{lang}.json").read_text())["block-and-guess.label.ground"]
    players, table_id = pinned_table(worker_server.url, 4, 3, ["Ana", "Beto", "Cleo", "Dani"])
    state = run(play_until(worker_server.ws_url, players, table_id, two_placed))
    builder = next(b["builder"] for b in state["view"]["builds"] if len(b["placed"]) >= 2)
    watcher = (builder + 1) % 4
    where = f"{viewport['width']} px building"
    pages = [open_seat(browser, worker_server.url, players[s], table_id, viewport, lang)
             for s in (builder, watcher)]
    try:
        # the builder's workbench at every zoom (the whole board at the least) and the
        # watcher's live board of the build
        assert f"bg-board-{builder}" in check_labels(pages[1], word, f"{where} watcher")
        bench = pages[0].locator(f"#my-hand #bg-board-{builder}.mine")
        for key in ("zoom_out", "zoom_in"):
            button = pages[0].locator(f"#my-hand [data-focus-key='{key}']")
            while True:
                shown = f"{where} builder {bench.get_attribute('viewBox')}"
                assert f"bg-board-{builder}" in check_labels(pages[0], word, shown)
                if button.is_disabled():
                    break
                button.click()
    finally:
        for page in pages:
            page.context.close()
    # the builds fitted to their blocks, on the guessers' boards and under them
    run(play_until(worker_server.ws_url, players, table_id, guessing))
    where = f"{viewport['width']} px guessing"
    seen: list[str] = []
    for seat in range(4):
        page = open_seat(browser, worker_server.url, players[seat], table_id, viewport, lang)
        try:
            seen += check_labels(page, word, f"{where} seat {seat}")
        finally:
            page.context.close()
    assert any(s.startswith("bg-guess-board-") for s in seen), seen



# ------------------------------------------------------------------ a drop on the strip

def building(state: dict) -> bool:
    return state["view"]["phase"] == "build"


def on_screen(page: Any, builder: int, x: float, y: float) -> tuple[float, float]:
    """Where board point (x, y) (y up, the ground at 0) is on the screen."""
    return tuple(page.evaluate("""([b, x, y, h]) => {
        const svg = document.getElementById(`bg-board-${b}`);
        const p = svg.createSVGPoint(); p.x = x; p.y = h - y;
        const q = p.matrixTransform(svg.getScreenCTM()); return [q.x, q.y]; }""",
                               [builder, x, y, geo.BOARD_H]))


def test_a_block_dropped_low_on_the_ground_strip_goes_on_the_table(worker_server,
                                                                   browser) -> None:
    """Zoomed out to the whole board, the strip under the ground line is 34 board units
    deep (a nineteenth of the 640 shown): a block let go over its lower part, further than
    the 20 units below the ground that any drop may fall short by, goes on the table,
    resting on it; it went back to the tray when only those 20 units counted (bench.js,
    shownBelow). (Let go anywhere under the ground line, its centre was put on the line,
    half sunk: the server refused it, "the block would stick out of the board".)"""
    players, table_id = pinned_table(worker_server.url, 3, seed_for_card(1, 3),
                                     ["Ana", "Beto", "Cleo"])
    state = run(play_until(worker_server.ws_url, players, table_id, building))
    builder = state["view"]["builds"][0]["builder"]
    page = open_seat(browser, worker_server.url, players[builder], table_id, LAPTOP, "en")
    try:
        zoom_out = page.locator("#my-hand [data-focus-key='zoom_out']")
        while not zoom_out.is_disabled():
            zoom_out.click()
        board = page.locator(f"#my-hand #bg-board-{builder}.mine")
        assert board.get_attribute("viewBox").split()[2] == "640", "not the whole board"
        tray = page.locator("#my-hand .bg-tray-block").first
        block = int(tray.get_attribute("data-block"))
        assert block not in placements(page, builder)
        board.scroll_into_view_if_needed()
        # 28 units under the ground line: in the strip's lower part, over the board
        x, y = on_screen(page, builder, geo.BOARD_W / 2, -28)
        shallow = on_screen(page, builder, 0, -20)[1]
        bottom = board.bounding_box()
        assert shallow < y < bottom["y"] + bottom["height"] - 2, (shallow, y, bottom)
        tray.scroll_into_view_if_needed()
        box = tray.bounding_box()
        page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        page.mouse.down()
        board.scroll_into_view_if_needed()
        x, y = on_screen(page, builder, geo.BOARD_W / 2, -28)
        page.mouse.move(x, y, steps=12)
        before = version(page)
        page.mouse.up()
        try:
            wait_past(page, before, timeout=5_000)
        except Exception as exc:  # Playwright's TimeoutError
            raise AssertionError(f"block {block} let go over the strip was not placed: "
                                 f"{page.inner_text('#error')!r}") from exc
        page.wait_for_function(
            "([b, k]) => document.querySelector(`#bg-board-${b} .bg-world > "
            "[data-block='${k}']:not(.bg-moving)`)", arg=[builder, block], timeout=10_000)
        # on the table: resting on the ground line, where it was let go
        bx, by, angle, _ = placements(page, builder)[block]
        low = -geo.footprint(block, 0, False)[1]  # its centre's height on the table
        assert angle == 0 and by == pytest.approx(low, abs=0.011), (bx, by)
        assert bx == pytest.approx(geo.BOARD_W / 2, abs=2)
        assert page.locator(f"#my-hand .bg-tray-block[data-block='{block}']").count() == 0
        assert not page.errors, page.errors
    finally:
        page.context.close()
