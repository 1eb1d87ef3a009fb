"""Alebrijes in Chromium at an Ollin choice (two cards played, one with Ollin): the other
players read who is choosing what, not only whose turn it is; the chooser who selects two
cards is told why "discard the selected card" stays greyed out, and with one card selected
the button works and the hint is gone. The table is reached by replaying a pinned deal's
moves over the API (seed 2, three players)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import httpx
import pytest

from app.api.deps import TEST_SEED_HEADER
from app.games import ENGINES
from tests.browser.comfort import act, connect, open_as, run, settle
from tests.support.browser import launch_chromium
from tests.support.client import ApiClient

pytestmark = pytest.mark.browser

ENGINE = ENGINES["alebrijes"]
SEED = 2
CATALOGUES = Path(__file__).resolve().parents[2] / "app" / "i18n"


@pytest.fixture(scope="module")
def browser():
    with launch_chromium() as chromium:
        yield chromium


def moves_to_a_two_card_ollin() -> tuple[list[tuple[int, dict]], int]:
    """Random legal moves of the pinned deal until a two-card Ollin choice; its chooser."""
    state = ENGINE.setup(3, {"first_seat": 0}, SEED)
    rng = random.Random(SEED)
    moves = []
    while not (state.phase == "ollin" and state.ollin["size"] == 2):
        seat = state.current
        action = rng.choice(ENGINE.legal_actions(state, seat))
        moves.append((seat, action))
        state, _ = ENGINE.apply(state, seat, action)
    return moves, state.current


def test_an_ollin_choice_reads_right_for_the_chooser_and_the_others(shared_server,
                                                                     browser) -> None:
    base = shared_server.url
    moves, chooser = moves_to_a_two_card_ollin()
    players = [ApiClient(base, name) for name in ("Ana", "Beto", "Celia")]
    r = httpx.post(f"{base}/api/tables", timeout=10,
                   headers={**players[0].headers, TEST_SEED_HEADER: str(SEED)},
                   json={"game": "alebrijes", "seats": 3, "options": {"first_seat": 0}})
    assert r.status_code == 201, r.text
    table = r.json()
    invite = table["invite_url"].rsplit("/", 1)[1]
    for seat, p in enumerate(players[1:], start=1):
        assert p.join(table["id"], invite=invite, seat=seat).status_code == 200
    assert players[0].start(table["id"]).status_code == 200

    async def replay() -> None:
        clients = await connect(shared_server.ws_url, players, table["id"])
        try:
            for seat, action in moves:
                await settle(clients)
                await act(clients[seat], action)
            state = await settle(clients)
            assert state["view"]["phase"] == "ollin", state["view"]
        finally:
            for c in clients:
                await c.close()

    run(replay())
    name = ("Ana", "Beto", "Celia")[chooser]
    errors: list[str] = []
    for lang, viewport in (("es", {"width": 390, "height": 844}),
                           ("en", {"width": 1280, "height": 800})):
        words = json.loads((CATALOGUES / f"{lang}.json").read_text())
        # another player: who is choosing, and what
        other = open_as(browser, base, players[(chooser + 1) % 3], viewport, lang).new_page()
        other.goto(f"{base}/tables/{table['id']}")
        other.wait_for_selector("#ab-prompt")
        assert other.locator("#ab-prompt").inner_text().strip() == \
            words["alebrijes.turn.ollin_other"].replace("{player}", name)
        other.context.close()
        # the chooser: two cards selected, the discard greyed out and why; one, it works
        page = open_as(browser, base, players[chooser], viewport, lang).new_page()
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(f"{base}/tables/{table['id']}")
        discard = page.locator("#game button[data-focus-key=ollin-discard]")
        discard.wait_for()
        cards = page.locator("#my-hand .ab-card")
        assert cards.count() >= 2
        cards.nth(0).click()
        cards.nth(1).click()
        page.wait_for_selector("#ab-hint")
        assert page.locator("#ab-hint").inner_text().strip() == \
            words["alebrijes.hint.ollin_one_card"]
        assert discard.is_disabled()
        cards.nth(1).click()
        page.wait_for_function("() => !document.getElementById('ab-hint')")
        assert discard.is_enabled()
        assert errors == []
        page.context.close()
