"""Ajolocracia's rules page states what scoring.py does with the value cards when everyone
ties, in both languages: every player with the same number of values ties for most and for
fewest at once, so with 3 or more players all share both the +6 and the −6 and nobody's total
changes (with none at all nobody wins the +6 and all share the −6; with 2 players nobody
loses, so each gets +3). The page said only that ties are split, and a shared −6 is rounded
toward zero (RULES.md §4), which the page's "dropping remainders" left open."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import httpx

from app.games.ajolocracia.scoring import value_bonus

CATALOGUES = Path(__file__).resolve().parents[2] / "app" / "i18n"
WORDS = {lang: json.loads((CATALOGUES / f"{lang}.json").read_text()) for lang in ("es", "en")}

SAID = {
    "es": [r"mismo número de cartas de valores, todas empatan a la vez en «más valores» y en "
           r"«menos valores»",
           r"Con 3 o más personas se reparten tanto los \+6 como los −6, así que el total de "
           r"nadie cambia",
           r"si nadie tiene valores, nadie gana los \+6 y todas se reparten los −6",
           r"Con 2 personas nadie pierde puntos: si tienen al menos una carta de valores, cada "
           r"una gana \+3",
           r"los −6 repartidos se redondean hacia cero: si cuatro personas empatan en «menos "
           r"valores», cada una pierde 1 punto"],
    "en": [r"same number of value cards, they all tie for both most and fewest values",
           r"With 3 or more players everyone shares both the \+6 and the −6, so nobody’s total "
           r"changes",
           r"if nobody has a value card, nobody wins the \+6 and everyone shares the −6",
           r"With 2 players nobody loses points: if they have at least one value card, each "
           r"gets \+3",
           r"a shared −6 is rounded toward zero: if four players tie for fewest values, each "
           r"loses 1 point"],
}


def test_what_the_page_says_is_what_the_scoring_does() -> None:
    for players in (3, 4, 5):
        for count in (1, 2, 4):
            tied = value_bonus([count] * players)
            assert tied["most"] == [6 // players] * players
            assert tied["fewest"] == [-(6 // players)] * players
            assert tied["total"] == [0] * players  # nobody's total changes
        nothing = value_bonus([0] * players)
        assert nothing["most"] == [0] * players  # nobody wins the +6
        assert nothing["total"] == [-(6 // players)] * players  # all share the −6
    assert value_bonus([2, 2])["total"] == [3, 3]
    assert value_bonus([0, 0])["total"] == [0, 0]
    assert value_bonus([1, 1, 1, 1, 2])["fewest"] == [-1, -1, -1, -1, 0]  # −1.5 → −1


def test_the_rules_page_states_the_all_tied_values_ruling(shared_server) -> None:
    for lang, phrases in SAID.items():
        page = httpx.get(f"{shared_server.url}/rules/ajolocracia",
                         headers={"Accept-Language": lang}, timeout=10)
        assert page.status_code == 200
        # the list under the page's "House rulings" heading
        heading = re.escape(WORDS[lang]["rules.rulings"])
        rulings = re.search(rf"<h2>\s*{heading}\s*</h2>\s*<ul>(.*?)</ul>", page.text, re.S)
        assert rulings, lang
        text = html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", rulings[1])))
        for phrase in phrases:
            assert re.search(phrase, text), (lang, phrase, text)
