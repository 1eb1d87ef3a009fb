"""Allegra's seat headings in Chromium, at 390 and 1280 px, with a 32-character human name
and two bots: each heading is two lines of one height (name and points, then badges), a long
name ends in an ellipsis with the whole name in its title, and so every grid and the ghost
column start level, the shared columns side by side. The headings wrapped as they pleased
(the long name on two lines, "tú" or "cerró la ronda" on a line of their own), which pushed
grids down by different amounts. The end's score table headed its columns "Bot / 1" on two
lines at 390 px: each name is one line there, cut the same way."""

from __future__ import annotations

import asyncio
import random

import pytest

from tests.browser.comfort import LAPTOP, PHONE, connect, load_table, open_as, run, settle
from tests.support.client import ApiClient

pytestmark = pytest.mark.browser

LONG = "Maximiliana Fernández Villanueva"  # 32 characters, the longest name allowed

# how many lines the text of an element takes, and where grids start
READ = """() => {
  const lines = (el) => {  // the distinct line tops of the element's text
    const tops = new Set();
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const range = document.createRange(); range.selectNodeContents(node);
      for (const r of range.getClientRects()) if (r.width > 0) tops.add(Math.round(r.top));
    }
    return tops.size;
  };
  return {
    names: [...document.querySelectorAll('.al-player-head strong')].map((s) => ({
      text: s.textContent, title: s.title, lines: lines(s), cut: s.scrollWidth > s.clientWidth})),
    heads: [...document.querySelectorAll('.al-player .al-player-head')].map((h) =>
      Math.round(h.getBoundingClientRect().height)),
    tops: [...document.querySelectorAll('.al-strip .al-grid, .al-ghost .al-col')].map((g) =>
      Math.round(g.getBoundingClientRect().top)),
    columns: [...document.querySelectorAll('.al-score-table thead th')].map((th) => ({
      text: th.textContent, title: th.title, lines: lines(th)})),
    width: document.documentElement.scrollWidth,
  };
}"""


def table_with_bots(base: str) -> tuple[ApiClient, str]:
    host = ApiClient(base, LONG)
    table = host.create_table("allegra", 3, {"rounds": 1, "knock": False, "first_seat": 0,
                                             "bot_delay": 0})
    for seat in (1, 2):
        r = host.request("POST", f"/api/tables/{table['id']}/bots", json={"seat": seat})
        assert r.status_code == 201, r.text
    assert host.start(table["id"]).status_code == 200
    return host, table["id"]


async def play_out(ws_base: str, host: ApiClient, table_id: str) -> None:
    """The host's random legal moves (the bots move by themselves) to the end."""
    rng = random.Random(4)
    clients = await connect(ws_base, [host], table_id)
    try:
        for _ in range(2000):
            state = await settle(clients)
            if state["table"]["status"] == "finished":
                return
            if state["seat"] in state["to_act"] and state["legal_actions"]:
                await clients[0].act(rng.choice(state["legal_actions"]))
            await asyncio.sleep(0.05)
        raise AssertionError("the game did not finish")
    finally:
        await clients[0].close()


@pytest.fixture(scope="module")
def tables(worker_server) -> tuple[ApiClient, str, ApiClient, str]:
    fresh = table_with_bots(worker_server.url)
    done = table_with_bots(worker_server.url)
    run(play_out(worker_server.ws_url, *done))
    return (*fresh, *done)


def check_heads(read: dict, width: int) -> None:
    names = [n["text"] for n in read["names"]]
    assert sorted(names) == sorted([LONG, "Bot 1", "Bot 2"]), names
    for name in read["names"]:
        assert name["lines"] == 1, name  # "Bot 2" never as "Bot" over "2"
        assert name["title"] == name["text"], name  # the whole name, even when cut
    long = next(n for n in read["names"] if n["text"] == LONG)
    assert long["cut"], "the longest name fits a grid's width: the ellipsis is not checked"
    assert len(set(read["heads"])) == 1, read["heads"]
    assert len(set(read["tops"])) == 1, f"grids not level: {read['tops']}"
    assert read["width"] <= width, read["width"]


@pytest.mark.parametrize(("viewport", "lang"), [(PHONE, "es"), (PHONE, "en"), (LAPTOP, "es")],
                         ids=["phone-es", "phone-en", "laptop-es"])
def test_seat_headings_fit_and_keep_the_grids_level(worker_server, browser, tables, viewport,
                                                   lang) -> None:
    host, fresh, _, done = tables
    context = open_as(browser, worker_server.url, host, viewport, lang)
    try:
        page = context.new_page()
        load_table(page, worker_server.url, fresh)  # "tú"/"you" under the host's name only
        check_heads(page.evaluate(READ), viewport["width"])
        load_table(page, worker_server.url, done)  # "ended the round", "last turn played"
        read = page.evaluate(READ)
        check_heads(read, viewport["width"])
        columns = read["columns"]
        assert len(columns) == 4, columns  # the round, then one per seat
        for column in columns[1:]:
            assert column["lines"] == 1, column
            assert column["title"] == column["text"], column
    finally:
        context.close()
