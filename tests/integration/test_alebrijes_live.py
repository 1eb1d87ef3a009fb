"""Alebrijes over a real server (SQLite and PostgreSQL): whole 3- and 6-player games played
by the generic legal-actions client, stored and replayable; every state message is exactly
the engine's view for that seat and shows no card id of another seat's hand; engine errors
reach the sender with their codes."""

from __future__ import annotations

import json
import random
from typing import Any

import httpx
import pytest

from app.games import ENGINES
from app.games.base import engine_options
from tests.support.client import SeatClient, connect_and_start, play_to_end, seat_players

pytestmark = pytest.mark.asyncio

ENGINE = ENGINES["alebrijes"]


def replay(match: dict[str, Any]) -> dict[int, Any]:
    """Rebuild a stored game from its seed and actions: the states by table version."""
    state = ENGINE.setup(len(match["seats"]), engine_options(match["options"]), match["seed"])
    actions = match["actions"]
    by_version = {actions[0]["seq"] - 1: state}
    for record in actions:
        assert record["source"] == "player"
        state, _ = ENGINE.apply(state, record["seat"], record["action"])
        by_version[record["seq"]] = state
    return by_version


@pytest.mark.parametrize("seats", [3, 6])
async def test_whole_game_is_played_stored_and_replayable(shared_server_each_db,
                                                          seats: int) -> None:
    players, table, _ = seat_players(shared_server_each_db.url, "alebrijes", seats)
    clients = [SeatClient(shared_server_each_db.ws_url, table["id"], p.token) for p in players]
    for c in clients:
        await c.open()
    assert players[0].start(table["id"]).status_code == 200
    final = await play_to_end(clients, random.Random(seats), max_moves=8000)
    assert final["table"]["status"] == "finished"
    outcome = final["table"]["outcome"]
    rounds = outcome["details"]["rounds"]
    assert [r["round"] for r in rounds] == [1, 2, 3]
    assert rounds[-1]["totals"] == outcome["scores"]
    assert all(r["points"][r["out"]] == 0 for r in rounds)
    assert outcome["winners"] == outcome["ranking"][0]
    for c in clients:
        assert c.state["view"]["outcome"] == outcome
        assert c.state["view"]["phase"] == "over" and c.state["legal_actions"] == []

    match = httpx.get(f"{shared_server_each_db.url}/api/matches/{table['id']}").json()
    assert match["game"] == "alebrijes" and match["outcome"] == outcome
    states = replay(match)
    last = states[final["version"]]
    assert ENGINE.outcome(last).to_json() == outcome
    checked = 0
    for c in clients:
        for message in c.received:
            if message["type"] != "state" or message["view"] is None:
                continue
            seat, state = message["seat"], states[message["version"]]
            view = message["view"]
            assert view == json.loads(json.dumps(ENGINE.view(state, seat)))
            others = {i for s, hand in enumerate(state.hands) if s != seat for i, _c in hand}
            shown = {card["id"] for card in view["hand"]}
            assert not shown & others
            text = json.dumps({k: v for k, v in view.items() if k not in ("hand", "legal")})
            assert '"id"' not in text  # only your own hand carries card ids
            checked += 1
    assert checked > len(match["actions"])
    for c in clients:
        await c.close()


async def test_illegal_moves_get_the_engine_error_codes(shared_server) -> None:
    players, table, _ = seat_players(shared_server.url, "alebrijes", 3)
    clients = await connect_and_start(shared_server.ws_url, players, table)
    mover = next(c for c in clients if c.my_turn())
    other = next(c for c in clients if not c.my_turn())

    async def expect(client: SeatClient, action: dict, code: str) -> None:
        await client.act(action)
        assert (await client.next_of("error"))["code"] == code

    hand = [card["id"] for card in mover.state["view"]["hand"]]
    await expect(other, {"type": "exchange", "cards": []}, "not_your_turn")
    await expect(mover, {"type": "exchange", "cards": hand[:3]}, "too_many_cards")
    await expect(mover, {"type": "pass", "cards": []}, "wrong_phase")
    await expect(mover, {"type": "dance"}, "unknown_action")
    version = mover.state["version"]
    await mover.act({"type": "exchange", "cards": hand[:2]})
    state = await mover.wait_version(version + 1)
    assert len(state["view"]["hand"]) == len(hand)
    assert not {c["id"] for c in state["view"]["hand"]} & set(hand[:2])
    for c in clients:
        await c.close()
