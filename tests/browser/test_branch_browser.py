"""What if (issue 25) through the pages: a finished Hanabi match's replay, "play on from here
alone" at one of its steps; the new table starts there with the host in both seats (the hot
seat); three moves are played switching seat on the page (each seat's view shown only when it
is selected: its own hand as card backs), then the bots finish the game."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.browser.test_hanabi_browser import take_turn
from tests.support.browser import name_yourself
from tests.support.matches import stored_match

pytestmark = pytest.mark.browser

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
STEP = 4


def at_the_replay(page, base: str, match_id: str, name: str, greeting: str) -> list[str]:
    """Named on the home page, the match's replay opened at ``STEP``; the page's script
    errors, collected from then on."""
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    name_yourself(page, base, name, greeting)
    page.goto(f"{base}/matches/{match_id}?step={STEP}")
    page.wait_for_selector(f"#replay-actions button[data-step='{STEP}'][aria-current=step]")
    return errors


def play_one_move(page) -> bool:
    """Switch to the seat whose turn it is (if it is not the one shown), then move; answer
    whether it had to switch."""
    switched = page.locator("#banner.mine").count() == 0
    if switched:
        due = page.locator("#hot-seat button[data-seat][aria-pressed=false]")
        assert due.count() == 1
        seat = due.get_attribute("data-seat")
        assert f"Le toca a tu silla {int(seat) + 1}" in page.inner_text("#banner")
        due.click()
        page.wait_for_selector(f"#hot-seat button[data-seat='{seat}'][aria-pressed=true]")
        page.wait_for_selector("#banner.mine")
    # the selected seat sees its own hand as backs, the other seat's as faces
    assert page.locator("#my-hand .hcard").count() == page.locator("#my-hand .hcard.back").count()
    assert page.locator(".hands-grid .hcard:not(.back)").count() > 0
    assert take_turn(page)
    return switched


def test_play_on_from_a_replay_alone_then_let_the_bots_finish(shared_server, browser) -> None:
    base = shared_server.url
    ARTIFACTS.mkdir(exist_ok=True)
    match_id, _states, _ = stored_match(base, "hanabi", 12, options={"bot_delay": 0})
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, locale="es-ES",
                              is_mobile=True, has_touch=True)
    try:
        page = ctx.new_page()
        errors = at_the_replay(page, base, match_id, "Ana", "Hola, Ana")
        assert "Jugar desde aquí" in page.inner_text("#branch")
        page.screenshot(path=str(ARTIFACTS / "branch-replay-phone.png"), full_page=True)
        page.set_viewport_size({"width": 320, "height": 700})
        assert page.evaluate("document.documentElement.scrollWidth") <= 320
        page.set_viewport_size({"width": 390, "height": 844})
        page.click("#branch-sandbox")
        page.wait_for_url("**/tables/*")
        table_id = page.url.rsplit("/", 1)[1]
        # where it comes from, on the page
        origin = page.locator("#branch-origin a")
        assert origin.get_attribute("href") == f"/matches/{match_id}?step={STEP}"
        # the host holds both seats; the game starts in the match's position
        page.wait_for_selector("#start-button:not([disabled])")
        assert page.locator("#seats .seat.mine").count() == 2
        page.click("#start-button")
        page.wait_for_selector(".fireworks")
        page.wait_for_selector("#hot-seat button[data-seat]")
        assert page.locator("#hot-seat button[data-seat]").count() == 2
        version = int(page.locator("#table-app").get_attribute("data-version"))

        switches = [play_one_move(page) for _ in range(3)]
        assert sum(switches) >= 2  # two seats taking turns: at least two switches
        assert int(page.locator("#table-app").get_attribute("data-version")) == version + 3
        # switching seat connects again before letting the old connection go: never away
        chat = page.inner_text("#chat")
        assert "desconectado" not in chat, chat
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        page.screenshot(path=str(ARTIFACTS / "branch-hot-seat-phone.png"), full_page=True)
        page.set_viewport_size({"width": 320, "height": 700})
        assert page.evaluate("document.documentElement.scrollWidth") <= 320
        page.set_viewport_size({"width": 390, "height": 844})

        # a reload comes back to the seat chosen last (the table first connects for the
        # host's first seat)
        if page.locator("#hot-seat button[data-seat='1'][aria-pressed=true]").count() == 0:
            page.click("#hot-seat button[data-seat='1']")
            page.wait_for_selector("#hot-seat button[data-seat='1'][aria-pressed=true]")
        page.reload()
        page.wait_for_selector("#hot-seat button[data-seat='1'][aria-pressed=true]")
        assert page.locator("#hot-seat button[data-seat='0'][aria-pressed=true]").count() == 0
        assert int(page.locator("#table-app").get_attribute("data-version")) == version + 3

        page.click("#hot-seat-bots")
        page.wait_for_selector(".final", timeout=60_000)
        assert page.locator(".final .verdict").inner_text().strip()
        assert "Un bot juega ahora la silla 1 (Ana)" in page.inner_text("#chat")
        page.screenshot(path=str(ARTIFACTS / "branch-final-phone.png"), full_page=True)

        # its own replay, with the link to where it came from
        page.goto(f"{base}/matches/{table_id}")
        page.wait_for_selector("#replay-actions button")
        assert page.locator("#branch-origin a").get_attribute("href") == \
            f"/matches/{match_id}?step={STEP}"
        # the player's page lists it apart from the real games
        me = page.evaluate("fetch('/api/players/me').then(r => r.json())")
        page.goto(f"{base}/players/{me['id']}")
        assert page.locator(f"#branch-history li[data-match='{table_id}']").count() == 1
        assert page.locator(f"#history tr[data-match='{table_id}']").count() == 0
        assert not errors, errors
    finally:
        ctx.close()


def test_play_on_with_the_new_tables_own_settings(shared_server, browser) -> None:
    """The replay's "play on" form offers the table's own settings, prefilled with the
    match's (here a chess clock of 300 s + 2 s); choosing a per-turn clock of 45 s and a
    private table reaches the new table: its options, its privacy and its settings card."""
    base = shared_server.url
    ARTIFACTS.mkdir(exist_ok=True)
    match_id, _states, _ = stored_match(base, "hanabi", 13, options={
        "bot_delay": 0, "clock": "chess", "bank_seconds": 300, "increment_seconds": 2})
    ctx = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en-US")
    try:
        page = ctx.new_page()
        errors = at_the_replay(page, base, match_id, "Bea", "Bea")
        form = page.locator("#branch-form")
        assert not form.locator("select[name=clock]").is_visible()  # folded until asked for
        page.click("#branch-settings summary")
        # the match's own settings, and only the table's (the game's rules stay the match's)
        assert form.locator("select[name=clock]").input_value() == "chess"
        assert form.locator("input[name=bank_seconds]").input_value() == "300"
        assert form.locator("input[name=increment_seconds]").input_value() == "2"
        assert form.locator("[data-option=turn_seconds]").is_hidden()
        assert form.locator("[name=multicolor], [name=clue_tokens]").count() == 0
        assert not form.locator("input[name=private]").is_checked()
        form.locator("select[name=clock]").select_option("turn")
        assert form.locator("[data-option=bank_seconds]").is_hidden()
        turn = form.locator("input[name=turn_seconds]")
        assert turn.is_visible() and turn.input_value() == "60"  # a minute, not the refused 0
        turn.fill("45")
        form.locator("input[name=private]").check()
        page.screenshot(path=str(ARTIFACTS / "branch-settings-laptop.png"), full_page=True)
        page.set_viewport_size({"width": 390, "height": 844})
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        page.set_viewport_size({"width": 1280, "height": 800})

        page.click("#branch-play")
        page.wait_for_url("**/tables/*")
        table_id = page.url.rsplit("/", 1)[1]
        table = page.evaluate(f"fetch('/api/tables/{table_id}').then(r => r.json())")
        assert table["private"] is True
        assert table["options"]["clock"] == "turn" and table["options"]["turn_seconds"] == 45
        # a hidden field goes as its default; what was not touched stays the match's
        assert table["options"]["bank_seconds"] == 600 and table["options"]["bot_delay"] == 0
        assert table["branch_of"] == {"match": match_id, "step": STEP}
        settings = page.inner_text("#table-settings-list")
        assert "Per-turn limit" in settings and "45" in settings, settings
        assert not errors, errors
    finally:
        ctx.close()
