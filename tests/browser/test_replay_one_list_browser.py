"""The replay page showed a list of moves ("Jugadas", the way to jump to a step) and beside
it the log ("Registro") of the steps so far, which said the same moves again, numbered
differently; what the log had more (a round's scores, a draw, the end of the game) the list
kept in a tooltip that phones never show. Now the list is the one record: each move, and
under it the other lines it made. Every line of the game's log, as the table page shows it
to the same seat, is in the list, and the page has no second log."""

from __future__ import annotations

import re
from collections import Counter

import pytest

from app.games import ENGINES
from app.i18n import catalogue
from tests.browser.comfort import LAPTOP, PHONE, finished_table, load_table, open_as

pytestmark = pytest.mark.browser


# a game's line for a run of folded moves, and the line of each move in it
FOLDS = {"block-and-guess": ("block-and-guess.log.adjusted", "block-and-guess.log.moved")}


def _pattern(text: str, **params: str) -> re.Pattern:
    out = re.escape(text)
    for name, value in params.items():
        out = out.replace(re.escape("{" + name + "}"), value)
    return re.compile("^" + re.sub(r"\\\{\w+\\\}", ".+", out) + "$")


def unfolded(game: str, lang: str, line: str) -> tuple[str, int] | None:
    """(player, number of moves) of a folded run's line; None for any other line."""
    if game not in FOLDS:
        return None
    found = _pattern(catalogue(lang)[FOLDS[game][0]], player="(?P<player>.+?)",
                     n=r"(?P<n>\d+)").match(line)
    return (found["player"], int(found["n"])) if found else None


def moved_line(game: str, lang: str, player: str) -> re.Pattern:
    return _pattern(catalogue(lang)[FOLDS[game][1]], player=re.escape(player))


@pytest.mark.parametrize(("game", "viewport", "lang"), [
    (game, viewport, lang) for k, game in enumerate(sorted(ENGINES))
    for viewport, lang in [((PHONE, "es"), (LAPTOP, "en"))[k % 2]]])
def test_the_list_of_moves_holds_the_whole_log(worker_server, browser, game, viewport,
                                               lang) -> None:
    base = worker_server.url
    players, match = finished_table(base, worker_server.ws_url, game)
    then = catalogue(lang)["replay.step_then"]
    prefix, suffix = then.split("{text}")
    context = open_as(browser, base, players[0], viewport, lang)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    load_table(page, base, match)
    log = [" ".join(line.split()) for line in page.locator("#log li").all_inner_texts()]
    page.goto(f"{base}/matches/{match}")
    page.wait_for_selector("#replay-actions button[data-step='1']")
    page.select_option("#replay-seat", "0")
    page.wait_for_function("() => document.getElementById('replay-actions').dataset.point === '0'")
    # every entry's lines, the deal's first (what the log opened with: round 1's start)
    rows = page.evaluate("""() => [...document.querySelectorAll('#replay-actions button')]
      .map((b) => [...b.querySelectorAll('.replay-move, .replay-more, .replay-then')]
        .map((s) => [s.className, s.innerText]))""")
    second_log = page.locator("#log").count()
    note = page.locator("#actions-note").inner_text()
    visible = page.locator("#replay-actions .replay-more").first.is_visible() \
        if page.locator("#replay-actions .replay-more").count() else None
    context.close()
    assert errors == []
    assert second_log == 0
    assert note
    lines = []
    setup = catalogue(lang)["replay.setup"]
    for k, row in enumerate(rows):
        for cls, text in row:
            text = " ".join(text.split())
            if cls == "replay-move" and k == 0:
                assert text == setup, text
                continue
            if cls == "replay-move":
                number, _, text = text.partition(". ")
                assert number == str(k)
            elif cls == "replay-then":
                assert text.startswith(prefix) and text.endswith(suffix), text
                text = text[len(prefix):len(text) - len(suffix)]
            lines.append(text)
    assert log, "the table's log is empty"
    missing = Counter(log) - Counter(lines)
    # a run of small moves the table's log folds into one line (journal.js: Block and
    # Guess's "Ana adjusts their build: 3 moves (…)") is in the list move by move
    for line, run in missing.copy().items():
        folded = unfolded(game, lang, line)
        if folded is not None:
            player, n = folded
            moved = moved_line(game, lang, player)
            assert sum(1 for x in lines if moved.match(x)) >= n * run, (line, lines[:8])
            del missing[line]
    assert not missing, (list(missing)[:5], lines[:8])
    if visible is not None:  # a move's other lines are on the page, not in a tooltip
        assert visible
