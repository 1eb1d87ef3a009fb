"""Words shown whole, in Chromium: the buttons under your Hanabi cards keep every letter on a
phone ("Descartar" once showed as "Descar…" at 390 px and every narrower width) and the
hand stays one row; the rules pages number their steps once (Block and Guess's round read
"1. 1. Preparación"); a long unbroken word in the chat (a pasted link) wraps, where it once
made a phone's table page 4400 px wide; so does a name of 31 letters without a space (the
limit is 32) in a heading, a verdict or Ikebana's final ranking."""

from __future__ import annotations

import random
import re

import pytest

from tests.browser.comfort import finish, load_table, open_as, run
from tests.support.client import ApiClient

pytestmark = pytest.mark.browser

GAMES = ["hanabi", "ikebana", "ajolocracia", "alebrijes", "allegra", "block-and-guess"]


def test_hanabi_hand_buttons_keep_their_words_on_phones(worker_server, browser) -> None:
    base = worker_server.url
    ana = ApiClient(base, "Ana")
    table = ana.create_table("hanabi", 2, {"first_seat": 0})  # five cards in each hand
    bot = ana.request("POST", f"/api/tables/{table['id']}/bots", json={"seat": 1})
    assert bot.status_code == 201, bot.text
    assert ana.start(table["id"]).status_code == 200
    for lang in ("es", "en"):
        for width in (320, 360, 390):
            context = open_as(browser, base, ana, {"width": width, "height": 740}, lang)
            page = context.new_page()
            load_table(page, base, table["id"])
            found = page.evaluate("""() => {
                const dock = document.querySelector('.hand-dock');
                const buttons = [...dock.querySelectorAll('.card-actions button')];
                const rows = new Set([...dock.querySelectorAll('.my-slot')]
                  .map((s) => Math.round(s.getBoundingClientRect().top)));
                return { buttons: buttons.length, rows: rows.size,
                         cut: buttons.filter((b) => b.scrollWidth > b.clientWidth)
                                     .map((b) => b.textContent) }; }""")
            assert found["buttons"] == 10, found
            assert found["cut"] == [], f"{lang} at {width} px: {found['cut']} lose letters"
            assert found["rows"] == 1, f"{lang} at {width} px: the hand wraps"
            context.close()


def test_rules_steps_are_numbered_once(worker_server, browser) -> None:
    base = worker_server.url
    for lang in ("es", "en"):
        context = browser.new_context()
        context.add_cookies([{"name": "lang", "value": lang, "url": base}])
        page = context.new_page()
        for game in GAMES:
            page.goto(f"{base}/rules/{game}")
            # steps are an <ol>, numbered by the list: a number typed into an item shows twice
            # there ("1. 1. Preparación") and as "• 1." in a bulleted list
            items = page.locator("main li").all_inner_texts()
            typed = [text[:30] for text in items if re.match(r"\s*\d+\.\s", text)]
            assert typed == [], f"/rules/{game} ({lang}): steps numbered by hand: {typed}"
        context.close()


def test_a_long_word_in_the_chat_wraps_on_a_phone(worker_server, browser) -> None:
    base = worker_server.url
    ana = ApiClient(base, "Ana")
    table = ana.create_table("ikebana", 2)
    page = open_as(browser, base, ana, {"width": 390, "height": 844}).new_page()
    load_table(page, base, table["id"])
    word = "https://example.com/" + "a" * 300
    page.fill("#chat-input", word)
    page.press("#chat-input", "Enter")
    page.wait_for_function("(w) => document.getElementById('chat').textContent.includes(w)",
                           arg=word)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the page is {width} px wide"
    page.context.close()


def test_a_long_name_breaks_rather_than_widen_a_phone_page(worker_server, browser) -> None:
    base = worker_server.url
    long_name = "Wolfeschlegelsteinhausenbergerd"
    players = [ApiClient(base, long_name), ApiClient(base, "Beto")]
    table = players[0].create_table("ikebana", 2)
    invite = table["invite_url"].rsplit("/", 1)[1]
    assert players[1].join(table["id"], invite=invite, seat=1).status_code == 200
    assert players[0].start(table["id"]).status_code == 200
    run(finish(worker_server.ws_url, players, table["id"], random.Random(3)))
    page = open_as(browser, base, players[0], {"width": 390, "height": 844}).new_page()
    load_table(page, base, table["id"])
    assert page.locator(".ik-ranking").count() == 1
    for path in (f"/tables/{table['id']}", f"/players/{players[0].id}"):
        page.goto(base + path)
        page.wait_for_load_state("networkidle")
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 390, f"{path} is {width} px wide"
    page.context.close()
