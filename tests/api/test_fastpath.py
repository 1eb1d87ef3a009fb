"""The busiest table routes matched first (app/api/fastpath.py): the same OpenAPI document,
the same route and handler answering, and a route placed before them refused."""

from __future__ import annotations

import json

import httpx
import pytest
from fastapi import FastAPI
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
    assert len(fast.router.routes) == len(plain.router.routes) + len(fastpath.HOT)
    assert json.dumps(fast.openapi()).encode() == json.dumps(plain.openapi()).encode()




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
    assert handler is not None and first.app is handler
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
