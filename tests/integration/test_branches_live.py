"""Branches over the public API (issue 25), for every game: a stored match (imported from a
random game played here) is played on from several of its steps with
``POST /api/matches/{id}/branch``. The new table's views, for every seat (each through its
own connection of the hot seat) and for a spectator, equal the original's views at that
step; what was re-dealt differs from the original's future, and the branch's stored
position is exactly what a re-deal of a state with *another* future gives: nothing of the
original's future reaches it. Its record remembers its origin and its result is kept apart
from the players' history. The refusals (unknown match, step out of range, a live match, a
step where the game is over, a bad token) answer a clear 4xx and create nothing."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from app.api.deps import TEST_SEED_HEADER
from app.games import ENGINES
from app.games.base import Rng
from app.tables.engine import adapt
from tests.support.client import ApiClient, SeatClient, connect_and_start, seat_players
from tests.support.matches import stored_match

GAMES = sorted(ENGINES)


def branch(player: ApiClient, match_id: str, body: dict[str, Any],
           seed: int | None = None) -> httpx.Response:
    headers = {**player.headers, **({TEST_SEED_HEADER: str(seed)} if seed is not None else {})}
    return httpx.post(f"{player.base_url}/api/matches/{match_id}/branch", json=body,
                      headers=headers, timeout=20)


async def seat_view(ws_base: str, table_id: str, token: str | None,
                    seat: int | None) -> dict[str, Any]:
    client = SeatClient(ws_base, table_id, token)
    if seat is not None:
        client.url += f"?seat={seat}"
    async with client:
        state = await client.wait_status("playing")
        assert state["seat"] == seat
        return state


def live_steps(engine: Any, states: list[Any]) -> list[int]:
    live = [k for k, s in enumerate(states) if engine.outcome(s) is None]
    return sorted({live[0], live[len(live) // 2], live[-1]})


@pytest.mark.parametrize("game", GAMES)
async def test_a_branch_starts_where_the_match_was_with_only_the_unknown_dealt_anew(
        shared_server, game: str) -> None:
    base, ws_base = shared_server.url, shared_server.ws_url
    engine = ENGINES[game]
    match_id, states, _ = stored_match(base, game, 31)
    seats = engine.min_players
    for step in live_steps(engine, states):
        seed = 5000 + step
        host = ApiClient(base, f"Hot {step}")
        r = branch(host, match_id, {"step": step, "sandbox": True}, seed)
        assert r.status_code == 201, r.text
        table = r.json()
        assert table["branch_of"] == {"match": match_id, "step": step}
        assert [s["player"]["id"] for s in table["seats"]] == [host.id] * seats
        assert host.start(table["id"]).status_code == 200
        for seat in [*range(seats), None]:
            original = httpx.get(f"{base}/api/matches/{match_id}/views/{step}",
                                 params={"seat": "spectator" if seat is None else seat},
                                 timeout=10).json()["view"]
            state = await seat_view(ws_base, table["id"], host.token if seat is not None
                                    else None, seat)
            assert state["view"] == original, (game, step, seat)

        # end it (a resignation), so its record can be read: the stored position is the
        # re-deal of the state at that step, and a re-deal of a state with another future
        # gives the very same position: nothing of the original's future is in it
        assert host.request("POST", f"/api/tables/{table['id']}/resign").status_code == 200
        record = httpx.get(f"{base}/api/matches/{table['id']}/export", timeout=10).json()
        assert record["branch_of"] == {"match": match_id, "step": step}
        redeal = adapt(engine).redeal_unknown
        other_future = redeal(states[step], Rng.from_seed(777))
        assert record["position"] == engine.dump(redeal(other_future, Rng.from_seed(seed)))
        assert record["position"] != engine.dump(states[step]), "nothing was re-dealt"
        # kept apart from the players' history of real games
        mine = httpx.get(f"{base}/api/players/{host.id}/matches", timeout=10).json()
        assert table["id"] not in [m["id"] for m in mine]
        apart = httpx.get(f"{base}/api/players/{host.id}/matches",
                          params={"kind": "branches"}, timeout=10).json()
        assert [m["id"] for m in apart] == [table["id"]]
        assert apart[0]["branch_of"] == {"match": match_id, "step": step}


async def test_two_branches_of_one_moment_share_every_view_but_not_the_deal(
        shared_server) -> None:
    """Two seeds: the same views at the start, different decks (what a seat will draw)."""
    base, ws_base = shared_server.url, shared_server.ws_url
    engine = ENGINES["hanabi"]
    match_id, states, _ = stored_match(base, "hanabi", 8)
    step = 6
    decks, views = [], []
    for seed in (1, 2):
        host = ApiClient(base, f"Seed {seed}")
        table = branch(host, match_id, {"step": step, "sandbox": True}, seed).json()
        assert host.start(table["id"]).status_code == 200
        views.append([(await seat_view(ws_base, table["id"], host.token, s))["view"]
                      for s in range(engine.min_players)])
        assert host.request("POST", f"/api/tables/{table['id']}/resign").status_code == 200
        record = httpx.get(f"{base}/api/matches/{table['id']}/export", timeout=10).json()
        decks.append(record["position"]["deck"])
    assert views[0] == views[1]
    assert decks[0] != decks[1] and sorted(map(str, decks[0])) == sorted(map(str, decks[1]))
    assert decks[0] != engine.dump(states[step])["deck"]


async def test_a_branch_is_refused_clearly_and_nothing_is_created(shared_server) -> None:
    base = shared_server.url
    match_id, states, importer = stored_match(base, "hanabi", 4)
    player = ApiClient(base, "Curiosa")
    last = len(states) - 1
    live = player.create_table("hanabi", 2)
    cases = [
        ("nope", {"step": 1}, player.headers, 404, "not_found"),
        (match_id, {"step": last + 1}, player.headers, 400, "bad_step"),
        (match_id, {"step": 10**6}, player.headers, 400, "bad_step"),
        (match_id, {"step": -1}, player.headers, 422, "bad_request"),
        (match_id, {"step": last}, player.headers, 409, "game_over"),
        (match_id, {"step": 1, "seat": 5}, player.headers, 400, "bad_seat"),
        (match_id, {"step": 1, "options": {"fuses": 1}}, player.headers, 422, "bad_options"),
        (live["id"], {"step": 0}, player.headers, 404, "not_found"),
        (match_id, {"step": 1}, {"Authorization": "Bearer forged"}, 401, "bad_token"),
        (match_id, {"step": 1}, {}, 401, None),
    ]
    for target, body, headers, status, code in cases:
        r = httpx.post(f"{base}/api/matches/{target}/branch", json=body, headers=headers,
                       timeout=10)
        assert r.status_code == status, (body, r.text)
        if code is not None:
            assert r.json()["code"] == code, (body, r.text)
    listed = httpx.get(f"{base}/api/tables", timeout=10).json()
    assert not [t for t in listed if t.get("branch_of")], "a refused branch created a table"
    # a plain branch: the player in the seat asked for, the other seats free for friends
    r = branch(player, match_id, {"step": 1, "seat": 1})
    assert r.status_code == 201, r.text
    table = r.json()
    assert table["seats"][1]["player"]["id"] == player.id and table["seats"][0]["player"] is None
    assert table["invite_url"]


async def test_a_private_match_is_branched_only_by_its_players_and_stays_private(
        shared_server) -> None:
    base, ws_base = shared_server.url, shared_server.ws_url
    players, table, _ = seat_players(base, "hanabi", 2, private=True)
    clients = await connect_and_start(ws_base, players, table)
    for c in clients:
        await c.close()
    assert players[1].request("POST", f"/api/tables/{table['id']}/resign").status_code == 200
    stranger = ApiClient(base, "Fisgona")
    r = branch(stranger, table["id"], {"step": 0})  # as if there were no such match
    assert r.status_code == 404 and r.json()["code"] == "not_found"
    r = branch(players[1], table["id"], {"step": 0, "private": False, "seat": 1})
    assert r.status_code == 201, r.text
    mine = r.json()
    assert mine["private"] is True and mine["branch_of"] == {"match": table["id"], "step": 0}
    assert mine["id"] not in [t["id"] for t in httpx.get(f"{base}/api/tables").json()]
    # the replay page's "play on" form says so: its privacy box is ticked and cannot be
    # unticked (the page of a public match leaves it to the player)
    page = httpx.get(f"{base}/matches/{table['id']}", headers=players[1].headers, timeout=10)
    assert page.status_code == 200
    assert '<input type="checkbox" name="private" checked disabled>' in page.text
    assert 'id="branch-private-note"' in page.text
    public_id, _, _ = stored_match(base, "hanabi", 8)
    page = httpx.get(f"{base}/matches/{public_id}", headers=players[1].headers, timeout=10)
    assert '<input type="checkbox" name="private">' in page.text
    assert 'id="branch-private-note"' not in page.text


async def test_a_branch_rematch_plays_on_from_the_same_moment_again(shared_server) -> None:
    base, ws_base = shared_server.url, shared_server.ws_url
    engine = ENGINES["hanabi"]
    match_id, states, _ = stored_match(base, "hanabi", 21)
    host = ApiClient(base, "Otra vez")
    first = branch(host, match_id, {"step": 3, "sandbox": True}).json()
    assert host.start(first["id"]).status_code == 200
    # the hot seat gives up for the seat it names, one it holds
    r = host.request("POST", f"/api/tables/{first['id']}/resign", params={"seat": 2})
    assert r.status_code == 403 and r.json()["code"] == "forbidden"
    r = host.request("POST", f"/api/tables/{first['id']}/resign", params={"seat": 1})
    assert r.status_code == 200, r.text
    ended = httpx.get(f"{base}/api/matches/{first['id']}", timeout=10).json()
    assert ended["outcome"]["details"]["seat"] == 1
    r = host.request("POST", f"/api/tables/{first['id']}/rematch")
    assert r.status_code == 200, r.text
    again = r.json()["table"]
    assert again["id"] != first["id"] and again["branch_of"] == {"match": match_id, "step": 3}
    # the hot seat again: both seats the host's, and the same position for each
    assert [s["player"]["id"] for s in again["seats"]] == [host.id, host.id]
    assert host.start(again["id"]).status_code == 200
    for seat in range(2):
        state = await seat_view(ws_base, again["id"], host.token, seat)
        assert state["view"] == engine.view(states[3], seat)


async def play_hot_seat(ws_base: str, table_id: str, token: str, seats: int,
                        moves: int) -> dict[int, dict[str, Any]]:
    """``moves`` legal moves, each by the connection of the seat whose turn it is; the
    newest state of every seat."""
    newest: dict[int, dict[str, Any]] = {}
    for _ in range(moves):
        for seat in range(seats):
            state = await seat_view(ws_base, table_id, token, seat)
            if seat in state["to_act"]:
                client = SeatClient(ws_base, table_id, token)
                client.url += f"?seat={seat}"
                # a clue (never a play: a third strike would end the game here)
                action = next(a for a in state["legal_actions"]
                              if a["type"] in ("clue", "discard"))
                async with client:
                    await client.act_until_accepted(action)
                break
    for seat in range(seats):
        newest[seat] = await seat_view(ws_base, table_id, token, seat)
    return newest


async def test_a_branch_survives_a_restart_and_its_bots_finish_it(server) -> None:
    base, ws_base = server.url, server.ws_url
    engine = ENGINES["hanabi"]
    match_id, states, _ = stored_match(base, "hanabi", 17, options={"bot_delay": 0})
    host = ApiClient(base, "Sola")
    table = branch(host, match_id, {"step": 5, "sandbox": True}).json()
    assert host.start(table["id"]).status_code == 200
    before = await play_hot_seat(ws_base, table["id"], host.token, 2, 2)
    assert before[0]["version"] == before[1]["version"]
    server.restart(kill=True)  # only what was stored survives: the position and the moves
    for seat in range(2):
        state = await seat_view(ws_base, table["id"], host.token, seat)
        assert state["version"] == before[seat]["version"]
        assert state["view"] == before[seat]["view"]
        assert state["legal_actions"] == before[seat]["legal_actions"]
    r = host.request("POST", f"/api/tables/{table['id']}/hot-seat/bots", json={})
    assert r.status_code == 200, r.text
    assert all(s["autopilot"] for s in r.json()["seats"])
    async with SeatClient(ws_base, table["id"], None) as watcher:
        await watcher.wait_status("finished", timeout=60)
    # its own replay starts at the branch's position: the original's views at step 5
    for seat in ("0", "1", "spectator"):
        mine = httpx.get(f"{base}/api/matches/{table['id']}/views/0", params={"seat": seat},
                         timeout=10).json()["view"]
        original = httpx.get(f"{base}/api/matches/{match_id}/views/5", params={"seat": seat},
                             timeout=10).json()["view"]
        assert mine == original, seat
    replayed = httpx.get(f"{base}/api/matches/{table['id']}/replay", timeout=10).json()
    assert replayed["outcome"] and replayed["steps"][0]["step"] == 1
    assert engine.outcome(states[-1]) is not None
    # a branch of the branch: its step 1, where the branch's own replay was
    r = branch(host, table["id"], {"step": 1, "sandbox": True})
    assert r.status_code == 201, r.text
    deeper = r.json()
    assert deeper["branch_of"] == {"match": table["id"], "step": 1}
    assert host.start(deeper["id"]).status_code == 200
    for seat in range(2):
        state = await seat_view(ws_base, deeper["id"], host.token, seat)
        assert state["view"] == httpx.get(f"{base}/api/matches/{table['id']}/views/1",
                                          params={"seat": seat}, timeout=10).json()["view"]
