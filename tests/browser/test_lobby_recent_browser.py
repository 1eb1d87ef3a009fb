"""The lobby's "recent games" on a phone (390 and 360 px): each finished game is one row,
its facts as running text beside its replay button. The list was a flex row of loose words
and separators: on a phone the button fell to a line of its own under some games and not
others, lines began with a "·", and a name ("Bot 4") broke in two. A cooperative game
(Hanabi) said who "won" (every seat, even at 3/25) instead of its score.

Its replay, opened from that list on a phone, shows the board right under the step
controls: "What if? Play on from here" stood between them, a screen tall, so every step
meant scrolling down to see what it changed. Its result says the score too."""

from __future__ import annotations

import re
import time

import httpx
import pytest

from tests.browser.comfort import open_as
from tests.support.client import ApiClient

pytestmark = pytest.mark.browser

# all-bot tables play out in a moment with no pause between moves
GAMES = [("hanabi", 4, {}), ("ikebana", 3, {}), ("allegra", 3, {"rounds": 1, "knock": False})]


@pytest.fixture(scope="module")
def finished(shared_server) -> ApiClient:
    """Three games played to the end by bots alone; returns their host."""
    base = shared_server.url
    host = ApiClient(base, "Ana")
    for game, seats, options in GAMES:
        table = host.create_table(game, seats, {**options, "bot_delay": 0})
        for seat in range(seats):  # the host's own seat too: nobody at the table is a person
            r = host.request("POST", f"/api/tables/{table['id']}/bots", json={"seat": seat})
            assert r.status_code == 201, r.text
        assert host.start(table["id"]).status_code == 200
    for _ in range(600):
        if len(httpx.get(base + "/api/matches?limit=8", timeout=10).json()) == len(GAMES):
            return host
        time.sleep(0.1)
    raise AssertionError("the bots did not finish their games")


@pytest.mark.parametrize("width,lang", [(390, "es"), (360, "en")])
def test_recent_games_lie_in_even_rows_on_a_phone(shared_server, browser, finished,
                                                  width: int, lang: str) -> None:
    context = open_as(browser, shared_server.url, finished, {"width": width, "height": 800}, lang)
    page = context.new_page()
    page.goto(shared_server.url + "/")
    page.wait_for_function(
        "(n) => document.querySelectorAll('#recent-matches li[data-match]').length === n",
        arg=len(GAMES))
    rows = page.evaluate("""() => [...document.querySelectorAll('#recent-matches li')].map((li) => {
      const box = (n) => { const r = n.getBoundingClientRect();
        return {left: r.left, right: r.right, top: r.top, bottom: r.bottom}; };
      const button = li.querySelector('a.button');
      const facts = [...li.querySelectorAll('strong, a:not(.button)')];
      return {text: li.innerText, li: box(li), button: box(button),
              factsTop: Math.min(...facts.map((n) => n.getBoundingClientRect().top)),
              factsBottom: Math.max(...facts.map((n) => n.getBoundingClientRect().bottom)),
              // a name in two pieces has two boxes
              split: [...li.querySelectorAll('a:not(.button)')]
                .filter((a) => a.getClientRects().length > 1).map((a) => a.textContent)}; })""")
    lefts = {round(r["button"]["left"]) for r in rows}
    assert len(lefts) == 1, f"the replay buttons do not line up: {lefts}"
    for row in rows:
        # beside its game, not on a line of its own below it
        button = row["button"]
        assert button["top"] < row["factsBottom"] and button["bottom"] > row["factsTop"], row
        assert button["right"] <= width, row
        assert not row["split"], f"a name broke over two lines: {row}"
        for line in row["text"].splitlines():
            assert not line.strip().startswith("·"), f"a line starts with '·': {row['text']!r}"
    hanabi = next(r["text"] for r in rows if r["text"].startswith("Hanabi"))
    assert re.search(r"\b\d{1,2}/25\b", hanabi), f"Hanabi's score is not shown: {hanabi!r}"
    assert page.evaluate("() => document.documentElement.scrollWidth") <= width
    context.close()


@pytest.mark.parametrize("lang", ["es", "en"])
def test_a_replay_from_the_list_shows_its_board_under_its_controls(shared_server, browser,
                                                                   finished, lang: str) -> None:
    context = open_as(browser, shared_server.url, finished, {"width": 390, "height": 844}, lang)
    page = context.new_page()
    page.goto(shared_server.url + "/")
    page.locator("#recent-matches li", has_text="Hanabi").locator("a.button").click()
    page.wait_for_url("**/matches/*")
    page.wait_for_function("() => document.querySelector('#game .card')")
    result = page.inner_text("#replay-result")
    assert re.fullmatch(r"(Puntuación|Score): \d{1,2}/25", result), result
    tops = page.evaluate("""() => Object.fromEntries(['.replay-controls-card', '#game', '#branch']
      .map((s) => [s, document.querySelector(s).getBoundingClientRect()])
      .map(([s, r]) => [s, {top: r.top, bottom: r.bottom}]))""")
    controls, board, branch = tops[".replay-controls-card"], tops["#game"], tops["#branch"]
    assert board["top"] < branch["top"], f"'what if' comes before the board: {tops}"
    # right under the controls, and in view with them on a phone's screen
    assert board["top"] - controls["bottom"] < 40, tops
    assert board["top"] < 844 - 200, tops
    context.close()


@pytest.mark.parametrize(("lang", "listed"), [("es", "Bot 1, Bot 2, Bot 3 y Bot 4"),
                                              ("en", "Bot 1, Bot 2, Bot 3, and Bot 4")])
def test_the_players_of_a_game_are_listed_as_the_language_lists_them(
        shared_server, browser, finished, lang: str, listed: str) -> None:
    """"Bot 1, Bot 2, Bot 3, Bot 4" read as a list of four things, not of four people
    playing together: the recent games, a replay's heading and a player's history now join
    their players' links as the turn cue joins names (andList, Intl.ListFormat)."""
    base = shared_server.url
    context = open_as(browser, base, finished, {"width": 390, "height": 844}, lang)
    page = context.new_page()
    page.goto(base + "/")
    row = page.locator("#recent-matches li", has_text="Hanabi")
    row.wait_for()
    assert row.locator(".recent-players").inner_text() == listed
    assert row.locator(".recent-players a").count() == 4  # still one link a player
    match = next(m for m in httpx.get(base + "/api/matches?limit=8", timeout=10).json()
                 if m["game"] == "hanabi")
    page.goto(f"{base}/matches/{match['id']}")
    heading = page.locator("main p", has=page.locator("a[href^='/players/']")).first
    assert heading.inner_text().startswith(listed)
    page.goto(f"{base}/players/{match['seats'][0]['player']['id']}")
    cell = page.locator("td", has=page.locator("a[href^='/players/']")).first
    assert cell.inner_text() == listed
    context.close()
