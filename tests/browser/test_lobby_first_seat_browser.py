"""Who starts, in the lobby's form: the game's catalogue offers every seat of its largest
table ("Asiento 1" to "Asiento 6" for Allegra), but a table offers its own seats only. A
choice past the table's last seat used to make a table whose host then got a server error
on "Start" (the server now refuses it when the table is made: tests/api/test_rest.py).
Checked in es at 390 px: the choices follow the number of players, a choice that still fits
is kept, one that does not goes back to "at random", and the table made keeps the seat
chosen. The tables listed in the lobby name their players as the language lists
them ("Ana y Beto")."""

from __future__ import annotations

import httpx
import pytest

from tests.browser.comfort import PHONE, open_as
from tests.support.client import ApiClient

pytestmark = pytest.mark.browser


def choices(page) -> list[str]:
    return page.eval_on_selector(
        "select[name=first_seat]", "(s) => [...s.options].map((o) => o.textContent)")


def test_who_starts_offers_the_seats_of_the_table(shared_server, browser) -> None:
    base = shared_server.url
    ana, beto = ApiClient(base, "Ana"), ApiClient(base, "Beto")
    context = open_as(browser, base, ana, PHONE, "es")
    page = context.new_page()
    page.goto(base + "/")
    page.select_option("#game-select", "allegra")
    page.select_option("#seats-select", "3")
    assert choices(page) == ["Al azar", "Asiento 1", "Asiento 2", "Asiento 3"]
    page.select_option("select[name=first_seat]", "2")
    page.select_option("#seats-select", "6")
    assert choices(page)[-1] == "Asiento 6" and len(choices(page)) == 7
    assert page.input_value("select[name=first_seat]") == "2"  # still a seat: kept
    page.select_option("select[name=first_seat]", "5")
    page.select_option("#seats-select", "2")
    assert choices(page) == ["Al azar", "Asiento 1", "Asiento 2"]
    assert page.input_value("select[name=first_seat]") == "random"  # past the last: gone
    # a game with other seat counts gets its own list
    page.select_option("#game-select", "hanabi")
    assert choices(page) == ["Al azar", "Asiento 1", "Asiento 2"]
    page.select_option("#seats-select", "4")
    page.select_option("select[name=first_seat]", "3")
    page.click("#create-table button[type=submit]")
    page.wait_for_url("**/tables/*")
    table_id = page.url.rsplit("/", 1)[1]
    table = httpx.get(f"{base}/api/tables/{table_id}", timeout=10).json()
    assert table["seat_count"] == 4 and table["options"]["first_seat"] == 3
    # the lobby lists it with its players as Spanish lists them
    invite = ana.request("GET", f"/api/tables/{table_id}").json()["invite_url"]
    assert beto.join(table_id, invite=invite.rsplit("/", 1)[1], seat=1).status_code == 200
    page.goto(base + "/")
    mine = page.locator(f"#my-tables li[data-table='{table_id}']")
    mine.wait_for()
    assert "Ana y Beto" in mine.inner_text()
    context.close()


def test_a_table_with_changed_settings_lines_up_with_the_others(shared_server, browser) -> None:
    """In the list of tables to join, a table whose host changed a setting ("Who starts:
    Seat 2") had its button pushed under the settings, at the left; the others' sit at the
    right. Now the facts and the settings share one column and every button sits beside it."""
    base = shared_server.url
    plain = ApiClient(base, "Pia").create_table("hanabi", 3)
    changed = ApiClient(base, "Cam").create_table("hanabi", 3, {"first_seat": 1, "fuses": 1})
    context = open_as(browser, base, ApiClient(base, "Lupe"), {"width": 1280, "height": 800},
                      "en")
    page = context.new_page()
    page.goto(base + "/")
    boxes = {}
    for name, table in (("plain", plain), ("changed", changed)):
        item = page.locator(f"#join-list li[data-table='{table['id']}']")
        item.wait_for()
        boxes[name] = {part: item.locator(selector).bounding_box() for part, selector in
                       (("button", "a.button"), ("facts", ".table-facts"))}
        if name == "changed":
            settings = item.locator(".settings-list").bounding_box()
            assert "Who starts" in item.inner_text()
    plain_button, changed_button = boxes["plain"]["button"], boxes["changed"]["button"]
    assert abs((plain_button["x"] + plain_button["width"])
               - (changed_button["x"] + changed_button["width"])) < 1
    # beside the facts and the settings, not under them
    assert changed_button["x"] > settings["x"] + settings["width"] - 1
    assert changed_button["y"] < settings["y"] + settings["height"]
    context.close()
