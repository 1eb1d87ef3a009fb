"""Allegra's clear button names a column as the cards' own labels do. It counted columns in
the display of 15, whose first column is the neighbour's: the button said "Clear the three
5s in column 2" for the cards labelled "Ana, row 1, column 1", "Ana, row 2, column 1", ...
A column lies wholly in one grid, so it is named by its owner and its place there: "your
column 1", or "Beto’s column 4" for the shared column on your left."""

from __future__ import annotations

import asyncio
import random

import pytest

from tests.browser.comfort import (
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


def column_builder(state: dict) -> dict | None:
    """Seat 0's move towards three equal cards in a column of its display, if it sees one:
    take the discard that matches a card it shows, keep a card beside its equals."""
    view, legal = state["view"], state["legal_actions"]
    me = view["players"][0]

    def card(pos: int) -> dict | None:
        owner, index = me["display"][pos]
        return view["players"][owner]["grid"][index]

    def up(pos: int) -> int | None:
        c = card(pos)
        return c["value"] if c is not None and c["up"] else None

    shown = {up(p) for p in range(15)} - {None}
    take = next((a for a in legal if a["type"] == "take_discard"), None)
    if take and view["discard"]["top"] in shown:
        return take
    if view["phase"] == "place":
        best = None
        for pos in range(15):
            keep = next((a for a in legal if a["type"] == "keep" and a["pos"] == pos), None)
            if keep is None or up(pos) == view["hand"]:
                continue
            others = [q for q in (pos % 5, pos % 5 + 5, pos % 5 + 10) if q != pos]
            same = sum(up(q) == view["hand"] for q in others)
            if best is None or same > best[0]:
                best = (same, keep)
        if best and best[0]:
            return best[1]
    return None


async def to_a_column(ws_base: str, players: list[ApiClient], table_id: str) -> dict:
    """Pinned play (seat 0 builds columns, the rest plays at random) until seat 0 may clear
    a column; returns that state."""
    clients = await connect(ws_base, players, table_id)
    rng = random.Random(4)
    try:
        for _ in range(2000):
            state = await settle(clients)
            legal = clients[0].state["legal_actions"]
            if state["view"]["phase"] == "clear" and 0 in state["to_act"] and any(
                    a["type"] == "clear" and a["cells"][1] - a["cells"][0] == 5 for a in legal):
                return clients[0].state
            assert state["table"]["status"] != "finished", "no column to clear in this game"
            movers = [c for c in clients if c.state["seat"] in c.state["to_act"]
                      and c.state["legal_actions"]]
            if not movers:
                await asyncio.sleep(0.1)
                continue
            mover = rng.choice(movers)
            options = [a for a in mover.state["legal_actions"] if a["type"] != "clear"]
            options = options or mover.state["legal_actions"]
            move = column_builder(mover.state) if mover.state["seat"] == 0 else None
            await act(mover, move or rng.choice(options))
        raise AssertionError("no column to clear in 2000 moves")
    finally:
        for client in clients:
            await client.close()


WORDS = {"es": ("Despejar los tres {value} de tu columna {col}",
                "Despejar los tres {value} de la columna {col} de {player}",
                "{player}, fila {row}, columna {col}: {value}"),
         "en": ("Clear the three {value}s in your column {col}",
                "Clear the three {value}s in {player}’s column {col}",
                "{player}, row {row}, column {col}: {value}")}


def test_a_column_is_named_as_its_cards_are(worker_server, browser) -> None:
    players = [ApiClient(worker_server.url, name) for name in ["Ana", "Beto", "Celia"]]
    table_id = seeded_table(players, "allegra", 1,
                            {"rounds": 1, "knock": False, "first_seat": 0})
    state = run(to_a_column(worker_server.ws_url, players, table_id))
    view = state["view"]
    names = ["Ana", "Beto", "Celia"]
    expected = []
    for action in state["legal_actions"]:
        if action["type"] != "clear" or action["cells"][1] - action["cells"][0] != 5:
            continue
        owner, index = view["players"][0]["display"][action["cells"][0]]
        value = view["players"][owner]["grid"][index]["value"]
        expected.append((",".join(map(str, action["cells"])), owner, index % 4 + 1,
                         index // 4 + 1, value))
    for viewport, lang in ((PHONE, "es"), (LAPTOP, "en")):
        own, other, label = WORDS[lang]
        context = open_as(browser, worker_server.url, players[0], viewport, lang)
        try:
            page = context.new_page()
            load_table(page, worker_server.url, table_id)
            page.screenshot(path=f"/tmp/al-review/clear-words-{lang}.png")
            for cells, owner, col, row, value in expected:
                text = page.inner_text(f"button[data-action=clear][data-cells='{cells}']")
                words = own if owner == 0 else other
                assert text == words.format(value=value, col=col, player=names[owner]), text
                # the card at the top of that column carries the same column number
                labels = page.evaluate(
                    "() => [...document.querySelectorAll('.al-cell.in-line')]"
                    ".map((c) => c.getAttribute('aria-label')"
                    " ?? c.querySelector('[aria-label]')?.getAttribute('aria-label')"
                    " ?? c.querySelector('title')?.textContent)")
                assert label.format(player=names[owner], row=row, col=col,
                                    value=value) in labels, labels
        finally:
            context.close()
