"""Ikebana's rules page states, in both languages, the rulings the engine applies that it
left out: a card cannot be rejected when nothing could be drawn after it (rules.py, "no card
to draw"), and clockwise is seat order, so "your left neighbour" is the next seat (RULES.md,
general rulings: the first payment of a rejection goes there)."""

from __future__ import annotations

import html
import re

import httpx
import pytest

from app.games.ikebana import ENGINE
from app.games.ikebana.rules import payee
from tests.games.ikebana.test_ikebana_rules import make_state, play

SAID = {
    "es": {"no_draw": ["no puedes rechazar una carta si después no quedaría ninguna que robar",
                       "tienes que quedártela", "solo puedes robar si queda alguna carta"],
           "clockwise": ["el sentido de las agujas del reloj es el orden de los asientos",
                         "tu vecino de la izquierda es el asiento siguiente"]},
    "en": {"no_draw": ["you cannot reject a card if no card would then be left to draw",
                       "you must keep it", "you may only draw while a card is left"],
           "clockwise": ["clockwise is seat order",
                         "your left neighbour is the seat after yours"]},
}


def check_the_engine_applies_both_rulings() -> None:
    # the drawn card is the last one anywhere: it cannot be rejected, only kept
    state, _ = play(make_state(2, draws=[("red", 1)], deck_rest=False), 0, {"type": "draw"})
    assert ENGINE.legal_actions(state, 0) == [{"type": "keep"}]
    # the first rejection pays the next seat, and the turn passes to it
    assert [payee(4, 2, 1), payee(4, 3, 1)] == [3, 0]
    state, _ = play(make_state(3, draws=[("red", 1)], current=2), 2, {"type": "draw"})
    state, _ = play(state, 2, {"type": "keep"})
    assert state.current == 0


@pytest.mark.parametrize("lang", ["es", "en"])
def test_the_rules_page_states_the_rulings_the_engine_applies(shared_server, lang: str) -> None:
    check_the_engine_applies_both_rulings()
    page = httpx.get(f"{shared_server.url}/rules/ikebana", timeout=10,
                     headers={"Accept-Language": lang})
    assert page.status_code == 200
    # in the list under the page's "house rulings" heading, one item each
    heading = {"es": "Decisiones de la casa", "en": "House rulings"}[lang]
    rulings = re.search(rf"<h2>{heading}</h2>\s*<ul>(.*?)</ul>", page.text, re.S)
    assert rulings, "no list of house rulings"
    items = re.findall(r"<li>(.*?)</li>", rulings[1], re.S)
    for ruling, phrases in SAID[lang].items():
        assert sum(1 for item in items if phrases[0] in html.unescape(item)) == 1, ruling
    text = html.unescape(re.sub(r"<[^>]+>", " ", rulings[1]))
    text = re.sub(r"\s+", " ", text)
    for ruling, phrases in SAID[lang].items():
        for phrase in phrases:
            assert phrase in text, (lang, ruling, phrase)
