"""Hanabi at your turn with no clue token left, in Chromium: the clue buttons under the other
hands are gone (no clue is legal) and nothing said why; the catalogue's "No clue tokens
left." was never drawn. It is now, in place of the buttons, in both languages."""

from __future__ import annotations

import pytest

from tests.browser.comfort import act, connect, load_table, open_as, run, settle
from tests.support.client import ApiClient

pytestmark = pytest.mark.browser


def test_your_turn_without_clue_tokens_says_so(worker_server, browser) -> None:
    base = worker_server.url
    ana, beto = ApiClient(base, "Ana"), ApiClient(base, "Beto")
    table = ana.create_table("hanabi", 2, {"first_seat": 0})
    invite = table["invite_url"].rsplit("/", 1)[1]
    assert beto.join(table["id"], invite=invite, seat=1).status_code == 200
    assert ana.start(table["id"]).status_code == 200

    async def spend_every_clue() -> None:
        clients = await connect(worker_server.ws_url, [ana, beto], table["id"])
        try:
            for turn in range(8):  # Ana, Beto, ... : Ana's turn again with none left
                seat = turn % 2
                await settle(clients)
                await act(clients[seat], {"type": "clue", "target": 1 - seat, "rank": 1})
        finally:
            for c in clients:
                await c.close()

    run(spend_every_clue())
    for lang, text in (("es", "No quedan fichas de pista."), ("en", "No clue tokens left.")):
        context = open_as(browser, base, ana, {"width": 390, "height": 844}, lang)
        page = context.new_page()
        load_table(page, base, table["id"])
        hand = page.locator("#game .hand")
        assert hand.locator(".clues button").count() == 0
        assert hand.locator(".no-clues").count() == 1
        assert hand.locator(".no-clues").inner_text() == text
        # Ana may still play or discard
        assert page.locator("#my-hand button.discard:not([disabled])").count() == 5
        context.close()
    # Beto, whose turn it is not, is told nothing of it
    context = open_as(browser, base, beto, {"width": 390, "height": 844}, "en")
    page = context.new_page()
    load_table(page, base, table["id"])
    assert page.locator("#game .no-clues").count() == 0
    context.close()
