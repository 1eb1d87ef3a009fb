"""An invite link opened after the game has started: the visitor is told, before giving a
name, that the game is under way and that they can watch it (or watch at once without a
name), and on the table page that they are watching. An invite to a waiting table with a
free seat still asks the name and seats its visitor at once, with no such notice but who
invites them to which game, for how many, with a link to its rules; a private
table opened without its invite still admits nobody."""

from __future__ import annotations

import pytest

from tests.browser.comfort import PHONE
from tests.support.client import ApiClient

pytestmark = pytest.mark.browser


def started_table(base: str, private: bool) -> dict:
    host, guest = ApiClient(base, "Hostia"), ApiClient(base, "Beto")
    table = host.create_table("ikebana", 2, private=private)
    invite = table["invite_url"].rsplit("/", 1)[1]
    assert guest.join(table["id"], invite=invite, seat=1).status_code == 200
    assert host.start(table["id"]).status_code == 200
    return table


def fresh_page(browser, base: str, lang: str):
    context = browser.new_context(viewport=PHONE, locale="es-ES" if lang == "es" else "en-US")
    context.add_cookies([{"name": "lang", "value": lang, "url": base}])
    return context.new_page()


@pytest.mark.parametrize("private", [False, True])
def test_an_invite_to_a_started_game_says_so_before_the_name(worker_server, browser,
                                                              private: bool) -> None:
    base = worker_server.url
    table = started_table(base, private)
    page = fresh_page(browser, base, "es")
    page.goto(table["invite_url"])
    # before the name: the game is under way, you can watch
    note = page.locator("#invite-arrival")
    assert note.is_visible()
    assert "ya empezó" in note.inner_text() and "mirarla" in note.inner_text()
    assert page.locator("#name").is_visible()
    page.fill("#name", "Curiosa")
    page.click("form[action='/session'] button")
    # after: the table page says you are watching, and offers no seat
    page.wait_for_selector("#invite-watching")
    assert "la estás mirando" in page.locator("#invite-watching").inner_text()
    page.wait_for_function(
        "() => document.getElementById('banner').innerText.includes('Estás mirando')")
    assert page.locator("#seats .seat.mine").count() == 0
    assert page.locator("#seats button").count() == 0
    page.context.close()

    # or watch at once, without a name (English)
    page = fresh_page(browser, base, "en")
    page.goto(table["invite_url"])
    assert "already started" in page.locator("#invite-arrival").inner_text()
    page.click("#watch-without-name")
    page.wait_for_selector("#conn-status.ok", timeout=15_000)
    page.wait_for_function(
        "() => document.getElementById('banner').innerText.includes('You are watching')")
    assert page.locator("#private-note").count() == 0
    page.context.close()

    if private:  # without the invite (or the spectator link) the table still shows nothing
        page = fresh_page(browser, base, "es")
        page.goto(f"{base}/tables/{table['id']}")
        assert page.locator("#private-note").is_visible()
        assert page.locator("#watch-without-name").count() == 0
        assert page.locator("#table-app").count() == 0
        page.context.close()


def test_an_invite_with_a_free_seat_still_seats_at_once(worker_server, browser) -> None:
    """...and says, before the name, who invites to what: a newcomer arriving from a chat
    message knew only the game's name."""
    base = worker_server.url
    host = ApiClient(base, "Hostia")
    table = host.create_table("ikebana", 2)
    page = fresh_page(browser, base, "es")
    page.goto(table["invite_url"])
    assert page.locator("#invite-arrival").count() == 0
    assert page.locator("#watch-without-name").count() == 0
    # before the name: who invites, to which game, for how many, and the way to its rules
    assert page.locator("#invite-welcome").inner_text() == (
        "Hostia te invita a una partida de Ikebana para 2 jugadores. "
        "Queda un asiento libre: di tu nombre y te sentarás a la mesa.")
    assert page.get_by_role("link", name="Reglas de Ikebana").get_attribute("href") \
        == "/rules/ikebana"
    page.fill("#name", "Invitada")
    page.click("form[action='/session'] button")
    page.wait_for_selector("#seats .seat.mine")
    assert page.locator("#invite-watching").count() == 0
    page.context.close()

    # the table is full now: a later visitor is told so, and watches
    page = fresh_page(browser, base, "en")
    page.goto(table["invite_url"])
    assert "Every seat" in page.locator("#invite-arrival").inner_text()
    assert page.locator("#invite-welcome").count() == 0
    page.fill("#name", "Late")
    page.click("form[action='/session'] button")
    page.wait_for_selector("#conn-status.ok", timeout=15_000)
    page.wait_for_function(
        "() => document.getElementById('banner').innerText.includes('Every seat is taken')")
    assert page.locator("#seats .seat.mine").count() == 0
    page.context.close()


def test_the_invite_counts_the_free_seats_in_english(worker_server, browser) -> None:
    base = worker_server.url
    host = ApiClient(base, "Hostia")
    table = host.create_table("alebrijes", 4)
    page = fresh_page(browser, base, "en")
    page.goto(table["invite_url"])
    assert page.locator("#invite-welcome").inner_text() == (
        "Hostia invites you to a game of Alebrijes for 4 players. "
        "3 seats are free: give your name and you will take one.")
    assert page.get_by_role("link", name="Alebrijes rules").count() == 1
    assert page.locator("body").evaluate("(b) => b.scrollWidth <= innerWidth")
    page.context.close()
