"""A broadcast encodes the parts the seats' messages share once (BroadcastEncoder): the text
each connection gets must be exactly the message encoded on its own, for every game, and
only the very same object is ever reused, never an equal-looking one of another seat."""

from __future__ import annotations

import asyncio

import orjson
import pytest

import app.tables.actor as actor_module
from app.games import ENGINES
from app.tables.connections import BroadcastEncoder, encode
from bench.actor import play


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


@pytest.mark.parametrize("game", sorted(ENGINES))
def test_every_broadcast_of_a_whole_game_is_what_encoding_each_message_gives(
        game: str, monkeypatch: pytest.MonkeyPatch) -> None:
    checked = []

    class Checked(BroadcastEncoder):
        def encode_bytes(self, message):  # type: ignore[no-untyped-def]
            payload = super().encode_bytes(message)
            assert payload == encode(message).encode()
            checked.append(message.get("seat"))
            return payload

    monkeypatch.setattr(actor_module, "BroadcastEncoder", Checked)
    engine = ENGINES[game]
    actions, _cpu = asyncio.run(play(game, engine.min_players, 1))
    assert actions > 0
    assert len(checked) >= actions  # every seat's message of every move went through it
