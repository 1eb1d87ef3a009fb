"""A server restarted with a mix of tables, as a real server lives: waiting, playing,
finished, deleted and private tables from storage beside tables created after the restart,
and the table's life: a game ended by a resignation, one abandoned by a vote, a rematch
waiting for its players, a chess clock running, chat on the tables. Every read the API and
the pages offer must answer (no 500), on SQLite and PostgreSQL, and the life of each table
comes back (chat, clock banks, the rematch invitation).

This is the regression test for the lobby's 500 (naive datetimes from SQLite compared with
aware ones from memory), and for the whole class: datetimes have one form everywhere."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import httpx
import pytest
from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine

from app.db.types import UTCDateTime
from tests.support.client import (
    ApiClient,
    SeatClient,
    connect_and_start,
    play_to_end,
    seat_players,
)


def reads(base: str, player: ApiClient, table_ids: list[str],
          player_ids: list[str] = ()) -> list[httpx.Response]:
    """Every read a lobby, a table page or a script makes, as a guest and as a player."""
    paths = ["/api/tables", "/api/tables?status=waiting", "/api/tables?status=playing",
             "/api/tables?game=hanabi", "/api/games", "/api/matches", "/api/matches?limit=5",
             "/healthz", "/", "/rules/hanabi"]
    for tid in table_ids:
        paths += [f"/api/tables/{tid}", f"/api/matches/{tid}", f"/tables/{tid}",
                  f"/api/matches/{tid}/replay", f"/api/matches/{tid}/replay?seat=all",
                  f"/api/matches/{tid}/views/0?seat=0", f"/api/matches/{tid}/export",
                  f"/matches/{tid}"]
    for pid in player_ids:
        paths += [f"/players/{pid}", f"/api/players/{pid}", f"/api/players/{pid}/matches"]
    out = []
    for path in paths:
        out.append(httpx.get(base + path, timeout=10))
        out.append(player.request("GET", path))
    return out


def assert_no_server_error(responses: list[httpx.Response]) -> None:
    bad = [(r.request.url.path, r.status_code, r.text[:200]) for r in responses
           if r.status_code >= 500]
    assert not bad, bad
    for r in responses:
        if r.request.url.path.startswith("/api/") and r.status_code >= 400:
            assert r.json()["code"], r.text  # errors are our JSON errors, never bare


async def idle_noted(database_url: str) -> dict[str, float]:
    """The idle times a server noted in storage when it stopped (app/tables/registry.py)."""
    engine = create_async_engine(database_url)
    try:
        async with engine.connect() as conn:
            rows = await conn.execute(text(
                "SELECT id, idle_seconds FROM tables WHERE idle_seconds IS NOT NULL"))
            return {row.id: row.idle_seconds for row in rows}
    finally:
        await engine.dispose()


@pytest.mark.asyncio
async def test_restart_with_every_kind_of_table_then_new_ones(server) -> None:
    # finished
    players, finished, _ = seat_players(server.url, "hanabi", 2)
    clients = await connect_and_start(server.ws_url, players, finished)
    await play_to_end(clients, random.Random(3))
    for c in clients:
        await c.close()
    # playing, a few moves in
    players2, playing, _ = seat_players(server.url, "ikebana", 2)
    clients = await connect_and_start(server.ws_url, players2, playing)
    for _ in range(3):
        mover = next(c for c in clients if c.my_turn())
        version = mover.state["version"]
        await mover.act(mover.state["legal_actions"][0])
        for c in clients:
            await c.wait_version(version + 1)
    for c in clients:
        await c.close()
    # waiting (public and private) and deleted
    host = players[0]
    waiting = host.create_table("ajolocracia", 3)
    private = host.create_table("hanabi", 2, private=True)
    deleted = host.create_table("hanabi", 2)
    assert host.request("DELETE", f"/api/tables/{deleted['id']}").status_code == 204
    ids = [finished["id"], playing["id"], waiting["id"], private["id"], deleted["id"]]

    # the table's life: chat on a playing table, a resignation, an abandon vote, a rematch,
    # a chess clock
    life_players, resigned, _ = seat_players(server.url, "ikebana", 3,
                                             {"absent_grace_seconds": 0})
    clients = await connect_and_start(server.ws_url, life_players, resigned)
    await clients[0].send({"type": "chat", "text": "<b>antes</b> del reinicio"})
    await clients[1].next_of("chat")
    assert life_players[2].request("POST", f"/api/tables/{resigned['id']}/resign") \
        .status_code == 200
    rematch = life_players[0].request("POST", f"/api/tables/{resigned['id']}/rematch").json()
    for c in clients:
        await c.close()
    voters, abandoned, _ = seat_players(server.url, "hanabi", 3, {"absent_grace_seconds": 0})
    clients = await connect_and_start(server.ws_url, voters[:2], abandoned)
    vote = voters[0].request("POST", f"/api/tables/{abandoned['id']}/votes",
                             json={"proposal": "abandon"}).json()
    voters[1].request("POST", f"/api/tables/{abandoned['id']}/votes/{vote['id']}",
                      json={"yes": True})
    await clients[0].wait_status("finished")
    for c in clients:
        await c.close()
    chess_players, chess, _ = seat_players(server.url, "hanabi", 2, {
        "clock": "chess", "bank_seconds": 3600, "increment_seconds": 10})
    clients = await connect_and_start(server.ws_url, chess_players, chess)
    for c in clients:
        await c.close()
    ids += [resigned["id"], abandoned["id"], rematch["table"]["id"], chess["id"]]
    people = [life_players[0].id, voters[2].id]

    for kill in (True, False):
        server.stop(kill=kill)
        noted = await idle_noted(server.database_url)
        if kill:  # a crash notes nothing: idle from the restart
            assert noted == {}
        else:  # a graceful stop notes how long nobody has been at each live table
            assert {waiting["id"], private["id"], playing["id"], chess["id"]} <= set(noted)
            assert all(0 <= seconds < 600 for seconds in noted.values()), noted
            assert finished["id"] not in noted and resigned["id"] not in noted
        server.start()
        assert await idle_noted(server.database_url) == {}  # read back, then cleared
        newcomer = ApiClient(server.url, "Nueva")
        fresh = newcomer.create_table("hanabi", 2)
        ids.append(fresh["id"])
        listed = newcomer.request("GET", "/api/tables")
        assert listed.status_code == 200, listed.text
        shown = [t["id"] for t in listed.json()]
        assert fresh["id"] in shown and waiting["id"] in shown and playing["id"] in shown
        assert private["id"] not in shown and deleted["id"] not in shown
        stamps = [datetime.fromisoformat(t["created_at"]) for t in listed.json()]
        assert all(s.tzinfo is not None and s.utcoffset() == timedelta(0) for s in stamps)
        assert stamps == sorted(stamps, reverse=True)
        assert_no_server_error(reads(server.url, newcomer, ids, people))
        await check_life_came_back(server, life_players, resigned, rematch, chess_players,
                                   chess, abandoned)
        match = httpx.get(f"{server.url}/api/matches/{finished['id']}", timeout=10).json()
        assert datetime.fromisoformat(match["finished_at"]).tzinfo is not None
        assert all(datetime.fromisoformat(a["at"]).tzinfo is not None for a in match["actions"])
        # the lobby page lists the tables instead of "no public tables"
        lobby = httpx.get(server.url + "/", timeout=10)
        assert lobby.status_code == 200


def test_utc_datetime_column_type_keeps_one_form() -> None:
    column = UTCDateTime()
    aware = datetime(2026, 11, 22, 21, 0, tzinfo=UTC)
    naive_from_sqlite = datetime(2026, 11, 22, 21, 0)
    assert column.process_result_value(naive_from_sqlite, None) == aware
    assert column.process_result_value(naive_from_sqlite, None).tzinfo is UTC
    madrid = aware.astimezone(__import__("zoneinfo").ZoneInfo("Europe/Madrid"))
    assert column.process_bind_param(madrid, None) == aware
    assert column.process_bind_param(madrid, None).tzinfo is UTC
    with pytest.raises(ValueError):
        column.process_bind_param(naive_from_sqlite, None)
    assert column.process_bind_param(None, None) is None


async def check_life_came_back(server, life_players, resigned, rematch, chess_players, chess,
                               abandoned) -> None:
    """After a restart: the chat, the early ends, the rematch invitation and the clock."""
    client = SeatClient(server.ws_url, resigned["id"], life_players[1].token)
    await client.open()
    assert client.state["table"]["outcome"]["details"]["end"] == "resigned"
    assert client.state["rematch"]["table"] == rematch["table"]["id"]
    chat = []
    while not any(m.get("text") == "<b>antes</b> del reinicio" for m in chat):
        chat.append(await client.next_of("chat"))
    await client.close()
    record = httpx.get(f"{server.url}/api/matches/{abandoned['id']}", timeout=10).json()
    assert record["outcome"]["details"] == {"end": "abandoned", "reason": "vote"}
    waiting = httpx.get(f"{server.url}/api/tables/{rematch['table']['id']}", timeout=10).json()
    assert waiting["status"] == "waiting" and waiting["rematch_of"] == resigned["id"]
    watcher = SeatClient(server.ws_url, chess["id"], None)
    await watcher.open()
    clock = watcher.state["clock"]
    assert clock["mode"] == "chess" and len(clock["banks"]) == 2
    assert all(0 < bank <= 3600 for bank in clock["banks"]) and clock["running"]
    await watcher.close()
