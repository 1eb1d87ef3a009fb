"""The end of a game, as its players and spectators meet it in Chromium.

- When a game ends while the page is open, its result comes into view: a phone player was
  down at the page's foot (their hand, the log) and the end summary, at the top of the
  board, stayed a screen or more above them. The focus stays where it was kept (the hand,
  the log), never moved to the summary; a player typing a chat line keeps their place.
- The score chart leaves air between its scale's labels and its points: Alebrijes' first
  point (0, at the start) sat on the "0" of the scale. Checked on a finished Alebrijes page
  and on charts shaped like every game's (negative scores, no starting 0, a long last label).
- Alebrijes' ranking says "1 ronda ganada" / "1 round won", not "1 rondas ganadas", and its
  chart (running totals) is titled so, not "Puntos por ronda".
- A finished table says "Fin de la partida" / "Game over" once, in the turn cue at the top of
  the page: the end summary's heading is its result (who won, or Hanabi's score), where it
  said "Fin de la partida" again (and Block and Guess's status line a third time)."""

from __future__ import annotations

import asyncio
import random
import time
from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest

from tests.browser.comfort import (
    LAPTOP,
    PHONE,
    finish,
    load_table,
    min_players,
    new_table,
    open_as,
    run,
)
from tests.support.client import ApiClient, SeatClient

pytestmark = pytest.mark.browser


def all_bots(host: ApiClient, game: str, seats: int) -> str:
    """A table of ``game`` whose every seat is a bot moving at once; started."""
    table = host.create_table(game, seats, {"bot_delay": 0})
    for seat in range(seats):
        r = host.request("POST", f"/api/tables/{table['id']}/bots", json={"seat": seat})
        assert r.status_code == 201, r.text
    assert host.start(table["id"]).status_code == 200
    return table["id"]


def finished_match(base: str, table_id: str) -> dict:
    for _ in range(600):
        r = httpx.get(f"{base}/api/matches/{table_id}", timeout=10)
        if r.status_code == 200:
            return r.json()
        time.sleep(0.1)
    raise AssertionError(f"{table_id} did not finish")


@pytest.fixture(scope="module")
def alebrijes_one_round(worker_server) -> tuple[ApiClient, str]:
    """A finished Alebrijes game (bots alone) where someone won exactly one round."""
    host = ApiClient(worker_server.url, "Ana")
    for _ in range(5):
        tables = [all_bots(host, "alebrijes", 3) for _ in range(4)]
        for table_id in tables:
            won = finished_match(worker_server.url, table_id)["outcome"]["details"]["rounds_won"]
            if 1 in won:
                return host, table_id
    raise AssertionError("no Alebrijes game ended with a player on one round won")


# ------------------------------------------------------------------ the result comes into view

async def play_until_over(ws_base: str, token: str, table_id: str) -> None:
    """Seat 0 plays a card whenever it is due (one fuse: the first misplay ends the game)."""
    rng = random.Random(5)
    async with SeatClient(ws_base, table_id, token) as client:
        while client.state["table"]["status"] != "finished":
            state = client.state
            plays = [a for a in state["legal_actions"] if a["type"] == "play"]
            if state["seat"] in state["waiting_for"] and plays:
                await client.act_until_accepted(rng.choice(plays))
            else:
                await client.recv(15)
        await asyncio.sleep(0)


def at_the_foot(page) -> float:
    """Scroll the page to its foot, as a player reading the log is; returns scrollY."""
    page.evaluate("() => window.scrollTo(0, document.documentElement.scrollHeight)")
    return page.evaluate("() => scrollY")


def summary_top(page) -> float:
    return page.evaluate("() => document.querySelector('#game .final').getBoundingClientRect().top")


def test_the_result_comes_into_view_when_the_game_ends(worker_server, browser) -> None:
    base = worker_server.url
    ana = ApiClient(base, "Ana")
    table = ana.create_table("hanabi", 2, {"fuses": 1, "bot_delay": 0, "first_seat": 0})
    r = ana.request("POST", f"/api/tables/{table['id']}/bots", json={"seat": 1})
    assert r.status_code == 201, r.text
    assert ana.start(table["id"]).status_code == 200
    pages = {}
    # the player at their hand (phone), a spectator with the log focused (laptop), a
    # spectator typing a chat line (phone); the scroll is instant for the test
    for who, player, viewport, lang in [("player", ana, PHONE, "es"),
                                        ("watcher", ApiClient(base, "Vera"), LAPTOP, "en"),
                                        ("typist", ApiClient(base, "Tito"), PHONE, "es")]:
        page = open_as(browser, base, player, viewport, lang).new_page()
        page.emulate_media(reduced_motion="reduce")
        load_table(page, base, table["id"])
        pages[who] = page
    pages["player"].focus("#my-hand button.play")
    pages["watcher"].focus("#log")
    pages["typist"].fill("#chat-input", "qué pena")
    before = {who: at_the_foot(page) for who, page in pages.items()}
    assert all(y > 200 for y in before.values()), f"the pages do not scroll: {before}"

    run(play_until_over(worker_server.ws_url, ana.token, table["id"]))
    for page in pages.values():
        page.wait_for_selector("#game .final", timeout=15_000)

    for who in ("player", "watcher"):
        page = pages[who]
        top, height = summary_top(page), page.evaluate("() => innerHeight")
        assert 0 <= top < height / 2, f"{who}: the end summary is not in view (top {top})"
    # the focus stayed where the page keeps it: the hand, the log; never the summary
    assert pages["player"].evaluate("""() => {
      const a = document.activeElement, hand = document.getElementById('my-hand');
      return !!hand && (a === hand || hand.contains(a)); }"""), "the player's focus left the hand"
    assert pages["watcher"].evaluate("() => document.activeElement.id") == "log"
    # a player typing keeps the box they type in, and their words: the page stays put
    typist = pages["typist"]
    assert typist.evaluate("() => document.activeElement.id") == "chat-input"
    assert typist.input_value("#chat-input") == "qué pena"
    assert summary_top(typist) < 0, "the page jumped away from the chat box being typed in"
    for page in pages.values():
        page.context.close()


# ------------------------------------------------------------------ the chart's spacing

OVERLAPS = """(svg) => {
  const gap = 3; // px of air asked between a label and a point, or two labels
  const box = (n) => n.getBoundingClientRect();
  const near = (a, b) => a.left < b.right + gap && b.left < a.right + gap
    && a.top < b.bottom + gap && b.top < a.bottom + gap;
  const labels = [...svg.querySelectorAll(':scope > text')];
  const points = [...svg.querySelectorAll('g.symbol')];
  const out = [];
  for (const label of labels) {
    for (const point of points)
      if (near(box(label), box(point))) out.push(`"${label.textContent}" on a point`);
    for (const other of labels) if (other !== label && near(box(label), box(other)))
      out.push(`"${label.textContent}" on "${other.textContent}"`);
  }
  return [...new Set(out)]; }"""

# charts shaped like each game's: (title, names, rounds, options)
CHARTS = {
    "alebrijes": (["Ana", "Bot 1", "Bot 2"], [[-11, 0, -3], [-18, -10, 0], [-7, -10, 0]], {}),
    "allegra": (["Ana", "Bot 1"], [[53, 29]], {}),
    "ajolocracia": (["Ana", "Bot 1"], [[11, 17], [14, 14], [15, 17], [3, 3]],
                    {"labels": ["R1", "R2", "R3", "Valores"]}),
    "ikebana": (["Ana", "Bot 1"], [[3, 26], [24, 38], [12, 62], [17, 95]],
                {"cumulative": False, "fromZero": False, "labels": ["R1", "R2", "R3", "R4"]}),
    "block-and-guess": (["A", "B"], [[2, 0], [1, 3], [0, 2]], {}),
    "zeros": (["A", "B", "C"], [[0, 0, 0], [0, 0, 0]], {}),
}


@pytest.mark.parametrize("width", [300, 760])
def test_score_charts_keep_labels_off_their_points(worker_server, browser, width: int) -> None:
    page = browser.new_context(viewport={"width": 1000, "height": 800}).new_page()
    page.goto(worker_server.url + "/rules/alebrijes")
    problems = page.evaluate("""async ([charts, width]) => {
      const { scoreChart } = await import('/static/js/ui/chart.js');
      const { el, t } = await import('/static/js/i18n.js');
      const check = """ + OVERLAPS + """;
      const out = [];
      for (const [game, [names, rounds, options]] of Object.entries(charts)) {
        const holder = el('div');
        holder.style.width = `${width}px`; // (the CSSOM: the page's policy refuses style="")
        document.body.prepend(holder);
        holder.append(scoreChart({ el, t }, { title: game, names, rounds, ...options }));
        // drawn again at the figure's width (a ResizeObserver): wait for that drawing
        for (let i = 0; i < 50; i += 1) {
          const svg = holder.querySelector('svg.score-chart-svg');
          if (Math.abs(Number(svg.dataset.width) - Math.max(240, width)) <= 1) break;
          if (i === 49) out.push(`${game}: not drawn again at ${width} px`);
          await new Promise((r) => requestAnimationFrame(r));
        }
        out.push(...check(holder.querySelector('svg.score-chart-svg')).map((p) => `${game}: ${p}`));
        holder.remove();
      }
      return out; }""", [CHARTS, width])
    assert not problems, problems
    page.context.close()


@pytest.mark.parametrize("lang", ["es", "en"])
def test_a_finished_alebrijes_game_reads_well(worker_server, browser, alebrijes_one_round,
                                              lang: str) -> None:
    host, table_id = alebrijes_one_round
    page = open_as(browser, worker_server.url, host, PHONE, lang).new_page()
    load_table(page, worker_server.url, table_id)
    page.wait_for_selector("#game .final svg.score-chart-svg")
    problems = page.evaluate(f"() => ({OVERLAPS})(document.querySelector('#game .final "
                             "svg.score-chart-svg'))")
    assert not problems, problems
    ranking = page.inner_text("#game .final ol")
    one = "1 ronda ganada" if lang == "es" else "1 round won"
    assert one in ranking, ranking
    assert "1 rondas" not in ranking and "1 rounds" not in ranking, ranking
    # the chart draws running totals (its last points are the final scores): its title said
    # "Puntos por ronda" / "Points by round", as if each point were one round's score
    title = page.inner_text("#game .final figure.score-chart > figcaption")
    assert ("acumulados" if lang == "es" else "Running totals") in title, title
    page.context.close()


# ------------------------------------------------------------------ "Game over", said once

GAMES = ["hanabi", "ikebana", "alebrijes", "ajolocracia", "allegra", "block-and-guess"]
OVER = {"es": "Fin de la partida", "en": "Game over"}

# the visible text nodes holding the phrase, by where they are; the log (the game's record,
# line by line, at the page's foot) and the screen reader's live region (visually hidden)
# are left out: they tell what happened, as they tell every move
SAYING = """(phrase) => {
  const out = [];
  const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walk.nextNode(); node; node = walk.nextNode()) {
    const holder = node.parentElement;
    if (!node.textContent.includes(phrase) || holder.closest('#log, #live')) continue;
    if (!holder.checkVisibility({ visibilityProperty: true })) continue;
    const box = holder.getBoundingClientRect();
    if (box.width < 1 || box.height < 1) continue;
    out.push(holder.closest('[id]').id + ': ' + node.textContent.trim());
  }
  return out; }"""


@pytest.fixture(scope="module")
def finished_tables(worker_server) -> dict[str, tuple[ApiClient, str]]:
    """A finished table of every game (random legal moves), its first player with it."""
    sizes = min_players(worker_server.url)

    def build(game: str) -> tuple[ApiClient, str]:
        players = [ApiClient(worker_server.url, name)
                   for name in ["Ana", "Beto", "Celia", "Dani"][:sizes[game]]]
        table_id = new_table(players, game, start=True)
        run(finish(worker_server.ws_url, players, table_id, random.Random(3)))
        return players[0], table_id

    with ThreadPoolExecutor(len(GAMES)) as pool:  # mostly waiting on the server: side by side
        return dict(zip(GAMES, pool.map(build, GAMES), strict=True))


@pytest.mark.parametrize("viewport,lang", [(PHONE, "es"), (LAPTOP, "en")],
                         ids=["390-es", "1280-en"])
def test_a_finished_table_says_game_over_once(worker_server, browser, finished_tables,
                                              viewport, lang: str) -> None:
    problems = []
    for game, (player, table_id) in finished_tables.items():
        page = open_as(browser, worker_server.url, player, viewport, lang).new_page()
        load_table(page, worker_server.url, table_id)
        page.wait_for_selector("#game .final h2")
        said = page.evaluate(SAYING, OVER[lang])
        # once, in the turn cue (at the top: what a player, and a screen reader, meets first)
        if said != [f"banner: {OVER[lang]}"]:
            problems.append(f"{game} ({lang}): {said}")
        # the summary's heading is the result itself, at the top of the board
        heading = page.inner_text("#game .final h2").strip()
        names_a_result = any(name in heading for name in ["Ana", "Beto", "Celia", "Dani"]) \
            or (game == "hanabi" and any(c.isdigit() for c in heading))
        if OVER[lang] in heading or not names_a_result:
            problems.append(f"{game} ({lang}): the summary's heading is {heading!r}")
        # the live region and the turn cue are still there for a screen reader
        assert page.get_attribute("#live", "aria-live") == "polite"
        assert page.locator("#early-end").is_hidden(), game  # played to its end
        page.context.close()
    assert not problems, problems


# ------------------------------------------------------------------ a game ended early

EARLY = {"es": ("{name} se rindió: los demás comparten la victoria.",
                "{name} se rindió: la partida terminó como una derrota para todos.",
                "El tablero se queda como estaba cuando terminó la partida."),
         "en": ("{name} resigned: the others share the win.",
                "{name} resigned: the game ended as a loss for everyone.",
                "The board stays as it was when the game ended.")}


def test_a_game_ended_early_is_headed_by_how_it_ended(worker_server, browser) -> None:
    """A resignation ends a game mid-turn: its board stayed as it stood ("Celia's turn",
    Alebrijes' green "select 0, 1 or 2 cards to swap" for the seat to act), with the end
    said only in the side panel, a screen below on a phone. Now a heading above the board
    says how the game ended and that the board is that moment; it comes into view."""
    base = worker_server.url
    sizes = min_players(base)
    problems = []
    for i, game in enumerate(GAMES):
        viewport, lang = (PHONE, "es") if i % 2 == 0 else (LAPTOP, "en")
        players = [ApiClient(base, name) for name in ["Ana", "Beto", "Celia", "Dani"]
                   [:max(3, sizes[game])]]
        table_id = new_table(players, game, start=True)
        page = open_as(browser, base, players[0], viewport, lang).new_page()
        page.emulate_media(reduced_motion="reduce")
        load_table(page, base, table_id)
        assert page.locator("#early-end").is_hidden(), game  # not while it is played
        at_the_foot(page)
        resigned = players[2].request("POST", f"/api/tables/{table_id}/resign")
        assert resigned.status_code == 200, resigned.text
        page.wait_for_selector("#early-end:not([hidden])", timeout=15_000)
        words, coop_words, board = EARLY[lang]
        wanted = (coop_words if game == "hanabi" else words).format(name="Celia")
        title = page.inner_text("#early-end h2").strip()
        if title != wanted or board not in page.inner_text("#early-end"):
            problems.append(f"{game} ({lang}): {page.inner_text('#early-end')!r}")
        if wanted in page.inner_text("#life"):
            problems.append(f"{game} ({lang}): the side panel says it again")
        top = page.evaluate("() => document.getElementById('early-end')"
                            ".getBoundingClientRect().top")
        if not 0 <= top < viewport["height"] / 2:
            problems.append(f"{game} ({lang}): the heading is not in view (top {top})")
        page.context.close()
    assert not problems, problems
