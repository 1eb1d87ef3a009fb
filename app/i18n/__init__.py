"""User-facing strings: one catalogue per language (``es.json`` first, ``en.json``).

Templates call ``t(key, **params)``; the browser gets the same catalogue as JSON. A key
missing from a language falls back to Spanish, then to the key itself (and a test checks
that both catalogues have the same keys).
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
LANGUAGES = ("es", "en")
DEFAULT = "es"


@lru_cache
def catalogue(lang: str) -> dict[str, str]:
    if lang not in LANGUAGES:
        lang = DEFAULT
    return json.loads((HERE / f"{lang}.json").read_text(encoding="utf-8"))


def translate(lang: str, key: str, **params: Any) -> str:
    # a count of one (the parameter n) takes the key's "_one" form when there is one, as the
    # pages' t() does (static/js/i18n.js): "1 point", not "1 points"
    if params.get("n") == 1 and f"{key}_one" in catalogue(DEFAULT):
        key = f"{key}_one"
    text = catalogue(lang).get(key) or catalogue(DEFAULT).get(key) or key
    return text.format(**params) if params else text


def list_joints(names: list[str], lang: str) -> list[str]:
    """What goes before each of ``names`` when a page lists them as the language does, as
    the pages' ``andList`` (Intl.ListFormat) does: "Ana, Beto y Cleo", "Ana, Beto, and
    Cleo"; Spanish says "e" before a name that starts with the sound i ("Beto e Inés", but
    "Ana y Hierro"). A template puts each joint before its name (the first is "")."""
    if len(names) < 2:
        return [""] * len(names)
    last = names[-1].lower()
    if lang == "en":
        final = " and " if len(names) == 2 else ", and "
    else:
        sound_i = last.startswith(("i", "í", "hi", "hí")) and not last.startswith(
            ("hia", "hie", "hio", "hiu"))
        final = " e " if sound_i else " y "
    return ["", *[", "] * (len(names) - 2), final]


def pick_language(cookie: str | None, accept_language: str | None) -> str:
    if cookie in LANGUAGES:
        return cookie
    for part in (accept_language or "").split(","):
        code = part.split(";")[0].strip().lower()[:2]
        if code in LANGUAGES:
            return code
    return DEFAULT
