"""The words of Hanabi's log, drawn by its client (entryLine, which the table's log and the
replay's list of moves both use) in Chromium, in both languages:
- a number clue read "Beto → Ana: 2, slot 1", two bare numbers side by side; it says
  "number 2";
- a 5 that completes a firework read like any other play ("Ana plays red 5"), though it
  gives a clue token back (the log entry says so: clue_regained); the line says the
  firework is complete, and the token when one came back."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser

LINES = """async () => {
  const { t } = await import('/static/js/i18n.js');
  const { entryLine } = await import('/static/js/games/hanabi.js');
  const ctx = { t, seatName: (s) => ['Ana', 'Beto'][s] };
  return [
    { type: 'clue', seat: 1, target: 0, rank: 2, cards: [4], slots: [1] },
    { type: 'clue', seat: 0, target: 1, color: 'red', cards: [7, 9], slots: [2, 4] },
    { type: 'play', seat: 0, card: { color: 'red', rank: 5 }, success: true,
      clue_regained: true },
    { type: 'play', seat: 1, card: { color: 'blue', rank: 5 }, success: true,
      clue_regained: false },
    { type: 'play', seat: 0, card: { color: 'green', rank: 3 }, success: true,
      clue_regained: false },
    { type: 'play', seat: 1, card: { color: 'green', rank: 5 }, success: false,
      clue_regained: false },
  ].map((e) => entryLine(ctx, e));
}"""

EXPECTED = {
    "es": ["Beto → Ana: número 2, posición 1",
           "Ana → Beto: rojo, posiciones 2 y 4",
           "Ana juega rojo 5: ¡fuego completo! Se recupera una ficha de pista",
           "Beto juega azul 5: ¡fuego completo!",
           "Ana juega verde 3",
           "Beto juega verde 5: ¡no encaja! Se pierde una vida"],
    "en": ["Beto → Ana: number 2, slot 1",
           "Ana → Beto: red, slots 2 and 4",
           "Ana plays red 5: firework complete! A clue token comes back",
           "Beto plays blue 5: firework complete!",
           "Ana plays green 3",
           "Beto plays green 5: it does not fit! A life is lost"],
}


@pytest.mark.parametrize("lang", ["es", "en"])
def test_log_lines_say_number_clues_and_completed_fireworks(worker_server, browser,
                                                            lang: str) -> None:
    context = browser.new_context()
    context.add_cookies([{"name": "lang", "value": lang, "url": worker_server.url}])
    page = context.new_page()
    page.goto(worker_server.url + "/rules/hanabi")
    assert page.evaluate(LINES) == EXPECTED[lang]
    context.close()
