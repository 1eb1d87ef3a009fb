"""Every rules page says what the server plays for a seat whose clock ran out: the shared
part said only "the game's timed-out move". Two games' sentences are checked against what
their engines do."""

from __future__ import annotations

import html
import json
from pathlib import Path

import httpx

from app.games import ENGINES

CATALOGUES = Path(__file__).resolve().parents[2] / "app" / "i18n"


def test_every_rules_page_says_its_timed_out_move(shared_server) -> None:
    for lang in ("es", "en"):
        words = json.loads((CATALOGUES / f"{lang}.json").read_text(encoding="utf-8"))
        for game in sorted(ENGINES):
            page = httpx.get(f"{shared_server.url}/rules/{game}",
                             headers={"Accept-Language": lang}, timeout=10)
            assert page.status_code == 200, (lang, game)
            assert words[f"{game}.rules.timeout"] in html.unescape(page.text), (lang, game)


def test_ikebana_out_of_time_draws_and_keeps() -> None:
    engine = ENGINES["ikebana"]
    state = engine.setup(3, {}, 7)
    seat = next(iter(engine.to_act(state)))
    assert engine.timeout_action(state, seat) == {"type": "draw"}
    state, _ = engine.apply(state, seat, {"type": "draw"})
    assert engine.timeout_action(state, seat) == {"type": "keep"}


def test_hanabi_out_of_time_discards_the_oldest_unclued_card_else_clues_a_colour() -> None:
    engine = ENGINES["hanabi"]
    for seed in range(200):  # a deal where the first clue touches the next hand's oldest card
        state = engine.setup(3, {}, seed)
        seat = next(iter(engine.to_act(state)))
        nxt = (seat + 1) % 3
        # every clue token available: no discard, a clue to the next player, first colour held
        colour = next(c for c in state.colors if any(k.color == c for k in state.hands[nxt]))
        if state.hands[nxt][0].color == colour:
            break
    action = engine.timeout_action(state, seat)
    assert action == {"type": "clue", "target": nxt, "color": colour}
    state, _ = engine.apply(state, seat, action)
    hand = state.hands[nxt]
    unclued = [k for k in hand if k.clued_color is None and k.clued_rank is None]
    assert hand[0].clued_color == colour and unclued  # the oldest card was clued: it is kept
    assert engine.timeout_action(state, nxt) == {"type": "discard", "card": unclued[0].id}
