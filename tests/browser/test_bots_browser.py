"""Bots from the table page in Chromium: the host creates an Ikebana table in the lobby,
seats a bot in each free seat with the page's buttons, removes one and seats it again, gives
their own seat to a bot and watches the table play itself to the final ranking."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.browser import name_yourself

pytestmark = pytest.mark.browser

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


def test_the_host_fills_the_table_with_bots_and_watches_it_play(shared_server, browser) -> None:
    base = shared_server.url
    ARTIFACTS.mkdir(exist_ok=True)
    page = browser.new_context(viewport={"width": 390, "height": 844}, locale="es-ES",
                               is_mobile=True, has_touch=True).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    name_yourself(page, base, "Ana", "Hola, Ana")
    page.select_option("#game-select", "ikebana")
    page.select_option("#seats-select", "3")
    page.click("#more-options summary")  # the bots' pause is among the folded settings
    page.fill("#create-table input[name=bot_delay]", "0")
    page.click("#create-table button[type=submit]")
    page.wait_for_url("**/tables/*")

    page.get_by_role("button", name="Poner un bot").first.click()
    page.wait_for_selector("#seats .badge.bot")
    page.get_by_role("button", name="Quitar el bot").click()
    page.wait_for_function("() => document.querySelectorAll('#seats .badge.bot').length === 0")
    for n in (1, 2):
        page.get_by_role("button", name="Poner un bot").first.click()
        page.wait_for_function(
            f"() => document.querySelectorAll('#seats .badge.bot').length === {n}")
    names = page.locator("#seats .seat-name").all_inner_texts()
    assert names[1:] == ["Bot 1", "Bot 2"]
    page.screenshot(path=str(ARTIFACTS / "bots-waiting-phone.png"), full_page=True)
    page.get_by_role("button", name="Dar mi asiento a un bot y mirar").click()
    page.wait_for_function(
        "() => document.querySelectorAll('#seats .badge.bot').length === 3")
    page.click("#start-button")
    # nobody at the table is a person: the bots play all four rounds by themselves
    page.wait_for_selector("#seats h2:has-text('Terminada'), #seats h2:has-text('terminada')",
                           timeout=120_000)
    page.screenshot(path=str(ARTIFACTS / "bots-finished-phone.png"), full_page=True)
    text = page.inner_text("body")
    assert "Bot 1" in text and "Bot 3" in text
    assert not errors, errors
