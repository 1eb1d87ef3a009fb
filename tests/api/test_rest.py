"""The REST contract: players, catalogue, tables (create/list/get/join/leave/start/delete),
matches, errors, OpenAPI, pages and the browser identity cookie."""

from __future__ import annotations

import httpx
import pytest

from tests.support.client import ApiClient


@pytest.fixture
def base(shared_server) -> str:
    return shared_server.url


def test_create_player_returns_a_token(base: str) -> None:
    r = httpx.post(f"{base}/api/players", json={"name": "  Ana   María "})
    assert r.status_code == 201
    body = r.json()
    assert body["name"] == "Ana María" and len(body["token"]) >= 32 and body["id"]
    me = httpx.get(f"{base}/api/players/me", headers={"Authorization": f"Bearer {body['token']}"})
    assert me.json() == {"id": body["id"], "name": "Ana María", "bot": False}


def test_a_rename_is_what_the_next_call_sees(base: str) -> None:
    # the server remembers bearer tokens: a new name must still be seen at once, by every
    # call that names the player (me, a table they join)
    body = httpx.post(f"{base}/api/players", json={"name": "Ana"}).json()
    auth = {"Authorization": f"Bearer {body['token']}"}
    assert httpx.get(f"{base}/api/players/me", headers=auth).json()["name"] == "Ana"
    assert httpx.patch(f"{base}/api/players/me", headers=auth,
                       json={"name": "Bea"}).status_code == 200
    assert httpx.get(f"{base}/api/players/me", headers=auth).json()["name"] == "Bea"
    host = ApiClient(base, "Host")
    table = host.create_table("hanabi", 2)
    joined = httpx.post(f"{base}/api/tables/{table['id']}/join", headers=auth, json={})
    assert joined.status_code == 200
    names = [s["player"]["name"] for s in joined.json()["table"]["seats"] if s["player"]]
    assert names == ["Host", "Bea"]
    # a token nobody holds stays refused, however often it is tried
    for _ in range(2):
        bad = httpx.get(f"{base}/api/players/me", headers={"Authorization": "Bearer nope"})
        assert bad.status_code == 401 and bad.json()["code"] == "bad_token"


@pytest.mark.parametrize("payload", [{}, {"name": ""}, {"name": "x" * 33}, {"name": "a\x00b"},
                                     {"name": "ok", "extra": 1}, [1, 2]])
def test_bad_player_bodies_are_rejected(base: str, payload) -> None:
    r = httpx.post(f"{base}/api/players", json=payload)
    assert r.status_code == 422
    assert r.json()["code"] == "bad_request" and r.json()["message"]


def test_malformed_json_is_a_clear_error(base: str) -> None:
    r = httpx.post(f"{base}/api/players", content=b"{nope",
                   headers={"Content-Type": "application/json"})
    assert r.status_code == 422 and r.json()["code"] == "bad_request"
    # what is wrong and where, not FastAPI's "1: JSON decode error"
    message = r.json()["message"]
    assert message.startswith("body: not valid JSON (") and "at character 1" in message, message
    r = httpx.post(f"{base}/api/players", content=b'{"name": "Ana",}',
                   headers={"Content-Type": "application/json"})
    assert r.status_code == 422 and "at character 15" in r.json()["message"], r.text


def test_catalogue_lists_hanabi_with_its_options(base: str) -> None:
    games = {g["id"]: g for g in httpx.get(f"{base}/api/games").json()}
    hanabi = games["hanabi"]
    assert (hanabi["min_players"], hanabi["max_players"]) == (2, 5)
    options = {o["name"]: o for o in hanabi["options"]}
    assert options["multicolor"] == {"name": "multicolor", "type": "bool", "default": False}
    assert options["fuses"]["choices"] == [3, 1] and options["clue_tokens"]["choices"] == [8, 10]
    assert options["empty_clues"]["default"] is True
    assert options["turn_seconds"]["default"] == 0


def test_table_lifecycle(base: str) -> None:
    host, guest, third = (ApiClient(base, n) for n in ("Host", "Guest", "Third"))
    table = host.create_table("hanabi", 2, {"fuses": 1})
    assert table["status"] == "waiting" and table["host"]["id"] == host.id
    assert table["options"]["fuses"] == 1 and table["options"]["multicolor"] is False
    assert table["seats"][0]["player"]["id"] == host.id and table["seats"][1]["player"] is None
    assert table["invite_url"].startswith(base + "/join/")
    assert "seed" not in table
    listed = [t["id"] for t in httpx.get(f"{base}/api/tables").json()]
    assert table["id"] in listed
    assert httpx.get(f"{base}/api/tables/{table['id']}").json()["id"] == table["id"]

    # only the host starts, and only with every seat taken
    assert guest.start(table["id"]).status_code == 403
    r = host.start(table["id"])
    assert r.status_code == 409 and r.json()["code"] == "not_full"
    r = guest.join(table["id"], seat=5)
    assert r.status_code == 400 and r.json()["code"] == "bad_seat"
    r = guest.join(table["id"], seat=0)
    assert r.status_code == 409 and r.json()["code"] == "seat_taken"
    joined = guest.join(table["id"])
    assert joined.status_code == 200 and joined.json()["seat"] == 1
    assert guest.join(table["id"]).json()["seat"] == 1  # joining twice is harmless
    r = third.join(table["id"])
    assert r.status_code == 409 and r.json()["code"] == "table_full"
    # leaving frees the seat; someone else may take it
    assert guest.request("POST", f"/api/tables/{table['id']}/leave").status_code == 200
    assert third.join(table["id"]).json()["seat"] == 1
    # a non-host cannot delete
    assert third.request("DELETE", f"/api/tables/{table['id']}").status_code == 403
    started = host.start(table["id"])
    assert started.status_code == 200 and started.json()["status"] == "playing"
    r = guest.join(table["id"])
    assert r.status_code == 409 and r.json()["code"] == "game_started"
    r = third.request("POST", f"/api/tables/{table['id']}/leave")
    assert r.status_code == 409
    r = host.request("DELETE", f"/api/tables/{table['id']}")
    assert r.status_code == 409


def test_host_leaving_passes_the_host_and_last_one_out_deletes(base: str) -> None:
    host, guest = ApiClient(base, "H"), ApiClient(base, "G")
    table = host.create_table("hanabi", 3)
    guest.join(table["id"])
    after = host.request("POST", f"/api/tables/{table['id']}/leave").json()
    assert after["host"]["id"] == guest.id
    r = guest.request("POST", f"/api/tables/{table['id']}/leave")
    assert r.status_code == 200 and r.json() is None
    assert httpx.get(f"{base}/api/tables/{table['id']}").status_code == 404


def test_delete_before_start(base: str) -> None:
    host = ApiClient(base, "H")
    table = host.create_table("hanabi", 2)
    assert host.request("DELETE", f"/api/tables/{table['id']}").status_code == 204
    r = httpx.get(f"{base}/api/tables/{table['id']}")
    assert r.status_code == 404 and r.json()["code"] == "not_found"


@pytest.mark.parametrize(("body", "code"), [
    ({"game": "chess", "seats": 2}, "unknown_game"),
    ({"game": "hanabi", "seats": 1}, "bad_options"),
    ({"game": "hanabi", "seats": 6}, "bad_options"),
    ({"game": "hanabi", "seats": 2, "options": {"fuses": 2}}, "bad_options"),
    ({"game": "hanabi", "seats": 2, "options": {"multicolor": "yes"}}, "bad_options"),
    ({"game": "hanabi", "seats": 2, "options": {"bogus": 1}}, "bad_options"),
    # who starts is offered up to the game's largest table: a seat past this one's last
    ({"game": "hanabi", "seats": 2, "options": {"first_seat": 2}}, "bad_options"),
    ({"game": "allegra", "seats": 3, "options": {"first_seat": 5}}, "bad_options"),
    ({"game": "hanabi", "seats": 2, "options": {"turn_seconds": -1}}, "bad_options"),
    ({"game": "hanabi", "seats": "two"}, "bad_request"),
])
def test_bad_tables_are_rejected(base: str, body: dict, code: str) -> None:
    host = ApiClient(base, "H")
    r = host.request("POST", "/api/tables", json=body)
    assert r.status_code == 422 and r.json()["code"] == code, r.text


def test_authentication_is_required_and_checked(base: str) -> None:
    r = httpx.post(f"{base}/api/tables", json={"game": "hanabi", "seats": 2})
    assert r.status_code == 401 and r.json()["code"] == "unauthenticated"
    r = httpx.post(f"{base}/api/tables", json={"game": "hanabi", "seats": 2},
                   headers={"Authorization": "Bearer forged"})
    assert r.status_code == 401 and r.json()["code"] == "bad_token"


def test_private_tables_need_the_invite(base: str) -> None:
    host, guest = ApiClient(base, "H"), ApiClient(base, "G")
    table = host.create_table("hanabi", 2, private=True)
    assert table["id"] not in [t["id"] for t in httpx.get(f"{base}/api/tables").json()]
    # strangers see the table but not its invite link
    assert httpx.get(f"{base}/api/tables/{table['id']}").json()["invite_url"] is None
    assert guest.join(table["id"], invite="wrong").status_code == 403
    invite = table["invite_url"].rsplit("/", 1)[1]
    assert guest.join(table["id"], invite=invite).status_code == 200


def test_unknown_table_and_match(base: str) -> None:
    for path in ("/api/tables/nope", "/api/matches/nope"):
        r = httpx.get(base + path)
        assert r.status_code == 404 and r.json()["code"] == "not_found"


def test_the_busiest_routes_answer_and_refuse_as_documented(base: str) -> None:
    """A table's read, join, delete, and every other method on their paths: the answers
    and clear errors the API documents (formerly checked of the route copies the lobby's
    routes had in front of the router, now the routers' own order)."""
    with httpx.Client(base_url=base, timeout=10) as client:
        token = client.post("/api/players", json={"name": "Ana"}).json()["token"]
        auth = {"Authorization": f"Bearer {token}"}
        table = client.post("/api/tables", headers=auth,
                            json={"game": "hanabi", "seats": 2})
        assert table.status_code == 201
        tid = table.json()["id"]
        assert client.get(f"/api/tables/{tid}", headers=auth).json()["id"] == tid
        # another method on a path: a 405 whose Allow header names the methods the path's
        # routes answer (those of every router), each once
        for method, path, allow in (("PUT", f"/api/tables/{tid}", "DELETE, GET"),
                                    ("GET", f"/api/tables/{tid}/join", "POST"),
                                    ("PUT", "/api/tables", "GET, POST"),
                                    ("PUT", "/api/matches/import", "POST"),
                                    ("PUT", "/api/matches/some-id", "GET"),
                                    ("PUT", "/openapi.json", "GET, HEAD")):
            r = client.request(method, path, headers=auth)
            assert r.status_code == 405 and r.json()["code"] == "method_not_allowed"
            assert r.headers["allow"] == allow, (method, path)
        # a missing token, a bad body and an unknown table: the usual clear errors
        assert client.post(f"/api/tables/{tid}/join").json()["code"] == "unauthenticated"
        r = client.post(f"/api/tables/{tid}/join", headers={**auth, "Content-Type":
                        "application/json"}, content=b"{")
        assert r.status_code == 422 and r.json()["code"] == "bad_request"
        assert client.get("/api/tables/nope", headers=auth).status_code == 404
        assert client.delete(f"/api/tables/{tid}", headers=auth).status_code == 204
        assert client.get(f"/api/tables/{tid}", headers=auth).status_code == 404


def test_openapi_documents_the_contract(base: str) -> None:
    schema = httpx.get(f"{base}/openapi.json").json()
    paths = schema["paths"]
    for path in ("/api/players", "/api/games", "/api/tables", "/api/tables/{table_id}",
                 "/api/tables/{table_id}/join", "/api/tables/{table_id}/leave",
                 "/api/tables/{table_id}/start", "/api/matches", "/api/matches/{match_id}",
                 "/api/tables/{table_id}/resign", "/api/tables/{table_id}/votes",
                 "/api/tables/{table_id}/votes/{vote_id}", "/api/tables/{table_id}/rematch",
                 "/api/matches/{match_id}/replay", "/api/matches/{match_id}/views/{step}",
                 "/api/matches/{match_id}/export", "/api/matches/import",
                 "/api/players/{player_id}", "/api/players/{player_id}/matches",
                 "/api/matches/{match_id}/branch", "/api/tables/{table_id}/hot-seat",
                 "/api/tables/{table_id}/hot-seat/bots"):
        assert path in paths, path
    body = paths["/api/matches/import"]["post"]["requestBody"]["content"]["application/json"]
    assert body["schema"]["$ref"] == "#/components/schemas/MatchFile"
    assert "MatchFile" in schema["components"]["schemas"]
    for message in ("chat", "clock", "vote", "rematch", "table_expired"):
        assert message in schema["info"]["description"]
    assert "delete" in paths["/api/tables/{table_id}"]
    branch = paths["/api/matches/{match_id}/branch"]["post"]
    assert set(branch["responses"]) >= {"201", "400", "401", "404", "409", "422"}
    assert "BranchIn" in schema["components"]["schemas"]
    assert httpx.get(f"{base}/docs").status_code == 200


def test_browser_identity_cookie_and_pages(base: str) -> None:
    with httpx.Client(base_url=base, follow_redirects=False) as browser:
        lobby = browser.get("/", headers={"Accept-Language": "es"})
        assert lobby.status_code == 200 and "¿Cómo te llamas?" in lobby.text
        r = browser.post("/session", data={"name": "Lucía", "next": "//evil.example/"})
        assert r.status_code == 303 and r.headers["location"] == "/"
        cookie = browser.cookies.get("ludoteca_player")
        assert cookie and "." in cookie
        assert browser.get("/api/players/me").json()["name"] == "Lucía"
        page = browser.get("/")
        assert "Hola, Lucía" in page.text
        # a tampered cookie is refused
        browser.cookies.set("ludoteca_player", cookie[:-2] + "xx")
        assert browser.get("/api/players/me").status_code == 401
        english = browser.get("/lang/en?next=/")
        assert english.status_code == 303
        browser.cookies.delete("ludoteca_player")
        assert "What’s your name?" in browser.get("/").text
        assert browser.get("/rules/hanabi").status_code == 200
        assert browser.get("/join/not-a-token").status_code == 404
