"""Hanabi in Chromium: on a touch screen a tap on a clue button sent the clue at once, so the
outline of the cards it would point at (shown on hover and focus) was never seen there. A
first tap now chooses the clue (its cards outlined, a confirm button naming it), a second
tap or the confirm sends it; a mouse click and the keyboard still send at once. Also here:
the card each hand drew last is tagged "new" (the drawer's own face-down one too), the log
says which slot a played or discarded card left, and the settings say how a multicolour
card takes clues."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.browser.comfort import act, connect, load_table, open_as, run, seeded_table
from tests.support.client import ApiClient

pytestmark = pytest.mark.browser
SHOTS = Path("/tmp/hb-log")


def hands(ws_url: str, player: ApiClient, table_id: str) -> list[list[dict]]:
    async def go() -> list[list[dict]]:
        (client,) = await connect(ws_url, [player], table_id)
        try:
            return client.state["view"]["hands"]
        finally:
            await client.close()

    return run(go())


def move(ws_url: str, player: ApiClient, table_id: str, action: dict) -> None:
    async def go() -> None:
        (client,) = await connect(ws_url, [player], table_id)
        try:
            await act(client, action)
        finally:
            await client.close()

    run(go())


def moves(page) -> int:
    """How many moves the page's log shows (a table's version counts more than moves)."""
    return page.locator("#log li").count()


def wait_moves(page, n: int) -> None:
    page.wait_for_function(f"() => document.querySelectorAll('#log li').length >= {n}",
                           timeout=15_000)


def outlined(page) -> list[int]:
    return page.evaluate("""() => [...document.querySelectorAll('#game .hand .slot')]
      .flatMap((s, i) => s.classList.contains('would-clue') ? [i + 1] : [])""")


def focus_key(page) -> str | None:
    return page.evaluate("() => document.activeElement && document.activeElement.dataset"
                         " ? document.activeElement.dataset.focusKey ?? document.activeElement.id"
                         " : null")


def tagged(page, hand: str) -> list[int]:
    """The slots (1 = left) of ``hand``'s cards tagged as drawn last."""
    return page.evaluate(f"""() => [...document.querySelectorAll('{hand} .slot')]
      .flatMap((s, i) => s.querySelector('.new-badge') ? [i + 1] : [])""")


def test_a_tap_chooses_a_clue_and_a_second_tap_sends_it(worker_server, browser) -> None:
    SHOTS.mkdir(exist_ok=True)
    base, ws = worker_server.url, worker_server.ws_url
    ana, beto = ApiClient(base, "Ana"), ApiClient(base, "Beto")
    table_id = seeded_table([ana, beto], "hanabi", 11, {"first_seat": 0, "multicolor": True})
    beto_hand = hands(ws, ana, table_id)[1]
    context = open_as(browser, base, ana, {"width": 390, "height": 844}, "es")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    load_table(page, base, table_id)
    # the settings say how the sixth colour takes clues, not a bare "Sí"
    settings = page.text_content("#table-settings-list")
    assert "solo la pista «multicolor» señala sus cartas" in settings
    assert tagged(page, "#game .hand") == [] and tagged(page, "#my-hand") == []  # the deal

    rank = beto_hand[0]["rank"]
    color = next(c["color"] for c in beto_hand if c["rank"] != rank)
    by_rank = [n + 1 for n, c in enumerate(beto_hand) if c["rank"] == rank]
    by_color = [n + 1 for n, c in enumerate(beto_hand) if c["color"] == color]
    assert moves(page) == 0
    rank_button = page.locator(f"#game .hand button[data-focus-key='clue-1-{rank}']")
    rank_button.tap()
    confirm = page.locator("#game .clue-confirm button.confirm")
    confirm.wait_for()
    # chosen, not sent: its cards outlined, a confirm naming it, the focus on the confirm
    assert outlined(page) == by_rank
    assert confirm.inner_text() == f"Dar pista: número {rank} a Beto"
    assert rank_button.get_attribute("aria-pressed") == "true"
    assert focus_key(page) == "clue-confirm"
    # and in sight: the confirm and the cancel above the hand a phone pins at its foot
    assert page.evaluate("""() => document.querySelector('#game .clue-confirm p')
      .getBoundingClientRect().top <= document.getElementById('my-hand')
      .getBoundingClientRect().top""")
    page.wait_for_timeout(300)
    assert moves(page) == 0
    # another tap chooses another clue; cancel drops it and gives the focus back
    page.locator(f"#game .hand button[data-focus-key='clue-1-{color}']").tap()
    assert outlined(page) == by_color
    assert confirm.inner_text().startswith("Dar pista: ") and "número" not in confirm.inner_text()
    page.locator("#game .clue-confirm button.secondary").tap()
    assert page.locator("#game .clue-confirm").count() == 0 and outlined(page) == []
    assert focus_key(page) == f"clue-1-{color}"
    assert moves(page) == 0
    rank_button.tap()
    page.screenshot(path=str(SHOTS / "touch-clue-es-390.png"))
    rank_button.tap()  # a second tap on the chosen clue sends it
    wait_moves(page, 1)
    assert page.locator("#game .clue-confirm").count() == 0
    assert page.locator("#log li").last.inner_text().startswith(f"Ana → Beto: número {rank}")
    assert focus_key(page) == "my-hand"  # the clue buttons are gone: the focus is on the hand

    # Beto discards his second card: his new card (the last slot) is tagged, the log says
    # which slot the discard came from
    move(ws, beto, table_id, {"type": "discard", "card": beto_hand[1]["id"]})
    wait_moves(page, 2)
    assert tagged(page, "#game .hand") == [5] and tagged(page, "#my-hand") == []
    assert "de la posición 2" in page.locator("#log li").last.inner_text()
    # Ana plays her first card: her own face-down new card is tagged, and says so
    page.locator("#my-hand button.play[data-slot='1']").tap()
    wait_moves(page, 3)
    assert tagged(page, "#my-hand") == [5] and tagged(page, "#game .hand") == [5]
    newest = page.locator("#my-hand .my-slot").nth(4).locator(".note-button")
    assert "recién robada" in newest.text_content()
    assert "de la posición 1" in page.locator("#log li").last.inner_text()
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
    page.screenshot(path=str(SHOTS / "newest-es-390.png"), full_page=True)
    assert errors == []
    context.close()


def test_a_click_or_a_key_still_sends_a_clue_at_once(worker_server, browser) -> None:
    SHOTS.mkdir(exist_ok=True)
    base, ws = worker_server.url, worker_server.ws_url
    ana, beto = ApiClient(base, "Ana"), ApiClient(base, "Beto")
    table_id = seeded_table([ana, beto], "hanabi", 11, {"first_seat": 0})
    beto_hand = hands(ws, ana, table_id)[1]
    context = open_as(browser, base, ana, {"width": 1280, "height": 800}, "en")
    page = context.new_page()
    load_table(page, base, table_id)
    assert moves(page) == 0
    page.locator("#game .hand .clues button").first.focus()
    page.keyboard.press("Enter")
    wait_moves(page, 1)
    move(ws, beto, table_id, {"type": "discard", "card": beto_hand[2]["id"]})
    wait_moves(page, 2)
    assert tagged(page, "#game .hand") == [5]
    assert page.locator("#log li").last.inner_text().endswith("from slot 3")
    page.locator("#game .hand .clues button").first.click()
    wait_moves(page, 3)
    assert page.locator("#game .clue-confirm").count() == 0
    assert focus_key(page) == "my-hand"
    page.screenshot(path=str(SHOTS / "clue-en-1280.png"), full_page=True)
    context.close()


def test_a_hand_whose_last_turn_drew_nothing_has_no_new_card(worker_server, browser) -> None:
    """The tag marks the card a hand drew on its player's last play or discard: once the deck
    has run out and that play drew nothing, the card drawn long before is not new (it kept
    its tag to the end of the game, the replay's last steps included)."""
    context = browser.new_context()
    page = context.new_page()
    page.goto(worker_server.url + "/rules/hanabi")
    found = page.evaluate("""async () => {
      const { newestIds } = await import('/static/js/games/hanabi.js');
      const hands = [[{ id: 1 }, { id: 10 }], [{ id: 2 }, { id: 11 }]];
      const cases = {
        deal: [],
        drew: [{ type: 'play', seat: 0, drew: 10 }],
        then_a_clue: [{ type: 'discard', seat: 1, drew: 11 }, { type: 'clue', seat: 1 }],
        deck_out: [{ type: 'play', seat: 0, drew: 10 }, { type: 'discard', seat: 0, drew: null }],
      };
      return Object.fromEntries(Object.entries(cases).map(([name, log]) =>
        [name, [...newestIds({ hands, log })].sort((a, b) => a - b)]));
    }""")
    assert found == {"deal": [], "drew": [10], "then_a_clue": [11], "deck_out": []}, found
    context.close()
