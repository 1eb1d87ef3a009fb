"""The Hanabi rules page explains the conventions the bots follow, in both languages."""

from __future__ import annotations

import httpx

from app.i18n import translate


def test_rules_page_has_a_playing_with_bots_section(shared_server) -> None:
    for lang in ("es", "en"):
        page = httpx.get(f"{shared_server.url}/rules/hanabi",
                         headers={"Accept-Language": lang})
        assert page.status_code == 200
        for key in ("rules.hanabi.bots", "rules.hanabi.bot_chop", "rules.hanabi.bot_save",
                    "rules.hanabi.bot_hat"):
            text = translate(lang, key).replace('"', "&#34;")
            assert text in page.text, (lang, key)
