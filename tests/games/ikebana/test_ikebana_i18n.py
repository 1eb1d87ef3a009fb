"""Ikebana's strings in the catalogues: same keys in Spanish and English, and every name the
engine emits (combinations, bonuses, colours, events, error codes) has a string."""

from __future__ import annotations

import json
import string
from pathlib import Path

from app.games.ikebana.data import COLOURS, WILD
from app.games.ikebana.scoring import BONUSES, GROUP_KINDS, STRAIGHTS

CATALOGUES = Path(__file__).resolve().parents[3] / "app" / "i18n"


def load(lang: str) -> dict[str, str]:
    data = json.loads((CATALOGUES / f"{lang}.json").read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return {k: v for k, v in data.items() if k.startswith("ikebana.")}


def fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def test_catalogues_match() -> None:
    es, en = load("es"), load("en")
    assert list(es) == list(en)
    assert all(key.startswith("ikebana.") for key in es)
    for key in es:
        assert es[key] and en[key], key
        assert fields(es[key]) == fields(en[key]), key


def test_every_engine_name_has_a_string() -> None:
    es = load("es")
    names = [f"combo.{kind}" for kind in GROUP_KINDS.values()]
    names += [f"combo.{kind}" for kind, _, _ in STRAIGHTS]
    names += [f"bonus.{bonus}" for bonus in BONUSES]
    names += [f"colour.{colour}" for colour in (*COLOURS, WILD)]
    names += [f"action.{kind}" for kind in ("draw", "keep", "reject", "buy")]
    names += [f"phase.{phase}" for phase in ("choose", "consider", "over")]
    names += [f"log.{event}" for event in ("drew", "kept", "rejected", "bought", "reshuffled",
                                           "round_scored", "round_started", "game_over")]
    names += [f"error.{code}" for code in (
        "not_your_turn", "unknown_action", "bad_action", "game_over", "already_drawing",
        "not_drawing", "cannot_pay", "own_pile", "empty_pile", "no_cards")]
    missing = [name for name in names if f"ikebana.{name}" not in es]
    assert not missing
    assert es["ikebana.log.rejected"] == "{player} rechaza {card} y paga {n} a {other}"


def test_english_apostrophes_are_typographic() -> None:
    """Every English string writes ’ ("another player’s"); the first-player ruling alone had
    a straight ' ("the first round's starter")."""
    straight = [key for key, text in load("en").items() if "'" in text]
    assert not straight
