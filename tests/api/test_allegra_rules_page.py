"""Allegra's rules page states the clearing rule plainly in both languages: three equal
face-up cards in a column, or side by side (consecutive) in a row of the display of 15
(RULES.md §5, step 3). The English page said "or three in a row in a row of your display",
a stutter that reads as if "in a row" were the rule twice."""

from __future__ import annotations

import re

import httpx

SAID = {  # the clearing rule: the same cards, a column, or consecutive in a row of 15
    "es": r"tres cartas iguales boca arriba en una columna, o tres seguidas en una fila de tu "
          r"display de 15",
    "en": r"three equal face-up cards in a column, or side by side in a row of your display of 15",
}


def test_the_clearing_rule_reads_plainly(shared_server) -> None:
    for lang, rule in SAID.items():
        page = httpx.get(f"{shared_server.url}/rules/allegra",
                         headers={"Accept-Language": lang}, timeout=10)
        assert page.status_code == 200
        text = re.sub(r"<[^>]+>", " ", page.text)
        assert re.search(rule, text), (lang, rule)
        # no phrase said twice in a row ("in a row in a row")
        stutter = re.search(r"\b(\w+ \w+ \w+) \1\b", text)
        assert stutter is None, (lang, stutter)


def test_the_knock_steps_are_lettered_once(shared_server) -> None:
    """The knock's steps a-d are an ordered list lettered a-d by the list; the page had a
    bulleted list whose items began with their own letters ("• a. The knocker…")."""
    for lang in ("es", "en"):
        page = httpx.get(f"{shared_server.url}/rules/allegra",
                         headers={"Accept-Language": lang}, timeout=10)
        steps = re.search(r'<ol type="a"[^>]*>(.*?)</ol>', page.text, re.S)
        assert steps, (lang, "no lettered list")
        items = re.findall(r"<li>(.*?)</li>", steps[1], re.S)
        assert len(items) == 4, items
        for item in items:
            assert not re.match(r"\s*[a-d]\.\s", item), (lang, item)
