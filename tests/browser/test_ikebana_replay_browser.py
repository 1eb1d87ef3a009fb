"""Ikebana's replay, in Chromium: in the list of moves a rejection is followed, on a line of
its own, by the draw it set off ("Luego, Ana roba 4 azul"). The list showed "Ana rechaza…"
alone: the card drawn next was only in the button's tooltip. The line comes from the step's
events as the point of view chosen got them (a drawn card is face up for everyone, spectators
included), and a draw that had to rebuild the deck reads as the draw, not as the reshuffle.
Screenshots in test-artifacts/ikebana-replay-*.png."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import httpx
import pytest

from app.games.base import event_for
from app.games.ikebana import ENGINE
from tests.browser.comfort import (
    ARTIFACTS,
    LAPTOP,
    PHONE,
    act,
    connect,
    finish,
    open_as,
    run,
    seeded_table,
    settle,
)
from tests.games.ikebana.test_ikebana_rules import make_state
from tests.support.client import ApiClient

pytestmark = pytest.mark.browser

CATALOGUES = Path(__file__).resolve().parents[2] / "app" / "i18n"
NAMES = ["Ana", "Beto"]


def catalogue(lang: str) -> dict[str, str]:
    return json.loads((CATALOGUES / f"{lang}.json").read_text(encoding="utf-8"))


def card_name(cat: dict[str, str], card: dict[str, Any]) -> str:
    if card["colour"] == "wild":
        return cat["ikebana.card.wild"].format(number=card["number"])
    return cat["ikebana.card"].format(colour=cat[f"ikebana.colour.{card['colour']}"],
                                      number=card["number"])


@pytest.fixture(scope="module")
def match(worker_server) -> str:
    """A finished two-player game whose second step is Ana's rejection of her first card."""
    players = [ApiClient(worker_server.url, name) for name in NAMES]
    table_id = seeded_table(players, "ikebana", 11, {"first_seat": 0})

    async def play() -> None:
        clients = await connect(worker_server.ws_url, players, table_id)
        try:
            for kind in ("draw", "reject", "keep"):
                await settle(clients)
                await act(clients[0], {"type": kind})
        finally:
            for c in clients:
                await c.close()
        await finish(worker_server.ws_url, players, table_id, random.Random(3))

    run(play())
    return table_id


@pytest.mark.parametrize(("viewport", "lang", "point"),
                         [(PHONE, "es", "spectator"), (LAPTOP, "en", "1")],
                         ids=["phone-es-spectator", "laptop-en-seat1"])
def test_the_draw_after_a_rejection_has_its_own_line(worker_server, browser, match, viewport,
                                                     lang, point) -> None:
    base = worker_server.url
    cat = catalogue(lang)
    steps = httpx.get(f"{base}/api/matches/{match}/replay?seat={point}",
                      timeout=10).json()["steps"]
    # what each step's list entry must say under its move: the draws after its rejection
    expected: dict[int, list[str]] = {}
    for s in steps:
        types = [e["type"] for e in s["events"]]
        lines = []
        if "rejected" in types:
            for e in s["events"][types.index("rejected"):]:
                if e["type"] == "drew":
                    line = cat["ikebana.log.drew"].format(player=NAMES[e["seat"]],
                                                          card=card_name(cat, e["card"]))
                    lines.append(cat["replay.step_then"].format(text=line))
        expected[s["step"]] = lines
    assert steps[1]["action"] == {"type": "reject"} and expected[2]
    assert sum(1 for lines in expected.values() if lines) >= 2  # more rejections than ours
    # the card named is the one the viewpoint's view shows in hand after the step
    hand = httpx.get(f"{base}/api/matches/{match}/views/2?seat={point}",
                     timeout=10).json()["view"]["hand"]
    assert card_name(cat, hand) in expected[2][0]

    context = open_as(browser, base, ApiClient(base, "Vera"), viewport, lang)
    try:
        page = context.new_page()
        problems: list[str] = []
        page.on("pageerror", lambda exc: problems.append(str(exc)))
        page.goto(f"{base}/matches/{match}?step=2")
        page.wait_for_selector("#replay-actions button[data-step='1']")
        if point != "spectator":
            with page.expect_response(f"**/replay?seat={point}"):
                page.select_option("#replay-seat", point)
        page.wait_for_selector("#replay-actions button[data-step='2'][aria-current=step]")
        page.wait_for_function("() => document.querySelector('#game .ik-hand')")
        shown = page.evaluate("""() => [...document.querySelectorAll('#replay-actions button')]
          .slice(1).map((b) => ({ step: Number(b.dataset.step),
            move: (b.querySelector('.replay-move') || b).innerText,
            then: [...b.querySelectorAll('.replay-then')].map((s) => s.innerText) }))""")
        assert {s["step"]: s["then"] for s in shown} == expected
        e = steps[1]["events"][0]
        assert shown[1]["move"] == cat["replay.step_text"].format(n=2, text=cat[
            "ikebana.log.rejected"].format(player=NAMES[0], card=card_name(cat, e["card"]),
                                           n=e["price"], other=NAMES[e["to"]]))
        # the line is on its own below the move, inside the same button
        box = page.evaluate("""() => {
          const b = document.querySelector("#replay-actions button[data-step='2']");
          const m = b.querySelector('.replay-move').getBoundingClientRect();
          const t = b.querySelector('.replay-then').getBoundingClientRect();
          const o = b.getBoundingClientRect();
          return { below: t.top >= m.bottom - 1,
                   inside: t.right <= o.right + 1 && t.bottom <= o.bottom + 1,
                   sideways: document.documentElement.scrollWidth - window.innerWidth };
        }""")
        assert box["below"] and box["inside"], box
        assert box["sideways"] <= 0, box
        assert problems == []
        ARTIFACTS.mkdir(exist_ok=True)
        page.locator(".side").screenshot(
            path=str(ARTIFACTS / f"ikebana-replay-{lang}-{viewport['width']}.png"))
    finally:
        context.close()


def test_a_draw_that_rebuilt_the_deck_reads_as_the_draw(worker_server, browser) -> None:
    """Nothing left in the deck: the draw's events are [reshuffled, drew]. Its entry in the
    list said "Se acabó el mazo…" (the draw only in the tooltip); now the draw first."""
    state = make_state(2, piles={0: [("red", 1), ("red", 2)], 1: [("green", 1), ("green", 2)]},
                       deck_rest=False)
    _, events = ENGINE.apply(state, 0, {"type": "draw"})
    shown = event_for(events, None)
    assert [e["type"] for e in shown] == ["reshuffled", "drew"]
    cat = catalogue("es")
    drew = cat["ikebana.log.drew"].format(player="Ana", card=card_name(cat, shown[1]["card"]))
    context = open_as(browser, worker_server.url, ApiClient(worker_server.url, "Vera"), PHONE)
    try:
        page = context.new_page()
        page.goto(f"{worker_server.url}/rules/ikebana")
        lines = page.evaluate("""async (events) => {
          const game = await import('/static/js/games/ikebana.js');
          const { t } = await import('/static/js/i18n.js');
          const ctx = { t, seatName: (s) => ['Ana', 'Beto'][s], me: null };
          // as the replay's list takes them (static/js/replay.js stepLabel)
          const lines = game.stepLines ? game.stepLines(ctx, events)
            : events.flatMap((e) => game.eventLines(ctx, e));
          return { lines, then: game.stepThen ? game.stepThen(ctx, events) : [] };
        }""", shown)
    finally:
        context.close()
    assert lines["lines"][0] == drew
    assert len(lines["lines"]) == 2 and lines["lines"][1].startswith("Se acabó el mazo")
    assert lines["then"] == []  # no rejection: nothing under the move
