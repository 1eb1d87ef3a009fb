"""Debian's Chromium driven by Playwright (never a downloaded browser)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

CHROMIUM = "/usr/bin/chromium"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-quic", "--no-first-run", "--disable-sync"]


@contextmanager
def launch_chromium() -> Iterator:
    if not os.path.exists(CHROMIUM):
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail("Debian's chromium is missing; `python3 -m app test` installs it")
        pytest.skip("Debian's chromium is not installed")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=FLAGS)
        try:
            yield browser
        finally:
            browser.close()


def name_yourself(page, base: str, name: str, greeting: str) -> None:
    """On the home page, choose ``name`` (the session cookie) and wait for ``greeting``
    ("Hola, Ana" on a Spanish page)."""
    page.goto(base + "/")
    page.fill("#name", name)
    page.click("form[action='/session'] button")
    page.wait_for_selector(f"text={greeting}")


def sit_two_players(host, guest, base: str, game: str) -> str:
    """Through the pages as people do it: the host names themself ("Ana", Spanish page),
    creates a 2-seat table of ``game`` in the lobby; the guest ("Beto") opens the invite link,
    names themself and takes the free seat; the host starts. Returns the invite link."""
    name_yourself(host, base, "Ana", "Hola, Ana")
    host.select_option("#game-select", game)
    host.select_option("#seats-select", "2")
    host.click("#create-table button[type=submit]")
    host.wait_for_url("**/tables/*")
    invite = host.locator("#invite-url").input_value()
    assert "/join/" in invite
    guest.goto(invite)
    guest.fill("#name", "Beto")
    guest.click("form[action='/session'] button")
    # the invite link seats its visitor at once (no "Sit here" to click)
    guest.wait_for_selector("#seats .seat.mine")
    host.wait_for_selector("#start-button:not([disabled])")
    host.click("#start-button")
    return invite
