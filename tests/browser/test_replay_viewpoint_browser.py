"""A replay seen "as Ana" (the point-of-view chooser) drew Ana as "Ana (tú)" for anyone who
opened it, though the person looking was not Ana: the game clients mark the seat whose view
they draw as "you", true at a table, not on a replay anyone may watch. Now the mark says
"(punto de vista)" unless the person looking played that seat; a line that spoke to the seat
("Elegiste…") names it instead. Every game's replay, on the board and in the list of moves
(the replay's log); and a guard that every "tú" mark of the catalogues is one replay.js knows.

The boards' headings, labels and prompts spoke to the seat too ("Tu mano", "Tu elección",
"Pasas tu mano a…", "Tu construcción"): seen by anyone else they speak of it by name, in the
third person ("Mano de Ana", "Ana pasa su mano a…"), at a step of each game where its board
says it; and Block and Guess's workbench, which nobody can touch in a replay, shows no hints,
keys, tools or Submit there, as Alebrijes's hand shows none of its buttons."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from app.games import ENGINES
from tests.browser.comfort import LAPTOP, PHONE, finished_table, open_as
from tests.support.client import ApiClient

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
YOU = {"es": re.compile(r"\b(?:[Tt]ú|[Tt]us?|Elegiste|Pasas|Abres)\b|¿Te\b"),
       "en": re.compile(r"\b[Yy]ou(?:r|rs)?\b")}
# a Block and Guess construction card's own words ("Construye con los ojos cerrados: no ves
# tu tablero"): the printed card, the same for every reader, not the board speaking to a seat
CARD_TEXT = re.compile(r"^.*(?:Carta de construcción|Construction card) \d+:.*$", re.M)
SEEN = {"es": "punto de vista", "en": "point of view"}
# the log's opening line, under the deal's entry in the list of moves
ROUND_ONE = re.compile(r"\b(ronda|round) 1\b", re.IGNORECASE)
# the games whose board marks the seat of the point of view (Hanabi's does not)
MARKED = {"ajolocracia", "alebrijes", "allegra", "block-and-guess", "ikebana"}


def _builds_from_tray(view: dict) -> bool:
    """Seat 0 is building, blocks still in its tray (the workbench, tray and all)."""
    return view["phase"] == "build" and any(
        b["builder"] == 0 and b["in_play"] and not b["submitted"]
        and len(b["placed"]) < len(b["held"]) for b in view["builds"])


# What each game's board says to seat 0 (finished_table's "P0"), at a step of the replay seen
# as seat 0 that the first test (views as seat 0, step by step) finds: to its own player in
# the second person (es), to anyone else of P0 by name ({lang: words}, accessible names too).
SPOKEN: dict[str, tuple[Any, dict[str, list[str]], list[str]]] = {
    "hanabi": (
        lambda v: not v["over"],
        {"es": ["Mano de P0 (no ve sus cartas)"],
         "en": ["P0’s hand (P0 cannot see these cards)"]},
        ["Tu mano (no ves tus cartas)"]),
    "ikebana": (
        lambda v: v["current"] == 0 and v["hand"] is not None,
        {"es": ["Turno de P0", "¿Se queda P0 esta carta o la rechaza?"],
         "en": ["P0’s turn", "Does P0 keep this card or reject it?"]},
        ["Es tu turno", "¿Te quedas esta carta o la rechazas?"]),
    "ajolocracia": (
        lambda v: v["phase"] == "pick" and bool(v["my_pick"]),
        {"es": ["Mano de P0", "Elección de P0", "P0 pasa su mano a P1; recibe la de P1."],
         "en": ["P0’s hand", "P0’s pick", "P0 passes their hand to P1 and receives P1’s."]},
        ["Tu mano", "Tu elección", "Pasas tu mano a P1; recibes la de P1."]),
    "alebrijes": (
        lambda v: v["phase"] != "over" and v["current"] == 0,
        {"es": ["Mano y acciones de P0", "Mano de P0: "],
         "en": ["P0’s hand and actions", "P0’s hand: "]},
        ["Tu mano y tus acciones", "Tu mano: "]),
    "allegra": (
        lambda v: v["phase"] != "over",
        {"es": ["Turno y botones de P0"], "en": ["P0’s turn and buttons"]},
        ["Tu turno y tus botones"]),
    "block-and-guess": (
        _builds_from_tray,
        {"es": ["Construcción de P0", "Bloques de P0 sin colocar"],
         "en": ["P0’s build", "P0’s blocks not yet placed"]},
        ["Tu construcción", "Tus bloques sin colocar"]),
}


def _guess_step(client: ApiClient, match: str, last: int) -> int | None:
    """A Block and Guess step where seat 0 has a build to guess (its answers on show)."""
    for step in range(1, last + 1):
        view = client.request("GET", f"/api/matches/{match}/views/{step}?seat=0").json()["view"]
        if view["phase"] == "guess" and any(
                0 in b.get("guessers", []) and b["in_play"] and b.get("result") is None
                for b in view["builds"]):
            return step
    return None


def _spoken_step(client: ApiClient, match: str, game: str, last: int) -> int:
    """The first step whose view, as seat 0, has the board speak to seat 0 (SPOKEN)."""
    for step in range(1, last + 1):
        view = client.request("GET", f"/api/matches/{match}/views/{step}?seat=0").json()["view"]
        if SPOKEN[game][0](view):
            return step
    raise AssertionError(f"no step of the {game} replay has the board speak to seat 0")


def _go(page, step: int) -> None:
    page.locator(f"#replay-actions button[data-step='{step}']").click()
    page.wait_for_function(
        "(n) => document.getElementById('game').dataset.step === String(n)", arg=step)


def _texts(page, base: str, match: str, spoken: int) -> tuple[str, str]:
    """What the board and the list of moves say, seen as seat 0, at a few steps
    early in the game and at its end; and what the board says (its accessible names too)
    at step ``spoken``."""
    page.goto(f"{base}/matches/{match}")
    page.wait_for_selector("#replay-actions button[data-step='1']")
    page.select_option("#replay-seat", "0")
    page.wait_for_function("() => document.getElementById('replay-actions').dataset.point === '0'")
    out = []
    last = int(page.locator("#replay-slider").get_attribute("max"))
    for step in sorted({1, min(3, last), min(6, last), last, spoken}):
        _go(page, step)
        out.append(page.evaluate("""() => ['game', 'replay-actions']
          .map((id) => document.getElementById(id)?.innerText || '').join('\\n')"""))
    _go(page, spoken)
    board = page.evaluate("""() => [document.getElementById('game').innerText,
      ...[...document.querySelectorAll('#game [aria-label]')]
        .map((n) => n.getAttribute('aria-label'))].join('\\n')""")
    return "\n".join(out), board


@pytest.mark.parametrize("game", sorted(ENGINES))
def test_you_only_for_the_player_who_looks(worker_server, browser, game) -> None:
    base = worker_server.url
    players, match = finished_table(base, worker_server.ws_url, game)
    last = len(players[0].request("GET", f"/api/matches/{match}/replay?seat=0").json()["steps"])
    spoken = _spoken_step(players[0], match, game, last)
    guess = _guess_step(players[0], match, last) if game == "block-and-guess" else None
    errors: list[str] = []
    stranger = ApiClient(base, "Zoe")
    seen = {}
    for who, viewer, viewport, lang in (("stranger", stranger, PHONE, "es"),
                                        ("other seat", players[1], LAPTOP, "en"),
                                        ("seat 0", players[0], PHONE, "es")):
        context = open_as(browser, base, viewer, viewport, lang)
        page = context.new_page()
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        texts, board = _texts(page, base, match, spoken)
        seen[who] = (lang, CARD_TEXT.sub("", texts), CARD_TEXT.sub("", board))
        if game == "hanabi":  # a replay draws the hand, not a live table's buttons and keys
            _go(page, 1)
            assert page.locator("#game .hand-dock .cards").count() == 1, who
            assert page.locator("#game button.play, #game button.discard").count() == 0, who
            assert page.locator("#hanabi-shortcuts").count() == 0, who
        if game == "block-and-guess":  # seat 0's workbench, without what nobody can touch
            _go(page, spoken)
            assert page.locator("#game .bg-bench .bg-tray-block").count() > 0, who
            untouchable = "#game .bg-hint, #game .bg-keys, #game .bg-tools, #game .bg-submit"
            assert page.locator(untouchable).count() == 0, who
            # nothing on it to press or drag: the tray is drawn, the zoom alone is a button
            assert page.locator("#game .bg-bench button:not(.bg-zoom-button)").count() == 0, who
            placed = page.locator("#game .bg-bench svg [data-block]")
            if placed.count():
                before = page.locator("#game .bg-bench svg").inner_html()
                box = placed.first.bounding_box()
                page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
                page.mouse.down()
                page.mouse.move(box["x"] + box["width"] / 2 + 60, box["y"] + 20, steps=4)
                page.mouse.up()
                assert page.locator("#game .bg-bench svg").inner_html() == before, who
            assert guess is not None
            _go(page, guess)  # the objects seat 0 could answer, as a list, not buttons
            assert page.locator("#game .bg-guessbox .bg-guess.bg-as-text").count() > 0, who
            assert page.locator("#game .bg-guessbox .bg-choices button").count() == 0, who
        if game == "alebrijes":  # seat 0's turn: its hand, without the buttons of a table
            _go(page, spoken)
            assert page.locator("#game .ab-hand .ab-card").count() > 0, who
            assert page.locator("#game .ab-actions, #game .ab-hint").count() == 0, who
        context.close()
    assert errors == []
    if game != "hanabi":  # the deal's entry says how round 1 began, for any point of view
        for who in seen:
            assert ROUND_ONE.search(seen[who][1]), (who, seen[who][1][:300])
    for who in ("stranger", "other seat"):
        lang, text, board = seen[who]
        for words in (text, board):
            found = YOU[lang].search(words)
            assert not found, (who, found.group(), words[max(0, found.start() - 80):][:160])
        if game in MARKED:
            assert SEEN[lang] in text, (who, text[:300])
        # the board speaks of seat 0 by name
        assert [w for w in SPOKEN[game][1][lang] if w not in board] == [], (who, board[:600])
    lang, text, board = seen["seat 0"]
    assert SEEN[lang] not in text
    if game in MARKED:  # the player who played seat 0 is still "tú" on their own replay
        assert YOU[lang].search(text), text[:300]
    # ... and the board speaks to them
    assert [w for w in SPOKEN[game][2] if w not in board] == [], board[:600]
    assert [w for w in SPOKEN[game][1][lang] if w in board] == [], board[:600]


def test_every_you_mark_of_the_catalogues_is_turned_into_the_point_of_view() -> None:
    catalogue = json.loads((ROOT / "app" / "i18n" / "es.json").read_text(encoding="utf-8"))
    marks = [key for key, text in catalogue.items() if re.search(r"\(tú\)|^tú$", text)]
    replay = (ROOT / "static" / "js" / "replay.js").read_text(encoding="utf-8")
    known = re.search(r"const SEEN_AS = \{(.*?)\n\};", replay, re.S)
    assert known, "replay.js has no SEEN_AS"
    assert marks and [key for key in marks if f'"{key}"' not in known.group(1)] == []


def test_every_third_person_word_of_the_catalogues_is_one_replay_js_says() -> None:
    """The words a replay says of the seat of the point of view (``<game>.seen.…``,
    ``replay.seen…``) are said: none is left in the catalogues unused ("_one": its key's
    form for a count of one)."""
    catalogue = json.loads((ROOT / "app" / "i18n" / "es.json").read_text(encoding="utf-8"))
    replay = (ROOT / "static" / "js" / "replay.js").read_text(encoding="utf-8")
    known = re.search(r"const SEEN_AS = \{(.*?)\n\};", replay, re.S)
    assert known
    seen = [key for key in catalogue if re.match(r"[\w-]+\.seen[._]", key)]
    assert len(seen) > 30
    said = {key for key in seen if f'"{key}"' in known.group(1)}
    unused = [key for key in seen if key not in said and key.removesuffix("_one") not in said]
    assert unused == []
