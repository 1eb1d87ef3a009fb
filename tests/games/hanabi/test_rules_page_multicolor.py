"""The rules page's multicolour line said only that the option adds five multicolour cards.
Players who know the common "rainbow" variant expect a red clue to point at them too; here
(RULES.md: "it is clued as its own colour") it does not, and the page now says so, in both
languages (the engine's own test: test_rules.py, a colour clue and a multicolour card)."""

from __future__ import annotations

import html

import httpx

from app.i18n import translate


def test_the_multicolour_line_says_how_clues_treat_those_cards(shared_server) -> None:
    words = {"es": ("sexto color", "«multicolor»", "rojo"),
             "en": ("sixth colour", "“multicolour”", "red")}
    for lang, (sixth, clue, red) in words.items():
        page = httpx.get(f"{shared_server.url}/rules/hanabi", headers={"Accept-Language": lang})
        line = translate(lang, "hanabi.rules.deck_multi")
        assert html.escape(line, quote=False) in page.text or line in page.text, lang
        assert sixth in line and clue in line and red in line, line

