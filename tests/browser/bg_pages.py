"""Block and Guess through its pages, shared by the browser tests of issue 20: tables with a
pinned seed (the test-only X-Ludoteca-Test-Seed header), seats opened as Chromium pages,
and what a player does on them (tap or keyboard), with the checks every move makes: the
builder's board and Submit in view, the tray never over the board, the guessed build and
its answers in one screen, no sideways scroll."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from app.games import ENGINES
from tests.browser.comfort import open_as, seeded_table
from tests.support.client import ApiClient

ENGINE = ENGINES["block-and-guess"]
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "block-and-guess"
PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1280, "height": 800}
NARROW = (320, 360)
NAMES = ["Ana", "Beto", "Cleo", "Dani"]


def seed_for_card(card: int, seats: int, start: int = 0) -> int:
    """The first seed from ``start`` whose first round shows construction card ``card``."""
    seed = start
    while ENGINE.setup(seats, {"first_seat": 0}, seed)["card"] != card:
        seed += 1
    return seed


def pinned_table(base: str, seats: int, seed: int, names: list[str]) -> tuple[list[ApiClient], str]:
    """A started table of ``seats`` players with ``seed``; the first player sits first."""
    players = [ApiClient(base, n) for n in names[:seats]]
    return players, seeded_table(players, "block-and-guess", seed, {"first_seat": 0})


def open_seat(browser: Any, base: str, player: ApiClient, table_id: str,
              viewport: dict[str, int], lang: str = "en") -> Any:
    context = open_as(browser, base, player, viewport, lang)
    page = context.new_page()
    page.errors = []  # type: ignore[attr-defined]
    page.on("pageerror", lambda exc: page.errors.append(str(exc)))
    page.goto(f"{base}/tables/{table_id}")
    page.wait_for_selector("#conn-status.ok", timeout=15_000)
    page.wait_for_function("() => document.getElementById('table-app').dataset.version",
                           timeout=15_000)
    return page


def version(page: Any) -> int:
    return int(page.locator("#table-app").get_attribute("data-version"))


def wait_past(page: Any, before: int, timeout: float = 15_000) -> None:
    page.wait_for_function(
        "(v) => Number(document.getElementById('table-app').dataset.version) > v",
        arg=before, timeout=timeout)


def sync(pages: list[Any], target: int) -> None:
    for p in pages:
        p.wait_for_function(
            "(v) => Number(document.getElementById('table-app').dataset.version) >= v",
            arg=target, timeout=15_000)


def tapped(page: Any, locator: Any, touch: bool) -> None:
    """Tap (touch) or click, then wait for the table's next version on this page."""
    before = version(page)
    if touch:
        locator.tap()
    else:
        locator.click()
    wait_past(page, before)


def pressed(page: Any, key: str) -> None:
    before = version(page)
    page.keyboard.press(key)
    wait_past(page, before)


def inside(box: dict[str, float] | None, viewport: dict[str, int]) -> bool:
    return box is not None and box["x"] >= -1 and box["y"] >= -1 and \
        box["x"] + box["width"] <= viewport["width"] + 1 and \
        box["y"] + box["height"] <= viewport["height"] + 1


def no_sideways_scroll(page: Any, viewport: dict[str, int], where: str) -> None:
    """No sideways scroll at this width, nor at 320 and 360 px (then back)."""
    widths = [viewport["width"]] + ([w for w in NARROW] if viewport["width"] < 500 else [])
    for width in widths:
        if width != viewport["width"]:
            page.set_viewport_size({"width": width, "height": viewport["height"]})
            page.wait_for_timeout(50)
        scroll = page.evaluate("document.documentElement.scrollWidth")
        assert scroll <= width, f"{where}: the page scrolls sideways at {width}px ({scroll}px)"
    if widths[-1] != viewport["width"]:
        page.set_viewport_size(viewport)
        page.wait_for_timeout(50)


def check_text(page: Any) -> None:
    text = page.inner_text("body")
    assert "undefined" not in text and "NaN" not in text, text[:500]
    assert "block-and-guess." not in text, "a catalogue key was shown instead of its text"
    assert not page.errors, page.errors


def placements(page: Any, builder: int) -> dict[int, tuple[float, float, int, bool]]:
    """The blocks drawn on ``builder``'s board on this page: block -> (x, y, angle, flip)."""
    found = page.evaluate("""(b) => [...document.querySelectorAll(
        `#bg-board-${b} .bg-world > [data-block]:not(.bg-live):not(.bg-moving)`)]
        .map((n) => [Number(n.dataset.block), n.getAttribute('transform')])""", builder)
    out = {}
    for block, transform in found:
        m = re.match(r"translate\(([-\d.e]+) ([-\d.e]+)\) rotate\(([-\d]+)\) scale\(([-\d]+) 1\)",
                     transform)
        assert m, transform
        out[block] = (float(m[1]), float(m[2]), int(m[3]), m[4] == "-1")
    return out


def target_of(builder_page: Any, builder: int) -> int:
    """The object ``builder`` builds, as a builder's page shows it (guessers never see it)."""
    index = builder_page.evaluate("""(b) => [...document.querySelectorAll('.bg-objects li')]
        .findIndex((li) => (li.dataset.targetOf || '').split(' ').includes(String(b)))""",
                                  builder)
    assert index >= 0, "the builder's page does not show its object"
    return index + 1


def still(page: Any) -> None:
    """Wait for the page to stop scrolling (the turn cue scrolls smoothly to your hand)."""
    page.wait_for_function("""() => new Promise((done) => {
        const y = window.scrollY;
        setTimeout(() => done(window.scrollY === y), 120); })""", timeout=5_000)


def check_bench(page: Any, viewport: dict[str, int], where: str) -> None:
    """The builder's workbench: its board fills the width on a phone and is in view with
    Submit; the tray strip sits under the board (beside it on a laptop), never over it."""
    still(page)
    board = page.locator("#my-hand .bg-board.mine").bounding_box()
    submit = page.locator("#my-hand .bg-submit").bounding_box()
    assert inside(board, viewport), f"{where}: the board is out of view ({board})"
    assert inside(submit, viewport), f"{where}: Submit is out of reach ({submit})"
    if viewport["width"] < 500:
        assert board["width"] >= viewport["width"] * 0.85, f"{where}: a narrow board ({board})"
    tray = page.locator("#my-hand .bg-tray")
    if tray.count():
        strip = tray.bounding_box()
        apart = strip["y"] >= board["y"] + board["height"] - 1 or \
            strip["x"] >= board["x"] + board["width"] - 1
        assert apart, f"{where}: the tray covers the board ({strip}, {board})"
    for tool in page.locator("#my-hand .bg-tool").all():
        box = tool.bounding_box()
        assert box["width"] >= 44 and box["height"] >= 44, f"{where}: a small button {box}"
    if viewport["width"] < 500:
        # a finger 12 px above the highest block still catches it (its grab area is wider
        # than what is drawn), and no block is thinner than 20 px
        caught = page.evaluate("""() => {
          const blocks = [...document.querySelectorAll(
            '#my-hand .bg-board.mine .bg-world > [data-block]')];
          if (!blocks.length) return null;
          const boxes = blocks.map((b) => b.getBoundingClientRect());
          const top = boxes.reduce((a, b) => (b.top < a.top ? b : a));
          const mine = blocks[boxes.indexOf(top)];
          let caught = false;  // somewhere along its top (its highest point may be a corner)
          for (let x = top.left; x <= top.right; x += 3) {
            const hit = document.elementFromPoint(x, top.top - 12);
            caught ||= !!hit && hit.closest('[data-block]') === mine;
          }
          const sizes = boxes.map((b) => Math.max(b.width, b.height));
          return { caught, thinnest: Math.min(...sizes) };
        }""")
        if caught is not None:
            assert caught["caught"], f"{where}: a block too small to grab"
            assert caught["thinnest"] >= 20, f"{where}: a tiny block ({caught})"


def check_guess(page: Any, builder: int, viewport: dict[str, int], where: str) -> None:
    """The build being guessed and every answer are in view together."""
    still(page)
    board = page.locator(f"#bg-guess-board-{builder}").bounding_box()
    assert inside(board, viewport), f"{where}: the build is out of view ({board})"
    if viewport["width"] < 500:
        assert board["width"] >= viewport["width"] * 0.85, f"{where}: a small build ({board})"
    else:
        assert board["width"] >= 450, f"{where}: a small build ({board})"
    choices = page.locator("#my-hand .bg-guess").all()
    assert choices
    for choice in choices:
        box = choice.bounding_box()
        assert inside(box, viewport), f"{where}: an answer is out of view ({box})"
    # the build beside the answers on a laptop, above them on a phone
    first = choices[0].bounding_box()
    if viewport["width"] < 500:
        assert first["y"] >= board["y"] + board["height"] - 1
    else:
        assert first["x"] >= board["x"] + board["width"] - 1


def tab_to(page: Any, selector: str, presses: int = 150) -> None:
    """Press Tab until the focus is on ``selector`` (the keyboard's way there)."""
    for _ in range(presses):
        if page.evaluate("(s) => !!document.activeElement && document.activeElement.matches(s)",
                         selector):
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached {selector}")


class Game:
    """Four pages, one per seat, and what each player does when it is their move."""

    def __init__(self, browser: Any, base: str, viewport: dict[str, int], touch: bool,
                 seed: int, seats: int = 4, rounds: int | None = None,
                 on_build: Callable[[Game, int, Any, str], None] | None = None,
                 shots: str | bool = True) -> None:
        self.viewport, self.touch, self.rounds, self.on_build = viewport, touch, rounds, on_build
        self.players, self.table_id = pinned_table(base, seats, seed, NAMES)
        self.pages = [open_seat(browser, base, p, self.table_id, viewport)
                      for p in self.players]
        self.builds = self.guesses = self.picks = 0
        # screenshots: one of each kind, named after ``shots`` (True: phone/laptop; False: none)
        self.shots: set[str] = set() if shots else {"*"}
        self.prefix = shots if isinstance(shots, str) else ("phone" if touch else "laptop")
        self.arrows_tried = False

    @property
    def kind(self) -> str:
        return "phone" if self.touch else "laptop"

    def shot(self, page: Any, name: str) -> None:
        """One screenshot of each kind per game (none when ``shots`` said so)."""
        if name not in self.shots and "*" not in self.shots:
            self.shots.add(name)
            ARTIFACTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(ARTIFACTS / f"{self.prefix}-{name}.png"))

    def round(self) -> int:
        return int(re.search(r"(\d+)", self.pages[0].locator(".bg-round").inner_text())[1])

    def press(self, page: Any, selector: str) -> None:
        """One move: a tap on a phone; on a laptop, Tab to it and Enter."""
        if self.touch:
            tapped(page, page.locator(selector).first, touch=True)
        else:
            tab_to(page, selector)
            pressed(page, "Enter")

    def play(self) -> None:
        for _ in range(400):
            newest = max(version(p) for p in self.pages)
            sync(self.pages, newest)
            if self.pages[0].locator(".bg-final").count():
                return
            if self.rounds is not None and self.round() > self.rounds:
                return
            for seat, page in enumerate(self.pages):
                if page.locator("#my-hand.bg-draft").count():
                    self.pick(page)
                    break
                if page.locator("#my-hand.bg-bench").count():
                    self.build(seat, page)
                    break
                if page.locator("#my-hand.bg-guessbox").count():
                    self.guess(seat, page)
                    break
            else:
                raise AssertionError("nobody has anything to do and the game is not over")
        raise AssertionError("the game did not finish")

    def pick(self, page: Any) -> None:
        """A block from the pool: a different one each time, so that every shape is built."""
        pool = page.locator("#my-hand .bg-pool-block:not([disabled])")
        key = pool.nth(self.picks * 5 % pool.count()).get_attribute("data-focus-key")
        self.picks += 1
        self.press(page, f"#my-hand [data-focus-key='{key}']")

    def build(self, seat: int, page: Any) -> None:
        where = f"{self.kind} seat {seat} build {self.builds}"
        check_bench(page, self.viewport, where)
        no_sideways_scroll(page, self.viewport, where)
        self.shot(page, "builder-empty")
        placed_before = len(placements(page, seat))
        while page.locator("#my-hand .bg-tray-block").count():
            if self.touch:
                tapped(page, page.locator("#my-hand .bg-tray-block").first, touch=True)
            else:  # the focus goes from one tray block to the next by itself
                tab_to(page, "#my-hand .bg-tray-block")
                pressed(page, "Enter")
            check_bench(page, self.viewport, where)
            if len(placements(page, seat)) == placed_before + 1:
                self.shot(page, "builder-one")
        if not self.touch and not self.arrows_tried:
            self.try_arrows(seat, page)
        if self.on_build:
            self.on_build(self, seat, page, where)
        assert page.locator("#my-hand .bg-valid").count() == 1, \
            f"{where}: not valid: {page.locator('#my-hand .bg-reasons').inner_text()}"
        check_bench(page, self.viewport, where)
        self.shot(page, "builder-valid")
        check_text(page)
        self.press(page, "#my-hand .bg-submit")
        self.builds += 1

    def try_arrows(self, seat: int, page: Any) -> None:
        """Arrow keys move the chosen block 1 unit, with Shift 10 (upwards: the chosen block
        is the last placed, with nothing on it); a floating block is marked where it floats;
        Enter settles it back against the build."""
        tab_to(page, "#my-hand .bg-board.mine")
        before = placements(page, seat)
        pressed(page, "ArrowUp")
        after = placements(page, seat)
        (moved,) = [b for b in after if after[b] != before[b]]
        x, y, angle, flip = before[moved]
        assert after[moved] == pytest.approx((x, y + 1, angle, flip))
        pressed(page, "Shift+ArrowUp")
        assert placements(page, seat)[moved] == pytest.approx((x, y + 11, angle, flip))
        note = page.locator(f"#bg-board-{seat} .bg-note[data-note='{moved}']")
        assert note.count() == 1 and note.text_content() == "floats"
        self.shot(page, "builder-floating")
        pressed(page, "Shift+ArrowDown")
        pressed(page, "ArrowDown")
        assert placements(page, seat)[moved] == pytest.approx(before[moved])
        pressed(page, "Shift+ArrowUp")
        pressed(page, "Enter")  # settles against the build
        assert page.locator(f"#bg-board-{seat} .bg-note").count() == 0
        # R turns it 15 degrees (and settles it), Shift+R back; Space chooses another block
        pressed(page, "r")
        assert placements(page, seat)[moved][2] == 345
        pressed(page, "Shift+R")
        assert placements(page, seat)[moved][2] == 0
        page.keyboard.press(" ")
        chosen = page.locator(f"#bg-board-{seat} .bg-block.selected").get_attribute("data-block")
        assert int(chosen) != moved
        assert page.evaluate("document.activeElement.dataset.focusKey") == "board"
        self.arrows_tried = True

    def guess(self, seat: int, page: Any) -> None:
        board_id = page.locator("#my-hand .bg-guess-board").get_attribute("id")
        builder = int(board_id.rsplit("-", 1)[1])
        stage = int(re.search(r"(?:Stage|Fase) (\d)", page.locator(".bg-round").inner_text())[1])
        where = f"{self.kind} seat {seat} guess {self.guesses}"
        check_guess(page, builder, self.viewport, where)
        no_sideways_scroll(page, self.viewport, where)
        self.shot(page, "guess")
        check_text(page)
        target = next(target_of(p, builder) for p in self.pages
                      if p.locator(f".bg-objects li[data-target-of~='{builder}']").count())
        right = builder % 2 == 0 or stage == 2
        choice = target if right else next(
            n for n in range(1, 8) if n != target
            and page.locator(f"[data-focus-key='guess-{builder}-{n}']").count())
        self.press(page, f"[data-focus-key='guess-{builder}-{choice}']")
        self.guesses += 1

    def finish(self) -> None:
        for page in self.pages:
            page.wait_for_selector(".bg-final")
            check_text(page)
            no_sideways_scroll(page, self.viewport, f"{self.kind} final")
        self.shot(self.pages[0], "final")
        verdict = self.pages[0].locator(".bg-final .verdict").inner_text()
        assert "Team 1" in verdict and "Team 2" not in verdict, verdict
        # 4 rounds: team 1 right at once (2 points), team 2 in the second stage (1 point)
        scores = self.pages[0].locator(".bg-scores").inner_text()
        assert "8 points" in scores and "4 points" in scores, scores
        self.close()

    def close(self) -> None:
        for page in self.pages:
            check_text(page)
            page.context.close()
