"""Playing in one room, over HTTP: who may open a table's screen, the invite as a QR code
(decoded from the SVG the server draws), and the capabilities kept out of the access log."""

from __future__ import annotations

import logging
import re

import httpx
import pytest

from app.api.security import RedactSecrets
from tests.support.client import ApiClient
from tests.support.qr import decode_svg


@pytest.fixture
def base(shared_server) -> str:
    return shared_server.url


def _inline_qr(html: str) -> str:
    match = re.search(r'<div class="screen-qr" id="screen-qr">(<svg.*?</svg>)</div>', html, re.S)
    assert match, "the screen shows no QR code"
    return match.group(1)


def _watch_key(html: str) -> str:
    match = re.search(r'data-watch="([0-9a-f]+)"', html)
    assert match
    return match.group(1)


def test_the_host_opens_the_screen_and_its_qr_code_is_the_invite(base: str) -> None:
    host, guest = ApiClient(base, "Ana"), ApiClient(base, "Beto")
    table = host.create_table("hanabi", 3, private=True)
    page = host.request("GET", f"/tables/{table['id']}/screen")
    assert page.status_code == 200 and page.headers["cache-control"] == "no-store"
    # a phone that scans it lands on the invite, marked as coming from the screen
    assert decode_svg(_inline_qr(page.text)) == table["invite_url"] + "?room=1"
    assert table["invite_url"] + "?room=1" in page.text
    # the page's socket watches with the spectator key (a private table) as a screen
    assert _watch_key(page.text) == table["watch_url"].rsplit("/", 1)[1]
    # anyone else, seated or not, is told to ask the host
    assert guest.join(table["id"], invite=table["invite_url"].rsplit("/", 1)[1]).status_code == 200
    for headers in (guest.headers, {}):
        refused = httpx.get(f"{base}/tables/{table['id']}/screen",
                            headers={**headers, "Accept": "text/html", "Accept-Language": "en"})
        assert refused.status_code == 403 and "Only the table’s host" in refused.text
        assert table["invite_url"] not in refused.text


def test_the_screen_link_opens_the_screen_on_any_device(base: str) -> None:
    host, guest = ApiClient(base, "Ana"), ApiClient(base, "Beto")
    table = host.create_table("ikebana", 2, private=True)
    link = host.request("GET", f"/api/tables/{table['id']}/screen")
    assert link.status_code == 200
    url = link.json()["url"]
    assert url.startswith(f"{base}/screen/{table['id']}/")
    # only the host gets it
    assert guest.request("GET", f"/api/tables/{table['id']}/screen").status_code == 403
    assert httpx.get(f"{base}/api/tables/{table['id']}/screen").status_code == 401
    # a TV with no identity opens it
    tv = httpx.get(url, headers={"Accept": "text/html"})
    assert tv.status_code == 200
    assert decode_svg(_inline_qr(tv.text)) == table["invite_url"] + "?room=1"
    # neither the spectator link's key nor a made-up one opens it
    watch_key = table["watch_url"].rsplit("/", 1)[1]
    for key in (watch_key, "0" * 32, url.rsplit("/", 1)[1][:-1] + "x"):
        bad = httpx.get(f"{base}/screen/{table['id']}/{key}",
                        headers={"Accept": "text/html", "Accept-Language": "en"})
        assert bad.status_code == 404 and "screen link is not valid" in bad.text
        assert table["invite_url"] not in bad.text


def test_the_invite_qr_code_is_drawn_for_whoever_may_see_the_invite(base: str) -> None:
    host, stranger = ApiClient(base, "Ana"), ApiClient(base, "Mallory")
    private = host.create_table("hanabi", 2, private=True)
    public = host.create_table("alebrijes", 3)
    svg = host.request("GET", f"/tables/{private['id']}/invite-qr.svg")
    assert svg.status_code == 200 and svg.headers["content-type"].startswith("image/svg+xml")
    assert decode_svg(svg.text) == private["invite_url"]
    # a private table's invite: not for someone who is not seated there
    assert stranger.request("GET", f"/tables/{private['id']}/invite-qr.svg").status_code == 404
    assert httpx.get(f"{base}/tables/{private['id']}/invite-qr.svg").status_code == 404
    # a public table's invite is public
    anyone = httpx.get(f"{base}/tables/{public['id']}/invite-qr.svg")
    assert anyone.status_code == 200 and decode_svg(anyone.text) == public["invite_url"]


def test_screen_keys_and_hand_off_links_stay_out_of_the_access_log() -> None:
    redact = RedactSecrets()
    record = logging.LogRecord("uvicorn.access", logging.INFO, "", 0, '%s - "%s %s HTTP/%s" %d',
                               ("127.0.0.1", "GET", "/screen/tbl/0123abcd?x=1", "1.1", 200),
                               None)
    redact.filter(record)
    assert "0123abcd" not in str(record.args) and "/screen/tbl/" in str(record.args)
    record = logging.LogRecord("uvicorn.access", logging.INFO, "", 0, '%s - "%s %s HTTP/%s" %d',
                               ("127.0.0.1", "POST", "/handoff/nonce.123.mac", "1.1", 303), None)
    redact.filter(record)
    assert "nonce" not in str(record.args) and "/handoff/" in str(record.args)
