"""Allegra on a phone: the display you must tap next is in view. When the active player has
given the card to a knocker and must take a card from the knocker's display, that display
(here the left neighbour's, which the strip keeps left of your own) lay past the strip's left
edge, and its shared column, repeated at the strip's start, could be tapped only at its
far-end copy: the prompt said "tap a card of Beto's display" and no such card could be seen without
scrolling sideways. Then, picking the card, your own display comes back into view to give
one in exchange."""

from __future__ import annotations

import pytest

from tests.browser.comfort import (
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

# every target (a tappable card) and whether it lies wholly inside the strip's visible box
TARGETS = """() => {
  const strip = document.querySelector('.al-table').getBoundingClientRect();
  return [...document.querySelectorAll('.al-table button.al-target')].map((b) => {
    const r = b.getBoundingClientRect();
    return { label: b.getAttribute('aria-label'),
             seen: r.left >= strip.left - 1 && r.right <= strip.right + 1 };
  }); }"""


def unseen(targets: list[dict]) -> list[str]:
    """The cards to tap of which no copy is in view (a shared column is drawn twice: at
    its owner's grid and repeated at the strip's start)."""
    seen = {t["label"] for t in targets if t["seen"]}
    return sorted({t["label"] for t in targets} - seen)


async def to_accept(ws_base: str, players: list[ApiClient], table_id: str) -> None:
    """Everyone turns up two cards, seat 0 draws from the deck, seat 1 knocks, seat 2
    lets it go: seat 0 must now accept or decline."""
    clients = await connect(ws_base, players, table_id)
    try:
        for client in clients:
            for _ in range(2):
                await settle(clients)
                reveal = next(a for a in client.state["legal_actions"] if a["type"] == "reveal")
                await act(client, reveal)
        for seat, action in ((0, "draw"), (1, "knock"), (2, "no_knock")):
            await settle(clients)
            await act(clients[seat], {"type": action})
        state = await settle(clients)
        assert state["view"]["phase"] == "accept", state["view"]["phase"]
    finally:
        for client in clients:
            await client.close()


async def place(ws_base: str, player: ApiClient, table_id: str) -> None:
    """The knocker places the card (in their first legal position)."""
    (client,) = await connect(ws_base, [player], table_id)
    try:
        await act(client, next(a for a in client.state["legal_actions"]
                               if a["type"] == "place"))
    finally:
        await client.close()


@pytest.mark.parametrize("lang", ["es", "en"])
def test_the_knockers_display_comes_into_view_to_take_a_card(worker_server, browser, lang) -> None:
    players = [ApiClient(worker_server.url, name) for name in ["Ana", "Beto", "Celia"]]
    table_id = seeded_table(players, "allegra", 11,
                            {"rounds": 1, "knock": True, "knock_seconds": 30,
                             "first_seat": 0})
    run(to_accept(worker_server.ws_url, players, table_id))
    context = open_as(browser, worker_server.url, players[0], PHONE, lang)
    try:
        page = context.new_page()
        load_table(page, worker_server.url, table_id)
        page.click("button[data-action=accept][data-knocker='1']")
        page.wait_for_function("() => document.querySelector('#al-prompt')"
                               " && !document.querySelector('button[data-action=accept]')")
        run(place(worker_server.ws_url, players[1], table_id))
        page.wait_for_selector(".al-table button.al-target[data-owner='1']")
        page.wait_for_timeout(200)
        page.screenshot(path="/tmp/al-review/in-view-take.png", full_page=True)
        targets = page.evaluate(TARGETS)
        assert len(targets) >= 12, targets
        hidden = unseen(targets)
        assert not hidden, f"cards to tap lie outside the strip: {hidden}"
        # pick one of Beto's cards: now Ana's own display must be in view to give one
        page.locator(".al-table button.al-target[data-owner='1']").first.click()
        page.wait_for_selector(".al-table button.al-target[data-owner='0']")
        page.wait_for_timeout(200)
        page.screenshot(path="/tmp/al-review/in-view-give.png", full_page=True)
        hidden = unseen(page.evaluate(TARGETS))
        assert not hidden, f"cards to tap lie outside the strip: {hidden}"
        width = page.evaluate("() => document.documentElement.scrollWidth")
        assert width <= PHONE["width"], width
    finally:
        context.close()
