"""Ikebana's discard piles, in Chromium: a pile's top card shows its price ("Precio: 4") to
those who may buy it, but not to the pile's owner, who never may (rule: "never from your own
pile"); the owner's pile showed a price as if it were for sale to them."""

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


async def reject_then_keep(ws_base: str, players: list[ApiClient], table_id: str) -> None:
    """Seat 0 (first to act) draws, rejects one card onto its own pile, keeps the next."""
    clients = await connect(ws_base, players, table_id)
    try:
        for kind in ("draw", "reject", "keep"):
            await settle(clients)
            await act(clients[0], {"type": kind})
        await settle(clients)
    finally:
        for c in clients:
            await c.close()


@pytest.fixture(scope="module")
def table(worker_server) -> tuple[list[ApiClient], str]:
    players = [ApiClient(worker_server.url, name) for name in ["Ana", "Beto"]]
    table_id = new_table(players, "ikebana", start=True)
    run(reject_then_keep(worker_server.ws_url, players, table_id))
    return players, table_id


@pytest.mark.parametrize("viewport", [PHONE, LAPTOP], ids=["phone", "laptop"])
def test_only_the_others_see_a_price_on_a_pile(worker_server, browser, table, viewport) -> None:
    players, table_id = table
    for seat, lang in ((0, "es"), (1, "en")):
        context = open_as(browser, worker_server.url, players[seat], viewport, lang)
        try:
            page = context.new_page()
            load_table(page, worker_server.url, table_id)
            pile = page.locator("#game section[data-seat='0'] figure.ik-pile")
            assert pile.locator("svg").count() >= 1  # the rejected card lies on top
            price = pile.locator(".ik-buy-price")
            assert price.count() == (0 if seat == 0 else 1), (seat, pile.inner_text())
        finally:
            context.close()


def test_the_prompt_offers_a_purchase_only_when_one_can_be_made(worker_server, browser,
                                                               table) -> None:
    """The first turn of a round has nothing to buy (every pile is empty), yet the prompt
    said "Elige: robar del mazo o comprar un descarte" above a lone Robar button. Now it says
    why Draw is all there is; with a discard for sale it still offers both. In Spanish the
    price of a rejection names who is paid ("que cobra Beto", not "para Beto")."""
    players, table_id = table
    fresh = [ApiClient(worker_server.url, name) for name in ["Ana", "Beto"]]
    fresh_id = new_table(fresh, "ikebana", start=True)  # Ana starts, every pile empty
    context = open_as(browser, worker_server.url, fresh[0], PHONE, "es")
    try:
        page = context.new_page()
        load_table(page, worker_server.url, fresh_id)
        turn = page.locator("#game .ik-turn")
        assert turn.locator("button").all_inner_texts() == ["Robar"]
        assert turn.locator(".ik-prompt").inner_text() == \
            "Roba del mazo (no hay ningún descarte que puedas comprar)"
        assert turn.locator("#ik-reject-price").inner_text() == \
            "Rechazar cuesta 1 de prestigio, que cobra Beto"
    finally:
        context.close()
    # Beto's turn at the other table: Ana's pile has a card he can buy
    context = open_as(browser, worker_server.url, players[1], LAPTOP, "en")
    try:
        page = context.new_page()
        load_table(page, worker_server.url, table_id)
        turn = page.locator("#game .ik-turn")
        assert turn.locator("button[data-action=buy]").count() == 1
        assert turn.locator(".ik-prompt").inner_text() == \
            "Choose: draw from the deck or buy a discard"
    finally:
        context.close()
