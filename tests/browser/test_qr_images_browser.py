"""The QR codes shown as images draw in Chromium: the invite's on a waiting table's page
(/tables/<id>/invite-qr.svg) and "continue on another device" (a data: URL). Both showed
only their alt text: app/api/qr.py's SVG had no xmlns, which an inline <svg> does without
but an SVG image document cannot (the table screen inlines it and draws); qr_svg now gives
every code the SVG namespace."""

from __future__ import annotations

import pytest

from tests.browser.comfort import LAPTOP, PHONE, load_table, open_as
from tests.support.client import ApiClient

pytestmark = pytest.mark.browser


def drawn(page, selector: str) -> int:
    """The image's natural width once it has loaded: 0 when the browser could not draw it."""
    page.wait_for_function(f"() => document.querySelector('{selector}')?.complete",
                           timeout=10_000)
    return page.evaluate(f"() => document.querySelector('{selector}').naturalWidth")


def test_invite_and_handoff_qr_codes_draw(worker_server, browser) -> None:
    base = worker_server.url
    ana = ApiClient(base, "Ana")
    table = ana.create_table("ikebana", 2)
    for viewport in (PHONE, LAPTOP):
        page = open_as(browser, base, ana, viewport).new_page()
        load_table(page, base, table["id"])
        assert drawn(page, "#invite-qr") > 0, "the invite's QR code is a broken image"
        page.get_by_role("button", name="Seguir en otro dispositivo").first.click()
        assert drawn(page, "#handoff-qr") > 0, "the hand-off QR code is a broken image"
        page.context.close()
