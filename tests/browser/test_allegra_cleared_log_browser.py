"""Allegra's log line for a cleared line, read as a player: the Spanish said "Ana despeja
tres 1", a bare numeral where Spanish wants the cards named, and neither language said where
the three cards went. It now reads "Ana despeja una línea: tres cartas de 1 a los descartes"
("Ana clears three 1s to the discard pile"): the action's name, as its button and the rules
page give it ("Despejar"), the cards named, and where they went."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser

LINES = """async (events) => {
  const { t, el } = await import('/static/js/i18n.js');
  const { eventLines } = await import('/static/js/games/allegra.js');
  const names = ['Ana', 'Beto', 'Celia'];
  return events.map((e) => eventLines({ t, el, seatName: (s) => names[s] }, e)); }"""

EXPECTED = {
    "es": [["Ana despeja una línea: tres cartas de 1 a los descartes"],
           ["Beto despeja una línea: tres cartas de -1 a los descartes"]],
    "en": [["Ana clears three 1s to the discard pile"],
           ["Beto clears three -1s to the discard pile"]],
}


@pytest.mark.parametrize("lang", ["es", "en"])
def test_a_cleared_line_reads_naturally(worker_server, browser, lang: str) -> None:
    events = [{"type": "cleared", "seat": 0, "value": 1, "cells": [0, 5, 10]},
              {"type": "cleared", "seat": 1, "value": -1, "cells": [1, 2, 3]}]
    context = browser.new_context()
    context.add_cookies([{"name": "lang", "value": lang, "url": worker_server.url}])
    try:
        page = context.new_page()
        page.goto(worker_server.url + "/rules/allegra")
        assert page.evaluate(LINES, events) == EXPECTED[lang]
    finally:
        context.close()
