"""How long a seat has been away, in the seat list of the table page, in Chromium: a player
who had just left read "away for 0 s" ("ausente hace 0 s"), like a fault; it now reads "just
left", then counts up every second, then in minutes. The page's clock is Playwright's fake
clock, paused and moved by hand, so no assertion waits on real time."""

from __future__ import annotations

import pytest

from tests.browser.comfort import load_table, open_as
from tests.support.client import ApiClient

pytestmark = pytest.mark.browser


@pytest.mark.parametrize(("lang", "texts"), [
    ("es", ["acaba de irse", "ausente desde hace 6 s", "ausente desde hace 1 min"]),
    ("en", ["just left", "away for 6 s", "away for 1 min"])])
def test_a_seat_that_just_left_reads_so_then_counts(worker_server, browser, lang: str,
                                                    texts: list[str]) -> None:
    base = worker_server.url
    ana, beto = ApiClient(base, "Ana"), ApiClient(base, "Beto")
    table = ana.create_table("hanabi", 2, {"first_seat": 0})
    invite = table["invite_url"].rsplit("/", 1)[1]
    assert beto.join(table["id"], invite=invite, seat=1).status_code == 200
    assert ana.start(table["id"]).status_code == 200

    beto_context = open_as(browser, base, beto, {"width": 1280, "height": 800}, lang)
    load_table(beto_context.new_page(), base, table["id"])
    context = open_as(browser, base, ana, {"width": 390, "height": 844}, lang)
    page = context.new_page()
    page.clock.install()
    load_table(page, base, table["id"])
    assert page.locator("#seats .life-away").count() == 0  # both at the table
    page.clock.pause_at(page.evaluate("Date.now()") + 1000)

    beto_context.close()  # Beto leaves: the server says he has been away for 0 s
    away = page.locator("#seats .life-away")
    away.wait_for()
    assert float(away.get_attribute("data-away") or "nan") < 5
    assert away.inner_text() == texts[0]
    page.clock.run_for(6000)
    assert away.inner_text() == texts[1]
    page.clock.run_for(60_000)
    assert away.inner_text() == texts[2]
    context.close()
