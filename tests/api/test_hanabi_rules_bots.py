"""The Hanabi rules page explains the conventions the bots follow and the verdict of every
score, in both languages."""

from __future__ import annotations

import httpx

from app.games.hanabi.data import VERDICTS
from app.games.hanabi.rules import HanabiEngine
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


def test_rules_page_gives_every_score_its_verdict(shared_server) -> None:
    """The score list once read '25: Legendary', '30: Divine', with 26-29 (possible with the
    multicolour option, and legendary by the engine's VERDICTS) in no line; each line's range
    now matches the engine's thresholds, in both languages."""
    bounds = [low for low, _ in VERDICTS[1:]] + [31]
    for lang in ("es", "en"):
        page = httpx.get(f"{shared_server.url}/rules/hanabi", headers={"Accept-Language": lang})
        for (low, key), high in zip(VERDICTS, bounds, strict=True):
            span = f"{low}–{high - 1}" if high - 1 > low else f"{low}"
            text = translate(lang, f"hanabi.verdict.{key}").replace("'", "&#39;")
            assert f"<li>{span}: {text}</li>" in page.text, (lang, span, key)


def test_rules_page_does_not_count_three_lives_at_a_one_life_table(shared_server) -> None:
    """The lives are a table option (3, or 1: "too easy? play with one red token"), yet the
    summary said the third red token lost ends the game and the ruling spoke of "all three
    lives". Both speak of the last life now; the engine's option still offers 1."""
    fuses = next(o for o in HanabiEngine.options if o.name == "fuses")
    assert 1 in fuses.choices
    words = {"es": ("tercera", "tres vidas"), "en": ("third", "three lives")}
    for lang in ("es", "en"):
        page = httpx.get(f"{shared_server.url}/rules/hanabi", headers={"Accept-Language": lang})
        for key in ("rules.hanabi.summary", "rules.hanabi.ruling_strikeout"):
            text = translate(lang, key)
            assert text.replace("'", "&#39;").replace('"', "&#34;") in page.text, (lang, key)
            assert not any(w in text.lower() for w in words[lang]), (lang, key, text)
