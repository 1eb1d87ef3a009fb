"""Two Chromium contexts play Ajolocracia through the page: the host creates the table in the
lobby, the guest joins through the invite link on a phone-sized screen. Each page shows the
other as "picked" without showing the card, the reveal shows both picks at once and the hands
pass on; then they play to the end (using the "¡Ajolocracia!" double pick when they can)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.browser import sit_two_players

pytestmark = pytest.mark.browser

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
WAIT = 10_000


def version(page) -> str:
    return page.locator("#table-app").get_attribute("data-version")


def after_change(page, before: str) -> None:
    """Wait until the page shows a newer table version than ``before``."""
    page.wait_for_function(
        "(before) => document.getElementById('table-app').dataset.version !== before",
                           arg=before, timeout=WAIT)


def hand(page) -> list[str]:
    return page.locator(".aj-hand-card").evaluate_all("cards => cards.map(c => c.dataset.card)")


def selected(page) -> list[str]:
    return page.locator(".aj-hand-card.aj-selected").evaluate_all(
        "cards => cards.map(c => c.dataset.card)")


def pick(page, card: str) -> None:
    """Pick one card. With an INE in front a tap only selects it: then confirm it alone."""
    before = version(page)
    page.click(f".aj-hand-card[data-card='{card}']")
    if page.locator(".aj-pick-one").count():
        page.click(".aj-pick-one")
    after_change(page, before)


def player_state(page, seat: int) -> str:
    return page.locator(f".aj-player[data-seat='{seat}']").get_attribute("class") or ""


def shows_card(page, card: str) -> bool:
    return page.locator(f"#game [data-card='{card}']").count() > 0


def check_page(page, width: int | None = None) -> None:
    text = page.inner_text("body")
    assert "null" not in text and "undefined" not in text
    assert "ajolocracia." not in text, "a string key is shown instead of its text"
    if width is not None:
        scroll = page.evaluate("document.documentElement.scrollWidth")
        assert scroll <= width, f"the phone layout scrolls sideways ({scroll}px)"


def play_one(page, stats: dict) -> bool:
    """Pick on this page if it has not picked yet this turn, preferring INE cards; when
    "¡Ajolocracia!" is offered, pick two cards with it. Return whether anything was sent."""
    if page.locator(".aj-hand").count() == 0 or selected(page):
        return False
    ine = page.locator(".aj-hand-card[data-kind='ine']:not([disabled])")
    card = ine.first if ine.count() else page.locator(".aj-hand-card:not([disabled])").first
    before = version(page)
    card.click()
    if page.locator(".aj-ine-button").count():
        # the tap only selected the card; nothing was sent yet
        assert page.locator(".aj-hand-card.aj-local").count() == 1 and version(page) == before
        page.click(".aj-ine-button")
        page.wait_for_selector(".aj-choosing-second")
        confirm = page.locator(".aj-confirm")
        assert confirm.is_disabled()  # nothing is sent before the second card is chosen
        page.locator(".aj-hand-card:not([disabled]):not(.aj-local)").first.click()
        assert page.locator(".aj-hand-card.aj-second").count() == 1
        if not stats["double"]:
            page.screenshot(path=str(ARTIFACTS / f"ajolocracia-ine-{stats['name']}.png"),
                            full_page=True)
        confirm.click()
        stats["double"] += 1
    after_change(page, before)
    return True


def test_two_browsers_pick_secretly_reveal_together_and_finish(shared_server, browser) -> None:
    base = shared_server.url
    ARTIFACTS.mkdir(exist_ok=True)
    host_ctx = browser.new_context(viewport={"width": 1280, "height": 900}, locale="es-ES")
    guest_ctx = browser.new_context(viewport={"width": 390, "height": 844}, locale="en-US",
                                    is_mobile=True, has_touch=True)
    host = host_ctx.new_page()
    guest = guest_ctx.new_page()
    errors: list[str] = []
    for page in (host, guest):
        page.on("pageerror", lambda exc: errors.append(str(exc)))

    sit_two_players(host, guest, base, "ajolocracia")
    for page in (host, guest):
        page.wait_for_selector(".aj-hand")
        assert len(hand(page)) == 10
        assert page.locator(".aj-reveal").count() == 0
    check_page(guest, 390)

    # turn 1: the host picks; the guest sees that, not what
    host_hand, guest_hand = hand(host), hand(guest)
    host_card = host_hand[0]
    host_kind = host.get_attribute(f".aj-hand-card[data-card='{host_card}']", "data-kind")
    pick(host, host_card)
    assert selected(host) == [host_card]
    guest.wait_for_selector(".aj-player[data-seat='0'].aj-picked", timeout=WAIT)
    assert "aj-picking" in player_state(guest, 1) and "aj-picking" in player_state(host, 1)
    assert not shows_card(guest, host_card) and guest.locator(".aj-reveal").count() == 0
    assert "has picked" in guest.locator(".aj-player[data-seat='0']").inner_text()
    guest.screenshot(path=str(ARTIFACTS / "ajolocracia-phone-other-picked.png"),
                     full_page=True)
    host.screenshot(path=str(ARTIFACTS / "ajolocracia-desktop-picked.png"), full_page=True)
    check_page(guest, 390)
    check_page(host)
    # a reload keeps the pick (it is the server's) and rebuilds the log from the history
    host.reload()
    host.wait_for_selector(".aj-hand-card.aj-selected")
    assert selected(host) == [host_card]
    assert host.locator("#log li").count() == 2  # round 1's opening line, the pick

    # the guest's pick completes the turn: both picks are revealed together
    guest_card = guest_hand[-1]
    guest_kind = guest.get_attribute(f".aj-hand-card[data-card='{guest_card}']", "data-kind")
    pick(guest, guest_card)
    for page in (host, guest):
        page.wait_for_selector(".aj-reveal-item[data-seat='1']", timeout=WAIT)
        for seat, card, kind in ((0, host_card, host_kind), (1, guest_card, guest_kind)):
            item = page.locator(f".aj-reveal-item[data-seat='{seat}'] .aj-reveal-card")
            assert item.get_attribute("data-card") == card
            assert item.get_attribute("data-kind") == kind
        assert len(hand(page)) == 9
        assert page.locator(".aj-player.aj-picked").count() == 0
    # hands passed: each now holds what the other kept
    assert sorted(hand(host)) == sorted(set(guest_hand) - {guest_card})
    assert sorted(hand(guest)) == sorted(set(host_hand) - {host_card})
    assert "Turn 2" in guest.locator(".aj-status").inner_text()
    guest.screenshot(path=str(ARTIFACTS / "ajolocracia-phone-revealed.png"), full_page=True)
    check_page(guest, 390)

    # turn 2: the host changes its mind and takes its pick back before the guest picks
    first, second = hand(host)[0], hand(host)[1]
    pick(host, first)
    pick(host, second)
    assert selected(host) == [second]
    guest.wait_for_selector(".aj-player[data-seat='0'].aj-picked", timeout=WAIT)
    before = version(host)
    host.click(".aj-unpick")
    after_change(host, before)
    assert selected(host) == [] and host.locator(".aj-unpick").count() == 0
    guest.wait_for_selector(".aj-player[data-seat='0'].aj-picking", timeout=WAIT)
    pick(host, first)
    guest.wait_for_selector(".aj-player[data-seat='0'].aj-picked", timeout=WAIT)
    pick(guest, hand(guest)[0])
    for page in (host, guest):
        page.wait_for_selector(f".aj-reveal-card[data-card='{first}']", timeout=WAIT)

    # turn 3: the guest picks first; the host sees that, not what
    guest_card = hand(guest)[0]
    pick(guest, guest_card)
    host.wait_for_selector(".aj-player[data-seat='1'].aj-picked", timeout=WAIT)
    assert not shows_card(host, guest_card)
    assert "ya eligió" in host.locator(".aj-player[data-seat='1']").inner_text()
    host.screenshot(path=str(ARTIFACTS / "ajolocracia-desktop-other-picked.png"),
                    full_page=True)
    pick(host, hand(host)[0])
    for page in (host, guest):
        page.wait_for_selector(f".aj-reveal-card[data-card='{guest_card}']", timeout=WAIT)

    # and on to the end of the game
    stats = {"double": 0, "name": "host"}
    guest_stats = {"double": 0, "name": "phone"}
    for _ in range(200):
        if host.locator(".aj-final").count() and guest.locator(".aj-final").count():
            break
        if not (play_one(host, stats) or play_one(guest, guest_stats)):
            host.wait_for_timeout(100)
    else:
        raise AssertionError("the game did not end")
    for page in (host, guest):
        assert page.locator(".aj-results-table tbody tr").count() == 2
        assert page.locator(".aj-values-table").count() == 1
        assert page.locator("#log li").count() > 30
    assert "Gana" in host.locator(".aj-final").inner_text()
    assert "win" in guest.locator(".aj-final").inner_text()
    check_page(guest, 390)
    check_page(host)
    host.screenshot(path=str(ARTIFACTS / "ajolocracia-desktop-final.png"), full_page=True)
    guest.screenshot(path=str(ARTIFACTS / "ajolocracia-phone-final.png"), full_page=True)
    print(f"double picks: host {stats['double']}, guest {guest_stats['double']}")
    assert not errors, errors
    host_ctx.close()
    guest_ctx.close()


def test_rules_page_draws_every_card(shared_server, browser) -> None:
    page = browser.new_page(viewport={"width": 390, "height": 844})
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(shared_server.url + "/rules/ajolocracia")
    page.wait_for_selector("#aj-gallery svg.aj-card")
    assert page.locator("#aj-gallery svg.aj-card").count() == 12
    check_page(page, 390)
    page.screenshot(path=str(ARTIFACTS / "ajolocracia-rules-phone.png"), full_page=True)
    assert not errors, errors
