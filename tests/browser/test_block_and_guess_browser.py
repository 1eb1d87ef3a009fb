"""Three Chromium pages play a round of Block and Guess: the host creates a 3-seat table in the
lobby, two guests join by the invite link (one on a phone), the builders draft blocks with
the pool buttons, the host drags a block onto the board with the mouse and turns it (the
guesser's page shows the drag live and the result), both builds are finished and submitted,
the guesser asks where the front is, the builder marks it, and the guesser guesses both builds
(one at a time, switching between them). Targets show on the builders' pages only."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from app.games.block_and_guess import geometry as geo
from tests.browser.bg_pages import placements
from tests.browser.comfort import run
from tests.integration.test_block_and_guess_live import play_to_end
from tests.support.client import SeatClient, seat_players

pytestmark = pytest.mark.browser

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
PHONE = 390


def version(page) -> str:
    return page.locator("#table-app").get_attribute("data-version")


def act(page, locator) -> None:
    """Click and wait for the next table version on this page."""
    before = version(page)
    locator.click()
    page.wait_for_function(
        "(before) => document.getElementById('table-app').dataset.version !== before",
                           arg=before, timeout=10_000)


def screen(page, builder: int, x: float, y: float) -> tuple[float, float]:
    """Where board point (x, y) (y up) is on the screen."""
    return tuple(page.evaluate("""([b, x, y, h]) => {
        const svg = document.getElementById(`bg-board-${b}`);
        const p = svg.createSVGPoint(); p.x = x; p.y = h - y;
        const q = p.matrixTransform(svg.getScreenCTM()); return [q.x, q.y]; }""",
                               [builder, x, y, geo.BOARD_H]))


def check_page(page, phone: bool) -> None:
    text = page.inner_text("body")
    assert "null" not in text and "undefined" not in text, text
    assert "block-and-guess." not in text, "a catalogue key was shown instead of its text"
    if phone:
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE, f"the phone layout scrolls sideways ({width}px)"


def join(page, invite: str, name: str) -> None:
    page.goto(invite)
    page.fill("#name", name)
    page.click("form[action='/session'] button")
    # the invite link seats its visitor at once (no "Sit here" to click)
    page.wait_for_selector("#seats .seat.mine")


def test_three_browsers_build_with_the_mouse_and_guess(shared_server, browser) -> None:
    base = shared_server.url
    ARTIFACTS.mkdir(exist_ok=True)
    contexts = [
        browser.new_context(viewport={"width": 1280, "height": 900}, locale="es-ES"),
        browser.new_context(viewport={"width": PHONE, "height": 844}, locale="en-US",
                            is_mobile=True, has_touch=True),
        browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-US"),
    ]
    host, phone, guesser = (c.new_page() for c in contexts)
    errors: list[str] = []
    for p in (host, phone, guesser):
        p.on("pageerror", lambda exc: errors.append(str(exc)))

    host.goto(base + "/")
    host.fill("#name", "Ana")
    host.click("form[action='/session'] button")
    host.wait_for_selector("text=Hola, Ana")
    host.select_option("#game-select", "block-and-guess")
    host.select_option("#seats-select", "3")
    host.select_option("select[name=first_seat]", "0")  # Ana and Beto build first
    host.click("#create-table button[type=submit]")
    host.wait_for_url("**/tables/*")
    invite = host.locator("#invite-url").input_value()
    join(phone, invite, "Beto")
    join(guesser, invite, "Cleo")
    host.wait_for_selector("#start-button:not([disabled])")
    host.click("#start-button")
    for p in (host, phone, guesser):
        p.wait_for_selector(".bg-clue")
        assert p.locator(".bg-board").count() == 2
    assert "Ronda 1 de 6" in host.locator(".bg-round").inner_text()
    assert "no bots" in guesser.locator(".bg-no-bots").inner_text()
    # the builders know the objects, the guesser does not
    assert host.locator(".bg-target").count() >= 1
    assert phone.locator(".bg-target").count() >= 1
    assert guesser.locator(".bg-target").count() == 0
    check_page(phone, phone=True)

    # the draft: whoever has enabled pool buttons chooses for the other builder
    for _ in range(12):
        if host.locator(".bg-draft").count() == 0:
            break
        for p in (host, phone):
            enabled = p.locator(".bg-pool-block:not([disabled])")
            if enabled.count():
                act(p, enabled.first)
                break
        host.wait_for_timeout(100)
    host.wait_for_selector("#my-hand .bg-tray-block")
    card = int(re.search(r"(\d+)", host.locator(".bg-construction strong").inner_text())[1])
    host.screenshot(path=str(ARTIFACTS / "block-and-guess-host-build.png"), full_page=True)
    phone.wait_for_selector("#my-hand .bg-tray-block")
    check_page(phone, phone=True)
    phone.screenshot(path=str(ARTIFACTS / "block-and-guess-phone-build.png"))

    # Ana drags her first block onto the board with the mouse
    tray = host.locator("#my-hand .bg-tray-block").first
    block = tray.get_attribute("data-block")
    tray.scroll_into_view_if_needed()
    box = tray.bounding_box()
    host.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    host.mouse.down()
    board = host.locator("#bg-board-0")
    board.scroll_into_view_if_needed()
    target = board.bounding_box()
    x, y = target["x"] + target["width"] * 0.3, target["y"] + target["height"] * 0.5
    host.mouse.move(x, y, steps=12)
    host.wait_for_timeout(150)
    host.mouse.move(x + 10, y, steps=4)
    # the guesser watches the block move before it is dropped
    guesser.wait_for_selector(f"#bg-board-0 .bg-live[data-block='{block}']", timeout=10_000)
    before = version(host)
    host.mouse.up()
    host.wait_for_function("(b) => document.getElementById('table-app').dataset.version !== b",
                           arg=before, timeout=10_000)
    placed = guesser.locator(f"#bg-board-0 [data-block='{block}']:not(.bg-live)")
    placed.wait_for()
    assert "rotate(0)" in placed.get_attribute("transform")
    # dragged down to 4 units above the table, it snaps onto the table (mode 10 mirrors
    # only sideways moves; mode 11 hides it, so it is grabbed where it is drawn for all)
    x0, y0, _, _ = placements(host, 0)[int(block)] if card != 11 else \
        placements(guesser, 0)[int(block)]
    if card != 11:
        low = -geo.footprint(int(block), 0, False)[1]  # its centre's height on the table
        start, end = screen(host, 0, x0, y0), screen(host, 0, x0, low + 4)
        host.mouse.move(*start)
        host.mouse.down()
        host.mouse.move(*end, steps=8)
        before = version(host)
        host.mouse.up()
        host.wait_for_function(
            "(b) => document.getElementById('table-app').dataset.version !== b",
            arg=before, timeout=10_000)
        x1, y1, _, _ = placements(host, 0)[int(block)]
        assert x1 == pytest.approx(x0, abs=0.5) and y1 == pytest.approx(low, abs=0.011)
    if card != 4:  # card 4: no rotation this round
        act(host, host.locator("[data-focus-key=rotate-right]"))
        guesser.wait_for_function(
            "(b) => !document.querySelector(`#bg-board-0 [data-block='${b}']`)"
            ".getAttribute('transform').includes('rotate(0)')", arg=block)
    # start again from the tray: each press places a block where the server suggests
    act(host, host.locator("[data-focus-key=remove]"))
    for p in (host, phone):
        for _ in range(6):
            items = p.locator("#my-hand .bg-tray-block")
            if not items.count():
                break
            act(p, items.first)
        p.wait_for_selector("#my-hand .bg-valid")
        check_page(p, phone=p is phone)
        act(p, p.locator("[data-focus-key=submit]"))
    guesser.wait_for_selector(".bg-guessbox")
    assert guesser.locator(".bg-guessbox .bg-switch button").count() == 2
    check_page(guesser, phone=False)
    guesser.screenshot(path=str(ARTIFACTS / "block-and-guess-guesser.png"), full_page=True)
    phone.screenshot(path=str(ARTIFACTS / "block-and-guess-phone.png"), full_page=True)

    # "which side is the front?" and Beto's answer
    guesser.click("[data-focus-key=switch-1]")  # the second build to guess
    act(guesser, guesser.locator("[data-focus-key=ask-1]"))
    phone.wait_for_selector(".bg-question")
    act(phone, phone.locator("[data-focus-key=front-left]"))
    guesser.wait_for_selector("#bg-board-1 .bg-front")
    assert "left" in guesser.locator("#bg-board-1 .bg-front").text_content()

    # one guess for each build: the first object still open
    for builder in (0, 1):
        if guesser.locator(f"[data-focus-key=switch-{builder}]").count():
            guesser.click(f"[data-focus-key=switch-{builder}]")
        act(guesser, guesser.locator(f"[data-focus-key^='guess-{builder}-']").first)
    host.wait_for_function("() => document.querySelector('#log').innerText.includes('acierta')"
                           " || document.querySelector('#log').innerText.includes('falla')")
    assert guesser.locator(".bg-guessbox").count() == 0
    text = guesser.inner_text("#log")
    assert "Cleo" in text and ("right" in text or "wrong" in text)
    check_page(phone, phone=True)
    rules = contexts[1].new_page()
    rules.goto(base + "/rules/block-and-guess")
    assert "no bots" in rules.inner_text("main")
    check_page(rules, phone=True)
    assert not errors, errors
    for c in contexts:
        c.close()


def test_a_finished_game_shows_results_and_the_chart(shared_server, browser) -> None:
    """Four players finish a game over WebSockets; a fifth person opens the table page."""
    players, table, _ = seat_players(shared_server.url, "block-and-guess", 4)

    async def play() -> dict:
        clients = [SeatClient(shared_server.ws_url, table["id"], p.token) for p in players]
        for c in clients:
            await c.open()
        assert players[0].start(table["id"]).status_code == 200
        for c in clients:
            await c.wait_status("playing")
        final = await play_to_end(clients, random.Random(3))
        for c in clients:
            await c.close()
        return final

    final = run(play())
    rounds = len(final["view"]["results"])
    context = browser.new_context(viewport={"width": PHONE, "height": 844}, locale="en-US")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"{shared_server.url}/tables/{table['id']}")
    page.fill("#name", "Zoe")
    page.click("form[action='/session'] button")
    page.wait_for_selector(".bg-final")
    assert "Winners" in page.locator(".bg-final .verdict").inner_text()
    assert page.locator(".bg-final .score-chart").count() == 1
    assert page.locator(".bg-results > ol > li").count() == rounds
    assert page.locator("#game button").count() == 0
    check_page(page, phone=True)
    page.screenshot(path=str(ARTIFACTS / "block-and-guess-final-phone.png"), full_page=True)
    assert not errors, errors
    context.close()
