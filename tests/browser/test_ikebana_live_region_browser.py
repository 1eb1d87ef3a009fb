"""What a screen reader hears of Ikebana, in Chromium: the page's live region (#live) says
every line a move adds to the log. It said only the newest: when another player rejected a
card, paying you, you heard "Beto draws red 2" and nothing of the rejection or the payment;
when a round ended you heard who starts the next one, not what anyone scored."""

from __future__ import annotations

import pytest

from tests.browser.comfort import PHONE, act, connect, load_table, new_table, open_as, run, settle
from tests.support.client import ApiClient

pytestmark = pytest.mark.browser


def moves(ws_base: str, players: list[ApiClient], table_id: str,
          steps: list[tuple[int, str]]) -> None:
    async def go() -> None:
        clients = await connect(ws_base, players, table_id)
        try:
            for seat, kind in steps:
                await settle(clients)
                await act(clients[seat], {"type": kind})
            await settle(clients)
        finally:
            for c in clients:
                await c.close()
    run(go())


def heard(page, *parts: str) -> str:
    """Wait until the live region says every one of ``parts``; returns what it says."""
    try:
        page.wait_for_function(
            "(parts) => parts.every((p) => document.getElementById('live').textContent"
            ".includes(p))", arg=list(parts), timeout=10_000)
    except Exception:  # say what it did say
        raise AssertionError(page.locator("#live").text_content()) from None
    return page.locator("#live").text_content() or ""


def test_the_live_region_says_a_rejection_and_a_round_s_scores(worker_server, browser) -> None:
    players = [ApiClient(worker_server.url, name) for name in ["Ana", "Beto"]]
    table_id = new_table(players, "ikebana", start=True)  # Ana (seat 0) starts
    context = open_as(browser, worker_server.url, players[0], PHONE, "es")
    try:
        page = context.new_page()
        load_table(page, worker_server.url, table_id)
        moves(worker_server.ws_url, players, table_id, [(0, "draw"), (0, "keep"),
                                                        (1, "draw"), (1, "reject")])
        said = heard(page, "Beto rechaza", "y paga 1 a Ana", "Beto roba")
        assert said.index("Beto rechaza") < said.rindex("Beto roba"), said
        # the rest of round 1: everyone keeps what they draw; the last keep scores the round
        steps = [(1, "keep")]
        for _ in range(4):
            steps += [(0, "draw"), (0, "keep"), (1, "draw"), (1, "keep")]
        moves(worker_server.ws_url, players, table_id, steps[:-1])
        moves(worker_server.ws_url, players, table_id, steps[-1:])
        said = heard(page, "Fin de la ronda 1", "Ana gana", "Beto gana", "Ronda 2: empieza")
        assert "Beto añade" in said, said  # the move that ended the round, first
    finally:
        context.close()
