"""A replay seen "as Ana" (the point-of-view chooser) drew Ana as "Ana (tú)" for anyone who
opened it, though the person looking was not Ana: the game clients mark the seat whose view
they draw as "you", true at a table, not on a replay anyone may watch. Now the mark says
"(punto de vista)" unless the person looking played that seat; a line that spoke to the seat
("Elegiste…") names it instead. Every game's replay, on the board and in the list of moves
(the replay's log); and a guard that every "tú" mark of the catalogues is one replay.js knows."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from app.games import ENGINES
from tests.browser.comfort import LAPTOP, PHONE, finished_table, open_as
from tests.support.browser import launch_chromium
from tests.support.client import ApiClient

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
YOU = {"es": re.compile(r"\btú\b|\bElegiste\b"),
       "en": re.compile(r"\(you\)|^you$|\bYou picked\b", re.M)}
SEEN = {"es": "punto de vista", "en": "point of view"}
# the games whose board marks the seat of the point of view (Hanabi's does not)
MARKED = {"ajolocracia", "alebrijes", "allegra", "block-and-guess", "ikebana"}


@pytest.fixture(scope="module")
def browser():
    with launch_chromium() as chromium:
        yield chromium



def _texts(page, base: str, match: str) -> str:
    """What the board and the list of moves say, seen as seat 0, at a few steps
    early in the game and at its end."""
    page.goto(f"{base}/matches/{match}")
    page.wait_for_selector("#replay-actions button[data-step='1']")
    page.select_option("#replay-seat", "0")
    page.wait_for_function("() => document.getElementById('replay-actions').dataset.point === '0'")
    out = []
    last = int(page.locator("#replay-slider").get_attribute("max"))
    for step in sorted({1, min(3, last), min(6, last), last}):
        page.locator(f"#replay-actions button[data-step='{step}']").click()
        page.wait_for_function(
            "(n) => document.getElementById('game').dataset.step === String(n)", arg=step)
        out.append(page.evaluate("""() => ['game', 'replay-actions']
          .map((id) => document.getElementById(id)?.innerText || '').join('\\n')"""))
    return "\n".join(out)


@pytest.mark.parametrize("game", sorted(ENGINES))
def test_you_only_for_the_player_who_looks(shared_server, browser, game) -> None:
    base = shared_server.url
    players, match = finished_table(base, shared_server.ws_url, game)
    errors: list[str] = []
    stranger = ApiClient(base, "Zoe")
    seen = {}
    for who, viewer, viewport, lang in (("stranger", stranger, PHONE, "es"),
                                        ("other seat", players[1], LAPTOP, "en"),
                                        ("seat 0", players[0], PHONE, "es")):
        context = open_as(browser, base, viewer, viewport, lang)
        page = context.new_page()
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        seen[who] = (lang, _texts(page, base, match))
        if game == "hanabi":  # a replay draws the hand, not a live table's buttons and keys
            page.locator("#replay-actions button[data-step='1']").click()
            page.wait_for_function("() => document.getElementById('game').dataset.step === '1'")
            assert page.locator("#game .hand-dock .cards").count() == 1, who
            assert page.locator("#game button.play, #game button.discard").count() == 0, who
            assert page.locator("#hanabi-shortcuts").count() == 0, who
        context.close()
    assert errors == []
    for who in ("stranger", "other seat"):
        lang, text = seen[who]
        found = YOU[lang].search(text)
        assert not found, (who, found.group(), text[max(0, found.start() - 80):][:160])
        if game in MARKED:
            assert SEEN[lang] in text, (who, text[:300])
    lang, text = seen["seat 0"]
    assert SEEN[lang] not in text
    if game in MARKED:  # the player who played seat 0 is still "tú" on their own replay
        assert YOU[lang].search(text), text[:300]


def test_every_you_mark_of_the_catalogues_is_turned_into_the_point_of_view() -> None:
    catalogue = json.loads((ROOT / "app" / "i18n" / "es.json").read_text(encoding="utf-8"))
    marks = [key for key, text in catalogue.items() if re.search(r"\(tú\)|^tú$", text)]
    replay = (ROOT / "static" / "js" / "replay.js").read_text(encoding="utf-8")
    known = re.search(r"const SEEN_AS = \{(.*?)\n\};", replay, re.S)
    assert known, "replay.js has no SEEN_AS"
    assert marks and [key for key in marks if f'"{key}"' not in known.group(1)] == []
