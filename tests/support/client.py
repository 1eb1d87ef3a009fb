"""A generic player that knows nothing of any game: it reads ``legal_actions`` and picks one.

Used by the integration tests (and by the load benchmark) to play whole games of any engine
through the public REST + WebSocket API.
"""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect


class ApiClient:
    """REST calls as one player."""

    def __init__(self, base_url: str, name: str) -> None:
        self.base_url = base_url
        created = httpx.post(f"{base_url}/api/players", json={"name": name}, timeout=10)
        created.raise_for_status()
        body = created.json()
        self.id, self.name, self.token = body["id"], body["name"], body["token"]
        self.headers = {"Authorization": f"Bearer {self.token}"}

    def request(self, method: str, path: str, **kwargs: Any) -> httpx.Response:
        """One request with this player's token (no pooled connection left open)."""
        return httpx.request(method, self.base_url + path, headers=self.headers, timeout=10,
                             **kwargs)

    def create_table(self, game: str, seats: int, options: dict | None = None,
                     private: bool = False) -> dict[str, Any]:
        r = self.request("POST", "/api/tables", json={"game": game, "seats": seats,
                                                "options": options or {}, "private": private})
        assert r.status_code == 201, r.text
        return r.json()

    def join(self, table_id: str, invite: str | None = None,
             seat: int | None = None) -> httpx.Response:
        return self.request("POST", f"/api/tables/{table_id}/join",
                            json={"invite": invite, "seat": seat})

    def start(self, table_id: str) -> httpx.Response:
        return self.request("POST", f"/api/tables/{table_id}/start")


class SeatClient:
    """One WebSocket connection to a table, keeping the newest state message."""

    def __init__(self, ws_base: str, table_id: str, token: str | None, invite: str | None = None):
        # the token travels in a header, never in the URL (URLs land in access logs)
        self.headers = {"Authorization": f"Bearer {token}"} if token else {}
        query = f"?invite={invite}" if invite else ""
        self.url = f"{ws_base}/ws/tables/{table_id}{query}"
        self.ws: ClientConnection | None = None
        self.state: dict[str, Any] | None = None
        self.received: list[dict[str, Any]] = []

    async def __aenter__(self) -> SeatClient:
        await self.open()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def open(self) -> None:
        self.ws = await connect(self.url, max_size=2**22, additional_headers=self.headers)
        await self.next_of("state")

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()

    async def recv(self, timeout: float = 10) -> dict[str, Any]:
        assert self.ws is not None
        message = json.loads(await asyncio.wait_for(self.ws.recv(), timeout))
        self.received.append(message)
        if message["type"] == "state":
            self.state = message
        return message

    async def next_of(self, kind: str, timeout: float = 10) -> dict[str, Any]:
        while True:
            message = await self.recv(timeout)
            if message["type"] == kind:
                return message

    async def wait_version(self, version: int, timeout: float = 10) -> dict[str, Any]:
        while self.state is None or self.state["version"] < version:
            await self.recv(timeout)
        return self.state

    async def wait_status(self, status: str, timeout: float = 10) -> dict[str, Any]:
        while self.state is None or self.state["table"]["status"] != status:
            await self.recv(timeout)
        return self.state

    async def send(self, message: dict[str, Any] | str) -> None:
        assert self.ws is not None
        await self.ws.send(message if isinstance(message, str) else json.dumps(message))

    async def act(self, action: dict[str, Any], version: int | None = None) -> None:
        assert self.state is not None
        await self.send({"type": "action", "action": action,
                         "version": self.state["version"] if version is None else version})

    async def act_until_accepted(self, action: dict[str, Any], timeout: float = 10) -> None:
        """Send a legal action; when the server drops it for going over the message rate (a
        script playing flat out does), wait a moment and send it again."""
        assert self.state is not None
        target = self.state["version"] + 1
        for _ in range(40):
            await self.act(action)
            while True:
                message = await self.recv(timeout)
                if message["type"] == "state" and message["version"] >= target:
                    return
                if message["type"] == "error":
                    break
            if message["code"] != "rate_limited":
                raise AssertionError(f"{action} refused: {message}")
            await asyncio.sleep(0.5)
        raise AssertionError(f"{action} kept being rate-limited")

    def my_turn(self) -> bool:
        return bool(self.state and self.state["seat"] in self.state["to_act"])


def seat_players(base_url: str, game: str, seats: int, options: dict | None = None,
                 private: bool = False) -> tuple[list[ApiClient], dict[str, Any], str]:
    """New players P0..Pn-1; P0 creates the table, the others join with its invite."""
    players = [ApiClient(base_url, f"P{i}") for i in range(seats)]
    table = players[0].create_table(game, seats, options, private)
    invite = table["invite_url"].rsplit("/", 1)[1]
    for p in players[1:]:
        r = p.join(table["id"], invite=invite)
        assert r.status_code == 200, r.text
    return players, table, invite


async def connect_and_start(ws_base: str, players: list[ApiClient],
                            table: dict[str, Any]) -> list[SeatClient]:
    """Open a connection per player, start the game, wait until everyone sees it playing."""
    clients = [SeatClient(ws_base, table["id"], p.token) for p in players]
    for c in clients:
        await c.open()
    assert players[0].start(table["id"]).status_code == 200
    for c in clients:
        await c.wait_status("playing")
    return clients


async def play_to_end(clients: list[SeatClient], rng: random.Random,
                      max_moves: int = 5000) -> dict[str, Any]:
    """Every client plays random legal actions until the table is finished."""
    for _ in range(max_moves):
        newest = max((c.state for c in clients if c.state), key=lambda s: s["version"])
        if newest["table"]["status"] == "finished":
            for c in clients:
                await c.wait_version(newest["version"])
            return newest
        movers = [c for c in clients if c.state["version"] == newest["version"] and c.my_turn()]
        if not movers:
            lagging = [c for c in clients if c.state["version"] < newest["version"]]
            if lagging:
                await asyncio.gather(*(c.wait_version(newest["version"]) for c in lagging))
            else:  # nobody may act yet (e.g. the game is about to start): wait for news
                await asyncio.gather(*(c.wait_version(newest["version"] + 1) for c in clients))
            continue
        mover = rng.choice(movers)
        await mover.act_until_accepted(rng.choice(mover.state["legal_actions"]))
        await asyncio.gather(*(c.wait_version(newest["version"] + 1) for c in clients))
    raise AssertionError("the game did not finish")


class Tally:
    """What a concurrent random game sent and how the server answered."""

    def __init__(self) -> None:
        self.sent = 0
        self.errors: dict[str, int] = {}
        self.accepted_types: dict[str, int] = {}

    @property
    def stale(self) -> int:
        return self.errors.get("stale_version", 0)

    def refused(self) -> int:
        return sum(self.errors.values())


async def play_concurrently(clients: list[SeatClient], rng: random.Random,
                            max_actions: int = 20_000, pause: float = 0.08,
                            slower: float = 0.0) -> Tally:
    """Every seat plays on its own, as people at a table do: whenever its newest state lets
    it act, it sends a random legal action for that state's version, then a ``ping``; the
    ``pong`` says the server has handled the action (one connection's messages are handled
    in order). In simultaneous games seats change their minds (re-picks, unpicks) while the
    others are still choosing. ``pause`` keeps each connection under the message rate;
    ``slower`` makes each seat after the first think that much longer again than the one
    before it (fast seats then change their minds while slow ones choose). Returns when the
    table is finished (``max_actions`` in all is a bug)."""
    tally = Tally()

    async def seat(client: SeatClient, index: int) -> None:
        thinking = pause * (1 + slower * index)
        while True:
            state = client.state
            assert state is not None
            if state["table"]["status"] == "finished":
                return
            if tally.sent >= max_actions:
                raise AssertionError(f"not finished after {tally.sent} actions: {tally.errors}")
            if state["seat"] not in state["to_act"] or not state["legal_actions"]:
                await client.recv(30)  # nothing to do: wait for news
                continue
            action = rng.choice(state["legal_actions"])
            tally.sent += 1
            await client.act(action, state["version"])
            await client.send({"type": "ping"})
            refused = False
            while (message := await client.recv(30))["type"] != "pong":
                if message["type"] == "error":
                    refused = True
                    tally.errors[message["code"]] = tally.errors.get(message["code"], 0) + 1
            if not refused:
                kind = action.get("type", "?")
                tally.accepted_types[kind] = tally.accepted_types.get(kind, 0) + 1
            await asyncio.sleep(thinking * (0.5 + rng.random()))

    await asyncio.gather(*(seat(c, i) for i, c in enumerate(clients)))
    return tally
