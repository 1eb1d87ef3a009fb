"""The focus after a move, in Chromium: when the control you used is drawn again but disabled
(Block and Guess's ✕ takes a block off the board; with nothing chosen it is greyed out) the
focus goes to your workbench, not to the page's body (where the keyboard starts over from
the top of the page)."""

from __future__ import annotations

import pytest

from tests.browser.bg_pages import LAPTOP, open_seat, pinned_table, tapped
from tests.browser.comfort import act, connect, run, settle

pytestmark = pytest.mark.browser


def test_removing_a_block_keeps_the_focus_on_the_workbench(worker_server, browser) -> None:
    players, table_id = pinned_table(worker_server.url, 4, 11, ["Ana", "Beto", "Cleo", "Dani"])

    async def to_building() -> None:
        """The other seats (and Ana's picks) through the API until Ana builds."""
        clients = await connect(worker_server.ws_url, players, table_id)
        try:
            while True:
                state = await settle(clients)
                if any(a["type"] == "place" for a in clients[0].state["legal_actions"]):
                    return
                mover = next(c for c in clients if c.state["seat"] in c.state["to_act"]
                             and c.state["legal_actions"])
                await act(mover, mover.state["legal_actions"][0])
                assert state["view"]["phase"] != "over"
        finally:
            for c in clients:
                await c.close()

    run(to_building())
    page = open_seat(browser, worker_server.url, players[0], table_id, LAPTOP)
    page.wait_for_selector("#my-hand.bg-bench")
    tapped(page, page.locator("#my-hand .bg-tray-block").first, touch=False)
    remove = page.locator("#my-hand [data-focus-key='remove']")
    assert remove.is_enabled()  # the block just placed is the chosen one
    remove.focus()
    tapped(page, remove, touch=False)
    assert page.locator("#my-hand [data-focus-key='remove']").is_disabled()
    where = page.evaluate("""() => { const a = document.activeElement;
        return a === document.body ? 'body' : a.closest('#my-hand') ? 'workbench' : a.tagName; }""")
    assert where == "workbench", f"the focus went to the {where} after ✕"
    assert page.errors == []  # type: ignore[attr-defined]
    page.context.close()
