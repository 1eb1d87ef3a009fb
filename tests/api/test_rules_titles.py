"""Every game's rules page is titled the same way, in its heading and its tab: "Reglas de
Ikebana" / "Ikebana rules" (the catalogue's ``rules.title``). Alebrijes' read "Alebrijes:
reglas" among five "Reglas de …"."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import httpx

from app.games import ENGINES

CATALOGUES = Path(__file__).resolve().parents[2] / "app" / "i18n"


def test_every_rules_page_has_the_same_kind_of_title(shared_server) -> None:
    for lang in ("es", "en"):
        pattern = json.loads((CATALOGUES / f"{lang}.json").read_text())["rules.title"]
        for game in sorted(ENGINES):
            page = httpx.get(f"{shared_server.url}/rules/{game}",
                             headers={"Accept-Language": lang}, timeout=10)
            assert page.status_code == 200, (lang, game)
            heading = html.unescape(re.search(r"<h1[^>]*>(.*?)</h1>", page.text, re.S)[1])
            tab = html.unescape(re.search(r"<title>(.*?)</title>", page.text, re.S)[1])
            before, after = pattern.split("{game}")
            assert re.fullmatch(re.escape(before) + ".+" + re.escape(after), heading.strip()), \
                (lang, game, heading, pattern)
            assert tab.startswith(heading.strip() + " · "), (lang, game, tab)
