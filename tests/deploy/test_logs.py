"""The server's log (app/logs.py): one line per event, JSON with LUDOTECA_LOG_FORMAT=json,
and never a secret: tokens, invite and spectator links, the signing key, the operator token,
a database password, a browser's signed cookie."""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
from pathlib import Path

import httpx
import pytest
import websockets

from app.api.deps import COOKIE
from app.logs import JsonFormatter, TextFormatter, redact
from tests.support.client import ApiClient, SeatClient, seat_players
from tests.support.server import LiveServer


def _record(message: str, *args: object, exc: bool = False,
            name: str = "ludoteca.test") -> logging.LogRecord:
    exc_info = None
    if exc:
        try:
            raise ValueError("first line\nsecond line")
        except ValueError:
            import sys

            exc_info = sys.exc_info()
    return logging.LogRecord(name, logging.ERROR, __file__, 1, message, args, exc_info)


def test_a_traceback_stays_on_its_events_line() -> None:
    record = _record("table %s: could not store\nan action", "T1", exc=True)
    line = JsonFormatter().format(record)
    assert "\n" not in line
    event = json.loads(line)
    assert event["level"] == "ERROR" and event["logger"] == "ludoteca.test"
    assert event["message"] == "table T1: could not store\nan action"
    assert event["exc"].startswith("Traceback") and "second line" in event["exc"]
    assert event["time"].endswith("+00:00")

    text = TextFormatter().format(_record("two\nlines", exc=True))
    assert "\n" not in text and "two\\nlines" in text and "Traceback" in text
    assert "ERROR ludoteca.test: " in text


def test_access_lines_are_structured_and_redacted() -> None:
    record = _record('%s - "%s %s HTTP/%s" %d', "127.0.0.1:5000", "GET",
                     "/join/abcDEF123?x=1", "1.1", 200, name="uvicorn.access")
    event = json.loads(JsonFormatter().format(record))
    assert event["method"] == "GET" and event["status"] == 200
    assert event["path"] == "/join/…?x=1" and "abcDEF123" not in event["message"]


@pytest.mark.parametrize("text, secret", [
    ("GET /join/InviteTok3n HTTP/1.1", "InviteTok3n"),
    ("GET /watch/T9/SpectatorKey HTTP/1.1", "SpectatorKey"),
    ("/ws/tables/T9?invite=Inv1te&x=1", "Inv1te"),
    ("/ws/tables/T9?watch=W4tch", "W4tch"),
    ("/api/tables?token=T0ken", "T0ken"),
    ("Authorization: Bearer abc.def-ghi", "abc.def-ghi"),
    ("authorization: bEaReR M1xedCase", "M1xedCase"),
    ("postgresql+asyncpg://ludoteca:pa55w0rd@db:5432/ludoteca", "pa55w0rd"),
    ("redis://:r3dispass@redis:6379/0", "r3dispass"),
])
def test_redact(text: str, secret: str) -> None:
    assert secret not in redact(text)
    assert redact(redact(text)) == redact(text)


def test_redact_keeps_what_is_not_secret() -> None:
    for text in ("GET /tables/T9 HTTP/1.1", "sqlite+aiosqlite:////data/ludoteca.db",
                 "http://app-a:8000", "table T9: 3 actions"):
        assert redact(text) == text


async def _exercise(server: LiveServer) -> list[str]:
    """Everything that carries a secret, through the server: returns the secrets used."""
    players, table, invite = seat_players(server.url, "hanabi", 2, private=True)
    used = [p.token for p in players] + [invite]
    watch_key = (table.get("watch_url") or "").rsplit("/", 1)[-1]
    if watch_key:
        used.append(watch_key)
        assert httpx.get(table["watch_url"], timeout=10).status_code == 200
    # a browser: the name form sets a signed cookie, then the invite link
    browser = httpx.Client(base_url=server.url, timeout=10, follow_redirects=False)
    r = browser.post("/session", data={"name": "Browser", "next": f"/join/{invite}"},
                     headers={"Origin": server.url})
    assert r.status_code in (302, 303), r.text
    cookie = browser.cookies.get(COOKIE)
    assert cookie
    used.append(cookie)
    browser.get(f"/join/{invite}")
    browser.get(f"/tables/{table['id']}")
    browser.close()
    # a token where it does not belong (refused, and logged without it)
    r = httpx.get(f"{server.url}/api/tables?token={players[0].token}", timeout=10)
    assert r.status_code == 401
    # sockets: a player's, and a spectator's through the invite
    async with SeatClient(server.ws_url, table["id"], players[0].token):
        pass
    try:
        async with websockets.connect(
                f"{server.ws_url}/ws/tables/{table['id']}?invite={invite}") as ws:
            await asyncio.wait_for(ws.recv(), 10)
    except websockets.exceptions.WebSocketException:
        pass  # refused or not: the attempt is what gets logged
    # the operators' figures, with and without the token
    httpx.get(f"{server.url}/metrics", headers={"Authorization": "Bearer guess"}, timeout=10)
    ApiClient(server.url, "Late")  # one more player token, after all the rest
    return used


@pytest.mark.parametrize("fmt", ["json", "text"])
async def test_the_server_log_is_one_line_per_event_without_secrets(
        fmt: str, tmp_path: Path, request: pytest.FixtureRequest) -> None:
    secret_key, operator = secrets.token_urlsafe(24), secrets.token_urlsafe(24)
    password = "db-" + secrets.token_hex(8)
    if fmt == "json":  # PostgreSQL, so that the database URL holds a password (trust auth)
        cluster = request.getfixturevalue("postgres_cluster")
        url = cluster.new_database(f"logs_{secrets.token_hex(4)}").replace(
            "postgres@", f"postgres:{password}@")
    else:
        url = f"sqlite+aiosqlite:///{tmp_path / 't.db'}"
    server = LiveServer(url, tmp_path / "data", env={
        "LUDOTECA_LOG_FORMAT": fmt, "LUDOTECA_SECRET_KEY": secret_key,
        "LUDOTECA_OPERATOR_TOKEN": operator})
    server.start()
    try:
        used = await _exercise(server)
        httpx.get(f"{server.url}/metrics", headers={"Authorization": f"Bearer {operator}"},
                  timeout=10).raise_for_status()
    finally:
        server.stop()
    log = server.log_path.read_text()
    lines = log.splitlines()
    assert len(lines) > 10, log

    for secret in [*used, secret_key, operator, password]:
        assert secret not in log, f"a secret is in the log: {secret[:4]}…"

    if fmt == "json":
        events = [json.loads(line) for line in lines]  # every line is one JSON event
        assert all({"time", "level", "logger", "message"} <= e.keys() for e in events)
        start = next(e for e in events if e["message"].startswith("starting on"))
        assert "postgresql+asyncpg://postgres:…@127.0.0.1" in start["message"]
        access = [e for e in events if e["logger"] == "uvicorn.access"]
        assert {"client", "method", "path", "status"} <= access[0].keys()
        joins = [e for e in access if e["path"].startswith("/join/")]
        assert joins and all(e["path"] == "/join/…" for e in joins)
        assert any(e["path"] == "/metrics" and e["status"] == 403 for e in access)
    else:
        assert all(line[:4].isdigit() and " " in line for line in lines), log[:2000]
        assert any(" uvicorn.access: " in line and "/join/…" in line for line in lines)
        assert any("starting on" in line for line in lines)
