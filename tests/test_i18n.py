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


def test_a_chart_of_running_totals_is_titled_as_one() -> None:
    """ui/chart.js draws running totals unless a game asks for ``cumulative: false``; a chart
    of running totals titled "Points by round" makes a player read each round's points
    off it (Alebrijes' and Block and Guess's were)."""
    es, en = catalogue("es"), catalogue("en")
    charts = []
    for script in sorted(ROOT.glob("static/js/games/*.js")):
        source = script.read_text(encoding="utf-8")
        # Block and Guess's keys start with `${P}`, P = its id (block-and-guess/common.js)
        prefix = script.stem
        for call in re.finditer(r"scoreChart\(ctx, \{(.*?)\}\)", source, re.S):
            title = re.search(r"""title: t\((?:["']([a-z0-9_.-]+)["']|`\$\{P\}([a-z0-9_.]+)`)""",
                              call.group(1))
            assert title, f"{script.name}: a chart's title is not a catalogue key"
            key = title.group(1) or prefix + title.group(2)
            charts.append((key, "cumulative: false" not in call.group(1)))
    assert len(charts) >= 5, charts  # every game but Hanabi (one team score) draws one
    wrong = [key for key, running in charts if running and not (
        "acumulad" in es[key].lower() and "running" in en[key].lower())]
    assert not wrong, [(k, es[k], en[k]) for k in wrong]


def test_adding_strings_rewrites_a_catalogue_as_it_was_written() -> None:
    """``python -m app.i18n.add`` rewrites both files: each must come out byte for byte as it
    is, invisible characters (the soft hyphen of a caption) still escaped, so that adding
    a key shows in a diff as that key alone."""
    from app.i18n.add import dumps

    for lang in ("es", "en"):
        text = (HERE / f"{lang}.json").read_text(encoding="utf-8")
        assert dumps(json.loads(text)) == text, f"{lang}.json is not as add.py writes it"
    assert "\\u00ad" in (HERE / "es.json").read_text(encoding="utf-8")
    assert dumps({"k": "a\u00a0b\u00adc ñ\n"}) == '{\n  "k": "a\\u00a0b\\u00adc ñ\\n"\n}\n'


def test_english_uses_one_apostrophe() -> None:
    """"Ana’s turn" in a game's panel under "Ana's turn" in the turn cue read as two hands
    at work: English strings use ’, but for a game's own name as its publisher prints it."""
    en = json.loads((HERE / "en.json").read_text(encoding="utf-8"))
    straight = re.compile(r"[A-Za-z}]'[a-z]")
    wrong = sorted(k for k, v in en.items() if straight.search(v.replace("Alan & Bobby's", "")))
    assert not wrong, wrong


def test_names_are_joined_as_each_language_joins_them() -> None:
    from app.i18n import list_joints

    def said(names: list[str], lang: str) -> str:
        return "".join(j + n for j, n in zip(list_joints(names, lang), names, strict=True))

    assert said([], "es") == "" and said(["Ana"], "en") == "Ana"
    assert said(["Ana", "Beto"], "es") == "Ana y Beto"
    assert said(["Ana", "Beto", "Cleo"], "es") == "Ana, Beto y Cleo"
    assert said(["Ana", "Beto"], "en") == "Ana and Beto"
    assert said(["Ana", "Beto", "Cleo"], "en") == "Ana, Beto, and Cleo"
    # Spanish "e" before the sound i, as Intl.ListFormat says it
    assert said(["Beto", "Inés"], "es") == "Beto e Inés"
    assert said(["Beto", "Hilda"], "es") == "Beto e Hilda"
    assert said(["Beto", "Hierro"], "es") == "Beto y Hierro"
    assert said(["Beto", "Inés"], "en") == "Beto and Inés"


# error codes only a script or an operator meets (REST imports, operator and test headers,
# engine faults): the API's English message is their text. Every other code a page can show
# needs the catalogues' words, or a Spanish page says "Error: the game storage is ..."
API_ONLY_CODES = {
    "bad_operator_token", "operator_token_required", "token_in_url", "bad_seed",
    "bad_record", "illegal_log", "unfinished_log", "outcome_mismatch",
    "unknown_game",  # the lobby offers only the games there are
    "not_supported",  # live updates: the client sends them only where the game has them
    "no_timeout_move",  # an engine fault, logged for the operator
}


def test_every_error_a_page_can_show_has_words_in_the_catalogues() -> None:
    raised = re.compile(r"""AppError\(\s*['"]([a-z_]+)['"]""")
    codes = {code for f in (ROOT / "app").rglob("*.py")
             for code in raised.findall(f.read_text(encoding="utf-8"))}
    assert {"not_found", "bad_options", "storage_unavailable"} <= codes, "the scan missed"
    for lang in ("es", "en"):
        missing = sorted(c for c in codes - API_ONLY_CODES if f"error.{c}" not in catalogue(lang))
        assert not missing, (lang, missing)
    assert not API_ONLY_CODES - codes, "a code listed here is no longer raised"
