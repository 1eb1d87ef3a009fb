"""Web security on a real server: headers and CSP on every kind of response, cookie flags,
cross-site request refusal (CSRF), tokens (length, randomness, one table's invite never
opens another, never in a URL or a log) and host-only actions."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Iterator
from contextlib import contextmanager
from html.parser import HTMLParser

import httpx
import pytest
from websockets.asyncio.client import connect

from app.api.pages import redoc_available, swagger_ui_dir
from app.api.security import HEADERS
from tests.support.client import ApiClient, SeatClient

EVIL = "http://evil.example"


@pytest.fixture
def base(shared_server) -> str:
    return shared_server.url


@contextmanager
def browser_client(base: str, name: str = "Ana") -> Iterator[httpx.Client]:
    """A cookie-holding client that named itself through the form, as a browser does."""
    with httpx.Client(base_url=base, follow_redirects=False, timeout=10) as client:
        r = client.post("/session", data={"name": name, "next": "/"},
                        headers={"Origin": base})
        assert r.status_code == 303, r.text
        assert client.cookies.get("ludoteca_player")
        yield client


class Scripts(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.scripts: list[dict[str, str | None]] = []
        self.handlers: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "script":
            self.scripts.append(dict(attrs))
        self.handlers += [f"{tag} {name}" for name, _ in attrs if name.startswith("on")]


def assert_no_inline_script(html: str) -> None:
    parser = Scripts()
    parser.feed(html)
    for attrs in parser.scripts:
        assert attrs.get("src") or attrs.get("type") == "application/json", attrs
    assert not parser.handlers, parser.handlers


def assert_security_headers(response: httpx.Response) -> None:
    for name, value in HEADERS.items():
        assert response.headers.get(name) == value, (response.url, name)
    csp = response.headers["content-security-policy"]
    assert "unsafe-inline" not in csp and "unsafe-eval" not in csp
    assert "frame-ancestors 'none'" in csp and "script-src 'self'" in csp


# ---------------------------------------------------------------- headers and CSP

def test_every_kind_of_response_has_the_security_headers(base: str) -> None:
    host = ApiClient(base, "Host")
    private = host.create_table("hanabi", 2, private=True)
    invite = private["invite_url"].rsplit("/", 1)[1]
    pages = ["/", f"/tables/{private['id']}", f"/join/{invite}", "/docs", "/join/nope",
             "/rules/hanabi", "/rules/ikebana", "/rules/ajolocracia", "/rules/nope"]
    others = ["/api/games", "/api/tables", "/api/tables/nope", "/openapi.json",
              "/static/js/api.js", "/static/css/site.css", "/healthz", "/nowhere"]
    for path in pages + others:
        r = httpx.get(base + path, headers={"Accept": "text/html"}, timeout=10)
        assert r.status_code in (200, 404), (path, r.status_code)
        assert_security_headers(r)
    r = host.request("POST", "/api/tables", json={"game": "chess", "seats": 2})
    assert r.status_code == 422
    assert_security_headers(r)


def test_no_page_runs_inline_script(base: str) -> None:
    """Every page, signed in or not: scripts are files; data travels as JSON blocks."""
    host = ApiClient(base, "Host")
    table = host.create_table("hanabi", 2)
    invite = table["invite_url"].rsplit("/", 1)[1]
    with browser_client(base, "Ana") as browser, httpx.Client(base_url=base,
                                                              timeout=10) as anonymous:
        for client in (browser, anonymous):
            for path in ("/", f"/tables/{table['id']}", f"/join/{invite}", "/docs",
                         "/rules/hanabi", "/rules/ikebana", "/rules/ajolocracia", "/join/x"):
                r = client.get(path, headers={"Accept": "text/html"})
                # (/docs without swagger-ui-py installed is a plain link to the schema)
                assert "<script" in r.text or path in ("/join/x", "/docs"), path
                assert_no_inline_script(r.text)


def test_the_page_catalogue_cannot_close_its_script_element(base: str) -> None:
    r = httpx.get(base + "/", timeout=10)
    block = re.search(r'<script type="application/json" id="i18n">(.*?)</script>', r.text,
                      re.S)
    assert block and "<" not in block.group(1)
    assert json.loads(block.group(1))["site.name"]


def test_docs_are_served_from_this_server(base: str) -> None:
    page = httpx.get(base + "/docs", timeout=10)
    assert page.status_code == 200
    assert "cdn" not in page.text.lower() and "http" not in page.text.replace(
        "http-equiv", "")
    # ReDoc too, from this server; its page alone allows inline styles (never scripts)
    redoc = httpx.get(base + "/redoc", timeout=10)
    assert redoc.status_code == 200
    csp = redoc.headers["content-security-policy"]
    assert "script-src 'self';" in csp and "unsafe-eval" not in csp
    assert "style-src 'self' 'unsafe-inline'" in csp and "frame-ancestors 'none'" in csp
    assert "cdn" not in redoc.text.lower()
    if redoc_available():
        # ReDoc's file with its menu's logo pointed at ours: no address of another host
        assert "/redoc/redoc.standalone.js" in redoc.text
        script = httpx.get(base + "/redoc/redoc.standalone.js", timeout=10)
        assert script.status_code == 200 and "javascript" in script.headers["content-type"]
        assert "cdn.redoc.ly" not in script.text and "/static/img/logo.svg" in script.text
        assert script.headers["x-content-type-options"] == "nosniff"
    if swagger_ui_dir() is not None:
        assert "/static/swagger-ui/swagger-ui-bundle.js" in page.text
        assert "/static/js/docs.js" in page.text
    for src in re.findall(r'(?:src|href)="(/static/[^"]+)"', page.text):
        r = httpx.get(base + src, timeout=10)
        assert r.status_code == 200, src
        assert r.headers["x-content-type-options"] == "nosniff"


# ---------------------------------------------------------------- cookies

def set_cookie_headers(response: httpx.Response, name: str) -> str:
    found = [v for v in response.headers.get_list("set-cookie") if v.startswith(name + "=")]
    assert len(found) == 1, response.headers.get_list("set-cookie")
    return found[0].lower()


def test_cookies_are_httponly_lax_and_secure_behind_tls(base: str) -> None:
    form = {"name": "Ana", "next": "/"}
    plain = httpx.post(base + "/session", data=form, timeout=10)
    cookie = set_cookie_headers(plain, "ludoteca_player")
    assert "httponly" in cookie and "samesite=lax" in cookie and "secure" not in cookie
    # behind a TLS proxy (uvicorn trusts X-Forwarded-Proto from 127.0.0.1)
    tls = httpx.post(base + "/session", data=form, headers={"X-Forwarded-Proto": "https"},
                     timeout=10)
    cookie = set_cookie_headers(tls, "ludoteca_player")
    assert "httponly" in cookie and "samesite=lax" in cookie and "; secure" in cookie
    lang = httpx.get(base + "/lang/en?next=/", headers={"X-Forwarded-Proto": "https"},
                     timeout=10)
    cookie = set_cookie_headers(lang, "lang")
    assert "httponly" in cookie and "samesite=lax" in cookie and "; secure" in cookie


def test_secure_cookies_setting(tmp_path) -> None:
    from tests.support.server import LiveServer

    live = LiveServer(f"sqlite+aiosqlite:///{tmp_path / 't.db'}", tmp_path / "data",
                      env={"LUDOTECA_SECURE_COOKIES": "true"})
    live.start()
    try:
        r = httpx.post(live.url + "/session", data={"name": "Ana"}, timeout=10)
        assert "; secure" in set_cookie_headers(r, "ludoteca_player")
    finally:
        live.stop()


# ---------------------------------------------------------------- cross-site requests

NEW_TABLE = {"game": "hanabi", "seats": 2}


@pytest.mark.parametrize("headers", [
    {"Origin": EVIL},
    {"Origin": "null"},
    {"Sec-Fetch-Site": "cross-site"},
    {"Sec-Fetch-Site": "same-site"},  # a sibling subdomain is another site for us
    {"Sec-Fetch-Site": "cross-site", "Origin": "{base}"},  # the browser's word wins
    {},  # a cookie but no Origin at all: not a modern browser's own request
])
def test_cookie_authenticated_writes_from_elsewhere_are_refused(base: str,
                                                                headers: dict) -> None:
    headers = {k: v.format(base=base) for k, v in headers.items()}
    with browser_client(base) as browser:
        mine = browser.post("/api/tables", json=NEW_TABLE, headers={"Origin": base}).json()
        before = len(httpx.get(base + "/api/tables", timeout=10).json())
        for method, path, body in [("POST", "/api/tables", NEW_TABLE),
                                   ("POST", f"/api/tables/{mine['id']}/leave", None),
                                   ("DELETE", f"/api/tables/{mine['id']}", None),
                                   ("POST", "/api/players", {"name": "Eve"})]:
            r = browser.request(method, path, json=body, headers=headers)
            assert r.status_code == 403, (method, path, r.text)
            assert r.json()["code"] == "csrf" and r.json()["message"]
        assert len(httpx.get(base + "/api/tables", timeout=10).json()) == before
        assert browser.get(f"/api/tables/{mine['id']}").json()["status"] == "waiting"


@pytest.mark.parametrize("headers", [
    {"Origin": "{base}"},
    {"Sec-Fetch-Site": "same-origin"},
    {"Sec-Fetch-Site": "same-origin", "Origin": "{base}"},
])
def test_writes_from_our_own_pages_pass(base: str, headers: dict) -> None:
    headers = {k: v.format(base=base) for k, v in headers.items()}
    with browser_client(base) as browser:
        r = browser.post("/api/tables", json=NEW_TABLE, headers=headers)
        assert r.status_code == 201, r.text
        r = browser.delete(f"/api/tables/{r.json()['id']}", headers=headers)
        assert r.status_code == 204


def test_bearer_requests_are_exempt(base: str) -> None:
    """A script's token is not something another site can make a browser send."""
    bot = ApiClient(base, "Bot")
    r = httpx.post(base + "/api/tables", json=NEW_TABLE, timeout=10,
                   headers={**bot.headers, "Origin": EVIL, "Sec-Fetch-Site": "cross-site"})
    assert r.status_code == 201, r.text
    # and a script without a cookie or a token needs no Origin to create a player
    assert httpx.post(base + "/api/players", json={"name": "Curl"}, timeout=10).status_code == 201


def test_the_name_form_refuses_other_sites_with_a_translated_page(base: str) -> None:
    for lang, text in (("es", "no salió de una página de Ludoteca"),
                       ("en", "did not come from a Ludoteca page")):
        r = httpx.post(base + "/session", data={"name": "Mallory", "next": "/"},
                       headers={"Origin": EVIL, "Accept": "text/html",
                                "Accept-Language": lang}, timeout=10)
        assert r.status_code == 403 and text in r.text
        assert "set-cookie" not in r.headers
        assert_security_headers(r)
    # the same refusal for a script asking for JSON
    r = httpx.post(base + "/session", data={"name": "Mallory"},
                   headers={"Sec-Fetch-Site": "cross-site"}, timeout=10)
    assert r.status_code == 403 and r.json()["code"] == "csrf"


def test_a_link_from_another_site_does_not_change_the_language(base: str) -> None:
    r = httpx.get(base + "/lang/en?next=/", headers={"Sec-Fetch-Site": "cross-site"},
                  timeout=10)
    assert r.status_code == 303 and "set-cookie" not in r.headers
    r = httpx.get(base + "/lang/en?next=/", headers={"Sec-Fetch-Site": "same-origin"},
                  timeout=10)
    assert r.status_code == 303 and "lang=en" in r.headers["set-cookie"]


# ---------------------------------------------------------------- tokens

def test_tokens_are_long_random_and_distinct(base: str) -> None:
    alphabet = re.compile(r"^[A-Za-z0-9_-]+$")
    tokens, invites = set(), set()
    for i in range(12):
        player = ApiClient(base, f"T{i}")
        assert len(player.token) >= 43 and alphabet.match(player.token)  # 256 bits
        tokens.add(player.token)
        table = player.create_table("hanabi", 2, private=True)
        invite = table["invite_url"].rsplit("/", 1)[1]
        assert len(invite) >= 24 and alphabet.match(invite)  # 144 bits
        assert table["id"] not in invite and player.token not in invite
        invites.add(invite)
    assert len(tokens) == 12 and len(invites) == 12
    # no shared prefix that would hint at a counter or a clock
    assert len({t[:6] for t in tokens}) == 12 and len({i[:6] for i in invites}) == 12


async def test_an_invite_opens_only_its_own_table(base: str, shared_server) -> None:
    host_a, host_b, guest = (ApiClient(base, n) for n in ("A", "B", "Guest"))
    table_a = host_a.create_table("hanabi", 2, private=True)
    table_b = host_b.create_table("hanabi", 2, private=True)
    invite_a = table_a["invite_url"].rsplit("/", 1)[1]
    # REST: B refuses A's invite
    r = guest.join(table_b["id"], invite=invite_a)
    assert r.status_code == 403 and r.json()["code"] == "forbidden"
    # WebSocket: watching B with A's invite is refused
    ws = await connect(f"{shared_server.ws_url}/ws/tables/{table_b['id']}?invite={invite_a}",
                       additional_headers={"Authorization": f"Bearer {guest.token}"})
    message = json.loads(await asyncio.wait_for(ws.recv(), 10))
    assert message["type"] == "error" and message["code"] == "forbidden"
    await ws.close()
    # the invite page of A is table A
    with browser_client(base, "Guest") as browser:
        page = browser.get(f"/join/{invite_a}")
        assert f'data-table="{table_a["id"]}"' in page.text
        assert table_b["id"] not in page.text
    # and with its own invite, B opens
    invite_b = table_b["invite_url"].rsplit("/", 1)[1]
    assert guest.join(table_b["id"], invite=invite_b).status_code == 200


def test_host_only_actions_are_refused_to_others(base: str) -> None:
    host, guest, stranger = (ApiClient(base, n) for n in ("Host", "Guest", "Stranger"))
    table = host.create_table("hanabi", 2)
    guest.join(table["id"])
    for who in (guest, stranger):
        r = who.start(table["id"])
        assert r.status_code == 403 and r.json()["code"] == "forbidden", r.text
        r = who.request("DELETE", f"/api/tables/{table['id']}")
        assert r.status_code == 403 and r.json()["code"] == "forbidden", r.text
    assert httpx.get(f"{base}/api/tables/{table['id']}").json()["status"] == "waiting"
    assert host.start(table["id"]).status_code == 200


async def test_a_token_in_the_url_is_refused_and_never_logged(shared_server) -> None:
    base = shared_server.url
    player = ApiClient(base, "Logged")
    table = player.create_table("hanabi", 2)
    r = httpx.get(f"{base}/api/players/me?token={player.token}", timeout=10)
    assert r.status_code == 401 and r.json()["code"] == "token_in_url"
    ws = await connect(f"{shared_server.ws_url}/ws/tables/{table['id']}?token={player.token}")
    message = json.loads(await asyncio.wait_for(ws.recv(), 10))
    assert message["code"] == "token_in_url"
    await ws.close()
    # the way that works keeps the token out of the URL, hence out of the access log
    async with SeatClient(shared_server.ws_url, table["id"], player.token) as seat:
        assert seat.state["seat"] == 0
    log = shared_server.log_path.read_text(errors="replace")
    assert f"/ws/tables/{table['id']}" in log  # the access log is on, and even the refused
    assert player.token not in log  # attempts are logged without their token
    assert f"/ws/tables/{table['id']}?token=…" in log


async def test_invite_tokens_stay_out_of_the_log(shared_server) -> None:
    host, guest = ApiClient(shared_server.url, "H"), ApiClient(shared_server.url, "G")
    table = host.create_table("hanabi", 2, private=True)
    invite = table["invite_url"].rsplit("/", 1)[1]
    assert httpx.get(f"{shared_server.url}/join/{invite}?from=mail", timeout=10).status_code == 200
    async with SeatClient(shared_server.ws_url, table["id"], guest.token, invite=invite) as seat:
        assert seat.state["seat"] is None  # watching with the invite
    log = shared_server.log_path.read_text(errors="replace")
    assert invite not in log
    assert "/join/…?from=mail" in log and f"/ws/tables/{table['id']}?invite=…" in log


@pytest.mark.parametrize("target", ["//evil.example/", "/\\evil.example/", "/\t/evil.example",
                                    "/\n/evil.example", "http://evil.example/", "/ /evil"])
def test_redirects_after_the_forms_stay_on_this_site(base: str, target: str) -> None:
    r = httpx.post(base + "/session", data={"name": "Ana", "next": target}, timeout=10)
    assert r.status_code == 303 and r.headers["location"] == "/"
    r = httpx.get(base + "/lang/en", params={"next": target}, timeout=10)
    assert r.status_code == 303 and r.headers["location"] == "/"
    r = httpx.get(base + "/lang/en", params={"next": "/tables/x?y=1"}, timeout=10)
    assert r.headers["location"] == "/tables/x?y=1"
