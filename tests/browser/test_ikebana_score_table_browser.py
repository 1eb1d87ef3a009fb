"""Ikebana's score table in Chromium, in the middle of round 2 after payments in both rounds.

Prestige moves the moment a rejection or a purchase is paid, so a round changes a total by
its bouquet's points plus its payments. The table showed the bouquet points under each round
and the live prestige as "Total" (payments of the round in play included): the total was not
the sum of the row, and it counted a round nobody had scored. Now a row reads start, each
scored round's change, the round in play (marked, payments so far) and the total, which is
their sum and the prestige the player's own area shows."""

from __future__ import annotations

import re
from collections.abc import Callable

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


async def two_rounds_of_payments(ws_base: str, players: list[ApiClient],
                                 table_id: str) -> dict:
    """Round 1: the first player rejects one card (pays 1), then everyone keeps what they
    draw. Round 2: its first player rejects one card and keeps the next; then we stop."""
    clients = await connect(ws_base, players, table_id)
    rejected = {1: False, 2: False}
    try:
        for _ in range(200):
            state = await settle(clients)
            view = state["view"]
            if view["round"] == 2 and rejected[2] and view["hand"] is None:
                return state
            seat = state["to_act"][0]
            kinds = {a["type"] for a in clients[seat].state["legal_actions"]}
            if "draw" in kinds:
                await act(clients[seat], {"type": "draw"})
            elif not rejected[view["round"]] and "reject" in kinds:
                rejected[view["round"]] = True
                await act(clients[seat], {"type": "reject"})
            else:
                await act(clients[seat], {"type": "keep"})
        raise AssertionError("round 2 was not reached")
    finally:
        for c in clients:
            await c.close()


@pytest.fixture(scope="module")
def table(worker_server) -> tuple[list[ApiClient], str, dict]:
    players = [ApiClient(worker_server.url, name) for name in ["Ana", "Beto"]]
    table_id = new_table(players, "ikebana", start=True)
    state = run(two_rounds_of_payments(worker_server.ws_url, players, table_id))
    view = state["view"]
    after = view["rounds"][0]["prestige"]
    # the situation the table must explain: payments in round 1 and in round 2
    assert after != [6 + p for p in view["rounds"][0]["points"]]
    assert [p["prestige"] for p in view["players"]] != after
    return players, table_id, view


def number(text: str) -> int:
    """A signed figure as the table writes it ("+39", "−1", "0")."""
    match = re.fullmatch(r"([+−-]?)(\d+)", text.strip())
    assert match, f"not a figure: {text!r}"
    return -int(match[2]) if match[1] in ("−", "-") else int(match[2])


@pytest.mark.parametrize(("viewport", "lang"), [(PHONE, "es"), (LAPTOP, "en")],
                         ids=["phone-es", "laptop-en"])
def test_each_total_is_the_sum_of_its_row(worker_server, browser, table, viewport,
                                          lang) -> None:
    players, table_id, view = table
    context = open_as(browser, worker_server.url, players[0], viewport, lang)
    try:
        page = context.new_page()
        load_table(page, worker_server.url, table_id)
        summary = page.locator(".ik-summary")
        # the round being played has its own column, said to be in play
        live_head = summary.locator("thead th.ik-live")
        assert live_head.count() == 1
        said = live_head.get_attribute("title") or ""
        assert ("en juego" if lang == "es" else "in play") in said, said
        assert "2" in said
        for player in view["players"]:
            seat = player["seat"]
            row = summary.locator(f"tbody tr[data-seat='{seat}']")
            start = number(row.locator("td.ik-start").inner_text())
            rounds = [number(t) for t in row.locator("td.ik-round-cell .ik-gain").all_inner_texts()]
            live = number(row.locator("td.ik-live").inner_text())
            total = number(row.locator("td.ik-current").inner_text())
            assert start == 6
            assert len(rounds) == 1  # only round 1 is scored
            # round 1's change is what it moved: from the start to its recorded prestige
            assert start + rounds[0] == view["rounds"][0]["prestige"][seat]
            assert start + sum(rounds) + live == total, (start, rounds, live, total)
            # and the total is the prestige shown in the player's own area
            pill = page.locator(f"#game section.ik-player[data-seat='{seat}'] .ik-prestige")
            assert number(pill.inner_text().split()[0]) == total == player["prestige"]
        # the table fits the page: nothing to scroll sideways, even on a phone
        scroll = page.locator(".ik-rounds .ik-scroll").first
        assert scroll.evaluate("e => e.scrollWidth <= e.clientWidth + 1")
    finally:
        context.close()


LONG = "Maximiliana Fernández Villanueva"  # 32 characters, the longest name allowed


async def keep_until(ws_base: str, players: list[ApiClient], table_id: str,
                     reached: Callable[[dict], bool], what: str) -> dict:
    """Everyone keeps what they draw, until the state ``reached`` says so."""
    clients = await connect(ws_base, players, table_id)
    try:
        for _ in range(400):
            state = await settle(clients)
            if reached(state["view"]):
                return state
            seat = state["to_act"][0]
            kinds = {a["type"] for a in clients[seat].state["legal_actions"]}
            await act(clients[seat], {"type": "draw" if "draw" in kinds else "keep"})
        raise AssertionError(f"{what} was not reached")
    finally:
        for c in clients:
            await c.close()


async def keep_until_round_four(ws_base: str, players: list[ApiClient], table_id: str) -> dict:
    """Everyone keeps what they draw, until round 4 is being played (three rounds scored)."""
    return await keep_until(ws_base, players, table_id, lambda view: view["round"] == 4,
                            "round 4")


@pytest.fixture(scope="module")
def full_table(worker_server) -> tuple[list[ApiClient], str, dict]:
    names = [LONG, "Beto", "Celia", "Dani", "Eva"]
    players = [ApiClient(worker_server.url, name) for name in names]
    # the "final bouquet" variant: round 4, the one in play, scores double
    table_id = new_table(players, "ikebana", start=True, options={"final_bouquet_double": True})
    state = run(keep_until_round_four(worker_server.ws_url, players, table_id))
    return players, table_id, state["view"]


@pytest.mark.parametrize("lang", ["es", "en"])
def test_five_players_and_four_rounds_fit_a_phone(worker_server, browser, full_table,
                                                  lang) -> None:
    """Player, start, three scored rounds, the round in play and the total: seven columns
    for five players, one of them with a 32-character name, fit 390 px without scrolling.
    The round in play is the doubled final bouquet, and its column says so (×2), as the
    status bar does."""
    players, table_id, view = full_table
    assert view["doubled_round"]
    context = open_as(browser, worker_server.url, players[1], PHONE, lang)
    try:
        page = context.new_page()
        load_table(page, worker_server.url, table_id)
        summary = page.locator(".ik-summary")
        assert summary.locator("thead th").count() == 7
        assert summary.locator("thead th.ik-live .ik-doubled").inner_text().strip() == "×2"
        # only the round in play is doubled: no scored round's heading says ×2
        assert summary.locator("thead th:not(.ik-live) .ik-doubled").count() == 0
        for player in view["players"]:
            row = summary.locator(f"tbody tr[data-seat='{player['seat']}']")
            cells = [row.locator("td.ik-start"), *row.locator("td.ik-round-cell .ik-gain").all(),
                     row.locator("td.ik-live")]
            total = number(row.locator("td.ik-current").inner_text())
            assert sum(number(c.inner_text()) for c in cells) == total == player["prestige"]
        name = summary.locator("tbody tr[data-seat='0'] th")
        assert name.get_attribute("title") == LONG  # the whole name, even when cut
        scroll = page.locator(".ik-rounds .ik-scroll").first
        widths = scroll.evaluate("e => [e.scrollWidth, e.clientWidth]")
        assert widths[0] <= widths[1] + 1, widths
    finally:
        context.close()


@pytest.mark.parametrize(("viewport", "lang"), [(PHONE, "es"), (LAPTOP, "en")],
                         ids=["phone-es", "laptop-en"])
def test_a_round_breakdown_adds_its_payments(worker_server, browser, table, viewport,
                                             lang) -> None:
    """Round 1's breakdown ends each row on the prestige after the round. It read "+8 → 15"
    for a player who started on 6 and was paid 1 during the round: the payments were nowhere,
    so the figures did not add up. Now the row writes the whole sum: before, the bouquet, the
    payments and the total."""
    players, table_id, view = table
    record = view["rounds"][0]
    context = open_as(browser, worker_server.url, players[0], viewport, lang)
    try:
        page = context.new_page()
        load_table(page, worker_server.url, table_id)
        words = ("ramo", "pagos") if lang == "es" else ("bouquet", "payments")
        breakdown = page.locator(".ik-breakdown[data-round='1']")
        for seat in range(len(players)):
            text = breakdown.locator(f"tr[data-seat='{seat}'] .ik-prestige-sum").inner_text()
            match = re.fullmatch(rf"(\d+) ([+−]) (\d+) \({words[0]}\) ([+−]) (\d+) "
                                 rf"\({words[1]}\) = (\d+)", text.strip())
            assert match, text
            before, bouquet, after = int(match[1]), int(match[3]), int(match[6])
            payments = int(match[5]) * (-1 if match[4] == "−" else 1)
            assert before == 6 and bouquet == record["points"][seat]
            assert after == record["prestige"][seat] == before + bouquet + payments
        # someone was paid or paid in round 1: the sum is not the bouquet alone
        assert any(record["prestige"][s] != 6 + record["points"][s] for s in range(2))
        if viewport == LAPTOP:  # the sum wraps; the five cards beside it stay on one line
            tops = breakdown.locator(".ik-mini-bouquet").first.evaluate(
                "e => [...e.children].map((c) => c.getBoundingClientRect().top)")
            assert len(tops) == 5 and len(set(tops)) == 1, tops
    finally:
        context.close()


async def keep_until_a_final_bouquet(ws_base: str, players: list[ApiClient],
                                     table_id: str) -> dict:
    """Everyone keeps what they draw, until someone's bouquet of round 4 is complete (and
    the round, waiting for the others, is not scored yet)."""
    return await keep_until(
        ws_base, players, table_id,
        lambda view: view["round"] == 4 and any(len(p["bouquet"]) == 5 for p in view["players"]),
        "a finished bouquet of round 4")


@pytest.mark.parametrize(("viewport", "lang"), [(PHONE, "es"), (LAPTOP, "en")],
                         ids=["phone-es", "laptop-en"])
def test_a_finished_final_bouquet_says_it_scores_double(worker_server, browser, viewport,
                                                        lang) -> None:
    """In the fourth round of the "final bouquet" variant a finished bouquet read "Este ramo
    vale 10" and then added 20 when the round ended. Now its line says the doubled points."""
    players = [ApiClient(worker_server.url, name) for name in ["Ana", "Beto"]]
    table_id = new_table(players, "ikebana", start=True, options={"final_bouquet_double": True})
    view = run(keep_until_a_final_bouquet(worker_server.ws_url, players, table_id))["view"]
    done = next(p for p in view["players"] if len(p["bouquet"]) == 5)
    assert done["points"] == 2 * done["score"]["total"]
    context = open_as(browser, worker_server.url, players[0], viewport, lang)
    try:
        page = context.new_page()
        load_table(page, worker_server.url, table_id)
        line = page.locator(f"#game section.ik-player[data-seat='{done['seat']}'] "
                            ".ik-bouquet-score").inner_text()
        doubled = "Ramo final ×2" if lang == "es" else "Final bouquet ×2"
        assert f"{doubled}: {done['points']}" in line, line
        assert str(done["score"]["total"]) in line
    finally:
        context.close()
