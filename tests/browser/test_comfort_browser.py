"""Comfort of play in Chromium, for every game (issue 14): at your turn your hand is in view
on a phone (390×844) and a laptop (1280×800), with screenshots in test-artifacts/comfort;
axe-core finds no serious or critical violation on the lobby, the rules and error pages and
every table state (waiting, your turn, someone else's turn, finished); a whole turn is
played with the keyboard alone and the focus stays on the board; every coloured card carries
its colour's symbol; no catalogue key is left untranslated in Spanish or English."""

from __future__ import annotations

import random
from concurrent.futures import ThreadPoolExecutor

import pytest

from tests.browser.comfort import (
    ARTIFACTS,
    LAPTOP,
    PHONE,
    Scene,
    build_scene,
    escaping_scrollers,
    load_table,
    min_players,
    new_table,
    open_as,
    run,
    split_turns,
    untranslated,
)
from tests.support.axe import axe_source, axe_violations
from tests.support.client import ApiClient

pytestmark = pytest.mark.browser

GAMES = ["hanabi", "ikebana", "ajolocracia", "alebrijes", "allegra", "block-and-guess"]
SHOTS = ARTIFACTS / "comfort"

# every drawn card of a game whose colours mean something, and what it must hold besides
# its colour: the colour's symbol (Ajolocracia's kinds differ by picture, not colour)
CARDS = {
    "hanabi": ("#game svg.hcard:not(.back):not(.empty), #game svg.hcard.back.known", ".symbol"),
    "ikebana": ("#game svg.ikcard:not(.empty)", ".symbol"),
    "alebrijes": ("#game svg.abcard", ".symbol"),
    "allegra": ("#game svg.alcard:not(.back)", ".symbol"),
    "block-and-guess": ("#game .bg-thumb, #game .bg-block", ".symbol"),
    "ajolocracia": ("#game svg.aj-card", "path, circle, ellipse, polygon"),
}
# what a keyboard player presses in their turn, best first (Tab reaches it, Enter presses)
KEYS = {
    "hanabi": ["#my-hand button.discard:not([disabled])", "#my-hand button.play:not([disabled])"],
    "ikebana": ["#my-hand .ik-actions button:not([disabled])"],
    "ajolocracia": ["#my-hand .aj-hand-card:not([disabled])", "#my-hand .aj-pick-one"],
    "alebrijes": ["#my-hand .ab-actions button:not([disabled])"],
    "allegra": ["#my-hand .al-actions button:not([disabled]):not(.al-mode)",
                "#game button.al-cell"],
    "block-and-guess": ["#my-hand .bg-pool-block:not([disabled])"],
}


@pytest.fixture(scope="module")
def scenes(shared_server) -> dict[str, Scene]:
    axe_source()  # install (or find) axe-core before the slow part
    sizes = min_players(shared_server.url)
    # built side by side: a scene's moves mostly wait on the server's answer and the message
    # rate, so six games played at once take little longer than the slowest one alone
    with ThreadPoolExecutor(len(GAMES)) as pool:
        built = pool.map(lambda g: build_scene(shared_server.url, shared_server.ws_url, g,
                                               sizes[g]), GAMES)
        return dict(zip(GAMES, built, strict=True))


def check_symbols(page, game: str) -> None:
    selector, inside = CARDS[game]
    counts = page.evaluate("""([selector, inside]) => {
        const cards = [...document.querySelectorAll(selector)];
        return [cards.length, cards.filter((c) => !c.querySelector(inside)).length]; }""",
                           [selector, inside])
    assert counts[1] == 0, f"{game}: {counts[1]} of {counts[0]} cards told apart by colour alone"


def test_lobby_rules_and_error_pages_pass_axe(shared_server, browser) -> None:
    base = shared_server.url
    problems: list[str] = []
    for lang in ("es", "en"):
        context = browser.new_context(viewport=PHONE, locale="es-ES" if lang == "es" else "en-US")
        context.add_cookies([{"name": "lang", "value": lang, "url": base}])
        page = context.new_page()
        paths = ["/", "/tables/nope", "/join/not-an-invite", "/nowhere",
                 *[f"/rules/{g}" for g in GAMES]]
        for path in paths:
            page.goto(base + path)
            page.wait_for_load_state("networkidle")
            assert page.locator("h1").count() == 1, path  # every page has its heading
            problems += axe_violations(page)
            problems += [f"{path}: {k}" for k in untranslated(page)]
        # unknown tables and dead invites: a styled page in the reader's language
        page.goto(base + "/join/not-an-invite")
        assert page.locator("link[href='/static/css/site.css']").count() == 1
        text = page.inner_text("main")
        assert ("invitación" in text) if lang == "es" else ("invite link" in text)
        page.goto(base + "/rules/hanabi")
        rules = page.inner_text("main")
        assert "50" in rules and ("5 con 2 o 3" in rules or "5 with 2 or 3" in rules)
        page.goto(base + "/")
        page.fill("#name", "Axe")
        page.click("form[action='/session'] button")
        page.wait_for_selector("#create-table")
        page.wait_for_load_state("networkidle")
        problems += axe_violations(page)
        problems += [f"/ (named): {k}" for k in untranslated(page)]
        context.close()
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("game", GAMES)
def test_every_table_state_in_view_accessible_and_translated(scenes, shared_server, browser,
                                                             game: str) -> None:
    base = shared_server.url
    scene = scenes[game]
    SHOTS.mkdir(parents=True, exist_ok=True)
    states = [("waiting", scene.waiting, 0), ("turn", scene.playing, scene.turn_seat),
              ("other", scene.playing, scene.other_seat), ("finished", scene.finished, 0)]
    problems: list[str] = []
    for state, table_id, seat in states:
        if seat is None:  # everyone acts at once here: there is no "someone else's turn"
            continue
        for viewport in (PHONE, LAPTOP):
            for lang in (["es", "en"] if viewport is PHONE else ["es"]):
                context = open_as(browser, base, scene.players[seat], viewport, lang)
                page = context.new_page()
                errors: list[str] = []
                page.on("pageerror", lambda exc, errors=errors: errors.append(str(exc)))
                load_table(page, base, table_id)
                where = f"{game} {state} {viewport['width']} {lang}"
                problems += [f"{where}: {k}" for k in untranslated(page)]
                problems += [f"{where}: {k}" for k in escaping_scrollers(page)]
                if lang == "es":
                    problems += [f"{where}: {v}" for v in axe_violations(page)]
                if viewport is PHONE:
                    width = page.evaluate("document.documentElement.scrollWidth")
                    if width > PHONE["width"]:  # say what sticks out (seen once in CI)
                        wide = page.evaluate("""(w) => [...document.querySelectorAll("body *")]
                          .filter((e) => e.getBoundingClientRect().right > w + 1).slice(0, 12)
                          .map((e) => `${e.tagName}.${e.className} right=${
                            Math.round(e.getBoundingClientRect().right)}`)""", PHONE["width"])
                        page.screenshot(path=str(SHOTS / f"{game}-{state}-wide.png"),
                                        full_page=True)
                        raise AssertionError(f"{where}: the page scrolls sideways "
                                             f"({width} px): {wide}")
                if state == "turn" and lang == "es":
                    assert page.locator("#banner.mine").count() == 1, where
                    page.screenshot(path=str(SHOTS / f"{game}-turn-{viewport['width']}.png"))
                    box = page.locator("#my-hand").bounding_box()
                    assert box is not None, f"{where}: no hand dock"
                    assert box["y"] >= 0 and box["y"] + box["height"] <= viewport["height"] + 1, \
                        f"{where}: your hand is out of view ({box})"
                    assert box["x"] >= 0 and box["x"] + box["width"] <= viewport["width"] + 1
                if state == "finished":
                    # every game ends the same way: one end summary, a ".final" section at
                    # the top of its board with a heading, announced (table.js brings it
                    # into view when a game ends before your eyes)
                    final = page.evaluate("""() => [...document.querySelectorAll('#game .final')]
                      .map((f) => [f.tagName, f.getAttribute('role'), !!f.querySelector('h2'),
                        f === document.querySelector('#game section')])""")
                    if final != [["SECTION", "status", True, True]]:
                        problems.append(f"{where}: the end summary is not one .final ({final})")
                    page.screenshot(path=str(SHOTS / f"{game}-finished-{viewport['width']}.png"),
                                    full_page=True)
                check_symbols(page, game)
                assert not errors, f"{where}: {errors}"
                context.close()
    assert not problems, "\n".join(problems)


def tab_to(page, selectors: list[str], presses: int = 250) -> str:
    """Press Tab until the focus lands on one of ``selectors``; return the one it matched."""
    for _ in range(presses):
        page.keyboard.press("Tab")
        found = page.evaluate("""(selectors) => {
            const a = document.activeElement;
            return selectors.find((s) => a && a.matches(s)) || null; }""", selectors)
        if found:
            return found
    raise AssertionError(f"Tab never reached {selectors}")


@pytest.mark.parametrize("game", GAMES)
def test_a_whole_turn_by_keyboard_keeps_the_focus(shared_server, browser, game: str) -> None:
    base = shared_server.url
    sizes = min_players(base)
    players = [ApiClient(base, n) for n in ["Kiko", "Lola", "Mara", "Nico"][:sizes[game]]]
    table_id = new_table(players, game, start=True)
    turn_seat, _ = run(split_turns(shared_server.ws_url, players, table_id,
                                   random.Random(3)))
    context = open_as(browser, base, players[turn_seat], LAPTOP)
    page = context.new_page()
    load_table(page, base, table_id)
    assert page.locator("#banner.mine").count() == 1
    page.mouse.click(1, 1)  # nothing focused: start from the top of the page
    steps = 0
    while page.locator("#banner.mine").count() and steps < 4:
        version = page.locator("#table-app").get_attribute("data-version")
        tab_to(page, KEYS[game])
        page.keyboard.press("Enter")
        page.wait_for_function(
            "(v) => document.getElementById('table-app').dataset.version !== v",
            arg=version, timeout=10_000)
        page.wait_for_timeout(200)
        # the focus stayed on the board (never back to the page's body or top)
        where = page.evaluate("""() => { const a = document.activeElement;
            return a === document.body || !a ? 'body'
              : document.getElementById('game').contains(a) ? 'game' : a.id || a.tagName; }""")
        assert where == "game", f"{game}: after a move the focus is on {where}"
        steps += 1
    assert steps >= 1
    context.close()
