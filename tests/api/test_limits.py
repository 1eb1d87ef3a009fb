"""REST limits with clear errors: display names (REST and the name form), tables hosted at
once, and creation rates per player and per address (429 with Retry-After)."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from app.api.limits import RateLimited, RateLimiter
from app.names import BadName, clean_name
from tests.support.client import ApiClient
from tests.support.server import LiveServer


@pytest.fixture
def base(shared_server) -> str:
    return shared_server.url


@pytest.fixture(scope="module")
def strict_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """Tight limits, to reach each one in a few requests."""
    tmp = tmp_path_factory.mktemp("strict")
    live = LiveServer(f"sqlite+aiosqlite:///{tmp / 't.db'}", tmp / "data", env={
        "LUDOTECA_MAX_HOSTED_TABLES": "3", "LUDOTECA_TABLES_PER_MINUTE": "4",
        "LUDOTECA_TABLES_PER_MINUTE_PER_IP": "5", "LUDOTECA_PLAYERS_PER_MINUTE_PER_IP": "3"})
    live.start()
    yield live
    live.stop()


# ---------------------------------------------------------------- names

@pytest.mark.parametrize(("raw", "clean"), [
    ("  Ana   María ", "Ana María"),
    ("\u00a0Ana\u2003Bel\u00a0", "Ana Bel"),  # every kind of space becomes one plain space
    (" " * 50 + "x" * 32 + " " * 50, "x" * 32),  # 32 once trimmed
    ("Jose\u0301", "José"),  # NFC
    ("<img src=x onerror=alert(1)>", "<img src=x onerror=alert(1)>"),  # text, shown as text
])
def test_names_are_normalised(raw: str, clean: str) -> None:
    assert clean_name(raw) == clean


@pytest.mark.parametrize(("raw", "key"), [
    ("", "name.error.empty"), ("    ", "name.error.empty"), ("\u3000", "name.error.empty"),
    ("x" * 33, "name.error.too_long"), (" " * 300 + "x", "name.error.too_long"),
    ("a\tb", "name.error.control"), ("a\nb", "name.error.control"),
    ("a\x00b", "name.error.control"), ("a\x1bb", "name.error.control"),
    ("a\u200bb", "name.error.invisible"), ("\u202eevil", "name.error.invisible"),
])
def test_bad_names_have_a_reason(raw: str, key: str) -> None:
    with pytest.raises(BadName) as caught:
        clean_name(raw)
    assert caught.value.key == key and str(caught.value)


@pytest.mark.parametrize(("name", "words"), [
    ("   ", "visible character"), ("x" * 40, "at most 32"), ("a\tb", "control"),
    ("\u200b", "invisible"),
])
def test_bad_names_over_rest_are_clear_errors(base: str, name: str, words: str) -> None:
    r = httpx.post(base + "/api/players", json={"name": name}, timeout=10)
    assert r.status_code == 422
    body = r.json()
    assert body["code"] == "bad_request" and words in body["message"]
    assert body["message"].startswith("name: ") and "Value error" not in body["message"]


@pytest.mark.parametrize(("lang", "text"), [
    ("es", "solo espacios no vale"), ("en", "only spaces will not do")])
def test_a_name_of_spaces_in_the_form_gets_a_translated_message(base: str, lang: str,
                                                                text: str) -> None:
    r = httpx.post(base + "/session", data={"name": "    ", "next": "/tables/abc"},
                   headers={"Accept": "text/html", "Accept-Language": lang}, timeout=10)
    assert r.status_code == 422 and text in r.text
    assert "set-cookie" not in r.headers
    # the form is there again, still going back to where the player was
    assert 'action="/session"' in r.text and 'name="next" value="/tables/abc"' in r.text
    assert 'aria-invalid="true"' in r.text
    assert "/lang/" in r.text and "next=/session" not in r.text


def test_a_long_name_in_the_form_is_refused_and_shown_escaped(base: str) -> None:
    name = "<b>" + "x" * 40
    r = httpx.post(base + "/session", data={"name": name}, headers={"Accept": "text/html",
                   "Accept-Language": "en"}, timeout=10)
    assert r.status_code == 422 and "at most 32 characters" in r.text
    assert "<b>x" not in r.text and "&lt;b&gt;x" in r.text


# ---------------------------------------------------------------- tables per player

def test_tables_hosted_at_once_are_limited(strict_server: LiveServer) -> None:
    host = ApiClient(strict_server.url, "Anfitriona")
    tables = [host.create_table("hanabi", 2) for _ in range(3)]
    r = host.request("POST", "/api/tables", json={"game": "hanabi", "seats": 2})
    assert r.status_code == 409
    assert r.json()["code"] == "too_many_tables" and "at most 3" in r.json()["message"]
    # finishing or deleting one frees a place
    assert host.request("DELETE", f"/api/tables/{tables[0]['id']}").status_code == 204
    assert host.request("POST", "/api/tables",
                        json={"game": "hanabi", "seats": 2}).status_code == 201
    # another player is not affected
    assert ApiClient(strict_server.url, "Otra").create_table("hanabi", 2)["id"]


# ---------------------------------------------------------------- rates

def test_table_creation_rate_per_player(strict_server: LiveServer) -> None:
    host = ApiClient(strict_server.url, "Rápida")
    created = []
    for _ in range(4):  # the burst, deleting as we go so the hosting cap is never met
        table = host.create_table("hanabi", 2)
        created.append(table["id"])
        host.request("DELETE", f"/api/tables/{table['id']}")
    r = host.request("POST", "/api/tables", json={"game": "hanabi", "seats": 2})
    assert r.status_code == 429 and r.json()["code"] == "rate_limited"
    assert 1 <= int(r.headers["retry-after"]) <= 60
    assert "a minute" in r.json()["message"]


def test_player_creation_rate_per_address(strict_server: LiveServer) -> None:
    url = strict_server.url + "/api/players"
    # uvicorn trusts X-Forwarded-For from 127.0.0.1, as from a reverse proxy on this host
    far = {"X-Forwarded-For": "203.0.113.7"}
    for i in range(3):
        assert httpx.post(url, json={"name": f"N{i}"}, headers=far, timeout=10).status_code == 201
    r = httpx.post(url, json={"name": "N3"}, headers=far, timeout=10)
    assert r.status_code == 429 and r.json()["code"] == "rate_limited"
    assert int(r.headers["retry-after"]) >= 1
    # the name form from that address: a translated page, with Retry-After too
    r = httpx.post(strict_server.url + "/session", data={"name": "N4"},
                   headers={**far, "Accept": "text/html", "Accept-Language": "es"},
                   timeout=10)
    assert r.status_code == 429 and "Demasiadas creaciones" in r.text
    assert int(r.headers["retry-after"]) >= 1 and "set-cookie" not in r.headers
    # another address, and the machine itself (exempt), are not affected
    other = {"X-Forwarded-For": "203.0.113.8"}
    assert httpx.post(url, json={"name": "M"}, headers=other, timeout=10).status_code == 201
    for i in range(5):
        assert httpx.post(url, json={"name": f"L{i}"}, timeout=10).status_code == 201


def test_table_creation_rate_per_address(strict_server: LiveServer) -> None:
    far = {"X-Forwarded-For": "198.51.100.20"}
    codes = []
    for i in range(3):  # players made from the machine itself, tables from one address
        player = ApiClient(strict_server.url, f"Addr{i}")
        for _ in range(2):
            r = httpx.post(strict_server.url + "/api/tables", timeout=10,
                           json={"game": "hanabi", "seats": 2},
                           headers={**player.headers, **far})
            codes.append(r.status_code)
    assert codes == [201] * 5 + [429]


def test_rate_limiter_refills_and_forgets() -> None:
    now = [0.0]
    limiter = RateLimiter(6, "things", clock=lambda: now[0])  # 6 a minute: one per 10 s
    for _ in range(6):
        limiter.check("k")
    with pytest.raises(RateLimited) as caught:
        limiter.check("k")
    assert caught.value.status == 429 and caught.value.headers == {"Retry-After": "10"}
    now[0] += 10
    limiter.check("k")
    limiter.check("other")
    # full buckets are forgotten when the table of buckets grows
    now[0] += 3600
    limiter._forget_full()
    assert limiter.buckets == {}
    RateLimiter(0, "off").check("k")  # a rate of 0 is no limit


def test_addresses_are_counted_by_host_and_ipv6_by_64() -> None:
    from app.api.limits import _normal_ip

    assert _normal_ip("203.0.113.7") == "203.0.113.7"
    assert _normal_ip("2001:db8:1:2:aaaa::1") == _normal_ip("2001:db8:1:2:bbbb::9") == (
        "2001:db8:1:2::/64")
    assert _normal_ip("2001:db8:1:3::1") != _normal_ip("2001:db8:1:2::1")
    assert _normal_ip("::ffff:203.0.113.7") == "203.0.113.7"
    assert _normal_ip("::1") == "::1"  # the machine itself stays exempt
