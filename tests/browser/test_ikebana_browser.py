"""Two Chromium contexts play Ikebana through the page: the host creates the table in the
lobby, the guest joins by the invite link on a phone-sized screen, and they draw, reject,
keep and buy with the page's buttons through a whole game, checking the drawn card, prices,
the round table, the final ranking and that the phone layout never scrolls sideways."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.browser import sit_two_players

pytestmark = pytest.mark.browser

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
PHONE = 390


class Player:
    """One page and what it has done so far."""

    def __init__(self, page, name: str) -> None:
        self.page = page
        self.name = name
        self.counts = {"draw": 0, "keep": 0, "reject": 0, "buy": 0}
        self.saw_price = False

    def my_turn(self) -> bool:
        return self.page.locator("#banner.mine").count() > 0

    def click(self, button) -> None:
        """Click an action button and wait for the next table version."""
        before = self.page.locator("#table-app").get_attribute("data-version")
        button.click()
        self.page.wait_for_function(
            "(before) => document.getElementById('table-app').dataset.version !== before",
            arg=before, timeout=10_000)

    def take_turn(self, other: Player) -> bool:
        """One action if it is this page's turn: buy sometimes, else draw; reject a few."""
        if not self.my_turn():
            return False
        game = self.page.locator("#game")
        buy = game.locator("button[data-action=buy]")
        reject = game.locator("button[data-action=reject]")
        if buy.count() and self.counts["buy"] < 3:
            label = buy.first.inner_text()
            assert buy.first.get_attribute("data-price") in label
            self.counts["buy"] += 1
            self.click(buy.first)
        elif game.locator("button[data-action=draw]").count():
            self.counts["draw"] += 1
            self.click(game.locator("button[data-action=draw]"))
            self.check_considered(other)
        elif reject.count() and reject.get_attribute("data-price") == "1" \
                and self.counts["reject"] < 6:
            price = self.page.locator("#ik-reject-price").inner_text()
            assert "1" in price and other.name in price
            assert other.name in reject.inner_text()
            self.saw_price = True
            self.counts["reject"] += 1
            self.click(reject)
            self.check_considered(other)
        else:
            self.counts["keep"] += 1
            self.click(game.locator("button[data-action=keep]"))
        return True

    def check_considered(self, other: Player) -> None:
        """After a draw both pages show the drawn card, the acting one with its buttons."""
        assert self.page.locator(".ik-hand svg.ikcard").count() == 1
        assert self.page.locator("#game button[data-action=keep]").count() == 1
        other.page.wait_for_selector(".ik-hand svg.ikcard")
        assert self.name in other.page.locator(".ik-considering").inner_text()


def check_page(page, phone: bool) -> None:
    text = page.inner_text("body")
    assert "null" not in text and "undefined" not in text, text
    assert "ikebana." not in text, "a catalogue key was shown instead of its text"
    if phone:
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE, f"the phone layout scrolls sideways ({width}px)"


def test_two_browsers_play_ikebana_through_the_page(shared_server, browser) -> None:
    base = shared_server.url
    ARTIFACTS.mkdir(exist_ok=True)
    host_ctx = browser.new_context(viewport={"width": 1280, "height": 900}, locale="es-ES")
    guest_ctx = browser.new_context(viewport={"width": PHONE, "height": 844},
                                    locale="en-US", is_mobile=True, has_touch=True)
    errors: list[str] = []
    host, guest = Player(host_ctx.new_page(), "Ana"), Player(guest_ctx.new_page(), "Beto")
    for p in (host, guest):
        p.page.on("pageerror", lambda exc: errors.append(str(exc)))

    sit_two_players(host.page, guest.page, base, "ikebana")
    for p in (host, guest):
        p.page.wait_for_selector(".ik-turn")
        assert p.page.locator(".ik-player").count() == 2
        assert "6" in p.page.locator(".ik-prestige").first.inner_text()
    assert "Ronda 1 de 4" in host.page.locator("#ik-round").inner_text()
    assert "Round 1 of 4" in guest.page.locator("#ik-round").inner_text()
    assert "55" in guest.page.locator("#ik-deck").inner_text()
    check_page(guest.page, phone=True)

    # the first turn by keyboard: focus Draw, press Enter; focus moves to the new buttons
    first = host if host.my_turn() else guest
    first.page.locator("#game button[data-action=draw]").focus()
    before = first.page.locator("#table-app").get_attribute("data-version")
    first.page.keyboard.press("Enter")
    first.page.wait_for_function(
        "(before) => document.getElementById('table-app').dataset.version !== before",
        arg=before, timeout=10_000)
    first.counts["draw"] += 1
    assert first.page.evaluate("document.activeElement.dataset.action") in ("keep", "reject")
    check_page(guest.page, phone=True)
    host.page.screenshot(path=str(ARTIFACTS / "ikebana-host-drawn.png"), full_page=True)
    guest.page.screenshot(path=str(ARTIFACTS / "ikebana-phone-drawn.png"), full_page=True)

    round_seen = False
    for _ in range(600):
        if host.page.locator(".ik-final").count() and guest.page.locator(".ik-final").count():
            break
        if not (host.take_turn(guest) or guest.take_turn(host)):
            host.page.wait_for_timeout(50)
        if not round_seen and guest.page.locator(".ik-rounds").count():
            round_seen = True
            host.page.wait_for_selector(".ik-rounds")
            for p in (host, guest):
                # columns: player, start, round 1, round 2 (in play), total
                assert p.page.locator(".ik-summary thead th").count() == 5
                assert p.page.locator(".ik-breakdown tbody tr").count() == 2
                assert p.page.locator(".ik-breakdown svg.ikcard").count() == 10
            assert "Ronda 2 de 4" in host.page.locator("#ik-round").inner_text()
            assert "×" in guest.page.locator(".ik-breakdown .ik-formula").first.inner_text()
            check_page(guest.page, phone=True)
            check_page(host.page, phone=False)
            guest.page.locator(".ik-rounds").scroll_into_view_if_needed()
            guest.page.screenshot(path=str(ARTIFACTS / "ikebana-phone-round.png"),
                                  full_page=True)
            host.page.screenshot(path=str(ARTIFACTS / "ikebana-host-round.png"),
                                 full_page=True)
    else:
        raise AssertionError("the game did not end")

    assert round_seen
    total = {k: host.counts[k] + guest.counts[k] for k in host.counts}
    assert total["keep"] + total["buy"] == 40  # 4 rounds x 2 bouquets x 5 cards
    assert total["reject"] >= 1 and total["buy"] >= 1, total
    assert host.saw_price or guest.saw_price
    for p in (host, guest):
        assert p.page.locator(".ik-ranking li").count() == 2
        assert p.page.locator(".ik-round-detail").count() == 4
        assert p.page.locator(".ik-summary thead th").count() == 7  # no round in play
        assert p.page.locator("#game button").count() == 0
        assert p.page.locator("#log li").count() > 40
        check_page(p.page, phone=p is guest)
    assert "prestigio" in host.page.locator(".ik-final").inner_text()
    assert "prestige" in guest.page.locator(".ik-final").inner_text()
    host.page.screenshot(path=str(ARTIFACTS / "ikebana-host-final.png"), full_page=True)
    guest.page.screenshot(path=str(ARTIFACTS / "ikebana-phone-final.png"), full_page=True)

    rules = guest_ctx.new_page()
    rules.goto(base + "/rules/ikebana")
    assert "(9 + 4) × 3 = 39" in rules.inner_text("main")
    check_page(rules, phone=True)
    rules.screenshot(path=str(ARTIFACTS / "ikebana-rules-phone.png"), full_page=True)
    assert not errors, errors
    host_ctx.close()
    guest_ctx.close()
