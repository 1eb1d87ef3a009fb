"""One room, in Chromium: a table screen on the TV, the host on a laptop and two phones
(390×844) play a whole game of Hanabi. The phones join by the QR code on the screen (decoded
from the SVG the screen shows, as a phone's camera would) and play in the compact "my hand"
layout; the host carries their seat to a second phone with "continue on another device"
(its QR code decoded too), and both of the host's devices play for the same seat. Screenshots
in test-artifacts/room-*.png."""

from __future__ import annotations

import base64
from pathlib import Path
from typing import Any

import pytest

from tests.browser.test_hanabi_browser import take_turn
from tests.support.qr import decode_svg

pytestmark = pytest.mark.browser

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
PHONE = {"width": 390, "height": 844}


def new_page(browser: Any, viewport: dict[str, int], problems: list[str], lang: str = "es") -> Any:
    phone = viewport["width"] < 500
    context = browser.new_context(viewport=viewport, locale="es-ES" if lang == "es" else "en-US",
                                  is_mobile=phone, has_touch=phone)
    page = context.new_page()
    page.on("pageerror", lambda exc: problems.append(str(exc)))
    return page


def name_myself(page: Any, name: str) -> None:
    page.fill("#name", name)
    page.click("form[action='/session'] button")


def no_sideways_scroll(page: Any) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], f"the page scrolls sideways ({width}px)"


def test_a_screen_a_host_and_two_phones_play_a_game_in_one_room(shared_server, browser) -> None:
    base = shared_server.url
    ARTIFACTS.mkdir(exist_ok=True)
    problems: list[str] = []
    host = new_page(browser, {"width": 1280, "height": 900}, problems)
    host.goto(base + "/")
    name_myself(host, "Ana")
    host.select_option("#game-select", "hanabi")
    host.select_option("#seats-select", "3")
    host.click("#create-table button[type=submit]")
    host.wait_for_url("**/tables/*")
    table_id = host.url.rstrip("/").rsplit("/", 1)[1]
    # the waiting room shows the invite as a QR code too
    host.wait_for_selector("#invite-qr")
    invite = host.locator("#invite-url").input_value()

    # the host opens the table screen on the TV (a browser with no identity)
    screen_url = host.locator("#screen-link").get_attribute("href")
    tv = new_page(browser, {"width": 1920, "height": 1080}, problems)
    tv.goto(screen_url)
    tv.wait_for_selector("#screen-app[data-version]")
    joined = decode_svg(tv.locator("#screen-qr svg").evaluate("n => n.outerHTML"))
    assert joined == invite + "?room=1"

    # two phones scan it: a name once, and they are seated
    phones = []
    for name in ("Beto", "Carla"):
        phone = new_page(browser, PHONE, problems, lang="en")
        phone.goto(joined)
        name_myself(phone, name)
        phone.wait_for_selector("#seats .seat.mine")
        phones.append(phone)
    tv.wait_for_function(
        "() => document.querySelectorAll('#screen-waiting li.taken').length === 3")
    tv.screenshot(path=str(ARTIFACTS / "room-screen-waiting.png"))
    host.wait_for_selector("#start-button:not([disabled])")
    host.click("#start-button")

    tv.wait_for_selector("#screen-app[data-status='playing']")
    for phone in phones:
        # came from the screen: the compact layout, the public board left to the TV
        phone.wait_for_selector("#table-app.my-hand-only #my-hand")
        assert phone.locator("#compact-toggle").get_attribute("aria-pressed") == "true"
        assert not phone.locator(".fireworks").is_visible()
        assert not phone.locator(".discards").is_visible()
        assert phone.locator(".hands-grid").is_visible()  # the others' cards: mine to see
        no_sideways_scroll(phone)
        # big touch targets
        box = phone.locator("#my-hand button.play").first.bounding_box()
        assert box["height"] >= 56
    phones[0].screenshot(path=str(ARTIFACTS / "room-phone-compact.png"), full_page=True)
    # the whole board is a tap away
    phones[1].click("#compact-toggle")
    phones[1].wait_for_selector("#table-app:not(.my-hand-only) .fireworks")
    phones[1].screenshot(path=str(ARTIFACTS / "room-phone-full.png"), full_page=True)
    phones[1].click("#compact-toggle")
    phones[1].wait_for_selector("#table-app.my-hand-only")
    # the laptop that did not come by the screen keeps the whole board
    assert host.locator(".fireworks").is_visible()

    # the host continues on a second device: its QR code, decoded, opened there
    host.click("#handoff-button")
    host.wait_for_selector("#handoff-qr")
    data = host.locator("#handoff-qr").get_attribute("src")
    link = decode_svg(base64.b64decode(data.split(",", 1)[1]).decode())
    assert link == host.locator("#handoff-url").input_value()
    host_phone = new_page(browser, PHONE, problems)
    host_phone.goto(link)
    host_phone.click("#handoff-submit")
    host_phone.wait_for_url(f"**/tables/{table_id}")
    host_phone.wait_for_selector("#seats .seat.mine")
    assert "Ana" in host_phone.locator("#seats .seat.mine").inner_text()
    # the link was good once: another phone gets a clear page, no seat
    stranger = new_page(browser, PHONE, problems)
    stranger.goto(link)
    assert stranger.locator("#page-error").is_visible()
    stranger.goto(f"{base}/tables/{table_id}")
    assert stranger.locator("#seats .seat.mine").count() == 0
    stranger.context.close()

    # everyone plays; the host from either device (the same seat, the same rules)
    pages = [host_phone, host, *phones]
    host_phone_moves = 0
    for _ in range(400):
        if tv.locator("#screen-app[data-status='finished']").count():
            break
        moved = False
        for page in pages:
            if take_turn(page):
                moved = True
                host_phone_moves += page is host_phone
                break
        if not moved:
            host.wait_for_timeout(100)
    else:
        raise AssertionError("the game did not end")
    assert host_phone_moves > 0

    tv.wait_for_selector("#screen-board .final")
    tv.wait_for_timeout(300)
    assert "puntos de 25" in tv.locator("#screen-board .final").inner_text()
    tv.screenshot(path=str(ARTIFACTS / "room-screen-end.png"))
    for page in (host, host_phone, *phones):
        page.wait_for_selector("#game .final")
    phones[0].screenshot(path=str(ARTIFACTS / "room-phone-end.png"), full_page=True)
    assert not problems, problems
