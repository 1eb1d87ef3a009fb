"""A broadcast encodes the parts the seats' messages share once (BroadcastEncoder): the text
each connection gets must be exactly the message encoded on its own, for every game, and
only the very same object is ever reused, never an equal-looking one of another seat."""

from __future__ import annotations

import asyncio
import random
from datetime import UTC, datetime
from typing import Any

import orjson
import pytest

from app.games import ENGINES
from app.tables.actor import TableActor
from app.tables.connections import BroadcastEncoder, Connection, encode
from app.tables.core import views
from app.tables.core.commands import Act, Join, Start
from app.tables.core.state import TableStatus, new_table
from app.tables.engine import adapt
from tests.tables.support import MemoryRepo


def test_a_shared_list_is_encoded_once_and_spliced_where_it_is_the_same_object() -> None:
    log = [{"type": "clue", "seat": s} for s in range(6)]
    table = {"id": "t", "seats": [0, 1, 2, 3]}
    messages = [{"type": "state", "table": table, "seat": seat,
                 "view": {"me": seat, "log": log, "hand": [seat] * 5}} for seat in range(4)]
    encoder = BroadcastEncoder()
    assert [encoder.encode(m) for m in messages] == [encode(m) for m in messages]
    assert len(encoder._memo) == 1 + 1 + 4  # the table, the log, and each seat's own hand


def test_a_seats_own_list_of_shared_hands_splices_each_hand_as_itself() -> None:
    # Hanabi's shape: each hand built twice (as its owner sees it, as the others do) and each
    # seat's view listing, per owner, the one that seat may see
    backs = [[{"id": 4 * o + i, "knowledge": {"color": None}} for i in range(4)]
             for o in range(4)]
    faces = [[{**card, "color": "red", "rank": o + 1} for card in hand]
             for o, hand in enumerate(backs)]
    messages = [{"seat": seat, "view": {"hands": [backs[o] if o == seat else faces[o]
                                                  for o in range(4)]}} for seat in range(4)]
    encoder = BroadcastEncoder()
    texts = [encoder.encode(m) for m in messages]
    assert texts == [encode(m) for m in messages]
    for seat, text in enumerate(texts):
        hands = orjson.loads(text)["view"]["hands"]
        assert all("rank" not in card for card in hands[seat])  # its own cards stay hidden
        assert all("rank" in card for o, hand in enumerate(hands) if o != seat
                   for card in hand)


def test_an_equal_looking_part_of_another_seat_is_never_reused() -> None:
    encoder = BroadcastEncoder()
    mine = {"view": {"hand": [{"id": i, "color": "red", "rank": 1} for i in range(5)]}}
    theirs = {"view": {"hand": [{"id": i, "knowledge": None} for i in range(5)]}}
    first = encoder.encode(mine)
    second = encoder.encode(theirs)
    assert orjson.loads(first) == mine and orjson.loads(second) == theirs
    assert "red" not in second
    # the same list changed between two broadcasts: a new encoder encodes it anew
    mine["view"]["hand"][0]["color"] = "blue"
    assert "blue" in BroadcastEncoder().encode(mine)


def test_non_string_keys_still_encode() -> None:
    message = {"view": {"scores": [{1: 2}, {3: 4}, {5: 6}, {7: 8}]}, "table": {"x": {0: 1}}}
    assert BroadcastEncoder().encode(message) == encode(message)


class _Recorder(Connection):
    """A connection that keeps what it is sent."""

    def __init__(self, player_id: str | None) -> None:
        async def nowhere(*_args: object) -> None:
            return None

        super().__init__(player_id, nowhere, nowhere, 10_000)
        self.sent: list[bytes] = []

    def push_bytes(self, payload: bytes) -> None:
        self.sent.append(payload)


async def _whole_game(game: str, options: dict[str, object], monkeypatch: pytest.MonkeyPatch
                      ) -> int:
    """Play a whole game with every seat, a spectator and a table screen connected; after
    every broadcast, each connection's bytes must be its state message encoded whole."""
    engine = ENGINES[game]
    seats = engine.min_players
    adapter = adapt(engine)
    players = [f"p{i}" for i in range(seats)]
    table = new_table(id="t", engine=adapter, seat_count=seats,
                      options={o.name: o.default for o in engine.options} | options,
                      private=False, invite_token="invite", seed=7,
                      created_at=datetime.now(UTC), host_id=players[0], host_name="P0")
    actor = TableActor(table, MemoryRepo(), clock=lambda: 1000.0)  # type: ignore[arg-type]
    checked = [0]
    original = TableActor._broadcast

    def broadcast(self: TableActor, effect: Any) -> None:
        for conn in self.connections.values():
            conn.sent.clear()  # type: ignore[attr-defined]
        original(self, effect)
        for conn in self.connections.values():
            known = self.table.conns.get(conn.id)
            if known is None or conn.id == effect.exclude:
                continue
            expected = encode(views.state_message(self.table, known.seat, 1000.0,
                                                  effect.events, screen=known.screen))
            assert conn.sent == [expected.encode()]  # type: ignore[attr-defined]
            checked[0] += 1

    monkeypatch.setattr(TableActor, "_broadcast", broadcast)
    actor.start()
    try:
        for i in range(1, seats):
            await actor.submit(Join(players[i], f"P{i}"))
        for player in players:
            await actor.connect(_Recorder(player))
        await actor.connect(_Recorder(None), watch=True)
        screen = _Recorder(None)
        screen.screen = True
        await actor.connect(screen, watch=True)
        await actor.submit(Start(players[0]))
        rng = random.Random(3)
        moves = 0
        while actor.table.status is TableStatus.PLAYING and moves < 400:
            seat = min(adapter.waiting_for(actor.state) or engine.to_act(actor.state))
            legal = engine.legal_actions(actor.state, seat)
            calm = [a for a in legal if a.get("type") != "play"] or legal
            await actor.submit(Act(players[seat], rng.choice(calm), actor.table.version))
            moves += 1
    finally:
        await actor.stop()
    assert moves > 0
    return checked[0]


@pytest.mark.parametrize("game", sorted(ENGINES))
def test_every_broadcast_of_a_whole_game_is_each_message_encoded_whole(
        game: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # every game's go through the shell's BroadcastEncoder (no engine encodes its views):
    # each connection gets exactly its own message, seats, spectator and screen alike
    assert not hasattr(ENGINES[game], "view_json")
    checked = asyncio.run(_whole_game(game, {}, monkeypatch))
    assert checked > 0


@pytest.mark.parametrize("game", sorted(g for g, e in ENGINES.items()
                                        if getattr(e, "cooperative", False)))
def test_spectators_who_see_all_get_the_revealed_view_and_the_screen_does_not(
        game: str, monkeypatch: pytest.MonkeyPatch) -> None:
    checked = asyncio.run(_whole_game(game, {"spectators_see_all": True}, monkeypatch))
    assert checked > 0


def _hanabi_states(options: dict[str, object], seats: int, seed: int) -> list[Any]:
    engine = ENGINES["hanabi"]
    rng = random.Random(seed)
    state = engine.setup(seats, options, seed)
    states = [state]
    while not state.over:
        engine.view(state, None)  # viewed as it is played: the next state starts from it
        legal = engine.legal_actions(state, state.turn)
        calm = [a for a in legal if a["type"] != "play"] or legal
        state, _events = engine.apply(state, state.turn, rng.choice(calm))
        states.append(state)
    return states


@pytest.mark.parametrize(("options", "seats"), [
    ({}, 4), ({}, 2), ({"multicolor": True}, 5), ({"fuses": 1, "clue_tokens": 10}, 3)])
def test_hanabis_shared_view_parts_are_the_view_built_afresh_for_every_reader(
        options: dict[str, object], seats: int) -> None:
    """Hanabi builds the parts its seats see alike once per state and carries unchanged
    hands over from the state it was copied from: every reader's view of every state is
    the one a state rebuilt from its record gives."""
    engine = ENGINES["hanabi"]
    for seed in range(3):
        for state in _hanabi_states(options, seats, seed):
            fresh = engine.load(orjson.loads(orjson.dumps(engine.dump(state))))
            for seat in [None, *range(seats)]:
                assert orjson.dumps(engine.view(state, seat)) == orjson.dumps(
                    engine.view(fresh, seat))
            assert orjson.dumps(engine.view_all(state)) == orjson.dumps(
                engine.view_all(fresh))


def test_hanabis_view_never_shows_a_seat_its_own_cards() -> None:
    engine = ENGINES["hanabi"]
    state = _hanabi_states({}, 4, 1)[10]
    for seat in range(4):
        hands = engine.view(state, seat)["hands"]
        assert all("rank" not in card and "color" not in card for card in hands[seat])
        assert all("rank" in card for owner, hand in enumerate(hands) if owner != seat
                   for card in hand)
    spectator = engine.view(state, None)["hands"]
    assert all("rank" not in card for hand in spectator for card in hand)
