"""Allegra's knock, worded for someone who has never played. The seat asked whether to knock
was told only "Do you want it? Knock or let it go", not what knocking costs (the player who
drew takes a card of your display in exchange); the seat that drew read "Someone knocked:
give the card to one of them or keep it", not who knocked nor what giving it brings."""

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

READ = """() => ({ prompt: document.getElementById('al-prompt').innerText,
                   hint: document.getElementById('al-hint')?.innerText ?? null,
                   width: document.documentElement.scrollWidth })"""


async def play(ws_base: str, players: list[ApiClient], table_id: str,
               moves: list[tuple[int, str]]) -> None:
    """Everyone turns up two cards, then the given (seat, action type) moves."""
    clients = await connect(ws_base, players, table_id)
    try:
        for client in clients:
            for _ in range(2):
                await settle(clients)
                await act(client, next(a for a in client.state["legal_actions"]
                                       if a["type"] == "reveal"))
        for seat, action in moves:
            await settle(clients)
            await act(clients[seat], {"type": action})
        await settle(clients)
    finally:
        for client in clients:
            await client.close()


WORDS = {
    "es": {"ask": "Si Beto te la da, la pones en tu display y, a cambio, Beto se lleva la "
                  "carta de tu display que quiera.",
           "accept_two": "Beto y Celia han hecho toc toc por tu ",
           "accept_one": "Beto ha hecho toc toc por tu ",
           "give": "Si se la das, a cambio te llevas la carta que quieras de su display"},
    "en": {"ask": "If Beto gives it to you, you place it in your display and, in exchange, "
                  "Beto takes any card of your display they choose.",
           "accept_two": "Beto and Celia knocked for your ",
           "accept_one": "Beto knocked for your ",
           "give": "If you give it, in exchange you take any card of their display"},
}


@pytest.mark.parametrize("lang", ["es", "en"])
def test_the_knock_says_what_it_costs_and_what_it_brings(worker_server, browser, lang) -> None:
    words = WORDS[lang]
    players = [ApiClient(worker_server.url, name) for name in ["Ana", "Beto", "Celia"]]
    options = {"rounds": 1, "knock": True, "knock_seconds": 30}
    # Beto draws: Ana, who may knock, is told what a knock costs
    asked = seeded_table(players, "allegra", 5, {**options, "first_seat": 1})
    run(play(worker_server.ws_url, players, asked, [(1, "draw")]))
    # Ana draws, Beto and Celia knock: Ana is told who knocked and what giving it brings
    both = seeded_table(players, "allegra", 5, {**options, "first_seat": 0})
    run(play(worker_server.ws_url, players, both, [(0, "draw"), (1, "knock"), (2, "knock")]))
    one = seeded_table(players, "allegra", 5, {**options, "first_seat": 0})
    run(play(worker_server.ws_url, players, one, [(0, "draw"), (1, "knock"), (2, "no_knock")]))
    context = open_as(browser, worker_server.url, players[0], PHONE, lang)
    try:
        page = context.new_page()
        load_table(page, worker_server.url, asked)
        read = page.evaluate(READ)
        assert read["hint"] == words["ask"], read
        assert read["width"] <= PHONE["width"], read
        page.screenshot(path=f"/tmp/al-review/knock-ask-{lang}.png")
        load_table(page, worker_server.url, both)
        read = page.evaluate(READ)
        assert read["prompt"].startswith(words["accept_two"]), read
        assert read["hint"].startswith(words["give"]), read
        page.screenshot(path=f"/tmp/al-review/knock-accept-{lang}.png")
        load_table(page, worker_server.url, one)
        read = page.evaluate(READ)
        assert read["prompt"].startswith(words["accept_one"]), read
        assert read["hint"].startswith(words["give"]), read
        # giving the card: the hint is gone once the knocker places it
        page.click("button[data-action=accept]")
        page.wait_for_function("() => !document.querySelector('button[data-action=accept]')")
        assert page.evaluate(READ)["hint"] is None
    finally:
        context.close()


async def knocker_placed(ws_base: str, players: list[ApiClient], table_id: str) -> None:
    """Beto draws, Ana knocks, Celia lets it go, Beto gives it to Ana, who places it: Beto
    must now take a card of Ana's display."""
    await play(ws_base, players, table_id, [(1, "draw"), (0, "knock"), (2, "no_knock")])
    clients = await connect(ws_base, players, table_id)
    try:
        await act(clients[1], {"type": "accept", "knocker": 0})
        await settle(clients)
        await act(clients[0], next(a for a in clients[0].state["legal_actions"]
                                   if a["type"] == "place"))
        state = await settle(clients)
        assert state["view"]["phase"] == "knock_take", state["view"]["phase"]
    finally:
        for client in clients:
            await client.close()


@pytest.mark.parametrize(("lang", "words"), [
    ("es", "Beto escoge una carta de tu display para llevársela; la carta de tu mano irá "
           "boca arriba a su sitio"),
    ("en", "Beto picks a card of your display to take; the card in your hand then goes face "
           "up in its place")])
def test_the_knocker_is_told_where_the_card_in_hand_goes(worker_server, browser, lang,
                                                          words) -> None:
    """The knocker, holding the card it took into hand, read "Beto picks a card from Ana’s
    display", its own name, and nothing of what becomes of the card in its hand."""
    players = [ApiClient(worker_server.url, name) for name in ["Ana", "Beto", "Celia"]]
    table_id = seeded_table(players, "allegra", 5, {"rounds": 1, "knock": True,
                                                    "knock_seconds": 30, "first_seat": 1})
    run(knocker_placed(worker_server.ws_url, players, table_id))
    context = open_as(browser, worker_server.url, players[0], PHONE, lang)
    try:
        page = context.new_page()
        load_table(page, worker_server.url, table_id)
        assert page.evaluate(READ)["prompt"] == words
        page.screenshot(path=f"/tmp/al-review/knocker-waits-{lang}.png")
    finally:
        context.close()
    # the others still read who picks from whose display
    context = open_as(browser, worker_server.url, players[2], PHONE, lang)
    try:
        page = context.new_page()
        load_table(page, worker_server.url, table_id)
        assert "Ana" in page.evaluate(READ)["prompt"]
    finally:
        context.close()
