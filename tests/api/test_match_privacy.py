"""Private games stay private when they end (issue 47, point 1), against a real server.

Every route that serves a match, its replay, a step's view, its export, its chat or a branch
of it (JSON and pages, taken from the application's own router, so a new match route without
a probe here fails ``test_the_walk_covers_every_match_route``) is walked as a seated player,
a stranger (another player's token), an anonymous client, and the holders of the table's
private link (its spectator key or its invite token, as ``?key=``), for a private and a public
table, finished and still being played. A private table's match answers its players and its
link's holders, and 404 to anyone else with the very body of a match that does not exist
(its existence is not revealed); no list shows it to anyone but its players. An export of a
private match says so, its import stays private (readable by its importer), and a branch of
a private match is private whatever its body asks.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import httpx
import pytest
from fastapi.routing import APIRoute

from app.api.deps import COOKIE, sign
from app.main import _every_route, create_app
from tests.support.client import ApiClient, connect_and_start, seat_players

GAME = "hanabi"
NO_SUCH = "no-such-match-0"
SECRET_KEY = "test-secret"


@dataclass
class Table:
    """A table of the walk: its id, its players, its private link's keys, what its chat
    said (never to be seen by a stranger)."""

    id: str
    players: list[ApiClient]
    watch: str
    invite: str
    secret: str


@dataclass
class World:
    base: str
    stranger: ApiClient
    tables: dict[str, Table]
    http: httpx.Client  # one pooled connection for the walk's many calls


async def _table(base: str, ws_base: str, private: bool, finish: bool, secret: str) -> Table:
    """A hanabi table of two: started, a chat line said and a move made; ended by a
    resignation when ``finish``."""
    players, table, invite = seat_players(base, GAME, 2, private=private)
    clients = await connect_and_start(ws_base, players, table)
    await clients[0].send({"type": "chat", "text": secret})
    mover = next(c for c in clients if c.my_turn())
    await mover.act_until_accepted(mover.state["legal_actions"][0])  # type: ignore[index]
    for c in clients:
        await c.close()
    if finish:
        r = players[1].request("POST", f"/api/tables/{table['id']}/resign")
        assert r.status_code == 200 and r.json()["status"] == "finished", r.text
    watch = table["watch_url"].rsplit("/", 1)[1]
    return Table(table["id"], players, watch, invite, secret)


@pytest.fixture(scope="module")
def world(shared_server) -> Iterator[World]:
    base, ws_base = shared_server.url, shared_server.ws_url

    async def build() -> dict[str, Table]:
        return {
            "private finished": await _table(base, ws_base, True, True, "secreto privado"),
            "public finished": await _table(base, ws_base, False, True, "charla pública"),
            "private live": await _table(base, ws_base, True, False, "secreto en juego"),
            "public live": await _table(base, ws_base, False, False, "charla en juego"),
        }

    with httpx.Client(base_url=base, timeout=20) as http:
        yield World(base, ApiClient(base, "Curiosa"), asyncio.run(build()), http)


# --------------------------------------------------------------------------- the routes

# every route under /api/matches and /matches, and a player's history: how the walk calls
# it ("{id}": the match's id). Reads answer 200 or 404; a branch 201, 401 or 404.
READS = {
    ("GET", "/api/matches/{match_id}"): "/api/matches/{id}",
    ("GET", "/api/matches/{match_id}/replay"): "/api/matches/{id}/replay?seat=all",
    ("GET", "/api/matches/{match_id}/views/{step}"): "/api/matches/{id}/views/1?seat=all",
    ("GET", "/api/matches/{match_id}/export"): "/api/matches/{id}/export",
    ("GET", "/matches/{match_id}"): "/matches/{id}",
}
BRANCH = ("POST", "/api/matches/{match_id}/branch")
# lists: a private match is never among them but for its players (test_lists_...)
LISTS = {("GET", "/api/matches"), ("GET", "/api/players/{player_id}/matches"),
         ("GET", "/players/{player_id}")}
# reads no match: the import's privacy is test_an_export_of_a_private_match_...'s
IMPORT = ("POST", "/api/matches/import")


def match_routes() -> set[tuple[str, str]]:
    """(method, path) of every route the application registers for matches, their pages and
    a player's history."""
    app = create_app("sqlite+aiosqlite:///:memory:", run_migrations=False)
    found = set()
    for route in _every_route(app.router.routes):
        path = getattr(route, "path", "")
        if "matches" not in path and not path.startswith("/players/"):
            continue
        for method in getattr(route, "methods", None) or ():
            if method != "HEAD":
                found.add((method, path))
        assert isinstance(route, APIRoute), path
    return found


def test_the_walk_covers_every_match_route() -> None:
    walked = set(READS) | {BRANCH, IMPORT} | LISTS
    assert match_routes() == walked


# --------------------------------------------------------------------------- who asks


@dataclass
class Caller:
    name: str
    headers: dict[str, str]
    key: str | None
    reader: bool  # may read a private table's match


def browser(player: ApiClient) -> dict[str, str]:
    """The identity cookie the browser of ``player`` holds (signed with the test server's
    secret key, tests/support/server.py)."""
    return {"Cookie": f"{COOKIE}={sign(player.token, SECRET_KEY)}"}


def callers(world: World, table: Table) -> Iterator[Caller]:
    other = world.tables["public finished" if table is not world.tables["public finished"]
                        else "private finished"]
    yield Caller("seated player", table.players[0].headers, None, True)
    yield Caller("the other seated player", table.players[1].headers, None, True)
    yield Caller("a seated player's browser (its cookie)", browser(table.players[1]), None,
                 True)
    yield Caller("stranger", world.stranger.headers, None, False)
    yield Caller("anonymous", {}, None, False)
    yield Caller("stranger with the spectator link", world.stranger.headers, table.watch, True)
    yield Caller("anonymous with the spectator link", {}, table.watch, True)
    yield Caller("anonymous with the invite", {}, table.invite, True)
    yield Caller("stranger with another table's key", world.stranger.headers, other.watch,
                 False)
    yield Caller("anonymous with a made-up key", {}, "0" * 32, False)


def get(world: World, path: str, caller: Caller) -> httpx.Response:
    params = {"key": caller.key} if caller.key else None
    world.http.cookies.clear()  # nobody is who a page's cookie would make them
    return world.http.get(path, headers=caller.headers, params=params)


def not_found_body(world: World, path: str) -> str:
    """What a match that does not exist answers on ``path``."""
    r = world.http.get(path.replace("{id}", NO_SUCH))
    assert r.status_code == 404
    return r.text


@pytest.mark.parametrize("kind", ["private finished", "public finished", "private live",
                                  "public live"])
@pytest.mark.parametrize("route", sorted(READS))
def test_each_read_answers_only_who_may_read(world: World, kind: str,
                                             route: tuple[str, str]) -> None:
    table = world.tables[kind]
    template = READS[route]
    path = template.replace("{id}", table.id)
    missing = not_found_body(world, template)
    for caller in callers(world, table):
        r = get(world, path, caller)
        allowed = kind.endswith("finished") and (kind.startswith("public") or caller.reader)
        if allowed:
            assert r.status_code == 200, (kind, route, caller.name, r.text[:200])
            continue
        # refused as a match that does not exist: the same status, the same body (a page
        # names the address it was asked at: the id), nothing of the table in it
        assert r.status_code == 404, (kind, route, caller.name, r.status_code)
        assert r.text.replace(table.id, NO_SUCH) == missing, (kind, route, caller.name)
        assert table.secret not in r.text


def test_a_reader_gets_the_whole_private_record_and_chat(world: World) -> None:
    table = world.tables["private finished"]
    for caller in callers(world, table):
        if not caller.reader:
            continue
        replay = get(world, f"/api/matches/{table.id}/replay?seat=all", caller).json()
        assert [c["text"] for c in replay["chat"] if c["kind"] != "system"] == [table.secret]
        export = get(world, f"/api/matches/{table.id}/export", caller).json()
        assert export["private"] is True and export["seed"] is not None
        assert [c["text"] for c in export["chat"] if c["kind"] != "system"] == [table.secret]
    public = world.tables["public finished"]
    export = httpx.get(f"{world.base}/api/matches/{public.id}/export", timeout=10).json()
    assert export["private"] is False


def test_the_private_replay_page_passes_its_key_on(world: World) -> None:
    """The page opened by the link: its export link and its own calls carry the key (a
    public match's page carries none)."""
    table = world.tables["private finished"]
    page = httpx.get(f"{world.base}/matches/{table.id}", params={"key": table.watch},
                     timeout=10)
    assert page.status_code == 200 and page.headers["cache-control"] == "no-store"
    assert f'data-key="{table.watch}"' in page.text
    assert f"/api/matches/{table.id}/export?key={table.watch}" in page.text
    seated = httpx.get(f"{world.base}/matches/{table.id}", headers=table.players[0].headers,
                       timeout=10)
    assert seated.status_code == 200 and 'data-key=""' in seated.text
    public = world.tables["public finished"]
    page = httpx.get(f"{world.base}/matches/{public.id}", params={"key": public.watch},
                     timeout=10)
    assert page.status_code == 200 and 'data-key=""' in page.text


def branch(world: World, table: Table, caller: Caller, body: dict[str, Any]
           ) -> httpx.Response:
    params = {"key": caller.key} if caller.key else None
    world.http.cookies.clear()
    # (from the site's own page, as a browser says: a cookie's POST needs its Origin)
    return world.http.post(f"/api/matches/{table.id}/branch", json=body,
                           headers={**caller.headers, "Origin": world.base}, params=params)


@pytest.mark.parametrize("kind", ["private finished", "public finished", "private live",
                                  "public live"])
def test_a_branch_is_for_who_may_read_and_a_private_match_branches_private(
        world: World, kind: str) -> None:
    table = world.tables[kind]
    missing = httpx.post(f"{world.base}/api/matches/{NO_SUCH}/branch", json={"step": 0},
                         headers=world.stranger.headers, timeout=10).json()
    for caller in callers(world, table):
        r = branch(world, table, caller, {"step": 0, "sandbox": True, "private": False})
        if not caller.headers:  # a branch is a new table: it needs a player
            assert r.status_code == 401, (kind, caller.name)
            continue
        allowed = kind.endswith("finished") and (kind.startswith("public") or caller.reader)
        if not allowed:
            assert r.status_code == 404 and r.json() == missing, (kind, caller.name, r.text)
            continue
        assert r.status_code == 201, (kind, caller.name, r.text)
        made = r.json()
        assert made["private"] is kind.startswith("private"), (kind, caller.name)
        deleted = world.http.delete(f"/api/tables/{made['id']}",
                                    headers={**caller.headers, "Origin": world.base})
        assert deleted.status_code == 204


def listed(world: World, path: str, headers: dict[str, str],
           params: dict[str, Any] | None = None) -> str:
    world.http.cookies.clear()
    r = world.http.get(path, headers=headers, params=params)
    assert r.status_code == 200, (path, r.text[:200])
    return r.text


def test_lists_show_a_private_match_to_its_players_only(world: World) -> None:
    private, public = world.tables["private finished"], world.tables["public finished"]
    seated, other = private.players
    outsiders = {"stranger": world.stranger.headers, "anonymous": {},
                 "a player of another table": public.players[0].headers}
    insiders = {"seated player": seated.headers, "the other seated player": other.headers,
                "a seated player's browser": browser(seated)}
    lists = [("/api/matches", {"limit": 200}),
             ("/api/matches", {"limit": 200, "game": GAME}),
             ("/api/matches", {"limit": 200, "player": seated.id}),
             ("/api/matches", {"limit": 200, "player": other.id}),
             (f"/api/players/{seated.id}/matches", {"limit": 200}),
             (f"/api/players/{other.id}/matches", {"limit": 200}),
             (f"/players/{seated.id}", None), (f"/players/{other.id}", None)]
    for path, params in lists:
        for who, headers in outsiders.items():
            text = listed(world, path, headers, params)
            assert private.id not in text and private.secret not in text, (path, params, who)
        for who, headers in insiders.items():
            assert private.id in listed(world, path, headers, params), (path, params, who)
    for who, headers in {**outsiders, **insiders}.items():
        assert public.id in listed(world, "/api/matches", headers, {"limit": 200}), who
        text = listed(world, f"/api/players/{public.players[0].id}/matches", headers)
        assert public.id in text, who


def _finish_branch(world: World, player: ApiClient, match_id: str,
                   body: dict[str, Any]) -> dict[str, Any]:
    """A hot-seat branch of ``match_id`` at step 0, played to its end (a resignation)."""
    r = player.request("POST", f"/api/matches/{match_id}/branch",
                       json={"step": 0, "sandbox": True, **body})
    assert r.status_code == 201, r.text
    made = r.json()
    assert player.start(made["id"]).status_code == 200
    assert player.request("POST", f"/api/tables/{made['id']}/resign").status_code == 200
    return made


def assert_private(world: World, match_id: str, reader: ApiClient, secret: str | None) -> None:
    """Every read of ``match_id`` answers ``reader`` and is 404 to a stranger and anonymous;
    no list shows it to them."""
    for template in READS.values():
        path = template.replace("{id}", match_id)
        assert world.http.get(path, headers=reader.headers).status_code == 200, path
        for headers in (world.stranger.headers, {}):
            world.http.cookies.clear()
            r = world.http.get(path, headers=headers)
            assert r.status_code == 404, (path, r.status_code)
            assert secret is None or secret not in r.text
    for kind in ("games", "branches"):
        for headers in (world.stranger.headers, {}):
            text = listed(world, "/api/matches", headers, {"limit": 200, "kind": kind})
            assert match_id not in text
    assert match_id in listed(world, "/api/matches", reader.headers,
                              {"limit": 200, "kind": "games"}) + listed(
        world, "/api/matches", reader.headers, {"limit": 200, "kind": "branches"})


def test_a_branch_of_a_private_match_is_private_when_it_ends(world: World) -> None:
    table = world.tables["private finished"]
    made = _finish_branch(world, table.players[0], table.id, {"private": False})
    assert made["private"] is True
    assert_private(world, made["id"], table.players[0], None)


def test_an_export_of_a_private_match_imports_and_branches_private(world: World) -> None:
    table = world.tables["private finished"]
    record = table.players[0].request("GET", f"/api/matches/{table.id}/export").json()
    assert record["private"] is True
    importer = ApiClient(world.base, "Archivo")
    r = importer.request("POST", "/api/matches/import", json=record)
    assert r.status_code == 201, r.text
    imported = r.json()["id"]
    assert_private(world, imported, importer, table.secret)
    # its branch (the body asks for a public table) is private too, and so stays when over
    made = _finish_branch(world, importer, imported, {"private": False})
    assert made["private"] is True
    assert_private(world, made["id"], importer, None)
    # a stranger may not play on from the import either: as if there were no such match
    refused = world.stranger.request("POST", f"/api/matches/{imported}/branch",
                                     json={"step": 0, "sandbox": True})
    assert refused.status_code == 404 and refused.json()["code"] == "not_found"
    # a file that does not say (one exported before it did) is imported private
    del record["private"]
    r = importer.request("POST", "/api/matches/import", json=record)
    assert r.status_code == 201, r.text
    assert_private(world, r.json()["id"], importer, table.secret)


def test_an_export_of_a_public_match_imports_public(world: World) -> None:
    table = world.tables["public finished"]
    record = httpx.get(f"{world.base}/api/matches/{table.id}/export", timeout=10).json()
    importer = ApiClient(world.base, "Archivo")
    r = importer.request("POST", "/api/matches/import", json=record)
    assert r.status_code == 201, r.text
    for template in READS.values():
        path = template.replace("{id}", r.json()["id"])
        assert httpx.get(world.base + path, timeout=20).status_code == 200, path
    assert r.json()["id"] in listed(world, "/api/matches", {}, {"limit": 200})
