"""Tables of every game in every state a player meets (waiting, playing at your turn,
playing while others act, finished), made through the REST + WebSocket API, and the pages
that show them to a seated player in Chromium. Used by test_comfort_browser.py."""

from __future__ import annotations

import asyncio
import random
import re
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from app.api.deps import TEST_SEED_HEADER, sign
from tests.support.client import ApiClient, SeatClient

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
SECRET = "test-secret"  # tests.support.server.LiveServer's LUDOTECA_SECRET_KEY
PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1280, "height": 800}
# short games where the game has a length option; the first seat fixed so that seat 0
# (the page's player) acts first in turn-based games
OPTIONS: dict[str, dict[str, Any]] = {
    "allegra": {"rounds": 1, "knock": False, "first_seat": 0},
    "hanabi": {"first_seat": 0}, "ikebana": {"first_seat": 0},
    "alebrijes": {"first_seat": 0}, "block-and-guess": {"first_seat": 0},
}
# what a key left untranslated looks like on a page: "prefix.something" of a catalogue key
KEY_SHAPE = re.compile(
    r"\b(?:table|lobby|hanabi|ikebana|ajolocracia|alebrijes|allegra|block-and-guess|color|"
    r"colors|ui|error|status|game|option|name|nav|rules|lang|site)\.[a-z0-9_]+(?:\.[a-z0-9_]+)*")


def run(coro: Any) -> Any:
    """Run a coroutine to its end in a thread of its own (Playwright's sync API owns this
    thread's event loop)."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coro).result()


@dataclass
class Scene:
    """One game's tables: ``players[i]`` sits in seat i of each."""

    game: str
    players: list[ApiClient]
    waiting: str = ""
    playing: str = ""
    finished: str = ""
    turn_seat: int = 0  # a seat the playing table waits for
    other_seat: int | None = None  # a seat it does not wait for (None: everyone acts)
    extra: dict[str, Any] = field(default_factory=dict)


def min_players(base: str) -> dict[str, int]:
    return {g["id"]: g["min_players"] for g in httpx.get(base + "/api/games", timeout=10).json()}


def new_table(players: list[ApiClient], game: str, start: bool,
              options: dict | None = None) -> str:
    table = players[0].create_table(game, len(players), {**OPTIONS.get(game, {}),
                                                         **(options or {})})
    invite = table["invite_url"].rsplit("/", 1)[1]
    for seat, p in enumerate(players[1:], start=1):
        r = p.join(table["id"], invite=invite, seat=seat)
        assert r.status_code == 200, r.text
    if start:
        assert players[0].start(table["id"]).status_code == 200
    return table["id"]


def seeded_table(players: list[ApiClient], game: str, seed: int,
                 options: dict[str, Any] | None = None) -> str:
    """A started table of a pinned deal (the server's test seed): the first player creates
    it, the others take seats 1, 2, ... through its invite."""
    r = httpx.post(f"{players[0].base_url}/api/tables", timeout=10,
                   headers={**players[0].headers, TEST_SEED_HEADER: str(seed)},
                   json={"game": game, "seats": len(players), "options": options or {}})
    assert r.status_code == 201, r.text
    table = r.json()
    invite = table["invite_url"].rsplit("/", 1)[1]
    for seat, p in enumerate(players[1:], start=1):
        assert p.join(table["id"], invite=invite, seat=seat).status_code == 200
    assert players[0].start(table["id"]).status_code == 200
    return table["id"]


async def connect(ws_base: str, players: list[ApiClient], table_id: str) -> list[SeatClient]:
    clients = [SeatClient(ws_base, table_id, p.token) for p in players]
    for c in clients:
        await c.open()
    return clients


def play_moves(ws_base: str, players: list[ApiClient], table_id: str,
               moves: list[tuple[int, dict[str, Any]]]) -> list[dict[str, Any]]:
    """Play ``moves`` ((seat, action) pairs) at the table, each once every seat has seen
    the one before, and wait until every seat has seen the last; then every seat's state."""
    async def go() -> list[dict[str, Any]]:
        clients = await connect(ws_base, players, table_id)
        try:
            for seat, action in moves:
                await settle(clients)
                await act(clients[seat], action)
            await settle(clients)
            return [c.state for c in clients]
        finally:
            for c in clients:
                await c.close()

    return run(go())


async def act(client: SeatClient, action: dict[str, Any]) -> None:
    """One action, sent again after a pause while the server says ``rate_limited``."""
    for _ in range(40):
        target = client.state["version"] + 1
        await client.act(action)
        while True:
            message = await client.recv(15)
            if message["type"] == "state" and message["version"] >= target:
                await asyncio.sleep(0.04)  # under the 30-a-second message rate
                return
            if message["type"] == "error":
                break
        if message["code"] not in ("rate_limited", "stale_version"):
            raise AssertionError(f"{action} refused: {message}")
        await asyncio.sleep(0.3 if message["code"] == "rate_limited" else 0.05)
    raise AssertionError(f"{action} kept being refused")


async def settle(clients: list[SeatClient]) -> dict[str, Any]:
    """Wait until every client has seen the newest version; returns it."""
    while True:
        await asyncio.sleep(0.05)
        for c in clients:
            while True:
                try:
                    await c.recv(0.05)
                except TimeoutError:
                    break
        versions = {c.state["version"] for c in clients}
        if len(versions) == 1:
            return clients[0].state


def waiting_for(state: dict[str, Any]) -> list[int]:
    return state.get("waiting_for", state.get("to_act", []))


async def split_turns(ws_base: str, players: list[ApiClient], table_id: str,
                      rng: random.Random) -> tuple[int, int | None]:
    """Play random legal moves (not seat 0's) until seat 0 must act and another seat need
    not, or a few dozen moves have passed. Returns (seat 0 or a seat to act, idle seat)."""
    clients = await connect(ws_base, players, table_id)
    try:
        for _ in range(60):
            state = await settle(clients)
            waits = waiting_for(state)
            idle = [s for s in range(len(players)) if s not in waits]
            if 0 in waits and idle:
                return 0, idle[0]
            movers = [c for c in clients[1:] if c.state["seat"] in c.state["to_act"]
                      and c.state["legal_actions"]]
            if not movers:
                movers = [c for c in clients if c.state["seat"] in c.state["to_act"]
                          and c.state["legal_actions"]]
            if not movers:
                break
            mover = rng.choice(movers)
            await act(mover, rng.choice(mover.state["legal_actions"]))
        state = await settle(clients)
        waits = waiting_for(state)
        idle = [s for s in range(len(players)) if s not in waits]
        return (waits[0] if waits else 0), (idle[0] if idle else None)
    finally:
        for c in clients:
            await c.close()


def finished_table(base: str, ws_base: str, game: str, seed: int = 5
                   ) -> tuple[list[ApiClient], str]:
    """A table of ``game`` at its fewest seats (P0, P1, ...), played to its end by random
    legal moves: its players, seat order, and its id (a finished match, for replays)."""
    players = [ApiClient(base, f"P{i}") for i in range(min_players(base)[game])]
    table_id = new_table(players, game, start=True)
    run(finish(ws_base, players, table_id, random.Random(seed)))
    return players, table_id


async def finish(ws_base: str, players: list[ApiClient], table_id: str,
                 rng: random.Random, max_moves: int = 6000) -> None:
    """Random legal moves by every seat until the table is finished."""
    clients = await connect(ws_base, players, table_id)
    try:
        for _ in range(max_moves):
            state = await settle(clients)
            if state["table"]["status"] == "finished":
                return
            movers = [c for c in clients if c.state["seat"] in c.state["to_act"]
                      and c.state["legal_actions"]]
            if not movers:
                await asyncio.sleep(0.2)  # a timed window closes by the table's clock
                continue
            mover = rng.choice(movers)
            await act(mover, rng.choice(mover.state["legal_actions"]))
        raise AssertionError("the game did not finish")
    finally:
        for c in clients:
            await c.close()


def build_scene(base: str, ws_base: str, game: str, seats: int, seed: int = 7) -> Scene:
    players = [ApiClient(base, name) for name in ["Ana", "Beto", "Celia", "Dani"][:seats]]
    scene = Scene(game, players)
    scene.waiting = players[0].create_table(game, seats, OPTIONS.get(game, {}))["id"]
    scene.playing = new_table(players, game, start=True)
    rng = random.Random(seed)
    scene.turn_seat, scene.other_seat = run(split_turns(ws_base, players, scene.playing, rng))
    scene.finished = new_table(players, game, start=True)
    run(finish(ws_base, players, scene.finished, rng))
    return scene


def open_as(browser: Any, base: str, player: ApiClient, viewport: dict[str, int],
            lang: str = "es") -> Any:
    """A browser context carrying ``player``'s identity cookie and a language."""
    context = browser.new_context(viewport=viewport, locale="es-ES" if lang == "es" else "en-US",
                                  is_mobile=viewport["width"] < 500,
                                  has_touch=viewport["width"] < 500)
    context.add_cookies([
        {"name": "ludoteca_player", "value": sign(player.token, SECRET), "url": base},
        {"name": "lang", "value": lang, "url": base}])
    return context


def load_table(page: Any, base: str, table_id: str) -> None:
    page.goto(f"{base}/tables/{table_id}")
    page.wait_for_selector("#conn-status.ok", timeout=15_000)
    page.wait_for_function("() => document.getElementById('table-app').dataset.version",
                           timeout=15_000)
    page.wait_for_timeout(400)  # the turn cue's smooth scroll


def escaping_scrollers(page: Any) -> list[str]:
    """Absolutely positioned elements whose containing block lies outside a scrolling box
    around them: the box does not clip them, so they can widen the page (a visually hidden
    label in Allegra's scrolling strip of displays once made a phone page 457 px wide)."""
    return page.evaluate("""() => {
      const out = [];
      for (const e of document.querySelectorAll("body *")) {
        const pos = getComputedStyle(e).position;
        if (pos !== "absolute") continue;
        const block = e.offsetParent;
        for (let a = e.parentElement; a && a !== block && a !== document.body;
             a = a.parentElement) {
          const s = getComputedStyle(a);
          if (s.overflowX !== "visible" || s.overflowY !== "visible") {
            const name = e.className.baseVal ?? e.className;
            out.push(`${e.tagName}.${name} escapes ${a.tagName}.${a.className}`);
            break;
          }
        }
      }
      return [...new Set(out)]; }""")


def untranslated(page: Any) -> list[str]:
    """Catalogue keys (or unfilled {placeholders}) shown as text or in accessible names."""
    texts = page.evaluate("""() => {
      const out = [document.title, document.body.innerText];
      for (const node of document.querySelectorAll('[aria-label],[title],[placeholder],[alt]'))
        for (const a of ['aria-label', 'title', 'placeholder', 'alt'])
          if (node.getAttribute(a)) out.push(node.getAttribute(a));
      for (const node of document.querySelectorAll('svg title, svg text'))
        out.push(node.textContent);
      return out; }""")
    found = []
    for text in texts:
        found += KEY_SHAPE.findall(text)
        found += re.findall(r"\{[a-z_]+\}", text)
    return sorted(set(found))
