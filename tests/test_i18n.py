"""Every user-facing string lives in both catalogues, and every literal key used exists."""

from __future__ import annotations

import json
import re
from pathlib import Path

from app.i18n import HERE, catalogue, pick_language, translate

ROOT = Path(__file__).resolve().parents[1]
# literal keys only: t('game.' + id) builds its key at run time and is skipped
KEY = re.compile(r"""\bt\(\s*['"]([a-z0-9_.]*[a-z0-9_])['"]""")


def test_catalogues_have_the_same_keys() -> None:
    es = json.loads((HERE / "es.json").read_text(encoding="utf-8"))
    en = json.loads((HERE / "en.json").read_text(encoding="utf-8"))
    assert set(es) == set(en)
    assert all(v.strip() for v in [*es.values(), *en.values()])


def test_every_literal_key_in_templates_and_scripts_exists() -> None:
    files = [*ROOT.glob("templates/**/*.html"), *ROOT.glob("static/js/**/*.js")]
    used = {key for f in files for key in KEY.findall(f.read_text(encoding="utf-8"))}
    assert used, "the scan found no keys at all"
    missing = sorted(k for k in used if k not in catalogue("es"))
    assert not missing, missing


def test_language_choice_and_fallback() -> None:
    assert pick_language(None, "en-GB,en;q=0.9") == "en"
    assert pick_language(None, "fr-FR") == "es"
    assert pick_language("en", "es") == "en"
    assert translate("en", "name.hello", name="Ana") == "Hello, Ana"
    assert translate("es", "no.such.key") == "no.such.key"
