"""Bad input over the table WebSocket, for every game: clear errors, nothing changed for the
other players, the connection closed only for abuse.

- Limits: messages per second (a flood is closed), connections per player, chat rate,
  binary frames, oversized messages.
- Hypothesis-generated messages for every registered game (wrong types, unknown actions,
  another seat's actions, stale and future versions, junk fields, huge payloads): every
  reply is a well-formed message, never an internal error; afterwards the table still plays.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.games import ENGINES
from app.tables import limits
from tests.support.client import ApiClient, SeatClient, connect_and_start, seat_players

KNOWN_TYPES = {"state", "error", "pong", "chat", "ephemeral", "closed"}


async def drain(client: SeatClient, until: str = "pong", timeout: float = 10) -> list[dict]:
    """Everything the server sends until the reply of a ping we send now."""
    await client.send({"type": "ping"})
    seen = []
    while True:
        message = await client.recv(timeout)
        seen.append(message)
        if message["type"] == until:
            return seen


def check_replies(replies: list[dict]) -> None:
    for message in replies:
        assert message["type"] in KNOWN_TYPES, message
        assert isinstance(message.get("version"), int), message
        if message["type"] == "error":
            assert message["code"] and message["message"], message
            assert message["code"] != "internal_error", message


@pytest.mark.asyncio
async def test_limits_give_clear_errors_and_only_a_flood_closes(shared_server) -> None:
    server = shared_server
    players, table, _ = seat_players(server.url, "hanabi", 2)
    a, b = await connect_and_start(server.ws_url, players, table)
    # binary frames: a clear error, the connection stays
    assert a.ws is not None
    await a.ws.send(b'{"type": "sync"}')
    replies = await drain(a)
    check_replies(replies)
    assert any(m["type"] == "error" and m["code"] == "bad_message" for m in replies)
    # oversized: a clear error, the connection stays
    await a.send({"type": "chat", "text": "x" * 40_000})
    replies = await drain(a)
    assert any(m.get("code") == "too_large" for m in replies)
    # chat: a burst, then a clear "slow down"
    for i in range(limits.CHAT_BURST):
        await a.send({"type": "chat", "text": f"hola {i}"})
    await a.send({"type": "chat", "text": "one too many"})
    replies = await drain(a)
    assert [m["text"] for m in replies if m["type"] == "chat"] == [
        f"hola {i}" for i in range(limits.CHAT_BURST)]
    assert any(m.get("code") == "chat_rate" for m in replies)
    # connections per player: the one over the limit is refused with a reason
    extra = [SeatClient(server.ws_url, table["id"], players[1].token)
             for _ in range(limits.CONNECTIONS_PER_PLAYER - 1)]
    for c in extra:
        await c.open()
    over = SeatClient(server.ws_url, table["id"], players[1].token)
    assert over.ws is None
    from websockets.asyncio.client import connect
    over.ws = await connect(over.url, additional_headers=over.headers)
    refused = await over.next_of("error")
    assert refused["code"] == "too_many_connections"
    for c in extra:
        await c.close()
    await over.close()
    # a flood: rate-limited with one error, then closed as abuse; the table goes on
    flood = SeatClient(server.ws_url, table["id"], players[1].token)
    await flood.open()
    with pytest.raises(Exception):  # noqa: B017 - the server closes the socket mid-flood
        for _ in range(2000):
            await flood.send({"type": "ping"})
        for _ in range(5000):
            await flood.recv(5)
    await flood.close()
    codes = [m.get("code") for m in flood.received if m["type"] == "error"]
    assert codes.count("rate_limited") == 1 and "flood" in codes
    await a.send({"type": "sync"})
    await a.next_of("state")
    mover = a if a.my_turn() else b
    if mover is b:
        await b.send({"type": "sync"})
        await b.next_of("state")
    version = mover.state["version"]
    await mover.act(mover.state["legal_actions"][0])
    assert (await mover.wait_version(version + 1))["version"] == version + 1
    for c in (a, b):
        await c.close()


# ------------------------------------------------------------------ generated messages

json_leaf = st.one_of(st.none(), st.booleans(), st.integers(-2**70, 2**70),
                      st.floats(allow_nan=False, allow_infinity=False),
                      st.text(max_size=20))
json_value = st.recursive(json_leaf, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=8), inner, max_size=4)),
    max_leaves=12)


def messages_for(legal_pool: list[dict]) -> st.SearchStrategy[Any]:
    """Messages a confused or hostile client might send to a table."""
    mutated_action = st.builds(
        lambda base, key, value: {**base, key: value},
        st.sampled_from(legal_pool or [{"type": "x"}]),
        st.sampled_from(sorted({k for a in legal_pool for k in a} | {"type", "seat", "zz"})),
        json_value)
    action = st.one_of(st.sampled_from(legal_pool or [{}]), mutated_action,
                       st.dictionaries(st.text(max_size=6), json_value, max_size=3))
    version = st.one_of(st.integers(-5, 10_000), st.sampled_from([0, 1, 2**62]),
                        json_value)
    return st.one_of(
        st.builds(lambda a, v: {"type": "action", "action": a, "version": v}, action, version),
        st.builds(lambda t: {"type": "chat", "text": t}, st.text(max_size=600)),
        st.builds(lambda d: {"type": "ephemeral", "data": d}, json_value),
        st.dictionaries(st.sampled_from(["type", "action", "version", "text", "data", "x"]),
                        json_value, max_size=4),
        json_value,
        st.sampled_from(["{", "nul\x00l", "[]", "\"\"", "1e999", "{\"type\":\"action\"}"]),
    )


def _dump(message: Any) -> str:
    return message if isinstance(message, str) else json.dumps(message)


@pytest.mark.parametrize("game_id", sorted(ENGINES))
def test_generated_messages_never_harm_a_table(shared_server, game_id: str) -> None:
    engine = ENGINES[game_id]
    seats = engine.min_players
    server = shared_server
    players, table, _ = seat_players(server.url, game_id, seats)

    async def setup() -> list[dict]:
        clients = await connect_and_start(server.ws_url, players, table)
        pool = [a for c in clients for a in c.state["legal_actions"]]
        for c in clients:
            await c.close()
        return pool

    pool = asyncio.run(setup())
    outsider = ApiClient(server.url, "Intrusa")

    async def attack(batch: list[Any], who: ApiClient) -> None:
        client = SeatClient(server.ws_url, table["id"], who.token)
        await client.open()
        for message in batch:
            await client.send(_dump(message))
        replies = await drain(client)
        check_replies(replies)
        await client.close()

    @settings(max_examples=12, deadline=None, derandomize=True,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(st.lists(messages_for(pool), min_size=1, max_size=15), st.booleans())
    def run(batch: list[Any], as_outsider: bool) -> None:
        asyncio.run(attack(batch, outsider if as_outsider else players[1]))

    run()

    async def still_plays() -> None:
        clients = [SeatClient(server.ws_url, table["id"], p.token) for p in players]
        for c in clients:
            await c.open()
        state = clients[0].state
        assert state is not None and state["table"]["status"] in ("playing", "finished")
        if state["table"]["status"] == "playing":
            version = max(c.state["version"] for c in clients)
            mover = next(c for c in clients if c.my_turn() and c.state["version"] == version)
            await mover.act(mover.state["legal_actions"][0])
            assert (await mover.wait_version(version + 1))["version"] == version + 1
        for c in clients:
            await c.close()

    asyncio.run(still_plays())


async def test_chat_with_characters_no_database_stores_is_refused_before_it_is_accepted(
        server) -> None:
    """A NUL (or a lone surrogate) in live chat is a bad message, told at once: PostgreSQL
    cannot store it, and it used to be accepted, pushed, then lost with a storage error."""
    players, table, _ = seat_players(server.url, "hanabi", 2)
    a, b = await connect_and_start(server.ws_url, players, table)
    for text in ("nul\x00here", "half \ud800 a pair", "bell\x07"):
        await a.send(json.dumps({"type": "chat", "text": text}))  # (escaped: \u0000, \ud800)
        replies = await drain(a)
        errors = [m for m in replies if m["type"] == "error"]
        assert [e["code"] for e in errors] == ["bad_message"], replies
        assert errors[0]["message"].startswith("chat.text"), errors  # says which field
        if "\ud800" not in text:
            assert "control characters" in errors[0]["message"]
        assert not any(m["type"] == "chat" and m["kind"] != "system" for m in replies)
    await a.send({"type": "chat", "text": "línea\tcon tab\ny salto"})
    line = await a.next_of("chat")
    while line["kind"] == "system":
        line = await a.next_of("chat")
    assert line["text"] == "línea\tcon tab\ny salto"
    seen_by_b = await b.next_of("chat")
    while seen_by_b["kind"] == "system":
        seen_by_b = await b.next_of("chat")
    assert seen_by_b["id"] == line["id"]
    await a.close()
    await b.close()
    # the line is stored: a new connection gets it back with the table's chat
    async with SeatClient(server.ws_url, table["id"], players[1].token) as again:
        got = await again.next_of("chat")
        while got.get("kind") == "system":
            got = await again.next_of("chat")
        assert got["text"] == "línea\tcon tab\ny salto"
