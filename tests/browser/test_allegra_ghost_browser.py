"""The repeated column at the start of Allegra's strip (the far end's column shown again, so
that a phone need not scroll to the end) was drawn at 55 % opacity even when its cards could
be tapped: it looked switched off. It is now as bright as any target when one of its cards
may be tapped, its dashed edges still saying it repeats a column, and faded otherwise."""

from __future__ import annotations

import pytest

from tests.browser.comfort import (
    LAPTOP,
    PHONE,
    act,
    connect,
    load_table,
    open_as,
    play_moves,
    run,
    seeded_table,
    settle,
)
from tests.support.client import ApiClient

pytestmark = pytest.mark.browser

# each cell of the repeated column: a target or not, how opaque it shows (its own opacity
# times its ancestors'), its border and its column's outline
GHOST = """() => [...document.querySelectorAll('.al-ghost .al-cell')].map((c) => {
  let opacity = 1;
  for (let n = c; n; n = n.parentElement) opacity *= Number(getComputedStyle(n).opacity);
  return { button: c.tagName === 'BUTTON', opacity,
           border: getComputedStyle(c).borderTopStyle,
           outline: getComputedStyle(c.parentElement).outlineStyle }; })"""


def looks_live(cells: list[dict]) -> bool:
    return all(c["button"] and c["opacity"] == 1 and c["border"] == "dashed"
               and c["outline"] == "dashed" for c in cells)


def looks_faded(cells: list[dict]) -> bool:
    return all(not c["button"] and c["opacity"] < 0.7 for c in cells)


def test_two_players_the_repeat_of_my_column_is_tappable_then_faded(worker_server, browser) -> None:
    """Two players: the repeated column is my own right column, part of my display; while I
    turn up my first cards its face-down cards are targets, and once we play, not."""
    players = [ApiClient(worker_server.url, name) for name in ["Ana", "Beto"]]
    table_id = seeded_table(players, "allegra", 5, {"rounds": 1, "first_seat": 1})
    context = open_as(browser, worker_server.url, players[0], LAPTOP, "en")
    try:
        page = context.new_page()
        load_table(page, worker_server.url, table_id)
        cells = page.evaluate(GHOST)
        assert len(cells) == 3 and looks_live(cells), cells
        page.screenshot(path="/tmp/al-knock/ghost-2-en-live.png")
        reveals = [(seat, {"type": "reveal", "pos": pos}) for seat in range(2)
                   for pos in (1, 2)]
        play_moves(worker_server.ws_url, players, table_id, reveals)
        page.wait_for_function("() => !document.querySelector('.al-ghost button')")
        cells = page.evaluate(GHOST)
        assert len(cells) == 3 and looks_faded(cells), cells
    finally:
        context.close()


async def beto_placed(ws_base: str, players: list[ApiClient], table_id: str) -> None:
    """Ana draws, Beto knocks, Celia lets it go, Ana gives Beto the card and Beto places it:
    Ana must take a card of Beto's display, whose first column is the repeated one."""
    clients = await connect(ws_base, players, table_id)
    try:
        for client in clients:
            for pos in (1, 2):
                await settle(clients)
                await act(client, {"type": "reveal", "pos": pos})
        for seat, action in [(0, {"type": "draw"}), (1, {"type": "knock"}),
                             (2, {"type": "no_knock"}), (0, {"type": "accept", "knocker": 1})]:
            await settle(clients)
            await act(clients[seat], action)
        await settle(clients)
        await act(clients[1], next(a for a in clients[1].state["legal_actions"]
                                   if a["type"] == "place"))
        state = await settle(clients)
        assert state["view"]["phase"] == "knock_take", state["view"]["phase"]
    finally:
        for client in clients:
            await client.close()


@pytest.mark.parametrize(("seats", "viewport", "lang"), [(3, PHONE, "es"), (6, LAPTOP, "en")])
def test_the_repeat_is_tappable_when_i_take_from_the_knocker(worker_server, browser, seats: int,
                                                             viewport: dict, lang: str) -> None:
    names = ["Ana", "Beto", "Celia", "Dani", "Eva", "Fede"][:seats]
    players = [ApiClient(worker_server.url, name) for name in names]
    table_id = seeded_table(players, "allegra", 5, {"rounds": 1, "knock": True,
                                                    "knock_seconds": 30, "first_seat": 0})
    context = open_as(browser, worker_server.url, players[0], viewport, lang)
    try:
        page = context.new_page()
        if seats == 3:
            run(beto_placed(worker_server.ws_url, players, table_id))
        else:
            reveals = [(s, {"type": "reveal", "pos": pos}) for s in range(seats)
                       for pos in (1, 2)]
            play_moves(worker_server.ws_url, players, table_id, reveals)
        load_table(page, worker_server.url, table_id)
        cells = page.evaluate(GHOST)
        if seats == 3:
            # Ana picks from Beto's display: the repeated column (Celia's) is in it
            assert len(cells) == 3 and looks_live(cells), cells
            page.locator(".al-table").screenshot(path="/tmp/al-knock/ghost-3-es-live.png")
            page.locator(".al-ghost button").first.click()
            assert page.evaluate("() => !!document.querySelector('.al-cell.picked')")
        else:
            # Ana's turn to take a card: nothing on the strip is a target yet
            assert len(cells) == 3 and looks_faded(cells), cells
        page.screenshot(path=f"/tmp/al-knock/ghost-{seats}-{lang}.png")
    finally:
        context.close()
