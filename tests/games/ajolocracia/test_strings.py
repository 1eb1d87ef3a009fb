"""Every name the Ajolocracia page will show has a Spanish and an English string."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from app.games.ajolocracia.data import KINDS, ROUND_CATEGORIES

I18N = Path(__file__).resolve().parents[3] / "app" / "i18n"


def catalogue(lang: str) -> dict[str, str]:
    """The pending file while it exists, else the merged catalogue."""
    pending = I18N / "pending" / f"ajolocracia.{lang}.json"
    path = pending if pending.exists() else I18N / f"{lang}.json"
    data: dict[str, str] = json.loads(path.read_text(encoding="utf-8"))
    return {k: v for k, v in data.items() if k.startswith("ajolocracia.")}


@pytest.mark.parametrize("lang", ["es", "en"])
def test_kinds_categories_and_table_strings(lang: str) -> None:
    strings = catalogue(lang)
    needed = [f"ajolocracia.kind.{k.id}" for k in KINDS]
    needed += [f"ajolocracia.category.{c}" for c in (*ROUND_CATEGORIES, "values")]
    needed += ["ajolocracia.has_picked", "ajolocracia.ajolocracia", "ajolocracia.rules.summary",
               "ajolocracia.option.alternate_direction", "ajolocracia.log.revealed"]
    assert [k for k in needed if not strings.get(k)] == []


def test_both_languages_have_the_same_keys() -> None:
    assert catalogue("es").keys() == catalogue("en").keys()


@pytest.mark.parametrize("lang", ["es", "en"])
def test_one_point_is_not_plural(lang: str) -> None:
    """The client takes a key's "_one" form for a count of one: "1 pt", not "1 pts"."""
    assert catalogue(lang)["ajolocracia.pts_one"] == {"es": "1 pto", "en": "1 pt"}[lang]


def test_the_page_writes_no_words_of_its_own() -> None:
    """Every word the Ajolocracia client puts in an element comes from the catalogues (the
    INE badge of the players' list was a literal "INE ×2"); the card art's printed "INE"
    (an SVG text) is a picture."""
    source = (I18N.parents[1] / "static" / "js" / "games" / "ajolocracia.js").read_text()
    literal = re.compile(r'\bel\("\w+", \{[^{}]*\}, "([^"]*[^\W\d_][^"]*)"\)')
    assert literal.findall(source) == []
