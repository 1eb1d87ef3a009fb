"""Three Chromium pages play the start of an Alebrijes game through the page: each player in
turn exchanges two selected cards or keeps their hand; the leader selects a card and plays
it (taking no Ollin effect if asked), the next player beats it or passes, the third passes
exchanging a card; the trick ends and its winner leads. The pages show the combination to
beat and who played it, each player's chance, card counts, the deck and the round. Players
are made through the API and carry their identity cookie; one page is a phone, which must
never scroll sideways."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from app.api.deps import sign
from tests.support.client import seat_players

pytestmark = pytest.mark.browser

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
PHONE = 390
SECRET = "test-secret"  # tests.support.server.LiveServer's LUDOTECA_SECRET_KEY


def face_label(button) -> str | None:
    return button.locator("svg.ucard").first.get_attribute("aria-label")


def version(page) -> str:
    return page.locator("#table-app").get_attribute("data-version")


def click(page, locator, pages) -> None:
    """Click, then wait until every page shows the next table version."""
    before = version(page)
    locator.click()
    for other in pages:
        other.wait_for_function(
            "(before) => document.getElementById('table-app').dataset.version !== before",
            arg=before, timeout=10_000)


def to_act(pages) -> int:
    for i, page in enumerate(pages):
        if page.locator(".ab-prompt.mine").count():
            return i
    raise AssertionError("nobody to act on the pages")


def check_page(page, phone: bool) -> None:
    text = page.inner_text("body")
    assert "undefined" not in text and "null" not in text, text
    assert "alebrijes." not in text, "a catalogue key was shown instead of its text"
    if phone:
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE, f"the phone layout scrolls sideways ({width}px)"


def hand(page):
    return page.locator("#game .ab-hand button.ab-card")


def test_a_trick_is_played_through_the_page(worker_server, browser) -> None:
    base = worker_server.url
    ARTIFACTS.mkdir(exist_ok=True)
    players, table, _ = seat_players(base, "alebrijes", 3, {"first_seat": 0})
    assert players[0].start(table["id"]).status_code == 200
    pages, errors = [], []
    for i, player in enumerate(players):
        phone = i == 1
        size = {"width": PHONE, "height": 844} if phone else {"width": 1280, "height": 860}
        context = browser.new_context(
            viewport=size, locale="en-US" if phone else "es-ES", is_mobile=phone,
            has_touch=phone)
        context.add_cookies([{"name": "ludoteca_player", "url": base,
                              "value": sign(player.token, SECRET)}])
        page = context.new_page()
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(f"{base}/tables/{table['id']}")
        pages.append(page)
    for page in pages:
        page.wait_for_selector(".ab-hand")
        assert hand(page).count() == 10
        assert page.locator(".ab-table tbody tr").count() == 3
        assert page.locator("svg.ucard").count() >= 10
    assert "Ronda 1 de 3" in pages[0].locator("#ab-round").inner_text()
    assert "Round 1 of 3" in pages[1].locator("#ab-round").inner_text()
    assert "50" in pages[1].locator("#ab-deck").inner_text()
    check_page(pages[1], phone=True)
    pages[1].screenshot(path=str(ARTIFACTS / "alebrijes-phone-exchange.png"), full_page=True)

    # exchanges in turn order from seat 0: seat 0 swaps two cards, the others keep
    assert to_act(pages) == 0
    # a card button is named by its face (the SVG's label)
    labels = [face_label(hand(pages[0]).nth(i)) for i in range(10)]
    keep = pages[0].locator("#game button[data-focus-key=exchange]")
    assert keep.is_enabled()
    hand(pages[0]).nth(0).click()
    hand(pages[0]).nth(1).click()
    assert pages[0].locator(".ab-card.selected").count() == 2
    hand(pages[0]).nth(2).click()  # a third card: exchanging three is not offered
    assert keep.is_disabled()
    assert "2 cartas como mucho" in pages[0].locator("#ab-hint").inner_text()  # and why
    hand(pages[0]).nth(2).click()
    assert pages[0].locator("#ab-hint").count() == 0
    assert "2" in keep.inner_text()
    click(pages[0], keep, pages)
    assert hand(pages[0]).count() == 10
    assert "48" in pages[2].locator("#ab-deck").inner_text()
    assert labels != [face_label(hand(pages[0]).nth(i)) for i in range(10)]
    for seat in (1, 2):
        assert to_act(pages) == seat
        click(pages[seat], pages[seat].locator("#game button[data-focus-key=exchange]"),
              pages)

    # the trick: seat 0 leads its first card by keyboard
    assert to_act(pages) == 0
    # the whole hand chosen is no combination: Play is greyed out and the page says why
    for i in range(10):
        hand(pages[0]).nth(i).click()
    assert pages[0].locator("#game button[data-focus-key=play]").is_disabled()
    assert "no forman una combinación" in pages[0].locator("#ab-hint").inner_text()
    for i in range(10):
        hand(pages[0]).nth(i).click()
    assert pages[0].locator("#ab-hint").count() == 0
    hand(pages[0]).nth(0).focus()
    pages[0].keyboard.press("Enter")
    play = pages[0].locator("#game button[data-focus-key=play]")
    assert play.is_enabled()
    label = face_label(pages[0].locator(".ab-card.selected"))
    click(pages[0], play, pages)
    assert hand(pages[0]).count() == 9
    if pages[0].locator("#game button[data-focus-key=ollin-none]").count():
        click(pages[0], pages[0].locator("#game button[data-focus-key=ollin-none]"), pages)
    for page in pages:
        to_beat = page.locator("#ab-to-beat").inner_text()
        # one card reads as that card ("un 1 rosado", "a single pink 1"), not "1 × …"
        assert "P0" in to_beat and ("un " in to_beat or "a single " in to_beat), to_beat
        assert page.locator(".ab-best svg.ucard").count() == 1
    assert label.replace(" with Ollin", "").replace(" con Ollin", "") in \
        pages[0].locator(".ab-best svg.ucard").get_attribute("aria-label")
    assert "abrió" in pages[2].locator(".ab-table tbody tr").nth(0).inner_text()
    assert "led" in pages[1].locator(".ab-table tbody tr").nth(0).inner_text()
    assert "9" in pages[1].locator(".ab-table tbody tr").nth(0).inner_text()
    check_page(pages[1], phone=True)
    pages[1].screenshot(path=str(ARTIFACTS / "alebrijes-phone-trick.png"), full_page=True)
    pages[0].screenshot(path=str(ARTIFACTS / "alebrijes-desktop-trick.png"), full_page=True)

    # seat 1 beats it with a playable combination if it has one, else passes
    assert to_act(pages) == 1
    suggest = pages[1].locator(".ab-suggest")
    winner = 0
    if suggest.count():
        pages[1].locator(".ab-suggest summary").click()
        button = pages[1].locator(".ab-suggest-list button").first
        click(pages[1], button, pages)
        winner = 1
        if pages[1].locator("#game button[data-focus-key=ollin-none]").count():
            click(pages[1], pages[1].locator("#game button[data-focus-key=ollin-none]"),
                  pages)
        assert "P1" in pages[0].locator("#ab-to-beat").inner_text()
    else:
        click(pages[1], pages[1].locator("#game button[data-focus-key=pass]"), pages)
        assert "passed" in pages[1].locator(".ab-table tbody tr").nth(1).inner_text()

    # seat 2 passes and exchanges one card; the trick ends and its winner leads
    assert to_act(pages) == 2
    hand(pages[2]).nth(0).click()
    pass_button = pages[2].locator("#game button[data-focus-key=pass]")
    assert "1" in pass_button.inner_text()
    click(pages[2], pass_button, pages)
    assert to_act(pages) == winner
    for page in pages:
        assert page.locator(".ab-best").count() == 0
        assert f"P{winner}" in page.locator("#ab-trick-title").inner_text()
    assert "3 boca abajo" in pages[0].locator(".ab-status").inner_text()  # 2 + 1 swapped
    log = pages[2].locator("#log").inner_text()
    # the passer reads which card went and which came; the others only how many
    assert re.search(r"P2 \(tú\) pasa y cambia \S.* por \S", log), log
    assert "P2 pasa y cambia 1 carta" in pages[0].locator("#log").inner_text()
    check_page(pages[1], phone=True)
    check_page(pages[0], phone=False)
    pages[1].screenshot(path=str(ARTIFACTS / "alebrijes-phone-next.png"), full_page=True)

    rules = pages[1].context.new_page()
    rules.goto(base + "/rules/alebrijes")
    assert "1-1-1" in rules.inner_text("main")
    check_page(rules, phone=True)
    assert not errors, errors
