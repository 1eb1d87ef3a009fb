"""Ikebana's "Solo mi mano" / "My hand only" layout, in Chromium. It leaves a phone what only
its player sees and what they can do; the public board is on the table screen. It hid the
player's own bouquet with everyone else's, yet you choose by your bouquet: whether to keep
the card drawn, reject it or buy a discard depends on the cards you already hold. Now your
own area (bouquet, prestige, pile) stays, the other players' and the status and rounds go.
Screenshots in test-artifacts/ikebana-compact-*.png."""

from __future__ import annotations

import pytest

from tests.browser.comfort import (
    ARTIFACTS,
    LAPTOP,
    PHONE,
    act,
    connect,
    load_table,
    open_as,
    run,
    seeded_table,
    settle,
)
from tests.support.client import ApiClient

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def table(worker_server) -> tuple[list[ApiClient], str]:
    """Ana and Beto have each kept a card; Ana has drawn her second and considers it."""
    players = [ApiClient(worker_server.url, name) for name in ["Ana", "Beto"]]
    table_id = seeded_table(players, "ikebana", 5, {"first_seat": 0})

    async def play() -> None:
        clients = await connect(worker_server.ws_url, players, table_id)
        try:
            for seat, kind in ((0, "draw"), (0, "keep"), (1, "draw"), (1, "keep"), (0, "draw")):
                await settle(clients)
                await act(clients[seat], {"type": kind})
            await settle(clients)
        finally:
            for c in clients:
                await c.close()

    run(play())
    return players, table_id


@pytest.mark.parametrize(("seat", "viewport", "lang"),
                         [(0, PHONE, "es"), (1, LAPTOP, "en"), (1, PHONE, "es")],
                         ids=["acting-phone-es", "waiting-laptop-en", "waiting-phone-es"])
def test_my_hand_only_keeps_my_own_bouquet(worker_server, browser, table, seat, viewport,
                                           lang) -> None:
    players, table_id = table
    context = open_as(browser, worker_server.url, players[seat], viewport, lang)
    try:
        page = context.new_page()
        problems: list[str] = []
        page.on("pageerror", lambda exc: problems.append(str(exc)))
        load_table(page, worker_server.url, table_id)
        page.click("#compact-toggle")
        page.wait_for_selector("#table-app.my-hand-only")
        mine = page.locator(f"#game .ik-player[data-seat='{seat}']")
        other = page.locator(f"#game .ik-player[data-seat='{1 - seat}']")
        # my bouquet, its card face up, my prestige and my pile: in view
        assert "mine" in (mine.get_attribute("class") or "")
        assert mine.is_visible()
        kept = mine.locator(".ik-bouquet-cards svg.ikcard:not(.empty)")
        assert kept.count() == 1 and kept.first.is_visible()
        assert mine.locator(".ik-prestige").is_visible()
        # the public board is for the table screen: the others' bouquets, status, rounds
        assert not other.is_visible()
        assert not page.locator("#game .ik-status").is_visible()
        # at my turn the drawn card and what I may do with it, above my bouquet
        if seat == 0:
            keep = page.locator("#my-hand button[data-action='keep']")
            assert keep.is_visible() and keep.bounding_box()["height"] >= 56
            assert page.locator("#my-hand").bounding_box()["y"] < mine.bounding_box()["y"]
        sideways = page.evaluate("() => document.documentElement.scrollWidth - innerWidth")
        assert sideways <= 0
        assert problems == []
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"ikebana-compact-{seat}-{lang}-"
                                              f"{viewport['width']}.png"), full_page=True)
        # the whole board again a tap away
        page.click("#compact-toggle")
        page.wait_for_selector("#table-app:not(.my-hand-only)")
        assert other.is_visible() and page.locator("#game .ik-status").is_visible()
    finally:
        context.close()
