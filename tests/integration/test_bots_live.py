"""Bots on a real server, through the API: all-bot tables of every game that has a bot play
themselves to the end (the host gives away their own seat and watches), and an absent
player's seat is handed to a bot by vote over the API and WebSockets, then handed back the
moment the player reconnects."""

from __future__ import annotations

import asyncio
import time

import httpx
import pytest

from tests.support.client import ApiClient, SeatClient

# every game has a bot but Block and Guess (building a shape teammates recognise is the game)
BOT_GAMES = ("hanabi", "ikebana", "ajolocracia", "alebrijes", "allegra")


def wait_finished(base: str, table_id: str, timeout: float = 240) -> dict:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        table = httpx.get(f"{base}/api/tables/{table_id}", timeout=10).json()
        if table["status"] == "finished":
            return table
        time.sleep(0.2)
    raise AssertionError(f"table {table_id} did not finish: {table}")


@pytest.mark.parametrize("game", BOT_GAMES)
def test_an_all_bot_table_plays_itself_through_the_api(shared_server, game: str) -> None:
    base = shared_server.url
    host = ApiClient(base, "Host")
    options = {"bot_delay": 0}
    if game == "allegra":
        options |= {"rounds": 1, "knock_seconds": 2}
    table = host.create_table(game, 3, options)
    for seat in (1, 2, 0):  # the host's own seat last: then they watch
        r = host.request("POST", f"/api/tables/{table['id']}/bots", json={"seat": seat})
        assert r.status_code == 201, r.text
    seats = r.json()["seats"]
    assert all(s["player"]["bot"] for s in seats)
    assert len({s["player"]["name"] for s in seats}) == 3  # names that say they are bots
    assert all(s["player"]["name"].startswith("Bot ") for s in seats)
    assert host.start(table["id"]).status_code == 200  # still the host, though not seated
    finished = wait_finished(base, table["id"])
    assert finished["outcome"] is not None
    record = httpx.get(f"{base}/api/matches/{table['id']}", timeout=10).json()
    assert all(p["player"]["bot"] for p in record["seats"])
    sources = {a["source"] for a in record["actions"] if a["seat"] >= 0}
    assert sources == {"bot"}  # every move of a seat was a bot's, and says so


def test_only_the_host_seats_bots_and_games_without_one_say_so(shared_server) -> None:
    base = shared_server.url
    host, guest = ApiClient(base, "Host"), ApiClient(base, "Guest")
    table = host.create_table("hanabi", 3)
    r = guest.request("POST", f"/api/tables/{table['id']}/bots", json={"seat": 1})
    assert r.status_code == 403
    r = host.request("POST", f"/api/tables/{table['id']}/bots", json={"seat": 7})
    assert r.status_code == 400 and r.json()["code"] == "bad_seat"
    r = host.request("POST", f"/api/tables/{table['id']}/bots", json={"seat": 1})
    assert r.status_code == 201
    r = host.request("DELETE", f"/api/tables/{table['id']}/bots/1")
    assert r.status_code == 200 and r.json()["seats"][1]["player"] is None
    blocks = host.create_table("block-and-guess", 3)
    r = host.request("POST", f"/api/tables/{blocks['id']}/bots", json={"seat": 1})
    assert r.status_code == 422 and r.json()["code"] == "no_bot"
    catalogue = {g["id"]: g["bots"] for g in httpx.get(f"{base}/api/games").json()}
    assert catalogue == {g: g in BOT_GAMES for g in catalogue}


async def test_an_absent_players_seat_goes_to_a_bot_and_comes_back(shared_server) -> None:
    base, ws = shared_server.url, shared_server.ws_url
    ana, ben = ApiClient(base, "Ana"), ApiClient(base, "Ben")
    table = ana.create_table("hanabi", 2, {"bot_delay": 0, "absent_grace_seconds": 0})
    assert ben.join(table["id"]).status_code == 200
    a, b = SeatClient(ws, table["id"], ana.token), SeatClient(ws, table["id"], ben.token)
    await a.open()
    await b.open()
    assert ana.start(table["id"]).status_code == 200
    await a.wait_status("playing")
    await b.close()  # Ben's connection drops
    while a.state["table"]["seats"][1]["connected"]:
        await a.recv()
    r = ana.request("POST", f"/api/tables/{table['id']}/votes",
                    json={"proposal": "bot", "target": 1})
    assert r.status_code in (200, 201), r.text
    while not a.state["table"]["seats"][1]["autopilot"]:
        await a.recv()
    # Ana plays her turns; the bot answers Ben's at once
    for _ in range(6):
        if a.state["table"]["status"] != "playing":
            break
        if a.my_turn():
            await a.act_until_accepted(a.state["legal_actions"][-1])
        else:
            await a.wait_version(a.state["version"] + 1)
    # Ben is back: his seat is his again, and nobody plays it for him
    await b.open()
    while b.state["table"]["seats"][1]["autopilot"]:  # handed back as he connects
        await b.recv()
    if b.state["table"]["status"] == "playing" and b.my_turn():
        version = b.state["version"]
        await asyncio.sleep(0.3)
        assert (await b.wait_version(version))["version"] == version
        await b.act_until_accepted(b.state["legal_actions"][-1])
    await a.close()
    await b.close()
    r = ana.request("POST", f"/api/tables/{table['id']}/resign")
    assert r.status_code == 200, r.text  # to read the record of a finished game
    record = httpx.get(f"{base}/api/matches/{table['id']}", timeout=10).json()
    by_source: dict[str, set[int]] = {}
    for action in record["actions"]:
        by_source.setdefault(action["source"], set()).add(action["seat"])
    assert by_source["bot"] == {1}  # the record says which moves the bot made
    autopilot = [a["action"] for a in record["actions"] if a["action"]["type"] == "autopilot"]
    assert autopilot == [{"type": "autopilot", "seat": 1, "on": True},
                         {"type": "autopilot", "seat": 1, "on": False}]
