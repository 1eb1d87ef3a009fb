"""Catalogue keys that no page, client or server code uses are dropped, so that translators
are not asked to keep words nobody reads: each key below was found unused (no literal use,
and no key built from a prefix such as ``${P}.game_over`` or ``label.${x}``) and removed."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
REMOVED = ["alebrijes.label.round_points", "ajolocracia.game_over", "ajolocracia.waiting_for",
           "ajolocracia.everyone_picked", "ajolocracia.change_pick"]


def _sources() -> str:
    files = subprocess.run(["git", "ls-files", "static", "templates", "app"], cwd=ROOT,
                           capture_output=True, text=True, check=True).stdout.split()
    return "\n".join((ROOT / f).read_text(encoding="utf-8") for f in files
                     if f.endswith((".js", ".html", ".py")))


@pytest.mark.parametrize("lang", ["es", "en"])
def test_unused_keys_are_gone_from_the_catalogues(lang: str) -> None:
    catalogue = json.loads((ROOT / "app" / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))
    assert [key for key in REMOVED if key in catalogue] == []


def test_the_removed_keys_are_used_nowhere() -> None:
    sources = _sources()
    # the literal key, in quotes (``round_points_total`` is a key of its own, still used)
    assert [key for key in REMOVED if f'"{key}"' in sources or f"'{key}'" in sources] == []
