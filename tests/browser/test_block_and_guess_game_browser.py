"""Whole 4-player games of Block and Guess through the pages (issue 20): on phones (390×844)
by touch, every block placed by tapping it in the tray (no drags); on laptops (1280×800) by
the keyboard alone (with the arrow keys' fine and coarse steps tried once). Every build is
valid when submitted; every guess is made with the build and every answer inside the
viewport; the workbench keeps its board and Submit in view; no page scrolls sideways (at
320 and 360 px either). Team 1 answers right at once, team 2 in the second stage, so both
stages are played every round and the game ends after 4 rounds, 8 points to 4."""

from __future__ import annotations

import pytest

from tests.browser.bg_pages import (
    ARTIFACTS,
    LAPTOP,
    PHONE,
    Game,
    check_guess,
    check_text,
    open_seat,
    pinned_table,
    tapped,
)
from tests.browser.comfort import act, connect, run, settle

pytestmark = pytest.mark.browser


def test_a_whole_game_on_phones_by_touch(worker_server, browser) -> None:
    game = Game(browser, worker_server.url, PHONE, touch=True, seed=11)
    game.play()
    game.finish()
    assert game.builds == 4 * 3 and game.guesses == 4 * 3


def test_a_whole_game_on_laptops_by_keyboard(worker_server, browser) -> None:
    game = Game(browser, worker_server.url, LAPTOP, touch=False, seed=12)
    game.play()
    assert game.arrows_tried
    game.finish()
    assert game.builds == 4 * 3 and game.guesses == 4 * 3


def test_several_guessers_propose_then_answer(worker_server, browser) -> None:
    """6 players: three to a team, so a build has two guessers. The builds are made through
    the API (the server's own plan); on a phone one guesser proposes an answer with the
    small 💬 button beside it, the teammate on a laptop sees the proposal and answers."""
    players, table_id = pinned_table(worker_server.url, 6, 3,
                                     ["Ana", "Beto", "Cleo", "Dani", "Eva", "Fede"])

    async def to_guessing() -> None:
        clients = await connect(worker_server.ws_url, players, table_id)
        try:
            while True:
                state = await settle(clients)
                if state["view"]["phase"] == "guess":
                    return
                mover = next(c for c in clients if c.state["seat"] in c.state["to_act"]
                             and c.state["legal_actions"])
                await act(mover, mover.state["legal_actions"][0])
        finally:
            for c in clients:
                await c.close()

    run(to_guessing())
    phone = open_seat(browser, worker_server.url, players[2], table_id, PHONE)
    laptop = open_seat(browser, worker_server.url, players[4], table_id, LAPTOP)
    for page, viewport in ((phone, PHONE), (laptop, LAPTOP)):
        page.wait_for_selector("#my-hand.bg-guessbox")
        check_guess(page, 0, viewport, "6 players")
        assert page.locator("#my-hand .bg-propose").count() == 7
    tapped(phone, phone.locator("[data-focus-key='propose-0-3']"), touch=True)
    laptop.wait_for_selector("#my-hand .bg-proposals")
    assert "Cleo" in laptop.locator("#my-hand .bg-proposals").inner_text()
    check_guess(laptop, 0, LAPTOP, "6 players, with a proposal")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    phone.screenshot(path=str(ARTIFACTS / "six-phone-proposed.png"))
    laptop.screenshot(path=str(ARTIFACTS / "six-laptop-proposal.png"))
    tapped(laptop, laptop.locator("[data-focus-key='guess-0-3']"), touch=False)
    phone.wait_for_function("() => !document.querySelector('#my-hand.bg-guessbox')")
    status = phone.locator(".bg-build[data-builder='0'] .bg-build-status").inner_text()
    assert "Answer: 3." in status, status  # judged once the other team has answered
    for page in (phone, laptop):
        check_text(page)
        page.context.close()
