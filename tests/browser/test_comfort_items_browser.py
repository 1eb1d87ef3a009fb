"""The numbered items of issue 14 in Chromium, one by one: Hanabi clues highlighted and their
slots in the log, card notes kept across reloads, shortcuts; a double tap sends once; invites
seat at once, private tables say so; delete asks first; the lobby lists your tables first
with a "your turn" mark and the open tables before the create form, changes your name and
answers a name of spaces; /docs and /redoc run from this server, asking no other host."""

from __future__ import annotations

import random

import pytest

from tests.browser.comfort import LAPTOP, PHONE, load_table, new_table, open_as, run, split_turns
from tests.support.client import ApiClient

pytestmark = pytest.mark.browser


def version(page) -> str:
    return page.locator("#table-app").get_attribute("data-version")


def wait_newer(page, before: str) -> None:
    page.wait_for_function("(v) => document.getElementById('table-app').dataset.version !== v",
                           arg=before, timeout=10_000)


def test_hanabi_clues_notes_shortcuts_and_double_taps(shared_server, browser) -> None:
    base = shared_server.url
    players = [ApiClient(base, "Ana"), ApiClient(base, "Beto")]
    table_id = new_table(players, "hanabi", start=True)  # seat 0 plays first
    ana = open_as(browser, base, players[0], LAPTOP).new_page()
    beto = open_as(browser, base, players[1], PHONE).new_page()
    for page in (ana, beto):
        load_table(page, base, table_id)

    # Ana clues by keyboard the number of Beto's first card: C goes to the clue buttons,
    # Tab to that number, Enter gives it
    rank = ana.locator(".hands-grid .slot svg text").first.inner_html().strip()
    before = version(ana)
    ana.mouse.click(1, 1)
    ana.keyboard.press("c")
    assert ana.evaluate("document.activeElement.classList.contains('clue')")
    for _ in range(12):
        if ana.evaluate("(r) => document.activeElement.classList.contains('rank')"
                        " && document.activeElement.textContent === r", rank):
            break
        ana.keyboard.press("Tab")
    ana.keyboard.press("Enter")
    wait_newer(ana, before)
    wait_newer(beto, before)
    line = ana.locator("#log li").last.inner_text()
    assert "→" in line and ("posición" in line or "posiciones" in line), line
    # Beto sees the clued cards of his hand highlighted, as many as the log names
    clued = beto.locator("#my-hand .clued-now").count()
    assert clued >= 1
    assert ana.evaluate("document.getElementById('game').contains(document.activeElement)")

    # Beto writes a note on his first card; it is there again after a reload
    beto.locator("#my-hand .card-button").first.click()
    beto.fill("#hanabi-note", "quizá rojo, guárdala")
    beto.keyboard.press("Enter")
    assert "quizá rojo" in beto.locator("#my-hand").inner_text()
    beto.reload()
    load_table(beto, base, table_id)
    assert "quizá rojo" in beto.locator("#my-hand").inner_text()
    # a card whose caption runs longer (the note) keeps its buttons in line with the others'
    tops = beto.evaluate("""() => [...document.querySelectorAll('#my-hand .card-actions')]
      .map((b) => Math.round(b.getBoundingClientRect().top))""")
    assert len(set(tops)) == 1, f"the hand's buttons are not in one row: {tops}"

    # Beto's turn: two taps on Discard before the answer send one move, and no error shows
    before = version(beto)
    beto.evaluate("""() => {
        const b = document.querySelector('#my-hand button.discard:not([disabled])');
        b.click(); b.click(); }""")
    wait_newer(beto, before)
    beto.wait_for_timeout(800)
    assert int(version(beto)) == int(before) + 1
    assert beto.locator("#error").inner_text().strip() == ""

    # Ana by shortcut (all clue tokens are back, so no discarding): 2 goes to her second
    # card, D does nothing, P plays it
    before = version(ana)
    ana.keyboard.press("2")
    ana.keyboard.press("d")
    ana.wait_for_timeout(300)
    assert version(ana) == before
    ana.keyboard.press("p")
    wait_newer(ana, before)
    assert "juega" in ana.locator("#log li").last.inner_text()
    ana.context.close()
    beto.context.close()


def test_invites_seat_at_once_private_tables_say_so_delete_asks(shared_server, browser) -> None:
    base = shared_server.url
    host = ApiClient(base, "Hostia")
    table = host.create_table("ikebana", 2, private=True)
    context = browser.new_context(viewport=PHONE, locale="es-ES")
    guest = context.new_page()
    # opened without its invite: nobody can sit, and the page says why
    guest.goto(base + "/")
    guest.fill("#name", "Invitada")
    guest.click("form[action='/session'] button")
    guest.wait_for_selector("#create-table")
    guest.goto(f"{base}/tables/{table['id']}")
    guest.wait_for_selector("#private-note")
    assert guest.locator("#seats button").count() == 0
    # with the invite link: seated at once, told the host will start
    guest.goto(table["invite_url"])
    guest.wait_for_selector("#seats .seat.mine")
    guest.wait_for_function(
        "() => document.getElementById('banner').innerText.includes('Hostia')")
    assert "versión" not in guest.inner_text("body")
    context.close()

    host_page = open_as(browser, base, host, LAPTOP).new_page()
    load_table(host_page, base, table["id"])
    host_page.click("#delete-button")
    host_page.wait_for_selector("#delete-yes")
    assert host.request("GET", f"/api/tables/{table['id']}").status_code == 200
    host_page.click("#delete-no")
    host_page.wait_for_selector("#delete-button")
    host_page.click("#delete-button")
    host_page.click("#delete-yes")
    host_page.wait_for_url(base + "/")
    assert host.request("GET", f"/api/tables/{table['id']}").status_code == 404
    host_page.context.close()


def test_lobby_your_tables_first_rename_and_a_name_of_spaces(shared_server, browser) -> None:
    base = shared_server.url
    players = [ApiClient(base, "Uma"), ApiClient(base, "Vera")]
    table_id = new_table(players, "hanabi", start=True)
    turn, _ = run(split_turns(shared_server.ws_url, players, table_id, random.Random(5)))
    page = open_as(browser, base, players[turn], PHONE).new_page()
    page.goto(base + "/")
    page.wait_for_selector("#my-tables li.your-turn .turn-badge")
    assert page.locator("h1").count() == 1
    # the open tables come before the create form: in view on a phone without scrolling
    box = page.locator("#open-tables-title").bounding_box()
    assert box is not None and box["y"] + box["height"] <= PHONE["height"]
    form = page.locator("#create-table").bounding_box()
    assert form is not None and form["y"] > box["y"]

    page.click("#rename-box summary")
    page.fill("#new-name", "    ")
    page.click("#rename button[type=submit]")
    assert "espacios" in page.locator("#rename-error").inner_text()
    page.fill("#new-name", "Zoe")
    page.click("#rename button[type=submit]")
    page.wait_for_function("() => document.getElementById('hello').innerText.includes('Zoe')")
    load_table(page, base, table_id)
    page.wait_for_selector("#seats .seat.mine >> text=Zoe")
    page.context.close()

    # a newcomer typing only spaces is told why, in their language
    context = browser.new_context(viewport=PHONE, locale="en-US")
    fresh = context.new_page()
    fresh.goto(base + "/")
    fresh.fill("#name", "   ")
    fresh.click("form[action='/session'] button")
    fresh.wait_for_selector("#name-error")
    assert "spaces" in fresh.locator("#name-error").inner_text()
    context.close()


def test_api_docs_run_from_this_server(shared_server, browser) -> None:
    from app.api.pages import redoc_available, swagger_ui_dir

    if swagger_ui_dir() is None or not redoc_available():
        pytest.skip("fastapi-offline is not installed")
    context = browser.new_context()
    page = context.new_page()
    outside: list[str] = []
    page.on("request", lambda r: outside.append(r.url)
            if not r.url.startswith(shared_server.url) and not r.url.startswith("data:") else None)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.goto(shared_server.url + "/docs")
    page.wait_for_selector(".opblock", timeout=15_000)
    page.goto(shared_server.url + "/redoc")
    page.wait_for_selector("text=\"/api/tables\"", timeout=15_000)
    page.wait_for_load_state("networkidle")
    assert not errors, errors
    # nothing from another host, not even ReDoc's menu logo (ours is served instead), so
    # the CSP has nothing to refuse and the console stays clean
    assert not outside, outside
    assert page.locator("img[src='/static/img/logo.svg']").count() >= 1
    context.close()
