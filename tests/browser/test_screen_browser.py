"""The table screen in Chromium, for every game: the invite's QR code while the table waits,
the public board through a whole game (play, Allegra's knock, Ajolocracia's reveal, Block and
Guess's build and guess rounds), the end summary; every frame its socket received audited
like a spectator's (never the all-hands view, even at a table that allows it); it asks to keep
the display awake, and reconnects by itself after a server restart.

At each of those moments the screen is measured at 1280×720, 1920×1080 and (in play and at the
end) 3840×2160: a TV shows the laptop's picture larger, not more of it. A card, the turn's
headline, the seats' names, the last moves, the clock and the QR code are 1.5 times their
1280×720 size at 1920×1080 and 3 times at 3840×2160; nothing scrolls or is cut, the board fills
its frame, and at 1280×720 no word on the board is under 12 px. Screenshots land in
test-artifacts/screen-*.png."""

from __future__ import annotations

import asyncio
import json
import random
import re
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from app.games import ENGINES
from app.games.base import Rng
from tests.integration.test_secrecy_all_games import _check_connection, _replay
from tests.support.client import SeatClient, play_to_end, seat_players
from tests.support.qr import decode_svg
from tests.support.server import LiveServer

pytestmark = pytest.mark.browser

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
BIG = {"width": 1920, "height": 1080}
SMALL = {"width": 1280, "height": 720}
TV = {"width": 3840, "height": 2160}


class Loop:
    """An event loop in a thread, for the seat clients (websockets) of a sync browser test."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()

    def run(self, coro: Any, timeout: float = 120) -> Any:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)

    def stop(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)
        self.loop.close()


@pytest.fixture(scope="module")
def loop() -> Iterator[Loop]:
    runner = Loop()
    yield runner
    runner.stop()


async def play_some(clients: list[SeatClient], rng: random.Random, moves: int,
                    until: Any = None) -> None:
    """Random legal moves by whoever may move, ``moves`` of them (or fewer if it ends, or as
    soon as ``until(state)`` holds for the newest state)."""
    for _ in range(moves):
        newest = max((c.state for c in clients if c.state), key=lambda s: s["version"])
        if newest["table"]["status"] == "finished" or (until and until(newest)):
            return
        movers = [c for c in clients if c.state["version"] == newest["version"] and c.my_turn()]
        if not movers:
            await asyncio.gather(*(c.wait_version(newest["version"] + 1) for c in clients))
            continue
        mover = rng.choice(movers)
        await mover.act_until_accepted(rng.choice(mover.state["legal_actions"]))
        await asyncio.gather(*(c.wait_version(newest["version"] + 1) for c in clients))


async def open_all(clients: list[SeatClient]) -> None:
    for c in clients:
        await c.open()


async def close_all(clients: list[SeatClient]) -> None:
    for c in clients:
        await c.close()


def screen_page(browser: Any, url: str, viewport: dict[str, int], lang: str = "es") -> Any:
    """A TV's browser (no identity) on the screen link, recording its socket's frames."""
    context = browser.new_context(viewport=viewport, locale="es-ES" if lang == "es" else "en-US")
    context.add_cookies([{"name": "lang", "value": lang, "url": url}])
    page = context.new_page()
    page.frames_in = []  # type: ignore[attr-defined]
    page.problems = []  # type: ignore[attr-defined]

    def on_socket(ws: Any) -> None:
        if "/ws/tables/" in ws.url:
            ws.on("framereceived", lambda payload: page.frames_in.append(payload))

    page.on("websocket", on_socket)
    page.on("pageerror", lambda exc: page.problems.append(str(exc)))
    page.on("console", lambda m: page.problems.append(m.text) if m.type == "error" else None)
    page.goto(url)
    page.wait_for_selector("#screen-app[data-version]")
    return page


def screen_qr_url(page: Any) -> str:
    return decode_svg(page.locator("#screen-qr svg").evaluate("node => node.outerHTML"))


def wait_version(page: Any, version: int) -> None:
    page.wait_for_function("(v) => Number(document.getElementById('screen-app').dataset.version)"
                           " >= v", arg=version, timeout=20_000)


# What the screen shows, measured in the page at the window's present size: the headline, the
# seats and the last moves, the clock, the QR code, one card of the board (the first of them
# on show: the same element at every size), the board's frame and its drawing, and the
# smallest type on the board as drawn (its font size times the board's zoom).
MEASURE = """
(cards) => {
  const shown = (n) => { const r = n.getBoundingClientRect(); return r.width > 0 && r.height > 0; };
  const first = (sel, root = document) => [...root.querySelectorAll(sel)].find(shown) || null;
  const box = (n) => { if (!n) return null; const r = n.getBoundingClientRect();
    return { x: r.left, y: r.top, w: r.width, h: r.height, right: r.right, bottom: r.bottom }; };
  const font = (n) => (n ? parseFloat(getComputedStyle(n).fontSize) : null);
  const app = document.getElementById("screen-app");
  const fit = document.getElementById("screen-fit");
  const frame = document.getElementById("screen-board");
  const onBoard = fit && shown(frame);
  const zoom = Number(app.dataset.zoom || 0);
  let smallest = null;
  if (onBoard) {
    const walk = document.createTreeWalker(fit, NodeFilter.SHOW_TEXT);
    while (walk.nextNode()) {
      const text = walk.currentNode.textContent.trim();
      const node = walk.currentNode.parentElement;
      // (words drawn inside a card's SVG scale with the card; screen readers' copies are 1 px)
      if (!text || node.closest("svg, .visually-hidden, .aj-sr") || !shown(node)) continue;
      const size = font(node) * zoom;
      if (!smallest || size < smallest.size) {
        smallest = { size, raw: font(node), text: text.slice(0, 40) };
      }
    }
  }
  const style = getComputedStyle(frame);
  const seats = [...document.querySelectorAll("#screen-seats .screen-seat")];
  const turn = document.getElementById("screen-turn");
  return {
    view: [innerWidth, innerHeight],
    scroll: [document.documentElement.scrollWidth, document.documentElement.scrollHeight],
    fits: app.dataset.fits, zoom, unit: Math.min(innerWidth / 1280, innerHeight / 720),
    turn: { ...box(turn), font: font(turn), text: turn.innerText.trim() },
    name: font(first(".screen-seat-name")), log: font(first("#screen-log li")),
    timer: font(first("#screen-timer strong")), qr: box(first("#screen-qr svg")),
    card: onBoard ? box(first(cards, fit) || first("section", fit)) : null,
    frame: onBoard ? { ...box(frame),
      padX: parseFloat(style.paddingLeft) + parseFloat(style.paddingRight),
      padY: parseFloat(style.paddingTop) + parseFloat(style.paddingBottom) } : null,
    drawing: onBoard ? box(fit) : null,
    smallest,
    newest: box(first("#screen-log li.newest")),
    events: box(document.querySelector(".screen-events")),
    lastSeat: box(seats[seats.length - 1]),
    seatsPanel: box(document.getElementById("screen-seats")),
  };
}
"""
TWO_FRAMES = "() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))"
# a card of each game's board (a build of Block and Guess's; the chart at the end)
CARDS = "svg.ucard, svg.ikcard, svg.aj-card, .bg-build .bg-board, .score-chart-svg"


def measure(page: Any, viewport: dict[str, int]) -> dict[str, Any]:
    """The screen at ``viewport``, once it has laid itself out for that size (the window's
    resize event comes before the next frame's callbacks: two frames later it has been
    handled)."""
    page.set_viewport_size(viewport)
    page.evaluate(TWO_FRAMES)
    m = page.evaluate(MEASURE, CARDS)
    assert m["view"] == [viewport["width"], viewport["height"]], m["view"]
    return m


def looks_right(m: dict[str, Any], where: str) -> None:
    """Nothing sideways or below the fold, nothing cut, a board that fills its frame, no raw
    key or placeholder, the headline large."""
    width, height = m["view"]
    assert m["scroll"][0] <= width, f"{where}: the screen scrolls sideways ({m['scroll']})"
    assert m["scroll"][1] <= height, f"{where}: the screen scrolls down ({m['scroll']})"
    text = m["turn"]["text"]
    assert text and not any(bad in text for bad in ("undefined", "null", "NaN", "screen.")), text
    assert 0 <= m["turn"]["x"] and m["turn"]["right"] <= width, f"{where}: the headline is cut"
    # whose turn it is, from the sofa: at least 5.5 % of the screen's height
    assert m["turn"]["font"] >= 0.055 * height, f"{where}: headline {m['turn']['font']}px"
    if m["lastSeat"]:
        assert m["lastSeat"]["bottom"] <= m["seatsPanel"]["bottom"] + 1 <= height + 1, \
            f"{where}: the last seat is cut"
    if m["newest"]:
        assert m["events"]["y"] - 1 <= m["newest"]["y"], f"{where}: the newest move is cut"
        assert m["newest"]["bottom"] <= m["events"]["bottom"] + 1, \
            f"{where}: the newest move is cut"
    if m["frame"] is None:
        return
    frame, drawing = m["frame"], m["drawing"]
    assert m["fits"] == "true", f"{where}: the board is cut"
    for edge in ("x", "y"):
        assert drawing[edge] >= frame[edge] - 1, f"{where}: the board overflows its frame"
    for edge in ("right", "bottom"):
        assert drawing[edge] <= frame[edge] + 1, f"{where}: the board overflows its frame"
    # the drawing grows until it meets the frame's sides or its top and bottom (a board
    # with little on it stops at its largest zoom)
    across = drawing["w"] / (frame["w"] - frame["padX"])
    down = drawing["h"] / (frame["h"] - frame["padY"])
    assert max(across, down) >= 0.9 or m["zoom"] >= 2.55 * m["unit"], \
        f"{where}: the board fills {across:.0%} of its frame's width, {down:.0%} of its height"


def scaled(small: dict[str, Any], large: dict[str, Any], times: float, where: str) -> None:
    """Every measure of ``large`` is ``times`` that of ``small`` (within 3 %)."""
    def side(m: dict[str, Any], key: str, edge: str) -> float | None:
        return m[key][edge] if m[key] else None

    pairs = {
        "the headline's type": (small["turn"]["font"], large["turn"]["font"]),
        "the headline's height": (small["turn"]["h"], large["turn"]["h"]),
        "a seat's name": (small["name"], large["name"]),
        "the last moves' type": (small["log"], large["log"]),
        "the clock": (small["timer"], large["timer"]),
        "the QR code": (side(small, "qr", "w"), side(large, "qr", "w")),
        "a card's width": (side(small, "card", "w"), side(large, "card", "w")),
        "a card's height": (side(small, "card", "h"), side(large, "card", "h")),
    }
    for what, (a, b) in pairs.items():
        assert (a is None) == (b is None), f"{where}: {what} shows at one size only"
        if a is not None:
            assert abs(b / a - times) <= 0.03 * times, \
                f"{where}: {what} is {b / a:.2f} times as large, not {times}"


def readable(m: dict[str, Any], where: str) -> None:
    """At 1280×720 the board's smallest word is at least 12 px. Before the zoom it is at least
    0.85 rem (13.6 px): how far the board zooms out depends on the deal (a full trick, a long
    hand), and a word drawn smaller read under 12 px in one deal out of many."""
    if m["smallest"]:
        assert m["smallest"]["size"] >= 12, f"{where}: {m['smallest']} on the board"
        assert m["smallest"]["raw"] >= 13.6, f"{where}: {m['smallest']} drawn under 0.85 rem"


def check_sizes(page: Any, where: str, tv: bool = False, shots: str | None = None) -> None:
    """The screen at 1280×720 and 1920×1080 (and 3840×2160): each right, the larger ones the
    smaller scaled up. ``shots``: screenshots at both sizes, named after it."""
    small = measure(page, SMALL)
    looks_right(small, f"{where} 1280")
    readable(small, f"{where} 1280")
    if shots:
        page.screenshot(path=str(ARTIFACTS / f"screen-{shots}-1280.png"))
    large = measure(page, BIG)
    looks_right(large, f"{where} 1920")
    if shots:
        page.screenshot(path=str(ARTIFACTS / f"screen-{shots}-1920.png"))
    scaled(small, large, 1.5, f"{where} 1920/1280")
    if tv:
        huge = measure(page, TV)
        looks_right(huge, f"{where} 3840")
        scaled(small, huge, 3, f"{where} 3840/1280")
        page.set_viewport_size(BIG)


def audit(page: Any, engine: Any, base: str, table_id: str) -> int:
    class Received:
        received = [json.loads(f) for f in page.frames_in]

    match = httpx.get(f"{base}/api/matches/{table_id}", timeout=10).json()
    states, events = _replay(engine, match)
    return _check_connection(engine, Received(), None, states, events, Rng.from_seed(11))


def options_for(game: str) -> dict[str, Any]:
    options: dict[str, Any] = {}
    if getattr(ENGINES[game], "cooperative", False):
        # a cooperative table whose spectators see every card: the screen still must not;
        # and a chess clock, so the screen shows whose time runs
        options |= {"spectators_see_all": True, "clock": "chess", "bank_seconds": 1800}
    if game == "allegra":
        options["knock_seconds"] = 30  # the countdown is measured while it runs
    return options


def view_of(state: dict[str, Any]) -> dict[str, Any]:
    return state["view"] or {}


# The moments of each game the screen is measured at, in order, between the start and the end:
# (name, at most how many moves, the state that ends the stretch: None = after those moves).
MOMENTS: dict[str, list[tuple[str, int, Any]]] = {
    "allegra": [("play", 12, None), ("knock", 300, lambda s: view_of(s).get("phase") == "knock")],
    "ajolocracia": [("reveal", 30, lambda s: view_of(s).get("last_reveal") is not None)],
    "block-and-guess": [
        ("build", 300, lambda s: view_of(s).get("phase") == "build"
         and sum(len(b["placed"]) for b in view_of(s)["builds"]) >= 2),
        ("guess", 300, lambda s: view_of(s).get("phase") == "guess"),
        # from round 3 on the rounds already scored exist: the builds keep the height (a
        # list of past rounds once took it)
        ("round3", 400, lambda s: len(view_of(s).get("results", [])) >= 2),
    ],
}


def no_raw_text(page: Any) -> None:
    text = page.inner_text("body")
    for bad in ("undefined", "null", "NaN", "screen.", "[object"):
        assert bad not in text, f"{bad!r} on the screen"


@pytest.mark.parametrize("game", sorted(ENGINES))
def test_the_screen_of_every_game(shared_server, browser, loop, game: str) -> None:
    base = shared_server.url
    ARTIFACTS.mkdir(exist_ok=True)
    engine = ENGINES[game]
    seats = max(3, engine.min_players)
    players, table, _ = seat_players(base, game, seats, options_for(game))
    screen_url = players[0].request("GET", f"/api/tables/{table['id']}/screen").json()["url"]
    page = screen_page(browser, screen_url, BIG)
    # waiting: the QR code is the invite, and the page asked to keep the display awake
    assert page.locator("#screen-join").is_visible()
    assert screen_qr_url(page) == table["invite_url"] + "?room=1"
    assert page.locator("#screen-waiting li.taken").count() == seats
    # no move yet: the last moves' panel says so, it does not stand empty
    assert page.locator("#screen-log").inner_text().strip() == "Aún no hay jugadas"
    wake = page.locator("#screen-app").get_attribute("data-wake-lock")
    has_api = page.evaluate("'wakeLock' in navigator")
    assert wake in (("held", "refused") if has_api else ("unavailable",)), wake
    no_raw_text(page)
    check_sizes(page, f"{game} waiting", shots="waiting" if game == "hanabi" else None)

    clients = [SeatClient(shared_server.ws_url, table["id"], p.token) for p in players]
    try:
        loop.run(open_all(clients))
        assert players[0].start(table["id"]).status_code == 200
        for i, (moment, moves, until) in enumerate(MOMENTS.get(game, [("play", 12, None)])):
            loop.run(play_some(clients, random.Random(seats + i), moves, until=until), timeout=300)
            newest = max((c.state for c in clients), key=lambda s: s["version"])
            assert newest["table"]["status"] == "playing", moment
            assert until is None or until(newest), f"{game}: no {moment} in {moves} moves"
            wait_version(page, newest["version"])
            assert not page.locator("#screen-join").is_visible()
            no_raw_text(page)
            if moment == "knock":
                assert "Toc" in page.locator("#screen-timer").inner_text()
            if game == "ajolocracia":
                assert page.locator("#screen-board .aj-reveal").count()
            check_sizes(page, f"{game} {moment}", tv=i == 0, shots=f"{game}-{moment}")
        if engine.cooperative:
            assert page.locator("#screen-timer strong").count()  # the chess clock runs
        final = loop.run(play_to_end(clients, random.Random(seats + 1)), timeout=300)
    finally:
        loop.run(close_all(clients))
    wait_version(page, final["version"])
    page.wait_for_selector("#screen-app[data-status='finished']")
    assert page.locator("#screen-seats .winner").count() >= (0 if engine.cooperative else 1)
    no_raw_text(page)
    check_sizes(page, f"{game} end", tv=True, shots=f"{game}-end")
    assert audit(page, engine, base, table["id"]) > 10
    assert not page.problems, page.problems
    page.context.close()


def test_the_screen_reconnects_by_itself_after_a_server_restart(browser, loop, tmp_path) -> None:
    server = LiveServer(f"sqlite+aiosqlite:///{tmp_path / 'r.db'}", tmp_path / "data")
    server.start()
    try:
        players, table, _ = seat_players(server.url, "ikebana", 2)
        url = players[0].request("GET", f"/api/tables/{table['id']}/screen").json()["url"]
        assert players[0].start(table["id"]).status_code == 200
        page = screen_page(browser, url, SMALL)
        page.wait_for_selector("#screen-app[data-connected='true']")
        before = int(page.locator("#screen-app").get_attribute("data-version"))
        # the drop can be over before the restart returns: the page itself notes that it saw it
        page.evaluate("""() => {
            const app = document.getElementById('screen-app');
            window.sawDrop = false;
            new MutationObserver((records) => {
                if (app.dataset.connected === 'false'
                    || records.some((r) => r.oldValue === 'false')) window.sawDrop = true;
            }).observe(app, { attributes: true, attributeOldValue: true,
                              attributeFilter: ['data-connected'] });
        }""")
        server.restart()
        page.wait_for_function("() => window.sawDrop === true", timeout=30_000)
        # the table comes back from storage; the screen finds it again, with nobody's help
        page.wait_for_selector("#screen-app[data-connected='true']", timeout=30_000)
        clients = [SeatClient(server.ws_url, table["id"], p.token) for p in players]
        try:
            loop.run(open_all(clients))
            loop.run(play_some(clients, random.Random(1), 2))
            newest = max(c.state["version"] for c in clients)
        finally:
            loop.run(close_all(clients))
        assert newest > before
        wait_version(page, newest)
        page.context.close()
    finally:
        server.stop()



def test_a_game_ended_early_shows_how_it_ended_on_the_screen(shared_server, browser) -> None:
    """A finished screen shows only the board's result, and a game ended by a resignation
    has none of its own: the room's screen showed an empty board under "Fin de la
    partida". It now shows how the game ended there."""
    base = shared_server.url
    players, table, _ = seat_players(base, "ikebana", 3)
    assert players[0].start(table["id"]).status_code == 200
    screen_url = players[0].request("GET", f"/api/tables/{table['id']}/screen").json()["url"]
    page = screen_page(browser, screen_url, SMALL)
    page.wait_for_selector("#screen-app[data-status='playing']")
    assert page.locator("#screen-board .early-end").count() == 0
    resigner = players[2]
    assert resigner.request("POST", f"/api/tables/{table['id']}/resign").status_code == 200
    page.wait_for_selector("#screen-app[data-status='finished']")
    shown = page.locator("#screen-board .early-end")
    assert shown.is_visible()
    assert shown.inner_text().strip() == \
        f"{resigner.name} se rindió: los demás comparten la victoria."
    # no "no moves yet" now: the log holds what it opened with (round 1's start) and no move
    assert re.fullmatch(r"Ronda 1: empieza P\d", page.locator("#screen-log").inner_text().strip())
    assert not page.problems, page.problems
    page.context.close()
