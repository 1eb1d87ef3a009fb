"""Allegra's log, read as a player: the round's scores say why a player's points are not the
sum of their cards (the line said "Ana: 126 points (total 126)" for a display of 63 doubled,
which only the score table explained), and a player turning up their own card is not told
whose card it was ("Bot 2 turns up a 6 (Bot 2’s card)")."""

from __future__ import annotations

import pytest

from app.games.allegra.scoring import score_round

pytestmark = pytest.mark.browser

LINES = """async (events) => {
  const { t, el } = await import('/static/js/i18n.js');
  const { eventLines } = await import('/static/js/games/allegra.js');
  const names = ['Ana', 'Beto', 'Celia'];
  return events.map((e) => eventLines({ t, el, seatName: (s) => names[s] }, e)); }"""


def row(values: list[int | None]) -> list[int | None]:
    return values + [None] * (15 - len(values))


def scored(displays: list[list[int | None]], trigger: int) -> dict:
    """A round_scored event as the engine writes it (app/games/allegra/flow.py end_round)."""
    points = score_round(displays, trigger)
    return {"type": "round_scored", "round": 1, "trigger": trigger, **points,
            "totals": list(points["points"])}


EXPECTED = {
    "en": [["End of round 1",
            "Ana: 126 points, 63 doubled for ending the round without the lowest score"
            " (total 126)",
            "Beto: 21 points (total 21)", "Celia: 30 points (total 30)"],
           ["End of round 1",
            "Ana: -3 points, -7 halved for ending the round without the lowest score"
            " (total -3)",
            "Beto: -9 points (total -9)",
            "Celia: -10 points, with -10 for clearing their whole display (total -10)"],
           ["Beto turns up a 6"], ["Ana turns up an 8 (Beto’s card)"]],
    "es": [["Fin de la ronda 1",
            "Ana: 126 puntos, 63 por dos por cerrar la ronda sin la puntuación más baja"
            " (total 126)",
            "Beto: 21 puntos (total 21)", "Celia: 30 puntos (total 30)"],
           ["Fin de la ronda 1",
            "Ana: -3 puntos, -7 a la mitad por cerrar la ronda sin la puntuación más baja"
            " (total -3)",
            "Beto: -9 puntos (total -9)",
            "Celia: -10 puntos, con -10 por despejar todo su display (total -10)"],
           ["Beto gira un 6"], ["Ana gira un 8 (de Beto)"]],
}


@pytest.mark.parametrize("lang", ["es", "en"])
def test_the_log_says_why_points_differ_from_the_cards(worker_server, browser, lang) -> None:
    events = [
        scored([row([60, 3]), row([21]), row([30])], trigger=0),
        scored([row([-7]), row([-9]), [None] * 15], trigger=0),
        {"type": "revealed", "seat": 1, "owner": 1, "value": 6},
        {"type": "revealed", "seat": 0, "owner": 1, "value": 8},
    ]
    context = browser.new_context()
    context.add_cookies([{"name": "lang", "value": lang, "url": worker_server.url}])
    try:
        page = context.new_page()
        page.goto(worker_server.url + "/rules/allegra")
        assert page.evaluate(LINES, events) == EXPECTED[lang]
    finally:
        context.close()
