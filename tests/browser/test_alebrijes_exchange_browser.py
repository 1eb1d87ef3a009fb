"""Alebrijes in Chromium during the card exchange that opens a round: no trick is being played
then, yet the table's panel was titled "Trick led by …" and the players' column "This trick".
Now the panel says it is the exchange of that round and who leads the first trick after it,
the column is the exchange's, and once everyone has exchanged the trick's title is back."""

from __future__ import annotations

import pytest

from tests.browser.comfort import (
    LAPTOP,
    PHONE,
    act,
    connect,
    load_table,
    new_table,
    open_as,
    run,
    settle,
)
from tests.support.client import ApiClient

pytestmark = pytest.mark.browser

WORDS = {  # what the panel and the column say in each language
    "es": {"trick": "Baza abierta por", "exchange": "Cambio de cartas antes de la ronda 1",
           "lead": "abre la primera baza", "column": "Cambio", "trick_column": "En esta baza"},
    "en": {"trick": "Trick led by", "exchange": "Card exchange before round 1",
           "lead": "leads the first trick", "column": "Exchange", "trick_column": "This trick"},
}


@pytest.fixture(scope="module")
def players(worker_server) -> list[ApiClient]:
    return [ApiClient(worker_server.url, name) for name in ["Ana", "Beto", "Celia"]]


async def everyone_keeps(ws_base: str, players: list[ApiClient], table_id: str) -> None:
    clients = await connect(ws_base, players, table_id)
    try:
        for _ in range(len(players)):
            state = await settle(clients)
            seat = state["to_act"][0]
            await act(clients[seat], {"type": "exchange", "cards": []})
        state = await settle(clients)
        assert state["view"]["phase"] == "trick"
    finally:
        for c in clients:
            await c.close()


@pytest.mark.parametrize(("viewport", "lang"), [(PHONE, "en"), (LAPTOP, "es")],
                         ids=["phone-en", "laptop-es"])
def test_the_exchange_is_not_called_a_trick(worker_server, browser, players, viewport,
                                            lang) -> None:
    words = WORDS[lang]
    table_id = new_table(players, "alebrijes", start=True)  # seat 0 starts (first_seat)
    context = open_as(browser, worker_server.url, players[1], viewport, lang)
    try:
        page = context.new_page()
        load_table(page, worker_server.url, table_id)
        title = page.locator("#ab-trick-title").inner_text()
        assert words["trick"] not in title and title == words["exchange"], title
        note = page.locator("#ab-to-beat").inner_text()
        assert "Ana" in note and words["lead"] in note, note
        column = page.locator(".ab-table thead th.ab-col-chance").inner_text()
        assert column == words["column"], column
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]

        # after the exchange the first trick is led by the round's starter
        before = page.locator("#table-app").get_attribute("data-version")
        run(everyone_keeps(worker_server.ws_url, players, table_id))
        page.wait_for_function(
            "(before) => document.getElementById('table-app').dataset.version !== before",
            arg=before, timeout=10_000)
        page.wait_for_function(
            "(text) => document.getElementById('ab-trick-title').textContent.startsWith(text)",
            arg=words["trick"], timeout=10_000)
        assert "Ana" in page.locator("#ab-trick-title").inner_text()
        column = page.locator(".ab-table thead th.ab-col-chance").inner_text()
        assert column == words["trick_column"], column
    finally:
        context.close()
