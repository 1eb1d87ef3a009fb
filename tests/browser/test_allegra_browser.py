"""Three Chromium pages play the start of an Allegra game through the page: everyone turns
up two cards by tapping them, the active player takes a card from the deck, a neighbour
knocks (the button shows the window's countdown), the third answers "no", the active player
accepts the knocker, who places the card; the active player then takes a card from the
knocker's display and gives one of theirs. The players are made through the API and carry
their identity cookie; one page is a phone, which must never scroll sideways."""

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


def skip_clears(page, pages) -> None:
    while page.locator("#game button[data-action=skip_clear]").count():
        click(page, page.locator("#game button[data-action=skip_clear]"), pages)


def play_one(page, pages) -> bool:
    """One step of a cautious player on this page, if it has something to do."""
    game = page.locator("#game")
    for action in ("skip_clear", "no_knock", "decline", "take_discard", "draw"):
        button = game.locator(f"button[data-action={action}]")
        if button.count():
            click(page, button.first, pages)
            return True
    flip = game.locator("button[data-mode=flip]")
    if flip.count():
        if flip.get_attribute("aria-pressed") != "true":
            flip.click()
            page.wait_for_selector("button[data-mode=flip][aria-pressed=true]")
        click(page, game.locator("button.al-target").first, pages)
        return True
    return False


def check_page(page, phone: bool) -> None:
    text = page.inner_text("body")
    assert "undefined" not in text and "null" not in text, text
    assert "allegra." not in text, "a catalogue key was shown instead of its text"
    if phone:
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE, f"the phone layout scrolls sideways ({width}px)"


def test_a_knock_is_accepted_through_the_page(worker_server, browser) -> None:
    base = worker_server.url
    ARTIFACTS.mkdir(exist_ok=True)
    players, table, _ = seat_players(base, "allegra", 3, {"knock_seconds": 30, "rounds": 1})
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
        page.wait_for_selector(".al-strip")
        # three grids, each with its right column shared (violet), plus the wrap copy
        assert page.locator(".al-player").count() == 3
        assert page.locator(".al-col.shared").count() == 4
        assert page.locator(".al-col.my-display").count() == 5  # 4 own + the neighbour's
        assert page.locator("svg.ucard.back").count() >= 36
    assert "Ronda 1 de 1" in pages[0].locator("#al-round").inner_text()
    assert "Round 1 of 1" in pages[1].locator("#al-round").inner_text()
    check_page(pages[1], phone=True)

    # the first card by keyboard: focus a card of your display, press Enter
    first = pages[0].locator("#game button.al-target").first
    first.focus()
    before = version(pages[0])
    pages[0].keyboard.press("Enter")
    pages[0].wait_for_function(
        "(before) => document.getElementById('table-app').dataset.version !== before",
        arg=before, timeout=10_000)
    assert pages[0].locator("#game button.al-target").count() == 14
    # everyone turns up their (other) cards by tapping them
    for page in pages:
        for _ in range(1 if page is pages[0] else 2):
            target = page.locator("#game button.al-target").first
            label = target.get_attribute("aria-label")
            click(page, target, pages)
            assert label and page.locator(f"[aria-label='{label}']").count() == 0
    assert pages[0].locator("svg.ucard:not(.back)").count() >= 6 + 1  # + the discard

    active = next(i for i, p in enumerate(pages)
                  if p.locator("#game button[data-action=draw]").count())
    knocker, third = (active + 1) % 3, (active + 2) % 3
    act, knock_page, third_page = pages[active], pages[knocker], pages[third]
    click(act, act.locator("#game button[data-action=draw]"), pages)

    # the drawn card is shown to all; the others get the knock button with a countdown
    drawn = {p.locator("#al-hand svg").get_attribute("aria-label").rsplit(" ", 1)[1]
             for p in pages}
    assert len(drawn) == 1 and re.fullmatch(r"-?\d+", drawn.pop())
    assert act.locator("#game button[data-action=knock]").count() == 0
    knock = knock_page.locator("#game button[data-action=knock]")
    knock_page.wait_for_function(
        "() => /\\d+ s/.test(document.querySelector('.al-countdown').textContent)")
    seconds = int(re.search(r"(\d+) s", knock.inner_text()).group(1))
    assert 20 <= seconds <= 30
    knock_page.screenshot(path=str(ARTIFACTS / f"allegra-knock-{knocker}.png"), full_page=True)
    click(knock_page, knock, pages)
    click(third_page, third_page.locator("#game button[data-action=no_knock]"), pages)

    # the active player chooses among the knockers (one here) or declines
    accept = act.locator(f"#game button[data-action=accept][data-knocker='{knocker}']")
    assert f"P{knocker}" in accept.inner_text()  # seat_players names them P0, P1, P2
    assert act.locator("#game button[data-action=decline]").count() == 1
    act.screenshot(path=str(ARTIFACTS / "allegra-accept.png"), full_page=True)
    click(act, accept, pages)

    # a. the knocker places the card in their display; the card there goes to their hand,
    # where only the knocker sees it (RULES.md §5): the others see a card back
    click(knock_page, knock_page.locator("#game button.al-target").first, pages)
    for i, page in enumerate(pages):
        held = page.locator("#game figure.al-pile").filter(
            has_text=re.compile(r"hand|mano de"))
        assert held.count() == 1, i
        assert held.locator("svg.ucard.back").count() == (0 if i == knocker else 1), i
    pages[third].screenshot(path=str(ARTIFACTS / "allegra-held-hidden.png"), full_page=True)
    knock_page.screenshot(path=str(ARTIFACTS / "allegra-held-known.png"), full_page=True)
    skip_clears(knock_page, pages)
    # b-c. the active player takes a card of the knocker's display, then gives one of theirs
    take = act.locator(f"#game button.al-target[data-owner='{knocker}']").first
    take.click()
    act.wait_for_selector("#game .al-cell.picked")
    click(act, act.locator("#game button.al-target").first, pages)
    skip_clears(act, pages)

    log = pages[0].locator("#log").inner_text()
    assert "hace toc toc" in log and "da la carta a" in log and "se lleva un" in log, log
    # the log says which card went into the knocker's hand to the knocker alone
    for i, page in enumerate(pages):
        text = page.locator("#log").inner_text()
        hidden = "la carta que había" in text or "the card that was there" in text
        assert hidden == (i != knocker), (i, text)
    assert "knocks!" in pages[1].locator("#log").inner_text()
    assert pages[knocker].locator("#game button[data-action=knock]").count() == 0
    # the turn has passed on to the player after the active one
    assert act.locator("#banner.mine").count() == 0
    for i, page in enumerate(pages):
        check_page(page, phone=i == 1)
    pages[1].screenshot(path=str(ARTIFACTS / "allegra-phone-after-knock.png"), full_page=True)
    pages[0].screenshot(path=str(ARTIFACTS / "allegra-desk-after-knock.png"), full_page=True)

    # play the round out: take the discard, discard it and turn a card up; no knocks
    for _ in range(400):
        if all(p.locator(".al-final").count() for p in pages):
            break
        if not any(play_one(p, pages) for p in pages):
            pages[0].wait_for_timeout(50)
    else:
        raise AssertionError("the round did not end")
    for i, page in enumerate(pages):
        assert page.locator(".al-ranking li").count() >= 1
        assert page.locator(".al-score-table tbody tr").count() == 2  # round 1 + total
        assert page.locator(".score-chart svg").count() >= 1
        assert page.locator(".al-last .al-mini-cell").count() == 45  # 3 displays of 15
        assert page.locator("svg.ucard.back").count() == 0  # all cards turned up
        assert page.locator("#game button").count() == 0
        check_page(page, phone=i == 1)
    assert "Gana" in pages[0].locator(".al-final").inner_text() or \
        "Empate" in pages[0].locator(".al-final").inner_text()
    pages[1].screenshot(path=str(ARTIFACTS / "allegra-phone-final.png"), full_page=True)
    pages[0].screenshot(path=str(ARTIFACTS / "allegra-desk-final.png"), full_page=True)

    rules = pages[1].context.new_page()
    rules.goto(base + "/rules/allegra")
    assert "-7" in rules.inner_text("main")
    assert rules.locator("ol[type=a] li").count() == 4  # the knock's steps a-d
    check_page(rules, phone=True)
    assert not errors, errors
