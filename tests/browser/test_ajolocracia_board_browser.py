"""Ajolocracia in Chromium at a pinned deal (three players, seed 0): Ana, the page's player,
has an Ambystoma lermaense on an environment and a loose rosaceum, and the last pick of
turn 4 is made while her page is open (es 390 px, en 1280 px).

- The tableau shows every Ambystoma in the Ambystomas' group, the one on its environment
  too, counted and scored there (it once sat in an "Environments" group with no points while
  the Ambystomas' group said "(1)" beside the points of both); only free environments make
  a group of their own. The groups' points add up to the round's running total.
- The live region says what the reveal showed, every player's pick and where the hands go;
  it once said only "Hands pass to the left" (then the newest log line alone was read)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from app.games import ENGINES
from tests.browser.comfort import load_table, open_as, play_moves, seeded_table
from tests.support.client import ApiClient

pytestmark = pytest.mark.browser

ENGINE = ENGINES["ajolocracia"]
SEED = 0
NAMES = ("Ana", "Beto", "Cleo")
AMBYSTOMAS = {"mexicanum", "lermaense", "rosaceum"}
CATALOGUES = Path(__file__).resolve().parents[2] / "app" / "i18n"
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


def moves_to_a_habitat_and_a_loose_ambystoma() -> list[tuple[int, dict]]:
    """Seat 0 takes an environment, then Ambystomas; the others their first card. The moves
    up to the turn after which seat 0 has one Ambystoma on an environment and one loose."""
    state = ENGINE.setup(3, {}, SEED)
    moves: list[tuple[int, dict]] = []
    while True:
        assert state.round == 1, "no such turn in this deal"
        for seat in range(3):
            hand = state.hands[seat]
            kinds = [state.kinds[c] for c in hand]
            card = hand[0]
            if seat == 0:
                placed = [state.kinds[c] for c in state.tableau[0]]
                wanted = ["environment"] if "environment" not in placed else sorted(AMBYSTOMAS)
                card = next((hand[kinds.index(k)] for k in wanted if k in kinds), card)
            moves.append((seat, {"type": "pick", "card": card}))
            state, _ = ENGINE.apply(state, seat, moves[-1][1])
        housed = {a for _, a in state.habitats[0]}
        loose = [c for c in state.tableau[0] if state.kinds[c] in AMBYSTOMAS and c not in housed]
        if housed and loose:
            return moves


def table_at(base: str, ws_url: str, moves: list[tuple[int, dict]]) -> tuple[list, str]:
    players = [ApiClient(base, name) for name in NAMES]
    table_id = seeded_table(players, "ajolocracia", SEED)
    play(ws_url, players, table_id, moves)
    return players, table_id


def play(ws_url: str, players: list, table_id: str, moves: list[tuple[int, dict]]) -> None:
    play_moves(ws_url, players, table_id, moves)


def points(text: str) -> int:
    return int(re.search(r"(-?\d+) pt", text).group(1))


@pytest.mark.parametrize(("lang", "viewport"), [("es", {"width": 390, "height": 844}),
                                                ("en", {"width": 1280, "height": 800})])
def test_an_ambystoma_on_an_environment_is_scored_where_it_is_shown_and_the_reveal_is_heard(
        worker_server, browser, lang: str, viewport: dict) -> None:
    base = worker_server.url
    words = json.loads((CATALOGUES / f"{lang}.json").read_text())
    moves = moves_to_a_habitat_and_a_loose_ambystoma()
    players, table_id = table_at(base, worker_server.ws_url, moves[:-1])
    page = open_as(browser, base, players[0], viewport, lang).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    load_table(page, base, table_id)
    before = page.locator("#table-app").get_attribute("data-version")
    play(worker_server.ws_url, players, table_id, moves[-1:])  # the turn's last pick
    page.wait_for_function(
        "(v) => document.getElementById('table-app').dataset.version !== v", arg=before)
    page.wait_for_timeout(300)

    # the reveal, heard whole: every player's pick and where the hands go (after the lines
    # the same move added before it: that the last player has picked)
    live = page.locator("#live").inner_text()
    turn = words["ajolocracia.log.revealed"].split("{turn}")[0]
    assert turn in live, live
    reveal = live[live.index(turn):]
    for name in NAMES:
        assert name in reveal, live
    assert reveal.endswith(words["ajolocracia.log.passed_left"]), live

    mine = page.locator(".aj-tableau.aj-mine")
    ambystomas = mine.locator(".aj-group-ambystoma")
    assert ambystomas.get_attribute("data-count") == "2"
    label = ambystomas.locator(".aj-group-label span").first.inner_text()
    assert label == f"{words['ajolocracia.category.ambystoma']} (2)"
    assert ambystomas.locator(".aj-habitat.aj-occupied .aj-resident").count() == 1
    assert ambystomas.locator("svg.aj-card").count() == 3  # rosaceum, environment, lermaense
    assert points(ambystomas.locator(".aj-points").first.inner_text()) == 6 + 1
    assert mine.locator(".aj-group-environment").count() == 0  # no free environment
    # the groups' points add up to the round's running total in the heading
    shown = [points(t) for t in mine.locator(".aj-group .aj-points:not(.muted)").all_inner_texts()]
    assert sum(shown) == points(mine.locator("h3 .aj-points").inner_text())
    page.screenshot(path=str(ARTIFACTS / f"ajolocracia-board-{lang}.png"), full_page=True)
    assert not errors, errors
    page.context.close()


def whole_game() -> tuple[list[tuple[int, dict]], dict, list[int]]:
    """Every seat takes its first card to the end: the moves, the value awards, the scores."""
    state = ENGINE.setup(3, {}, SEED)
    moves: list[tuple[int, dict]] = []
    while not state.over:
        for seat in range(3):
            moves.append((seat, {"type": "pick", "card": state.hands[seat][0]}))
            state, _ = ENGINE.apply(state, seat, moves[-1][1])
    return moves, state.bonus, list(ENGINE.outcome(state).scores)


def test_the_end_of_the_game_says_the_value_awards_and_the_final_scores(worker_server,
                                                                        browser) -> None:
    """The log at the end once said only "Time for democracy! Value cards are counted" and
    the winner: neither who won or lost points for values nor anyone's final score."""
    base = worker_server.url
    moves, bonus, scores = whole_game()
    players, table_id = table_at(base, worker_server.ws_url, moves)
    for lang, viewport in (("es", {"width": 390, "height": 844}),
                           ("en", {"width": 1280, "height": 800})):
        words = json.loads((CATALOGUES / f"{lang}.json").read_text())
        page = open_as(browser, base, players[0], viewport, lang).new_page()
        load_table(page, base, table_id)
        page.wait_for_selector(".aj-final")
        log = page.locator("#log li").all_inner_texts()
        name = NAMES
        for seat, count in enumerate(bonus["counts"]):
            points = bonus["total"][seat]
            key = "ajolocracia.log.values_player" + ("_one" if count == 1 else "")
            line = words[key].format(player=name[seat], n=count, points=(
                f"+{points}" if points > 0 else f"−{-points}" if points < 0 else "0"))
            assert line in log, (line, log[-10:])
        parts = ", ".join(f"{name[seat]} {n}" for seat, n in enumerate(scores))
        assert words["ajolocracia.log.final_scores"].format(scores=parts) in log, log[-10:]
        page.context.close()


CATEGORIES = ("citizenship", "isopods_algae", "beetles_annelids", "institutions", "ambystoma")


def check_icon_legend(scope, words: dict, width: int) -> None:
    """Every icon column of the score table in ``scope`` is named twice: in the header cell's
    accessible name (for a screen reader) and, in words shown without hovering, by a legend
    item with the same card (its tooltip is all a phone had, and a phone never shows it)."""
    legend = scope.locator(".aj-legend")
    assert legend.is_visible()
    box = legend.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= width, box
    heads = scope.locator("thead th:has(svg.aj-icon)")
    assert heads.count() == len(CATEGORIES)
    names = []
    for i in range(heads.count()):
        icon = heads.nth(i).locator("svg.aj-icon")
        name = icon.get_attribute("aria-label")
        names.append(name)
        assert scope.get_by_role("columnheader", name=name, exact=True).count() == 1, name
        item = legend.locator(f"li:has(svg[data-kind='{icon.get_attribute('data-kind')}'])")
        assert item.count() == 1 and item.is_visible(), name
        assert item.locator(":scope > span").inner_text().strip() == name
        item_box = item.bounding_box()
        assert item_box["x"] + item_box["width"] <= width, (name, item_box)
    assert sorted(names) == sorted(words[f"ajolocracia.category.{key}"] for key in CATEGORIES)
    # the "(n)" beside the citizenship points is said too
    assert words["ajolocracia.legend.faces"] in legend.inner_text()


@pytest.mark.parametrize(("lang", "viewport"), [("es", {"width": 390, "height": 844}),
                                                ("en", {"width": 1280, "height": 800})])
def test_the_score_tables_say_what_their_icons_mean_without_a_tooltip(
        worker_server, browser, lang: str, viewport: dict) -> None:
    """The score tables' columns were headed by a card icon alone, explained only by a
    tooltip: on a phone nothing said which column was which. A legend under each table pairs
    every icon (and R1, R2, R3 at the end) with its name, during play and at the end."""
    base = worker_server.url
    width = viewport["width"]
    words = json.loads((CATALOGUES / f"{lang}.json").read_text())
    moves, _, _ = whole_game()
    for stage, played in (("play", moves[:6]), ("end", moves)):
        players, table_id = table_at(base, worker_server.ws_url, played)
        page = open_as(browser, base, players[0], viewport, lang).new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc, errors=errors: errors.append(str(exc)))
        load_table(page, base, table_id)
        if stage == "play":
            page.wait_for_selector(".aj-running-table")
            check_icon_legend(page.locator(".aj-running"), words, width)
        else:
            page.wait_for_selector(".aj-final")
            results = page.locator(".aj-results .aj-score-block").first
            legend = results.locator(".aj-legend")
            assert legend.is_visible()
            for n in (1, 2, 3):
                said = (f"{words['ajolocracia.table.round_short'].format(n=n)} "
                        f"{words['ajolocracia.table.round'].format(n=n)}")
                assert said in legend.inner_text().replace("\n", " "), legend.inner_text()
            details = page.locator(".aj-round-details").first
            details.locator("summary").click()
            check_icon_legend(details, words, width)
        scroll = page.evaluate("document.documentElement.scrollWidth")
        assert scroll <= width, f"the page scrolls sideways ({scroll}px)"
        page.screenshot(path=str(ARTIFACTS / f"ajolocracia-legend-{stage}-{lang}.png"),
                        full_page=True)
        assert not errors, errors
        page.context.close()
