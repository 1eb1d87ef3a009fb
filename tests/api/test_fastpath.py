"""The busiest table routes matched first (app/api/fastpath.py): the same OpenAPI document,
the same route and handler answering, and a route placed before them refused."""

from __future__ import annotations

import json
import re

import httpx
import pytest
from fastapi import FastAPI, Response
from fastapi.routing import APIRoute
from starlette.routing import Match

from app.api import fastpath
from app.main import create_app


@pytest.fixture
def apps(tmp_path, monkeypatch) -> tuple[FastAPI, FastAPI]:
    """The application, and the same without the copies in front."""
    monkeypatch.setenv("LUDOTECA_DATA_DIR", str(tmp_path / "data"))
    url = f"sqlite+aiosqlite:///{tmp_path / 'f.db'}"
    fast = create_app(url, run_migrations=False)
    with monkeypatch.context() as patched:
        patched.setattr(fastpath, "add", lambda app: None)
        plain = create_app(url, run_migrations=False)
    return fast, plain


def test_the_openapi_document_is_unchanged(apps) -> None:
    fast, plain = apps
    # (with the FastAPI installed, every copy is in front: a release that lays its routes
    # out otherwise fails here, in the suite, before any server goes without them)
    assert len(fast.router.routes) == len(plain.router.routes) + len(fastpath.HOT)
    assert json.dumps(fast.openapi()).encode() == json.dumps(plain.openapi()).encode()


@pytest.mark.parametrize("layout", ["renamed", "missing"])
async def test_a_fastapi_laid_out_otherwise_starts_without_the_copies(tmp_path, monkeypatch,
                                                                       caplog, layout) -> None:
    """A later FastAPI may keep an included router otherwise (0.16x's ``effective_candidates``
    renamed), or name a route otherwise: the server starts, answers as ever through FastAPI's
    own matching, and says in its log why the busiest routes are not matched first. It
    stopped at start-up (AttributeError or StopIteration out of ``add``)."""
    from fastapi.routing import _IncludedRouter  # the 0.16x layout the copies read

    monkeypatch.setenv("LUDOTECA_DATA_DIR", str(tmp_path / "data"))
    with monkeypatch.context() as patched:
        patched.setattr(fastpath, "add", lambda app: None)
        app = create_app(f"sqlite+aiosqlite:///{tmp_path / 'f.db'}", run_migrations=True)
    plain = len(app.router.routes)
    with monkeypatch.context() as patched, caplog.at_level("WARNING", "app.api.fastpath"):
        if layout == "renamed":
            patched.delattr(_IncludedRouter, "effective_candidates")
        else:
            patched.setattr(fastpath, "HOT", (*fastpath.HOT, ("GET", "/api/nowhere")))
        fastpath.add(app)
    assert len(app.router.routes) == plain  # nothing put in front
    assert not any(fastpath.is_twin(r) for r in app.router.routes)
    said = " ".join(r.getMessage() for r in caplog.records)
    assert "matched the usual way" in said, said
    async with app.router.lifespan_context(app), httpx.AsyncClient(
            transport=httpx.ASGITransport(app=app), base_url="http://test") as client:
        assert (await client.get("/api/games")).status_code == 200
        made = await client.post("/api/players", json={"name": "Ana"})
        assert made.status_code == 201, made.text
        token = made.json()["token"]
        table = await client.post("/api/tables", json={"game": "hanabi", "seats": 2},
                                  headers={"Authorization": f"Bearer {token}"})
        assert table.status_code == 201, table.text
        assert (await client.get(f"/api/tables/{table.json()['id']}")).status_code == 200




def scope(method: str, path: str) -> dict:
    return {"type": "http", "method": method, "path": path, "root_path": "", "headers": [],
            "query_string": b""}


@pytest.mark.parametrize(("method", "path"), fastpath.HOT)
def test_each_copy_answers_with_the_original_routes_own_handler(apps, method, path) -> None:
    fast, plain = apps
    request = scope(method, path.replace("{table_id}", "abc"))
    first = fast.router.routes[fastpath.HOT.index((method, path))]
    match, child = first.matches(dict(request))
    assert match is Match.FULL and child["route"] is first and child["path_params"] == (
        {"table_id": "abc"} if "{table_id}" in path else {})
    assert first.path == path and method in first.methods and not first.include_in_schema
    # the handler is the one the application runs for the original route
    original, handler = next(
        (r, app) for r, app in fastpath._flat(fast.router.routes[len(fastpath.HOT):])
        if getattr(r, "path", None) == path and method in r.methods)
    assert first is not original and first.endpoint is original.endpoint
    assert handler is not None and first.fallback is handler
    assert first.dependant is original.dependant


def test_answers_and_refusals_are_the_same(shared_server) -> None:
    with httpx.Client(base_url=shared_server.url, timeout=10) as client:
        token = client.post("/api/players", json={"name": "Ana"}).json()["token"]
        auth = {"Authorization": f"Bearer {token}"}
        table = client.post("/api/tables", headers=auth,
                            json={"game": "hanabi", "seats": 2})
        assert table.status_code == 201
        tid = table.json()["id"]
        assert client.get(f"/api/tables/{tid}", headers=auth).json()["id"] == tid
        # another method on a copied path: a 405 whose Allow header names the methods the
        # path's routes answer (those of included routers too), each once, copies not counted
        for method, path, allow in (("PUT", f"/api/tables/{tid}", "DELETE, GET"),
                                    ("GET", f"/api/tables/{tid}/join", "POST"),
                                    ("PUT", "/api/tables", "GET, POST"),
                                    ("PUT", "/api/matches/import", "POST"),
                                    ("PUT", "/api/matches/some-id", "GET")):
            r = client.request(method, path, headers=auth)
            assert r.status_code == 405 and r.json()["code"] == "method_not_allowed"
            assert r.headers["allow"] == allow, (method, path)
        # a missing token, a bad body and an unknown table: the usual clear errors
        assert client.post(f"/api/tables/{tid}/join").json()["code"] == "unauthenticated"
        r = client.post(f"/api/tables/{tid}/join", headers={**auth, "Content-Type":
                        "application/json"}, content=b"{")
        assert r.status_code == 422 and r.json()["code"] == "bad_request"
        assert client.get("/api/tables/nope", headers=auth).status_code == 404
        # the other methods of the lobby's paths are untouched
        assert client.delete(f"/api/tables/{tid}", headers=auth).status_code == 204
        assert client.get(f"/api/tables/{tid}", headers=auth).status_code == 404


def test_a_route_that_would_take_a_copys_requests_first_is_refused(tmp_path,
                                                                  monkeypatch) -> None:
    monkeypatch.setenv("LUDOTECA_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setattr(fastpath, "add", lambda app: None)
    app = create_app(f"sqlite+aiosqlite:///{tmp_path / 'f.db'}", run_migrations=False)

    async def shadow() -> dict:
        return {}

    app.add_api_route("/api/tables/{anything}", shadow, methods=["GET"])
    app.router.routes.insert(0, app.router.routes.pop())  # before the lobby's
    monkeypatch.undo()
    with pytest.raises(RuntimeError, match="takes its requests"):
        fastpath.add(app)


def test_another_methods_route_of_the_same_path_before_is_let_be(tmp_path,
                                                                monkeypatch) -> None:
    """POST /api/tables comes before GET /api/tables: it matches a GET only by path, never
    takes it, and does not stop the copy; a GET route taking that path placed first does."""
    monkeypatch.setenv("LUDOTECA_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setattr(fastpath, "add", lambda app: None)
    app = create_app(f"sqlite+aiosqlite:///{tmp_path / 'f.db'}", run_migrations=False)
    monkeypatch.undo()

    async def shadow() -> dict:
        return {}

    app.add_api_route("/api/games", shadow, methods=["POST"])
    app.router.routes.insert(0, app.router.routes.pop())
    fastpath.add(app)  # let be: another method
    assert fastpath.is_twin(app.router.routes[fastpath.HOT.index(("GET", "/api/games"))])
    again = create_app(f"sqlite+aiosqlite:///{tmp_path / 'g.db'}", run_migrations=False)
    again.router.routes[:] = [r for r in again.router.routes if not fastpath.is_twin(r)]
    again.add_api_route("/api/{section}", shadow, methods=["GET"])  # takes GET /api/games
    again.router.routes.insert(0, again.router.routes.pop())
    with pytest.raises(RuntimeError, match="a route before .* takes its requests"):
        fastpath.add(again)


# ------------------------------------------------------- the endpoints called directly

def _normalised(text: str, known: dict[str, str]) -> str:
    """An answer with what differs between two servers (ids, tokens, keys, times) cut."""
    for value, name in known.items():
        text = text.replace(value, name)
    text = re.sub(r"\d{4}-\d\d-\d\dT[0-9:.+]+", "TIME", text)
    # seconds since a seat's player left, to the tenth: the two servers' clocks run apart
    text = re.sub(r'"away_for":[0-9.]+', '"away_for":SECONDS', text)
    text = re.sub(r"[0-9a-f]{32}", "KEY", text)
    text = re.sub(r"[A-Za-z0-9_-]{40,}", "TOKEN", text)
    return re.sub(r"[0-9a-f]{16}", "ID", text)


async def _script(app: FastAPI) -> list[tuple[str, int, str]]:
    """Every copied route asked the usual way and every wrong way we know of; each answer's
    status and normalised body, in order."""
    out: list[tuple[str, int, str]] = []
    known: dict[str, str] = {}  # this server's table ids and invites -> their names
    json_type = {"Content-Type": "application/json"}
    async with app.router.lifespan_context(app), httpx.AsyncClient(
            transport=httpx.ASGITransport(app=app), base_url="http://test") as c:

        async def ask(label: str, method: str, path: str, **kwargs) -> httpx.Response:
            r = await c.request(method, path, **kwargs)
            out.append((label, r.status_code, _normalised(r.text, known)))
            return r

        ana = (await ask("player", "POST", "/api/players", json={"name": "Ana"})).json()
        bea = (await ask("player 2", "POST", "/api/players", json={"name": "Bea"})).json()
        a = {"Authorization": f"Bearer {ana['token']}"}
        b = {"Authorization": f"Bearer {bea['token']}"}
        bad = {"Authorization": "Bearer nope"}
        for label, kwargs in (
                ("malformed", {"content": b"{", "headers": json_type}),
                ("not utf-8", {"content": b"\xff\xfe{", "headers": json_type}),
                ("nested too deep", {"content": b"[" * 100_000, "headers": json_type}),
                ("no content type", {"content": b'{"name": "Eva"}'}),
                ("text", {"content": b'{"name": "Eva"}', "headers": {
                    "Content-Type": "text/plain"}}),
                ("charset", {"content": b'{"name": "Eva"}', "headers": {
                    "Content-Type": "application/json; charset=utf-8"}}),
                ("empty", {"content": b"", "headers": json_type}),
                ("list", {"json": ["Eva"]}), ("null", {"json": None}),
                ("short name", {"json": {"name": ""}}),
                ("not a string", {"json": {"name": 3}}),
                ("extra field", {"json": {"name": "Eva", "x": 1}}),
                ("token in url", {"json": {"name": "Eva"}, "params": {"token": "x"}})):
            await ask(f"new player: {label}", "POST", "/api/players", **kwargs)
        new_table = {"game": "hanabi", "seats": 3, "options": {}}
        table = (await ask("table", "POST", "/api/tables", headers=a, json=new_table)).json()
        private = (await ask("private table", "POST", "/api/tables", headers=a,
                             json={**new_table, "private": True})).json()
        tid, pid = table["id"], private["id"]
        invite = private["invite_url"].rsplit("/", 1)[1]
        known.update({tid: "TABLE", pid: "PRIVATE", invite: "INVITE",
                      table["invite_url"].rsplit("/", 1)[1]: "PUBLIC-INVITE"})
        out[-2:] = [(label, status, _normalised(text, known)) for label, status, text
                    in out[-2:]]
        for label, kwargs in (
                ("no token", {"json": new_table}), ("bad token", {"headers": bad,
                                                                  "json": new_table}),
                ("bad token, malformed", {"headers": {**bad, **json_type}, "content": b"{"}),
                ("bad token, bad body", {"headers": bad, "json": {"game": 3}}),
                ("unknown game", {"headers": a, "json": {**new_table, "game": "chess"}}),
                ("bad seats", {"headers": a, "json": {**new_table, "seats": 99}}),
                ("seats as text", {"headers": a, "json": {**new_table, "seats": "3"}}),
                ("bad option", {"headers": a, "json": {**new_table, "options": {"x": 1}}}),
                ("no body", {"headers": a}),
                ("text", {"headers": {**a, "Content-Type": "text/plain"},
                          "content": b'{"game": "hanabi", "seats": 3}'})):
            await ask(f"new table: {label}", "POST", "/api/tables", **kwargs)
        for who, headers in (("anonymous", {}), ("host", a), ("other", b), ("bad", bad)):
            await ask(f"one table, {who}", "GET", f"/api/tables/{tid}", headers=headers)
            await ask(f"private table, {who}", "GET", f"/api/tables/{pid}", headers=headers)
            await ask(f"open tables, {who}", "GET", "/api/tables", headers=headers)
            await ask(f"me, {who}", "GET", "/api/players/me", headers=headers)
            await ask(f"games, {who}", "GET", "/api/games", headers=headers)
        await ask("unknown table", "GET", "/api/tables/nope", headers=a)
        await ask("token in url", "GET", f"/api/tables/{tid}", params={"token": "x"})
        await ask("me, token in url", "GET", "/api/players/me", params={"token": "x"})
        for query in ({"game": "hanabi"}, {"game": "ikebana"}, {"status": "waiting"},
                      {"status": "playing"}, [("game", "ikebana"), ("game", "hanabi")],
                      {"game": ""}):
            await ask(f"open tables {query}", "GET", "/api/tables", params=query)
        join, leave = f"/api/tables/{tid}/join", f"/api/tables/{tid}/leave"
        for label, path, kwargs in (
                ("no token", join, {}), ("bad token", join, {"headers": bad}),
                ("bad token, malformed", join, {"headers": {**bad, **json_type},
                                                "content": b"{"}),
                ("malformed", join, {"headers": {**b, **json_type}, "content": b"{"}),
                ("seat as text", join, {"headers": b, "json": {"seat": "1"}}),
                ("extra field", join, {"headers": b, "json": {"x": 1}}),
                ("list", join, {"headers": b, "json": [1]}),
                ("null", join, {"headers": b, "json": None}),
                ("bad seat", join, {"headers": b, "json": {"seat": 7}}),
                ("text", join, {"headers": {**b, "Content-Type": "text/plain"},
                                "content": b"{}"}),
                ("unknown table", "/api/tables/nope/join", {"headers": b}),
                ("private, no invite", f"/api/tables/{pid}/join", {"headers": b}),
                ("private, wrong invite", f"/api/tables/{pid}/join",
                 {"headers": b, "json": {"invite": "wrong"}}),
                ("private", f"/api/tables/{pid}/join",
                 {"headers": b, "json": {"invite": invite}}),
                ("no body", join, {"headers": b}),
                ("again", join, {"headers": b, "json": {}}),
                ("start, not the host", f"/api/tables/{tid}/start", {"headers": b}),
                ("start, not full", f"/api/tables/{tid}/start", {"headers": a}),
                ("leave, bad token", leave, {"headers": bad}),
                ("leave, unknown table", "/api/tables/nope/leave", {"headers": b}),
                ("leave", leave, {"headers": b}),
                ("leave again", leave, {"headers": b}),
                ("seat 2", join, {"headers": b, "json": {"seat": 2}}),
                ("leave, host", leave, {"headers": a}),
                ("start, unknown", "/api/tables/nope/start", {"headers": a})):
            await ask(f"join: {label}", "POST", path, **kwargs)
        await ask("open tables at the end", "GET", "/api/tables", headers=b)
    return out


@pytest.fixture
def migrated_apps(tmp_path, monkeypatch) -> tuple[FastAPI, FastAPI]:
    """The application, and the same without the copies in front, each on a database of
    its own."""
    monkeypatch.setenv("LUDOTECA_DATA_DIR", str(tmp_path / "data"))
    fast = create_app(f"sqlite+aiosqlite:///{tmp_path / 'f.db'}")
    with monkeypatch.context() as patched:
        patched.setattr(fastpath, "add", lambda app: None)
        plain = create_app(f"sqlite+aiosqlite:///{tmp_path / 'p.db'}")
    return fast, plain


async def test_the_direct_calls_answer_as_fastapis_handlers(migrated_apps,
                                                            monkeypatch) -> None:
    """The same requests, to the application and to the same one without its copies in
    front: the same answers, word for word; and FastAPI's handler (which solves the
    dependencies) answered on the copies only the requests that are not the usual kind."""
    import fastapi.routing

    fast, plain = migrated_apps
    solved: list[str] = []
    original = fastapi.routing.solve_dependencies

    async def counting(*, request, **kwargs):
        solved.append(f"{request.method} {request.url.path}")
        return await original(request=request, **kwargs)

    monkeypatch.setattr(fastapi.routing, "solve_dependencies", counting)
    expected = await _script(plain)
    # every request of the plain one goes through FastAPI's handler: all but those whose
    # body is not even JSON (refused before the dependencies) solve them
    assert len(solved) == len(expected) - sum(
        1 for label, _s, _b in expected
        if any(word in label for word in ("malformed", "not utf-8", "nested too deep")))
    solved.clear()
    got = await _script(fast)
    for want, have in zip(expected, got, strict=True):
        assert have == want
    assert {s for s in solved if not s.startswith(("POST /api/players", "POST /api/tables"))
            } == set()
    # FastAPI's handler answered the unusual bodies only: the usual calls are direct
    unusual = [label for label, _s, _b in got if label.startswith(
        ("new player", "new table", "join")) and any(word in label for word in (
            "no content type", "text", "charset", "empty", "list", "null", "short name",
            "not a string", "extra field", "bad body", "new table: no body"))]
    assert len(solved) == len(unusual), unusual


async def _dict_answer(table_id: str) -> dict:
    return {}


async def _unknown_parameter(table_id: str, limit: int) -> Response:
    return Response()


async def _other_default(table_id: str, game: str | None = "hanabi") -> Response:
    return Response()


async def _not_a_path_parameter(table: str) -> Response:
    return Response()


@pytest.mark.parametrize(("endpoint", "refusal"), [
    (_dict_answer, "does not return a Response"),
    (_unknown_parameter, "does not know: limit"),
    (_other_default, "game's default"),
    (_not_a_path_parameter, "table is not a path parameter"),
])
def test_an_endpoint_the_direct_call_would_get_wrong_stops_the_start(endpoint,
                                                                     refusal) -> None:
    """What FastAPI would do otherwise than the direct call (a response model run over the
    answer, an int parsed, another default, a query parameter read as the path's) is
    refused when the application is built, not answered wrongly."""
    route = APIRoute("/api/tables/{table_id}", endpoint, methods=["GET"])
    with pytest.raises(RuntimeError, match=refusal):
        fastpath.direct(route, route.app)
