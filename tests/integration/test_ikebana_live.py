"""Ikebana over a real server (SQLite and PostgreSQL): whole 2- and 5-player games played by
the generic legal-actions client, stored and replayable; engine errors reach the sender; and
no state message ever shows anyone a card still in the deck or under a discard-pile top."""

from __future__ import annotations

import random
from typing import Any

import httpx
import pytest

from app.games import ENGINES
from app.games.base import Rng, engine_options
from app.games.ikebana.data import CARDS, card_json
from tests.support.client import (
    ApiClient,
    SeatClient,
    connect_and_start,
    play_to_end,
    seat_players,
)

pytestmark = pytest.mark.asyncio

ENGINE = ENGINES["ikebana"]


def seat_up(server, seats: int, options: dict | None = None):
    players, table, _ = seat_players(server.url, "ikebana", seats, options)
    return players, table


def replay(match: dict[str, Any]) -> tuple[Any, dict[int, Any]]:
    """Rebuild a stored game from its seed and actions; the states by table version."""
    state = ENGINE.setup(len(match["seats"]), engine_options(match["options"]), match["seed"])
    actions = match["actions"]
    by_version = {actions[0]["seq"] - 1: state}
    for record in actions:
        assert record["source"] == "player" and record["at"]
        state, _ = ENGINE.apply(state, record["seat"], record["action"])
        by_version[record["seq"]] = state
    assert list(by_version) == list(range(actions[0]["seq"] - 1, actions[-1]["seq"] + 1))
    return state, by_version


@pytest.mark.parametrize("seats,options", [(2, {}), (5, {"final_bouquet_double": True})])
async def test_whole_game_is_played_stored_and_replayable(server, seats: int,
                                                          options: dict) -> None:
    players, table = seat_up(server, seats, options)
    clients = [SeatClient(server.ws_url, table["id"], p.token) for p in players]
    for c in clients:
        await c.open()
    assert players[0].start(table["id"]).status_code == 200
    final = await play_to_end(clients, random.Random(seats))
    assert final["table"]["status"] == "finished"
    outcome = final["table"]["outcome"]
    assert len(outcome["scores"]) == seats
    assert sorted(s for group in outcome["ranking"] for s in group) == list(range(seats))
    assert outcome["winners"] == outcome["ranking"][0]
    rounds = outcome["details"]["rounds"]
    assert [r["round"] for r in rounds] == [1, 2, 3, 4]
    assert [r["doubled"] for r in rounds] == [False, False, False, bool(options)]
    assert [p["prestige"] for p in rounds[-1]["players"]] == outcome["scores"]
    for c in clients:  # every seat sees the same ending
        assert c.state["view"]["outcome"] == outcome
        assert c.state["view"]["phase"] == "over" and c.state["legal_actions"] == []

    listed = httpx.get(f"{server.url}/api/matches", params={"game": "ikebana"}).json()
    assert [m["id"] for m in listed] == [table["id"]]
    match = httpx.get(f"{server.url}/api/matches/{table['id']}").json()
    assert match["game"] == "ikebana" and match["outcome"] == outcome
    assert [s["seat"] for s in match["seats"]] == list(range(seats))
    assert [s["player"]["id"] for s in match["seats"]] == [p.id for p in players]
    assert match["options"]["final_bouquet_double"] is bool(options)
    assert isinstance(match["seed"], int)
    assert match["actions"][-1]["seq"] == final["version"]
    # seed + actions through the engine give the same game, down to every seat's last view
    state, _ = replay(match)
    assert ENGINE.outcome(state).to_json() == outcome
    for c in clients:
        assert ENGINE.view(state, c.state["seat"]) == c.state["view"]
    for c in clients:
        await c.close()


async def test_illegal_moves_get_the_engine_error_codes(shared_server) -> None:
    players, table = seat_up(shared_server, 2)
    a, b = await connect_and_start(shared_server.ws_url, players, table)
    mover, other = (a, b) if a.my_turn() else (b, a)
    me = mover.state["seat"]

    async def expect(client: SeatClient, action: dict, code: str) -> None:
        await client.act(action)
        assert (await client.next_of("error"))["code"] == code

    await expect(other, {"type": "draw"}, "not_your_turn")
    await expect(mover, {"type": "keep"}, "not_drawing")
    await expect(mover, {"type": "buy", "from": me}, "own_pile")
    await expect(mover, {"type": "buy", "from": 1 - me}, "empty_pile")
    await expect(mover, {"type": "fold"}, "unknown_action")
    version = mover.state["version"]
    await mover.act({"type": "draw"})
    state = await mover.wait_version(version + 1)
    assert state["view"]["phase"] == "consider" and state["view"]["hand"] is not None
    assert {a["type"] for a in state["legal_actions"]} == {"keep", "reject"}
    await expect(mover, {"type": "buy", "from": 1 - me}, "already_drawing")
    await a.close()
    await b.close()


# --------------------------------------------------------------------------- hidden cards

CARD_PLACES = (  # where a card may appear in a view: face-up places only
    ("players", int, "bouquet", int),
    ("players", int, "pile", "top"),
    ("hand",),
    ("last_round", "players", int, "bouquet", int),
    ("outcome", "details", "rounds", int, "players", int, "bouquet", int),
)


def card_paths(node: Any, path: tuple = ()) -> list[tuple[tuple, dict]]:
    """Every card-shaped object (colour + number) inside a JSON value, with its path."""
    found = []
    if isinstance(node, dict):
        if {"colour", "number"} <= set(node):
            assert set(node) == {"colour", "number"}, f"a card carries more than its face: {node}"
            found.append((path, node))
        for key, value in node.items():
            found.extend(card_paths(value, (*path, key)))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            found.extend(card_paths(value, (*path, i)))
    return found


def allowed(path: tuple) -> bool:
    return any(len(p) == len(path) and all(
        isinstance(part, int) if want is int else part == want for part, want in zip(path, p,
                                                                                      strict=True))
        for p in CARD_PLACES)


def check_view(view: dict, state: Any) -> None:
    """The view shows exactly the face-up cards of ``state``: bouquets, pile tops, the hand."""
    for path, _ in card_paths(view):
        assert allowed(path), f"card at unexpected place {path}"
    assert view["deck"] == len(state.deck)
    assert view["hand"] == (card_json(state.hand) if state.hand is not None else None)
    for seat, player in enumerate(view["players"]):
        assert player["bouquet"] == [card_json(c) for c in state.bouquets[seat]]
        pile = state.piles[seat]
        assert player["pile"] == {"size": len(pile),
                                  "top": card_json(pile[-1]) if pile else None}


def check_events(events: list[dict], before: Any, after: Any) -> None:
    """Each card an event names is a face-up card of the transition ``before`` -> ``after``."""
    face_up = [c for b in before.bouquets for c in b] + [p[-1] for p in before.piles if p]
    face_up += [c for b in after.bouquets for c in b] + [p[-1] for p in after.piles if p]
    face_up += [h for h in (before.hand, after.hand) if h is not None]
    shown = {(CARDS[c][0], CARDS[c][1]) for c in face_up}
    for event in events:
        for path, card in card_paths(event):
            if event["type"] == "round_scored":
                assert path[0] == "players" and path[2] == "bouquet", path
                seat, i = path[1], path[3]
                assert card == card_json(after.rounds[-1]["bouquets"][seat][i])
            else:
                assert path == ("card",), (event, path)
                assert (card["colour"], card["number"]) in shown, event
        if event["type"] == "drew":
            assert event["card"] == card_json(after.hand)
        if event["type"] == "rejected":
            assert event["card"] == card_json(after.piles[event["seat"]][-1])


async def test_no_hidden_card_reaches_anyone(shared_server) -> None:
    players, table = seat_up(shared_server, 3)
    clients = [SeatClient(shared_server.ws_url, table["id"], p.token) for p in players]
    stranger = ApiClient(shared_server.url, "Mallory")
    watchers = [SeatClient(shared_server.ws_url, table["id"], stranger.token),
                SeatClient(shared_server.ws_url, table["id"], None)]
    everyone = [*clients, *watchers]
    for c in everyone:
        await c.open()
    players[0].start(table["id"])
    final = await play_to_end(everyone, random.Random(23))
    match = httpx.get(f"{shared_server.url}/api/matches/{table['id']}").json()
    _, states = replay(match)
    checked = 0
    rng = Rng.from_seed(99)
    for c in everyone:
        assert c.received[-1]["version"] == final["version"]
        for message in c.received:
            if message["type"] != "state" or message["view"] is None:
                continue
            seat, version = message["seat"], message["version"]
            state = states[version]
            view = message["view"]
            check_view(view, state)
            # re-dealing everything hidden from this seat changes nothing it is shown
            assert ENGINE.view(ENGINE.scramble(state, seat, rng), seat) == view
            if seat is None:
                assert message["legal_actions"] == [] and view["legal"] == []
            if message["events"] and version - 1 not in states:  # the start: round 1's line
                assert message["events"] == [{"type": "round_started", "round": 1,
                                              "starter": state.starter}]
            elif message["events"]:
                check_events(message["events"], states[version - 1], state)
            checked += 1
    assert checked > 5 * len(match["actions"])
    for c in everyone:
        await c.close()
