"""Whole 4-player games of Block and Guess through the pages (issue 20): on phones (390×844)
by touch, every block placed by tapping it in the tray (no drags); on laptops (1280×800) by
the keyboard alone (with the arrow keys' fine and coarse steps tried once). Every build is
valid when submitted; every guess is made with the build and every answer inside the
viewport; the workbench keeps its board and Submit in view; no page scrolls sideways (at
320 and 360 px either). Team 1 answers right at once, team 2 in the second stage, so both
stages are played every round and the game ends after 4 rounds, 8 points to 4."""

from __future__ import annotations

import pytest

from tests.browser.bg_pages import LAPTOP, PHONE, Game
from tests.support.browser import launch_chromium

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def browser():
    with launch_chromium() as chromium:
        yield chromium


def test_a_whole_game_on_phones_by_touch(shared_server, browser) -> None:
    game = Game(browser, shared_server.url, PHONE, touch=True, seed=11)
    game.play()
    game.finish()
    assert game.builds == 4 * 3 and game.guesses == 4 * 3


def test_a_whole_game_on_laptops_by_keyboard(shared_server, browser) -> None:
    game = Game(browser, shared_server.url, LAPTOP, touch=False, seed=12)
    game.play()
    assert game.arrows_tried
    game.finish()
    assert game.builds == 4 * 3 and game.guesses == 4 * 3
