"""Cross-site requests from a real Chromium: a page of another site (served by Playwright as
``http://evil.test``) posts the name form and calls the API of a player signed in here;
nothing is created, the form gets the translated refusal, and our own pages still work."""

from __future__ import annotations

import httpx
import pytest

pytestmark = pytest.mark.browser

FORGE_FORM = """(target) => {
  const form = document.createElement("form");
  form.method = "post";
  form.action = target + "/session";
  for (const [name, value] of [["name", "Forged"], ["next", "/"]]) {
    const input = document.createElement("input");
    input.name = name; input.value = value; form.append(input);
  }
  document.body.append(form);
  form.submit();
}"""

FORGE_FETCH = """async (target) => {
  for (const [method, path] of [["POST", "/api/tables"], ["POST", "/api/players"]]) {
    await fetch(target + path, { method, mode: "no-cors", credentials: "include",
      headers: { "Content-Type": "text/plain" },
      body: JSON.stringify({ game: "hanabi", seats: 2, name: "Forged" }) }).catch(() => null);
  }
}"""


def tables(base: str) -> list[dict]:
    return httpx.get(base + "/api/tables", timeout=10).json()


def test_another_site_cannot_act_for_the_player(shared_server, browser) -> None:
    base = shared_server.url  # http://127.0.0.1:PORT
    context = browser.new_context(locale="es-ES")
    page = context.new_page()
    # signed in here, through our own form (same origin: accepted)
    page.goto(base + "/")
    page.fill("#name", "Víctima")
    page.click("form[action='/session'] button")
    page.wait_for_selector(".hello")
    cookie = next(c for c in context.cookies(base) if c["name"] == "ludoteca_player")
    assert cookie["httpOnly"] and cookie["sameSite"] == "Lax"
    before = len(tables(base))

    # the other site forges API calls with the player's browser: no table, no player
    page.route("http://evil.test/**", lambda route: route.fulfill(
        body="<!doctype html><title>Free cards</title><body></body>",
        content_type="text/html"))
    page.goto("http://evil.test/")
    page.evaluate(FORGE_FETCH, base)
    assert len(tables(base)) == before

    # and a forged name form: refused with a page in the reader's language, no new cookie
    with page.expect_navigation():
        page.evaluate(FORGE_FORM, base)
    assert "no salió de una página de Ludoteca" in page.inner_text("body")
    after = next(c for c in context.cookies(base) if c["name"] == "ludoteca_player")
    assert after["value"] == cookie["value"]

    # our own page still acts: the lobby creates a table through api.js
    page.goto(base + "/")
    page.select_option("#game-select", "hanabi")
    page.select_option("#seats-select", "2")
    page.click("#create-table button[type=submit]")
    page.wait_for_url("**/tables/*")
    assert len(tables(base)) == before + 1
    context.close()
