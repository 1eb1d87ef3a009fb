"""Every string the Allegra page builds at run time exists in Spanish and English: phase
prompts and waits, modes, score notes, and a message for every error code the engine uses."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from app.games.allegra.rules import PHASE_ACTIONS

ROOT = Path(__file__).resolve().parents[3]


def catalogue(lang: str) -> dict[str, str]:
    data: dict[str, str] = json.loads((ROOT / "app" / "i18n" / f"{lang}.json").read_text("utf-8"))
    return data


def engine_codes() -> set[str]:
    package = ROOT / "app" / "games" / "allegra"
    source = "".join(p.read_text("utf-8") for p in package.glob("*.py"))
    return set(re.findall(r'require\(.*?,\s*"([a-z_]+)",\s*f?"', source, re.S))


@pytest.mark.parametrize("lang", ["es", "en"])
def test_dynamic_keys_and_error_codes(lang: str) -> None:
    strings = catalogue(lang)
    waiting = set(PHASE_ACTIONS) - {"reveal", "knock"}
    needed = [f"allegra.wait.{p}" for p in waiting]
    needed += [f"allegra.prompt.{p}" for p in waiting - {"place"}]
    needed += ["allegra.prompt.keep", "allegra.prompt.flip", "allegra.mode.keep",
               "allegra.mode.flip", "allegra.scores.doubled", "allegra.scores.halved",
               "game.allegra", "option.rounds", "option.target_score", "option.knock",
               "option.knock_seconds"]
    codes = engine_codes()
    assert {"knock_closed", "not_a_line", "same_card", "cannot_knock"} <= codes
    needed += [f"allegra.error.{code}" for code in codes - {"bad_action", "unknown_action",
                                                            "not_your_turn", "game_over"}]
    assert [k for k in needed if not strings.get(k)] == []
