"""Giving a clue in Hanabi, in Chromium: the buttons under a partner's hand said only "red"
or "3", and which cards a clue would point at was for the player to work out card by card
(a colour clue misses the multicolour cards here: it is its own colour). Pointing at a
button, or tabbing to it, now outlines the cards it would point at, and its description
lists their slots ("no card" for an empty clue)."""

from __future__ import annotations

import pytest

from tests.browser.comfort import connect, load_table, open_as, run, seeded_table
from tests.support.client import ApiClient

pytestmark = pytest.mark.browser


def beto_hand(ws_url: str, ana: ApiClient, table_id: str) -> list[dict]:
    async def go() -> list[dict]:
        (client,) = await connect(ws_url, [ana], table_id)
        try:
            return client.state["view"]["hands"][1]
        finally:
            await client.close()

    return run(go())


def outlined(page) -> list[int]:
    return page.evaluate("""() => [...document.querySelectorAll('#game .hand .slot')]
      .flatMap((s, i) => s.classList.contains('would-clue') ? [i + 1] : [])""")


@pytest.mark.parametrize(("lang", "width", "none"), [("en", 1280, "no card"),
                                                      ("es", 390, "ninguna carta")])
def test_a_clue_button_shows_the_cards_it_would_point_at(worker_server, browser, lang: str,
                                                         width: int, none: str) -> None:
    base = worker_server.url
    ana, beto = ApiClient(base, "Ana"), ApiClient(base, "Beto")
    table_id = seeded_table([ana, beto], "hanabi", 11, {"first_seat": 0, "multicolor": True})
    hand = beto_hand(worker_server.ws_url, ana, table_id)
    context = open_as(browser, base, ana, {"width": width, "height": 844}, lang)
    page = context.new_page()
    load_table(page, base, table_id)
    assert outlined(page) == []

    buttons = page.locator("#game .hand .clues button")
    seen_empty = False
    for i in range(buttons.count()):
        button = buttons.nth(i)
        key = button.get_attribute("data-focus-key").rsplit("-", 1)[1]
        field = "rank" if key.isdigit() else "color"
        value = int(key) if key.isdigit() else key
        expected = [n + 1 for n, c in enumerate(hand) if c[field] == value]
        button.hover()
        assert outlined(page) == expected, (key, hand)
        description = button.get_attribute("aria-description")
        if expected:
            assert description.endswith(str(expected[-1])), description
        else:
            seen_empty = True
            assert description == none
    assert seen_empty  # a hand of five never holds all six colours and five numbers
    page.mouse.move(0, 0)
    assert outlined(page) == []

    # the keyboard: tabbing to a button outlines its cards, leaving it clears them
    rank = next(c["rank"] for c in hand)
    page.locator(f"#game .hand .clues button[data-focus-key='clue-1-{rank}']").focus()
    assert outlined(page) == [n + 1 for n, c in enumerate(hand) if c["rank"] == rank]
    page.evaluate("() => document.activeElement.blur()")
    assert outlined(page) == []
    page.screenshot(path=f"/tmp/hb-review/clue-preview-{lang}.png")
    context.close()
