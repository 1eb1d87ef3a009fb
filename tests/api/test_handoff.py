"""Continue on another device: a hand-off link carries a player's identity to a second device
once, within minutes; the first device stays signed in; a forged, altered, used or expired
link gets a clear page and never an identity (app/api/handoff.py, app/api/room.py)."""

from __future__ import annotations

import asyncio
import base64
from datetime import timedelta

import httpx
import pytest

from app.api import handoff
from app.db.repository import Repository, now
from app.db.session import make_engine, make_sessionmaker
from tests.support.client import ApiClient
from tests.support.qr import decode_svg

KEY = "test-secret"  # the live server's secret (tests/support/server.py)


@pytest.fixture
def base(shared_server) -> str:
    return shared_server.url


def _same_site(base: str) -> dict[str, str]:
    return {"Origin": base, "Accept": "text/html"}


def _new_link(player: ApiClient, next_path: str = "/") -> dict:
    r = player.request("POST", "/api/handoff", json={"next": next_path})
    assert r.status_code == 201, r.text
    return r.json()


# --------------------------------------------------------------------------- the signed code


def test_a_code_reads_back_only_unaltered_and_in_time() -> None:
    at = now()
    expires = int(at.timestamp()) + 300
    code = handoff.make_code(KEY, "nonce-abc", expires)
    assert handoff.read_code(KEY, code, at) == ("nonce-abc", expires)
    nonce, stamp, mac = code.split(".")
    flipped = mac[:-1] + ("0" if mac[-1] != "0" else "1")
    for forged in (f"{nonce}.{stamp}.{flipped}",  # the signature altered
                   f"{nonce}.{expires + 3600}.{mac}",  # a later expiry, same signature
                   f"other.{stamp}.{mac}",  # another nonce
                   handoff.make_code("another-key", nonce, expires),  # signed by someone else
                   "garbage", "", "a.b.c", f"{nonce}..{mac}"):
        with pytest.raises(handoff.HandoffRefused) as refused:
            handoff.read_code(KEY, forged, at)
        assert refused.value.reason == "forged"
    with pytest.raises(handoff.HandoffRefused) as refused:
        handoff.read_code(KEY, code, at + timedelta(seconds=301))
    assert refused.value.reason == "expired"


def test_the_stored_row_holds_neither_the_link_nor_the_token() -> None:
    token = "t0ken-" + "x" * 40
    sealed = handoff.seal(KEY, "nonce-abc", token)
    assert token not in sealed and token.encode() not in base64.urlsafe_b64decode(sealed)
    assert handoff.unseal(KEY, "nonce-abc", sealed) == token
    assert handoff.unseal(KEY, "nonce-abd", sealed) != token  # the link's nonce is needed
    assert handoff.unseal("other-key", "nonce-abc", sealed) != token  # and the server's key
    assert "nonce-abc" not in handoff.row_id("nonce-abc")


async def test_expiry_and_single_use_in_storage(tmp_path) -> None:
    from app.db.session import migrate

    url = f"sqlite+aiosqlite:///{tmp_path / 'h.db'}"
    await asyncio.to_thread(migrate, url)
    engine = make_engine(url)
    repo = Repository(make_sessionmaker(engine))
    try:
        player = await repo.create_player("p1", "Ana", "token-ana")
        at = now()
        made = await handoff.create(repo, KEY, player.id, "token-ana", "/tables/x", at)
        assert made is not None
        # in time: claimed once, then never again
        row, token = await handoff.redeem(repo, KEY, made.code, at + timedelta(seconds=10))
        assert token == "token-ana" and row.next_path == "/tables/x"
        with pytest.raises(handoff.HandoffRefused) as refused:
            await handoff.redeem(repo, KEY, made.code, at + timedelta(seconds=11))
        assert refused.value.reason == "used"
        # too late: refused, and still claimable by nobody
        late = await handoff.create(repo, KEY, player.id, "token-ana", "/", at)
        assert late is not None
        with pytest.raises(handoff.HandoffRefused) as refused:
            await handoff.redeem(repo, KEY, late.code,
                                 at + timedelta(seconds=handoff.HANDOFF_SECONDS))
        assert refused.value.reason == "expired"
        # two devices at once: exactly one gets it
        raced = await handoff.create(repo, KEY, player.id, "token-ana", "/", at)
        assert raced is not None
        results = await asyncio.gather(
            *(handoff.redeem(repo, KEY, raced.code, at + timedelta(seconds=1)) for _ in range(4)),
            return_exceptions=True)
        assert sum(not isinstance(r, Exception) for r in results) == 1
        assert all(r.reason == "used" for r in results if isinstance(r, handoff.HandoffRefused))
    finally:
        await repo.close()
        await engine.dispose()


# --------------------------------------------------------------------------- through the server


def test_a_link_signs_the_second_device_in_once_and_the_first_stays(base: str) -> None:
    ana = ApiClient(base, "Ana")
    made = _new_link(ana, "/tables/abc")
    assert made["url"].startswith(base + "/handoff/") and 0 < made["expires_in"] <= 300
    # the QR code holds exactly the link
    svg = base64.b64decode(made["qr"].removeprefix("data:image/svg+xml;base64,")).decode()
    assert decode_svg(svg) == made["url"]
    path = made["url"].removeprefix(base)

    with httpx.Client(base_url=base) as phone:
        page = phone.get(path)  # what a link previewer would fetch: nothing is claimed
        assert page.status_code == 200 and "Ana" in page.text
        assert "ludoteca_player" not in page.cookies
        assert phone.get(path).status_code == 200
        claimed = phone.post(path, headers=_same_site(base))
        assert claimed.status_code == 303 and claimed.headers["location"] == "/tables/abc"
        assert phone.cookies.get("ludoteca_player")
        me = phone.get("/api/players/me").json()
        assert me["id"] == ana.id and me["name"] == "Ana"
    # the first device is still signed in
    assert ana.request("GET", "/api/players/me").json()["id"] == ana.id

    # once only: a third device gets a clear page and no identity
    with httpx.Client(base_url=base) as other:
        for response in (other.get(path, headers={"Accept": "text/html"}),
                         other.post(path, headers=_same_site(base))):
            assert response.status_code == 410
            assert 'id="page-error"' in response.text and "ludoteca_player" not in response.cookies
        assert other.get("/api/players/me").status_code == 401


def test_forged_and_altered_links_get_a_clear_page_and_no_identity(base: str) -> None:
    ana = ApiClient(base, "Ana")
    path = _new_link(ana)["url"].removeprefix(base)
    nonce, stamp, mac = path.removeprefix("/handoff/").split(".")
    forged = [f"/handoff/{nonce}.{stamp}.{'0' * len(mac)}",
              f"/handoff/{nonce}.{int(stamp) + 600}.{mac}",
              f"/handoff/{nonce[:-2]}xy.{stamp}.{mac}",
              "/handoff/" + handoff.make_code("not-the-server-key", nonce, int(stamp)),
              "/handoff/nothing-at-all"]
    with httpx.Client(base_url=base, headers={"Accept-Language": "en"}) as phone:
        for bad in forged:
            for response in (phone.get(bad, headers={"Accept": "text/html"}),
                             phone.post(bad, headers=_same_site(base))):
                assert response.status_code == 404, bad
                assert "This link is not valid" in response.text
                assert "ludoteca_player" not in response.cookies
        assert phone.get("/api/players/me").status_code == 401
        # the real link still works after all that
        assert phone.post(path, headers=_same_site(base)).status_code == 303
        assert phone.get("/api/players/me").json()["id"] == ana.id


async def test_an_expired_link_gets_a_clear_page(shared_server) -> None:
    base = shared_server.url
    ana = ApiClient(base, "Ana")
    engine = make_engine(shared_server.database_url)
    repo = Repository(make_sessionmaker(engine))
    try:  # a link made six minutes ago, in the server's own database
        made = await handoff.create(repo, KEY, ana.id, ana.token, "/",
                                    now() - timedelta(seconds=handoff.HANDOFF_SECONDS + 60))
    finally:
        await repo.close()
        await engine.dispose()
    assert made is not None
    async with httpx.AsyncClient(base_url=base, headers={"Accept-Language": "en"}) as phone:
        for response in (await phone.get(f"/handoff/{made.code}", headers={"Accept": "text/html"}),
                         await phone.post(f"/handoff/{made.code}", headers=_same_site(base))):
            assert response.status_code == 410
            assert "This link has expired" in response.text
            assert "ludoteca_player" not in response.cookies


def test_making_links_needs_an_identity_and_has_a_limit(base: str) -> None:
    assert httpx.post(f"{base}/api/handoff", json={}).status_code == 401
    ana = ApiClient(base, "Ana")
    for _ in range(handoff.LIVE_LIMIT):
        _new_link(ana)
    refused = ana.request("POST", "/api/handoff", json={})
    assert refused.status_code == 429 and refused.json()["code"] == "rate_limited"
    # another site cannot make one with the browser's cookie
    with httpx.Client(base_url=base) as browser:
        browser.post("/session", data={"name": "Bea", "next": "/"}, headers={"Origin": base})
        assert browser.post("/api/handoff", json={}, headers={"Origin": "https://evil.example"}
                            ).status_code == 403
        assert browser.post("/api/handoff", json={}, headers={"Origin": base}).status_code == 201


def test_the_landing_place_stays_on_this_site(base: str) -> None:
    ana = ApiClient(base, "Ana")
    for target in ("https://evil.example/", "//evil.example", "/\\evil.example"):
        path = _new_link(ana, target)["url"].removeprefix(base)
        with httpx.Client(base_url=base) as phone:
            claimed = phone.post(path, headers=_same_site(base))
            assert claimed.status_code == 303 and claimed.headers["location"] == "/"
