"""Alebrijes in Chromium at the end of a game (pinned deal, three players, random legal
moves): the page showed only the last round's points, so a player could not check the
totals, nor see why a hand was worth what it was. Now every round is listed with each
player's points, running total and the highest card of each suit that made the points;
the numbers add up to the totals in the players' table."""

from __future__ import annotations

import random
import re

import pytest

from tests.browser.comfort import (
    LAPTOP,
    PHONE,
    finish,
    load_table,
    open_as,
    run,
    seeded_table,
)
from tests.support.browser import launch_chromium
from tests.support.client import ApiClient

pytestmark = pytest.mark.browser

NAMES = ("Ana", "Beto", "Celia")
LINE = {"es": re.compile(r"^(.+?)(?: \(tú\))?: (-?\d+) \(total (-?\d+)\)$"),
        "en": re.compile(r"^(.+?)(?: \(you\))?: (-?\d+) \(total (-?\d+)\)$")}
WHY = {"es": "La carta más alta de cada pinta: ", "en": "Highest card of each suit: "}


@pytest.fixture(scope="module")
def browser():
    with launch_chromium() as chromium:
        yield chromium


@pytest.fixture(scope="module")
def finished(shared_server) -> tuple[list[ApiClient], str]:
    players = [ApiClient(shared_server.url, name) for name in NAMES]
    table_id = seeded_table(players, "alebrijes", 5, {"first_seat": 0})
    run(finish(shared_server.ws_url, players, table_id, random.Random(5)))
    return players, table_id


@pytest.mark.parametrize(("viewport", "lang"), [(PHONE, "es"), (LAPTOP, "en")],
                         ids=["phone-es", "laptop-en"])
def test_every_round_is_shown_and_adds_up(shared_server, browser, finished, viewport,
                                          lang) -> None:
    players, table_id = finished
    page = open_as(browser, shared_server.url, players[0], viewport, lang).new_page()
    try:
        load_table(page, shared_server.url, table_id)
        page.wait_for_selector(".ab-final")
        rounds = page.locator(".ab-rounds .ab-round")
        assert rounds.count() == 3
        summed = dict.fromkeys(NAMES, 0)
        for r in range(3):
            for item in rounds.nth(r).locator("li").all():
                line = item.locator(".ab-round-points").inner_text().strip()
                name, points, total = LINE[lang].match(line).groups()
                why = item.locator(".ab-breakdown").inner_text().strip()
                assert why.startswith(WHY[lang]), why
                values = [int(n) for n in re.findall(r"\d+", why[len(WHY[lang]):])]
                assert -sum(values) == int(points), (line, why)
                summed[name] += int(points)
                assert summed[name] == int(total), (line, summed)
        table = {row.locator("th").inner_text().split("(")[0].strip():
                 int(row.locator("td").nth(0).inner_text()) for row in
                 page.locator(".ab-table tbody tr").all()}
        assert table == summed, (table, summed)
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
        page.screenshot(path=f"/tmp/eb-review/rounds-{lang}.png", full_page=True)
    finally:
        page.context.close()
