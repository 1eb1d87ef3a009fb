"""Two Chromium contexts: one creates a Hanabi table, the other joins through the invite
link on a phone-sized screen, and they play the whole game through the page."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from app.api.deps import TEST_SEED_HEADER
from tests.browser.comfort import act, connect, load_table, open_as, run, settle
from tests.support.browser import sit_two_players
from tests.support.client import ApiClient

pytestmark = pytest.mark.browser

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


def take_turn(page) -> bool:
    """Click one legal action if it is this page's turn; prefer discards (games end sooner)."""
    if page.locator("#banner.mine").count() == 0:
        return False
    for selector in ("button.discard:not([disabled])", "button.clue",
                         "button.play:not([disabled])"):
        buttons = page.locator(f"#game {selector}")
        if buttons.count():
            before = page.locator("#table-app").get_attribute("data-version")
            buttons.first.click()
            page.wait_for_function(
                "(before) => document.getElementById('table-app').dataset.version !== before",
                arg=before, timeout=10_000)
            return True
    raise AssertionError("my turn but no action button")


def test_two_browsers_join_by_invite_and_play_to_the_end(shared_server, browser) -> None:
    base = shared_server.url
    ARTIFACTS.mkdir(exist_ok=True)
    host_ctx = browser.new_context(viewport={"width": 1280, "height": 900},
                                   locale="es-ES")
    guest_ctx = browser.new_context(viewport={"width": 390, "height": 844},
                                    locale="en-US", is_mobile=True, has_touch=True)
    host = host_ctx.new_page()
    guest = guest_ctx.new_page()
    errors: list[str] = []
    for page in (host, guest):
        page.on("pageerror", lambda exc: errors.append(str(exc)))

    sit_two_players(host, guest, base, "hanabi")
    for page in (host, guest):
        page.wait_for_selector(".fireworks")

    # my own cards are backs; the other player's are faces
    assert guest.locator("#my-hand .hcard.back").count() == 5
    assert guest.locator(".hands-grid .hcard:not(.back)").count() == 5
    guest.screenshot(path=str(ARTIFACTS / "hanabi-phone.png"), full_page=True)
    for page in (host, guest):
        text = page.inner_text("body")
        assert "null" not in text and "undefined" not in text
    width = guest.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the phone layout scrolls sideways ({width}px)"

    for _ in range(200):
        if host.locator(".final").count() and guest.locator(".final").count():
            break
        if not (take_turn(host) or take_turn(guest)):
            host.wait_for_timeout(100)
    else:
        raise AssertionError("the game did not end")

    for page in (host, guest):
        assert page.locator(".final .verdict").inner_text().strip()
        assert page.locator("#log li").count() > 10  # every move is in the log
    assert "puntos de 25" in host.locator(".final").inner_text()
    assert "points out of 25" in guest.locator(".final").inner_text()
    host.screenshot(path=str(ARTIFACTS / "hanabi-final.png"), full_page=True)
    assert not errors, errors
    host_ctx.close()
    guest_ctx.close()


def test_lobby_fits_a_phone(shared_server, browser) -> None:
    page = browser.new_page(viewport={"width": 390, "height": 844})
    page.goto(shared_server.url + "/")
    page.fill("#name", "Pía")
    page.click("form[action='/session'] button")
    page.wait_for_selector("#create-table")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.screenshot(path=str(ARTIFACTS / "lobby-phone.png"), full_page=True)


def test_a_finished_game_asks_nobody_to_keep_a_last_copy(shared_server, browser) -> None:
    """Two players discard whenever they may (else clue) until the deck runs out: cards whose
    last copy is left were discarded, and the discard pile still marks them, but "don't
    discard it!" is over with the game."""
    base = shared_server.url
    players = [ApiClient(base, "Ana"), ApiClient(base, "Beto")]
    r = httpx.post(f"{base}/api/tables", timeout=10,
                   headers={**players[0].headers, TEST_SEED_HEADER: "5"},
                   json={"game": "hanabi", "seats": 2, "options": {"first_seat": 0}})
    assert r.status_code == 201, r.text
    table = r.json()
    assert players[1].join(table["id"], invite=table["invite_url"].rsplit("/", 1)[1],
                           seat=1).status_code == 200
    assert players[0].start(table["id"]).status_code == 200

    async def discard_out() -> None:
        clients = await connect(shared_server.ws_url, players, table["id"])
        try:
            while (await settle(clients))["table"]["status"] != "finished":
                mover = next(c for c in clients if c.state["seat"] in c.state["to_act"])
                legal = mover.state["legal_actions"]
                await act(mover, next((a for a in legal if a["type"] == "discard"),
                                      next(a for a in legal if a["type"] == "clue")))
        finally:
            for c in clients:
                await c.close()

    run(discard_out())
    page = open_as(browser, base, players[0], {"width": 390, "height": 844}).new_page()
    load_table(page, base, table["id"])
    assert page.locator(".final").count() == 1
    assert page.locator(".discards .last-copy").count() > 0
    assert page.locator(".last-copy-warning").count() == 0
