"""Alebrijes' strings: same keys and fields in Spanish and English, and every suit, event,
chance and error code the engine emits has a string."""

from __future__ import annotations

import json
import re
import string
from pathlib import Path

from app.games.alebrijes.data import SUITS, WILD

ROOT = Path(__file__).resolve().parents[3]


def load(lang: str) -> dict[str, str]:
    data = json.loads((ROOT / "app" / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))
    return {k: v for k, v in data.items() if k.startswith("alebrijes.")}


def fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def test_catalogues_match() -> None:
    es, en = load("es"), load("en")
    assert list(es) == list(en) and len(es) > 100
    for key in es:
        assert es[key] and en[key], key
        assert fields(es[key]) == fields(en[key]), key


def test_every_engine_name_has_a_string() -> None:
    es = load("es")
    source = "".join(p.read_text() for p in (ROOT / "app" / "games" / "alebrijes").glob("*.py"))
    codes = set()
    for call in re.findall(r"require\((.*?)\)\n", source, re.S):
        # the code is the last plain literal followed by the message (a string or a call)
        codes.update(re.findall(r'"([a-z_]+)",\s*(?=f?"|_why)', call)[-1:])
    codes |= {"not_your_turn", "unknown_action", "bad_action", "game_over"}
    assert {"does_not_beat", "must_lead", "too_many_cards", "no_ollin", "deck_empty"} <= codes
    names = [f"error.{code}" for code in codes]
    names += [f"suit.{suit}" for suit in (*SUITS, WILD)]
    names += [f"chance.{c}" for c in ("lead", "beat", "pass", "waiting", "exchanged",
                                      "to_exchange")]
    names += [f"log.{e}" for e in ("exchanged", "kept", "passed", "passed_exchange", "lead",
                                   "beat", "ollin_draw", "ollin_discard", "ollin_none", "drew",
                                   "drew_card", "trick_started", "trick_won", "round_scored",
                                   "round_started")]
    missing = [name for name in names if f"alebrijes.{name}" not in es]
    assert not missing
