"""The focus after a choice the page makes alone (nothing sent yet), in Chromium: a keyboard
player who chooses Allegra's "keep it" / "discard it" with Enter, or picks an Alebrijes card
for the exchange, keeps the focus on that control. The game redrew itself and the focus fell
to the page's body, so Tab started over from the top of the page."""

from __future__ import annotations

import random

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

ACTIVE = """() => {
  const a = document.activeElement;
  return a && a.dataset ? a.dataset.focusKey || a.tagName : null;
}"""


async def allegra_to_place(ws_base: str, players: list[ApiClient], table_id: str) -> None:
    """Everyone turns up two cards, then seat 0 takes the deck's card: seat 0 must place it."""
    rng = random.Random(5)
    clients = await connect(ws_base, players, table_id)
    try:
        for _ in range(40):
            state = await settle(clients)
            if state["view"]["phase"] == "place" and 0 in state["to_act"]:
                return
            movers = [c for c in clients if c.state["seat"] in c.state["to_act"]
                      and c.state["legal_actions"]]
            mover = movers[0]
            draw = [a for a in mover.state["legal_actions"] if a["type"] == "draw"]
            await act(mover, draw[0] if draw else rng.choice(mover.state["legal_actions"]))
        raise AssertionError("seat 0 never came to place a card")
    finally:
        for c in clients:
            await c.close()


@pytest.mark.parametrize("viewport", [PHONE, LAPTOP], ids=["phone", "laptop"])
def test_allegra_mode_buttons_keep_the_focus(worker_server, browser, viewport) -> None:
    players = [ApiClient(worker_server.url, name) for name in ["Ana", "Beto"]]
    table_id = new_table(players, "allegra", start=True)
    run(allegra_to_place(worker_server.ws_url, players, table_id))
    context = open_as(browser, worker_server.url, players[0], viewport, "en")
    try:
        page = context.new_page()
        load_table(page, worker_server.url, table_id)
        for mode in ("flip", "keep"):
            button = page.locator(f"#game button[data-mode={mode}]")
            button.focus()
            page.keyboard.press("Enter")
            page.wait_for_selector(f"#game button[data-mode={mode}][aria-pressed=true]")
            assert page.evaluate(ACTIVE) == f"mode-{mode}", mode
    finally:
        context.close()


@pytest.mark.parametrize("viewport", [PHONE, LAPTOP], ids=["phone", "laptop"])
def test_alebrijes_card_choice_keeps_the_focus(worker_server, browser, viewport) -> None:
    players = [ApiClient(worker_server.url, name) for name in ["Ana", "Beto", "Celia"]]
    table_id = new_table(players, "alebrijes", start=True)  # seat 0 exchanges first
    context = open_as(browser, worker_server.url, players[0], viewport, "es")
    try:
        page = context.new_page()
        load_table(page, worker_server.url, table_id)
        card = page.locator("#game button.ab-card").nth(2)
        key = card.get_attribute("data-focus-key")
        card.focus()
        page.keyboard.press("Enter")
        page.wait_for_selector(f"#game button.ab-card.selected[data-focus-key='{key}']")
        assert page.evaluate(ACTIVE) == key
        page.keyboard.press("Enter")  # chosen again: unchosen, still focused
        page.wait_for_selector("#game button.ab-card.selected", state="detached")
        assert page.evaluate(ACTIVE) == key
    finally:
        context.close()
