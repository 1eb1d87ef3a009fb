"""The table's life on a real server, over REST and WebSockets: spectators (public view only;
every card only where the host of a cooperative game allows it, never for a seat; private
tables through the spectator link), chat stored with the table across a restart and in the
export, resigning and the abandon vote, rematch, a live chess clock reaching zero, and, for
every game, replay stepping and an export → import round trip with the same outcome."""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

import httpx
import pytest

from app.games import ENGINES
from app.tables.core.ending import replay
from app.tables.engine import adapt
from tests.support.client import (
    ApiClient,
    SeatClient,
    connect_and_start,
    play_to_end,
    seat_players,
)

pytestmark = pytest.mark.asyncio


def _json(value: Any) -> Any:
    return json.loads(json.dumps(value))


async def chat_lines(client: SeatClient, count: int, timeout: float = 10) -> list[dict]:
    seen = [m for m in client.received if m["type"] == "chat"]
    while len(seen) < count:
        message = await client.recv(timeout)
        if message["type"] == "chat":
            seen.append(message)
    return seen


async def wait_for(client: SeatClient, found: Any, timeout: float = 10) -> dict:
    for message in client.received:
        if found(message):
            return message
    while True:
        message = await client.recv(timeout)
        if found(message):
            return message


async def test_spectators_see_public_information_or_every_card_when_allowed(
        shared_server) -> None:
    base = shared_server.url
    for see_all in (False, True):
        players, table, _ = seat_players(base, "hanabi", 3, {"spectators_see_all": see_all})
        clients = await connect_and_start(shared_server.ws_url, players, table)
        watcher = SeatClient(shared_server.ws_url, table["id"], None)
        await watcher.open()
        view = watcher.state["view"]
        assert watcher.state["seat"] is None and watcher.state["legal_actions"] == []
        assert watcher.state["spectators_see_all"] is see_all
        assert all(("color" in card) is see_all for hand in view["hands"] for card in hand)
        for seat, client in enumerate(clients):  # a seat never gets the spectators' cards
            await client.wait_version(watcher.state["version"])
            assert all("color" not in card for card in client.state["view"]["hands"][seat])
        assert watcher.state["table"]["spectators"]["count"] == 1
        for c in [*clients, watcher]:
            await c.close()
    # the option is for cooperative games only
    host = ApiClient(base, "Hostia")
    refused = host.request("POST", "/api/tables", json={
        "game": "ikebana", "seats": 2, "options": {"spectators_see_all": True}})
    assert refused.status_code == 422 and refused.json()["code"] == "bad_options"


async def test_a_private_table_is_watched_through_its_spectator_link_only(shared_server) -> None:
    base = shared_server.url
    players, table, invite = seat_players(base, "ikebana", 2, private=True)
    watch_url = table["watch_url"]
    assert watch_url and "/watch/" in watch_url and invite not in watch_url
    key = watch_url.rsplit("/", 1)[1]
    stranger = ApiClient(base, "Curiosa")
    assert stranger.request("GET", f"/api/tables/{table['id']}").json()["watch_url"] is None
    refused = SeatClient(shared_server.ws_url, table["id"], stranger.token)
    with pytest.raises(Exception):  # noqa: B017 - the socket is refused then closed
        await refused.open()
        await refused.recv(2)
    assert any(m.get("code") == "forbidden" for m in refused.received)
    watcher = SeatClient(shared_server.ws_url, f"{table['id']}?watch={key}", stranger.token)
    await watcher.open()
    assert watcher.state["seat"] is None
    # the spectator key is no invite: it does not seat anyone
    join = stranger.join(table["id"], invite=key)
    assert join.status_code == 403
    page = httpx.get(watch_url, timeout=10)
    assert page.status_code == 200 and 'data-watch="' + key + '"' in page.text
    assert httpx.get(f"{base}/watch/{table['id']}/{'0' * 32}", timeout=10).status_code == 404
    await watcher.close()


async def test_chat_is_stored_with_the_table_and_survives_a_restart(server) -> None:
    players, table, _ = seat_players(server.url, "hanabi", 2)
    clients = await connect_and_start(server.ws_url, players, table)
    spectator = ApiClient(server.url, "<i>Vera</i>")
    watcher = SeatClient(server.ws_url, table["id"], spectator.token)
    await watcher.open()
    await clients[0].send({"type": "chat", "text": "<script>alert(1)</script> hola"})
    # two sockets' messages reach the server in no set order: the second is sent once the
    # first is told
    await chat_lines(clients[1], 3)
    await watcher.send({"type": "chat", "text": "¡suerte!"})
    lines = await chat_lines(clients[1], 4)  # joined, started (replayed), and the two
    assert [m["kind"] for m in lines[-2:]] == ["player", "spectator"]
    assert lines[-2]["text"] == "<script>alert(1)</script> hola"
    assert lines[-1]["name"] == "<i>Vera</i>"
    for c in [*clients, watcher]:
        await c.close()
    server.restart(kill=True)
    again = SeatClient(server.ws_url, table["id"], players[1].token)
    await again.open()
    replayed = await chat_lines(again, 4)
    texts = [m["text"] for m in replayed if m["kind"] != "system"]
    assert texts == ["<script>alert(1)</script> hola", "¡suerte!"]
    assert [m["code"] for m in replayed if m["kind"] == "system"][:2] == ["joined", "started"]
    # and it is part of the finished game's record
    clients = [SeatClient(server.ws_url, table["id"], p.token) for p in players]
    for c in clients:
        await c.open()
    await play_to_end(clients, random.Random(5))
    export = httpx.get(f"{server.url}/api/matches/{table['id']}/export", timeout=10).json()
    assert [c["text"] for c in export["chat"] if c["kind"] != "system"] == texts
    for c in [*clients, again]:
        await c.close()


async def test_resign_and_the_abandon_vote_over_rest(shared_server) -> None:
    base = shared_server.url
    players, table, _ = seat_players(base, "ikebana", 3, {"absent_grace_seconds": 0})
    clients = await connect_and_start(shared_server.ws_url, players, table)
    r = players[1].request("POST", f"/api/tables/{table['id']}/resign")
    assert r.status_code == 200
    outcome = r.json()["outcome"]
    assert outcome["ranking"] == [[0, 2], [1]] and outcome["details"]["end"] == "resigned"
    assert players[1].request("POST", f"/api/tables/{table['id']}/resign").json()["code"] \
        == "not_playing"
    for c in clients:
        await c.close()

    players, table, _ = seat_players(base, "hanabi", 3, {"absent_grace_seconds": 0})
    clients = await connect_and_start(shared_server.ws_url, players, table)
    path = f"/api/tables/{table['id']}/votes"
    early = players[0].request("POST", path, json={"proposal": "abandon"})
    assert early.status_code == 409 and early.json()["code"] == "nobody_absent"
    await clients[2].close()
    await clients[0].wait_version(clients[0].state["version"])  # presence is pushed
    for _ in range(50):  # the server notices the closed socket
        summary = players[0].request("GET", f"/api/tables/{table['id']}").json()
        if summary["seats"][2]["connected"] is False:
            break
        await asyncio.sleep(0.1)
    assert summary["seats"][2]["away_for"] is not None
    vote = players[0].request("POST", path, json={"proposal": "abandon"})
    assert vote.status_code == 200, vote.text
    assert vote.json()["voters"] == [0, 1]
    bad = players[1].request("POST", f"{path}/{vote.json()['id']}", json={"yes": "si"})
    assert bad.status_code == 422
    yes = players[1].request("POST", f"{path}/{vote.json()['id']}", json={"yes": True})
    assert yes.status_code == 200
    final = await clients[0].wait_status("finished")
    assert final["table"]["outcome"]["details"] == {"end": "abandoned", "reason": "vote"}
    assert final["table"]["outcome"]["winners"] == []
    match = httpx.get(f"{base}/api/matches/{table['id']}", timeout=10).json()
    assert match["actions"][-1]["source"] == "vote" and match["actions"][-1]["seat"] == -1
    for c in clients[:2]:
        await c.close()


async def test_rematch_seats_the_same_players_with_the_same_options(shared_server) -> None:
    base = shared_server.url
    options = {"multicolor": True, "clock": "turn", "turn_seconds": 600}
    players, table, _ = seat_players(base, "hanabi", 2, options, private=True)
    clients = await connect_and_start(shared_server.ws_url, players, table)
    players[0].request("POST", f"/api/tables/{table['id']}/resign")
    await clients[1].wait_status("finished")
    early = players[0].request("POST", f"/api/tables/{table['id']}/rematch")
    assert early.status_code == 200, early.text
    new = early.json()["table"]
    assert new["rematch_of"] == table["id"] and new["options"] == table["options"]
    assert new["private"] and early.json()["seat"] == 0
    state = await wait_for(clients[1], lambda m: m["type"] == "state" and m["rematch"])
    assert state["rematch"]["table"] == new["id"] and state["rematch"]["invite"]
    stranger = ApiClient(base, "Intrusa")
    assert stranger.request("POST", f"/api/tables/{table['id']}/rematch").status_code == 403
    joined = players[1].request("POST", f"/api/tables/{table['id']}/rematch")
    assert joined.status_code == 200 and joined.json()["table"]["id"] == new["id"]
    assert joined.json()["seat"] == 1
    assert players[0].start(new["id"]).status_code == 200
    for c in clients:
        await c.close()


async def test_a_chess_clock_reaching_zero_plays_the_timeout_move_live(shared_server) -> None:
    players, table, _ = seat_players(shared_server.url, "ikebana", 2, {
        "clock": "chess", "bank_seconds": 10, "increment_seconds": 0})
    clients = await connect_and_start(shared_server.ws_url, players, table)
    start = clients[0].state
    assert start["clock"]["mode"] == "chess" and start["clock"]["banks"] == [10, 10]
    moved = await clients[0].wait_version(start["version"] + 1, timeout=30)
    assert moved["source"] == "timeout" and moved["by"] in (0, 1)
    match = players[0].request("GET", f"/api/tables/{table['id']}").json()
    assert match["status"] == "playing"
    for c in clients:
        await c.close()


def _cases() -> list[tuple[str, int]]:
    return [(game, ENGINES[game].min_players) for game in sorted(ENGINES)]


@pytest.mark.parametrize(("game", "seats"), _cases())
async def test_every_game_replays_step_by_step_and_round_trips_through_export(
        shared_server, game: str, seats: int) -> None:
    base = shared_server.url
    players, table, _ = seat_players(base, game, seats)
    clients = await connect_and_start(shared_server.ws_url, players, table)
    # a game in progress has no replay and no export: they would show every card
    for path in ("replay", "views/0", "export"):
        assert httpx.get(f"{base}/api/matches/{table['id']}/{path}", timeout=10) \
            .status_code == 404
    talker = next(c for c in clients if c.state["chat_allowed"])  # not a builder
    await talker.send({"type": "chat", "text": "¡vamos!"})
    await wait_for(talker, lambda m: m["type"] == "chat" and m["text"] == "¡vamos!")
    await play_to_end(clients, random.Random(len(game)))
    for c in clients:
        await c.close()
    engine = ENGINES[game]

    # replay: each step's view is the engine's, from every point of view
    record = httpx.get(f"{base}/api/matches/{table['id']}/export", timeout=10).json()
    rebuilt = replay(engine, seats, record["options"], record["seed"],
                     [(e["seq"], e["seat"], e["action"]) for e in record["log"]],
                     keep_states=True)
    assert rebuilt.outcome == record["outcome"]
    total = len(record["log"])
    for point in ("spectator", "all", "0"):
        steps = httpx.get(f"{base}/api/matches/{table['id']}/replay?seat={point}",
                          timeout=30).json()["steps"]
        assert [s["step"] for s in steps] == list(range(1, total + 1))
        for n in sorted({0, 1, total // 2, total}):
            got = httpx.get(f"{base}/api/matches/{table['id']}/views/{n}?seat={point}",
                            timeout=10).json()
            state = rebuilt.states[n]
            expected = (adapt(engine).view_all(state) if point == "all"
                        else engine.view(state, None if point == "spectator" else 0))
            assert got["view"] == _json(expected), (point, n)
    bad = httpx.get(f"{base}/api/matches/{table['id']}/views/{total + 1}", timeout=10)
    assert bad.status_code == 400 and bad.json()["code"] == "bad_step"
    assert httpx.get(f"{base}/api/matches/{table['id']}/replay?seat=9",
                     timeout=10).json()["code"] == "bad_seat"

    # export → import: the same game, the same outcome, as a new match
    importer = ApiClient(base, "Archivo")
    r = importer.request("POST", "/api/matches/import", json=record)
    assert r.status_code == 201, r.text
    imported = r.json()
    assert imported["id"] != table["id"] and imported["outcome"] == record["outcome"]
    again = httpx.get(f"{base}/api/matches/{imported['id']}/export", timeout=10).json()
    assert [e["action"] for e in again["log"]] == [e["action"] for e in record["log"]]
    assert [p["name"] for p in again["players"]] == [p["name"] for p in record["players"]]
    assert [c["text"] for c in again["chat"]] == [c["text"] for c in record["chat"]]
    assert again["seed"] == record["seed"] and again["options"] == record["options"]


async def test_an_import_is_refused_clearly_when_the_file_is_wrong(shared_server) -> None:
    base = shared_server.url
    players, table, _ = seat_players(base, "hanabi", 2)
    clients = await connect_and_start(shared_server.ws_url, players, table)
    await play_to_end(clients, random.Random(2))
    for c in clients:
        await c.close()
    record = httpx.get(f"{base}/api/matches/{table['id']}/export", timeout=10).json()
    importer = ApiClient(base, "Archivo")

    def post(body: Any, **kwargs: Any) -> httpx.Response:
        if body is not None:
            kwargs["json"] = body
        return importer.request("POST", "/api/matches/import", **kwargs)

    illegal = json.loads(json.dumps(record))
    illegal["log"][0]["seat"] = 1 - illegal["log"][0]["seat"]
    unfinished = {**record, "log": record["log"][:-1], "outcome": None}
    mismatch = {**record, "outcome": {**record["outcome"], "winners": [0]}}
    cases = [
        (illegal, 422, "illegal_log"),
        (unfinished, 422, "unfinished_log"),
        (mismatch, 422, "outcome_mismatch"),
        ({**record, "game": "chess"}, 422, "unknown_game"),
        ({**record, "format": "other"}, 422, "bad_record"),
        ({**record, "options": {"fuses": 7}}, 422, "bad_options"),
        ({**record, "players": record["players"][:1]}, 422, "bad_record"),
        ({k: v for k, v in record.items() if k != "log"}, 422, "bad_record"),
    ]
    for body, status, code in cases:
        r = post(body)
        assert (r.status_code, r.json()["code"]) == (status, code), (code, r.text)
    assert post(None, content=b"{not json").json()["code"] == "bad_record"
    deep = b'{"a":' * 100_000 + b"1" + b"}" * 100_000
    assert post(None, content=deep).json()["code"] == "bad_record"
    huge = httpx.post(f"{base}/api/matches/import", content=b" " * (2 * 1024 * 1024 + 1),
                      headers={**importer.headers, "Content-Type": "application/json"},
                      timeout=10)
    assert huge.status_code == 413 and huge.json()["code"] == "too_large"
    anonymous = httpx.post(f"{base}/api/matches/import", json=record, timeout=10)
    assert anonymous.status_code == 401
    # nothing was stored by the refusals
    mine = httpx.get(f"{base}/api/matches?limit=200", timeout=10).json()
    assert all(m["id"] == table["id"] or m["seed"] != record["seed"] for m in mine)


async def test_the_janitor_expires_waiting_tables_and_closes_empty_games(tmp_path) -> None:
    from tests.support.server import LiveServer

    live = LiveServer(f"sqlite+aiosqlite:///{tmp_path / 'j.db'}", tmp_path / "data", env={
        "LUDOTECA_JANITOR_SECONDS": "0.2", "LUDOTECA_WAITING_EXPIRY_SECONDS": "1",
        "LUDOTECA_EMPTY_TABLE_SECONDS": "1"})
    live.start()
    try:
        host = ApiClient(live.url, "Sola")
        lonely = host.create_table("hanabi", 2)
        players, empty, _ = seat_players(live.url, "ikebana", 2)
        assert players[0].start(empty["id"]).status_code == 200
        for _ in range(100):  # the janitor looks every 0.2 s; no duration is asserted
            gone = httpx.get(f"{live.url}/api/tables/{lonely['id']}", timeout=10)
            closed = httpx.get(f"{live.url}/api/tables/{empty['id']}", timeout=10).json()
            if gone.status_code == 404 and closed["status"] == "finished":
                break
            await asyncio.sleep(0.1)
        assert gone.status_code == 404
        assert closed["outcome"]["details"] == {"end": "abandoned", "reason": "empty"}
        history = httpx.get(f"{live.url}/api/players/{players[1].id}/matches",
                            timeout=10).json()
        assert history[0]["id"] == empty["id"]
        assert history[0]["result"] == {"seat": 1, "place": 1, "won": False, "score": 6,
                                        "end": "abandoned"}
        page = httpx.get(f"{live.url}/players/{players[1].id}", timeout=10)
        assert page.status_code == 200 and empty["id"] in page.text
    finally:
        live.stop()


async def test_a_players_history_shows_each_result(shared_server) -> None:
    base = shared_server.url
    players, table, _ = seat_players(base, "alebrijes", 3)
    clients = await connect_and_start(shared_server.ws_url, players, table)
    players[2].request("POST", f"/api/tables/{table['id']}/resign")
    for c in clients:
        await c.close()
    results = [httpx.get(f"{base}/api/players/{p.id}/matches", timeout=10).json()[0]["result"]
               for p in players]
    assert [(r["place"], r["won"], r["end"]) for r in results] == [
        (1, True, "resigned"), (1, True, "resigned"), (2, False, "resigned")]
    page = httpx.get(f"{base}/players/{players[2].id}", headers={"Cookie": "lang=en"},
                     timeout=10)
    assert "Place 2" in page.text and "with a resignation" in page.text
    assert httpx.get(f"{base}/api/players/nobody/matches", timeout=10).status_code == 404



async def test_a_cooperative_game_lost_reads_lost_not_first_place(shared_server) -> None:
    """Hanabi is won or lost together: everyone is in the ranking's one group, so a history
    that read the place said "Place 1" for a team that gave up, and the API said place 1."""
    base = shared_server.url
    players, table, _ = seat_players(base, "hanabi", 2)
    clients = await connect_and_start(shared_server.ws_url, players, table)
    players[1].request("POST", f"/api/tables/{table['id']}/resign")
    for c in clients:
        await c.close()
    result = httpx.get(f"{base}/api/players/{players[0].id}/matches",
                       timeout=10).json()[0]["result"]
    assert (result["place"], result["won"], result["end"]) == (None, False, "resigned")
    for lang, lost, place in (("en", "Lost", "Place 1"), ("es", "Perdió", "Puesto 1")):
        page = httpx.get(f"{base}/players/{players[0].id}", headers={"Cookie": f"lang={lang}"},
                         timeout=10)
        row = page.text[page.text.index(f'data-match="{table["id"]}"'):]
        row = row[:row.index("</tr>")]
        assert lost in row and place not in row, row
