"""Allegra's score table marks the -10 for a whole display cleared. The log's score lines
said why ("Ana: -10 points, with -10 for clearing their whole display"), the table did not:
a round's -10 sat there like any other score, and a phone shows no tooltip. The cell now
carries a star, and a line under the table says what it means (the star alone: the -10 is
already in the score beside it, which may be the whole score, "-10").

The round is played by the engine from a hand-made state (nobody clears a whole display in
a game played at random), and its view is drawn by the page's own renderer."""

from __future__ import annotations

from typing import Any

import pytest

from app.games.allegra import ENGINE
from tests.browser.comfort import LAPTOP, PHONE
from tests.games.allegra.helpers import D, P, make, play

pytestmark = pytest.mark.browser

NAMES = ["Ana", "Beto", "Celia", "Dani", "Eva", "Fede"]


ROW = [1, 2, 0, 1, 0, 1, 2, 0, 2, 0, 1, 2]  # no three equal cards in a line anywhere

DRAW = """async ({ message, names }) => {
  const { t, el } = await import('/static/js/i18n.js');
  const { render } = await import('/static/js/games/allegra.js');
  const root = document.createElement('div');
  root.className = 'game';
  root.id = 'al-test-root';
  document.querySelector('main').replaceChildren(root);
  render(root, message, { t, el, seatName: (s) => names[s], send: () => {},
                          windowRemaining: () => null });
}"""

READ = """() => ({
  cells: [...document.querySelectorAll('.al-score-table tbody tr:first-child td')].map(
    (td) => ({ text: td.innerText, bonus: td.classList.contains('al-bonus') })),
  legend: document.getElementById('al-bonus-legend')?.innerText ?? null,
  width: document.documentElement.scrollWidth })"""


def bonus_round(seats: int) -> dict[str, Any]:
    """Ana (seat 0) has cleared her whole display (her 12 and Beto's right column); Beto
    turns up his last face-down card and ends round 1 of 2, everyone else's cards all up."""
    beto = [None if i in (3, 7, 11) else c for i, c in enumerate(ROW)]
    beto[5] = D(4)
    grids = [[None] * 12, beto] + [list(ROW) for _ in range(seats - 2)]
    state = make(grids, current=1, phase="place", hand=2, source="discard",
                 options={"rounds": 2, "knock": False})
    state, events = play(state, 1, {"type": "keep", "pos": P(1, 2)})
    scored = next(e for e in events if e["type"] == "round_scored")
    assert scored["bonus"][0] == -10 and scored["points"][0] == -10, scored
    view = ENGINE.view(state, 0)
    return {"view": view, "seat": 0, "to_act": [], "legal_actions": [],
            "table": {"id": f"bonus-{seats}"}, "version": 1}


@pytest.mark.parametrize(("seats", "viewport", "lang", "mark", "legend"), [
    (3, PHONE, "es", "★", "★ Despejó todo su display: 10 puntos menos, ya contados"),
    (2, LAPTOP, "en", "★", "★ Cleared their whole display: 10 points off, already counted"),
    (6, LAPTOP, "en", "★", "★ Cleared their whole display: 10 points off, already counted")])
def test_the_score_table_marks_and_words_the_bonus(worker_server, browser, seats: int,
                                                   viewport: dict, lang: str, mark: str,
                                                   legend: str) -> None:
    message = bonus_round(seats)
    context = browser.new_context(viewport=viewport, locale=lang)
    context.add_cookies([{"name": "lang", "value": lang, "url": worker_server.url}])
    try:
        page = context.new_page()
        page.goto(worker_server.url + "/rules/allegra")
        page.add_style_tag(url="/static/css/games/allegra.css")
        page.evaluate(DRAW, {"message": message, "names": NAMES})
        read = page.evaluate(READ)
        cells = read["cells"]
        assert len(cells) == seats, read
        # Ana's -10 carries the mark; nobody else's score does
        assert cells[0]["bonus"] and mark in cells[0]["text"], read
        assert cells[0]["text"].startswith("-10"), read
        assert cells[0]["text"].count("10") == 1, read  # the -10 is said once
        assert not any(c["bonus"] or mark in c["text"] for c in cells[1:]), read
        assert read["legend"] == legend, read
        assert read["width"] <= viewport["width"], read
    finally:
        context.close()
