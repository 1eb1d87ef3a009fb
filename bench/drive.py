"""Load generator processes for bench.scale and bench.floor: seat tables, then drive them.

One generator process seats its share of table slots before anything is measured (each slot
holds a few seated, started tables; when a slot's game ends it moves on to the next one, so
no table is created while the server is measured), then drives them: ``closed`` sends a
slot's next action as soon as every seat holds the previous one; ``period`` (seconds) sends
on a fixed schedule per slot and counts a slot that is still waiting as missed. Latency is
from the send until the last seat of the table holds the new version.

The sockets are bench.wsclient's lean ones; state messages are parsed only for the seat
that may act (the others are read for their version and status by a prefix search), so the
generator costs far less per action than the server it measures.
"""

from __future__ import annotations

import asyncio
import random
import re
import time
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any
from urllib.parse import urlsplit

import httpx
import orjson

from bench.wsclient import LeanSocket, open_socket

VERSION = re.compile(rb'"version":(\d+)')
NO_LEGAL = b'"legal_actions":[]'


@dataclass
class Slot:
    http: str  # where its tables are created and joined
    ws: str  # where their sockets connect
    index: int
    floor: bool = False  # bench.wsfloor: no REST, a socket /t/<table>/<seat> is a seat
    invite_page: bool = False  # each joiner opens the invite link's page first, as a browser


@dataclass
class Game:
    id: str
    sockets: list[LeanSocket] = field(default_factory=list)
    versions: list[int] = field(default_factory=list)
    acting: dict[int, dict[str, Any]] = field(default_factory=dict)  # seat -> state
    finished: bool = False
    sent_for: int = -1  # the version the pending action was sent for (-1: none pending)
    sent_at: float = 0.0


# random moves end Hanabi in ~20 (three fuses): plays only when nothing else is legal
AVOID = ("play",)


def choose(rng: random.Random, legal: list[dict[str, Any]],
           avoid: tuple[str, ...] = AVOID) -> dict[str, Any]:
    """A random legal action, of a type not in ``avoid`` while there is one."""
    return rng.choice([a for a in legal if a.get("type") not in avoid] or legal)


class Driver:
    def __init__(self, slots: list[Slot], game: str, seats: int, per_slot: int,
                 seed: int, avoid: tuple[str, ...] = AVOID) -> None:
        self.slots = slots
        self.game = game
        self.seats = seats
        self.per_slot = per_slot
        self.rng = random.Random(seed)
        self.avoid = avoid
        self.queues: dict[int, list[Game]] = {}
        self.current: dict[int, Game] = {}
        self.latencies: list[float] = []
        self.sent = 0
        self.driven = 0
        self.missed = 0
        self.starved = 0  # slots that ran out of seated games
        self.errors: dict[str, int] = {}
        self.measuring = False
        self.wake: dict[int, asyncio.Event] = {}
        self.seating_s = 0.0

    # ------------------------------------------------------------------ seating

    async def seat_all(self) -> None:
        started = time.perf_counter()
        clients: dict[str, httpx.AsyncClient] = {}
        try:
            sem = asyncio.Semaphore(8)

            async def one(slot: Slot) -> None:
                if slot.floor:
                    self.queues[slot.index] = [await self.seat_floor(slot, g)
                                               for g in range(self.per_slot)]
                    return
                async with sem:
                    client = clients.setdefault(slot.http, httpx.AsyncClient(
                        base_url=slot.http, timeout=120))
                    tokens = []
                    for i in range(self.seats):
                        r = await client.post("/api/players", json={"name": f"s{slot.index}-{i}"})
                        r.raise_for_status()
                        tokens.append(r.json()["token"])
                    games = [await self.seat(client, slot, tokens) for _ in range(self.per_slot)]
                    self.queues[slot.index] = games
            await asyncio.gather(*(one(s) for s in self.slots))
        finally:
            for c in clients.values():
                await c.aclose()
        self.seating_s = time.perf_counter() - started

    async def seat(self, client: httpx.AsyncClient, slot: Slot, tokens: list[str]) -> Game:
        auth = [{"Authorization": f"Bearer {t}"} for t in tokens]
        r = await client.post("/api/tables", headers=auth[0], json={
            "game": self.game, "seats": self.seats, "options": {}})
        r.raise_for_status()
        table = r.json()
        invite = table["invite_url"].rsplit("/", 1)[1]
        for h in auth[1:]:
            if slot.invite_page:
                (await client.get(urlsplit(table["invite_url"]).path,
                                  headers={**h, "Accept": "text/html"})).raise_for_status()
            (await client.post(f"/api/tables/{table['id']}/join", headers=h,
                               json={"invite": invite})).raise_for_status()
        game = Game(table["id"], versions=[0] * self.seats)
        for seat, token in enumerate(tokens):
            game.sockets.append(await open_socket(
                f"{slot.ws}/ws/tables/{game.id}", self._reader(slot.index, game, seat),
                {"Authorization": f"Bearer {token}"}))
        (await client.post(f"/api/tables/{game.id}/start", headers=auth[0])).raise_for_status()
        return game

    async def seat_floor(self, slot: Slot, g: int) -> Game:
        game = Game(f"f{slot.index}-{g}", versions=[0] * self.seats)
        for seat in range(self.seats):
            game.sockets.append(await open_socket(
                f"{slot.ws}/t/{game.id}/{seat}", self._reader(slot.index, game, seat)))
        return game

    # ------------------------------------------------------------------ reading

    def _reader(self, slot: int, game: Game, seat: int) -> Any:
        def on_message(raw: bytes) -> None:
            head = raw[:48]
            if head.startswith(b'{"type":"state"'):
                match = VERSION.search(head)
                version = int(match.group(1)) if match else 0
                if NO_LEGAL in raw:
                    game.acting.pop(seat, None)
                else:
                    game.acting[seat] = orjson.loads(raw)
                if b'"status":"finished"' in raw:
                    game.finished = True
                game.versions[seat] = version
                self._arrived(slot, game)
            elif head.startswith(b'{"type":"error"'):
                code = orjson.loads(raw).get("code", "?")
                self.errors[code] = self.errors.get(code, 0) + 1
                game.sent_for = -1  # refused: that slot may send again
                self._arrived(slot, game)
        return on_message

    def _arrived(self, slot: int, game: Game) -> None:
        if game.sent_for >= 0 and min(game.versions) > game.sent_for:
            if self.measuring:
                self.latencies.append(time.perf_counter() - game.sent_at)
            game.sent_for = -1
        if game.sent_for < 0:
            event = self.wake.get(slot)
            if event is not None:
                event.set()

    # ------------------------------------------------------------------ driving

    def _ready(self, game: Game) -> tuple[int, dict[str, Any]] | None:
        if game.sent_for >= 0 or game.finished or len(set(game.versions)) != 1:
            return None
        version = game.versions[0]
        for seat, state in sorted(game.acting.items()):
            if state["version"] == version and state["legal_actions"]:
                return seat, state
        return None

    def _send(self, game: Game, seat: int, state: dict[str, Any]) -> None:
        action = choose(self.rng, state["legal_actions"], self.avoid)
        game.sent_for, game.sent_at = state["version"], time.perf_counter()
        game.sockets[seat].send_text(orjson.dumps(
            {"type": "action", "action": action, "version": state["version"]}))
        self.driven += 1  # warm-up included (bench.scale's forwarded share)
        if self.measuring:
            self.sent += 1

    def _game_of(self, slot: int) -> Game | None:
        game = self.current.get(slot)
        while game is None or game.finished:
            if game is not None:
                for s in game.sockets:
                    s.close()
            queue = self.queues.get(slot) or []
            if not queue:
                self.current.pop(slot, None)
                return None
            game = queue.pop(0)
            self.current[slot] = game
        return game

    async def drive_slot(self, slot: int, until: float, period: float | None) -> None:
        event = self.wake.setdefault(slot, asyncio.Event())
        next_at = time.perf_counter() + self.rng.random() * (period or 0)
        while time.perf_counter() < until:
            game = self._game_of(slot)
            if game is None:
                self.starved += 1
                return
            if period is not None:
                await asyncio.sleep(max(0.0, next_at - time.perf_counter()))
                next_at += period
                turn = self._ready(game)
                if turn is None:
                    if self.measuring and not game.finished:
                        self.missed += 1
                    continue
                self._send(game, *turn)
                continue
            turn = self._ready(game)
            if turn is None:
                event.clear()
                try:
                    await asyncio.wait_for(event.wait(), 0.5)
                except TimeoutError:
                    pass
                continue
            self._send(game, *turn)

    async def run(self, warmup: float, duration: float, period: float | None
                  ) -> dict[str, Any]:
        until = time.perf_counter() + warmup + duration
        tasks = [asyncio.create_task(self.drive_slot(s.index, until, period))
                 for s in self.slots]
        await asyncio.sleep(warmup)
        self.measuring = True
        self.latencies.clear()
        t0 = time.perf_counter()
        await asyncio.sleep(duration)
        self.measuring = False
        elapsed = time.perf_counter() - t0
        await asyncio.gather(*tasks, return_exceptions=True)
        return {"delivered": len(self.latencies), "sent": self.sent, "driven": self.driven,
                "seconds": elapsed,
                "latencies": self.latencies, "missed": self.missed, "starved": self.starved,
                "errors": self.errors}

    def close(self) -> None:
        for games in [*self.queues.values(), [g for g in self.current.values() if g]]:
            for game in games:
                for s in game.sockets:
                    s.close()


def generator_process(pipe: Connection, slots: list[Slot], game: str, seats: int,
                      per_slot: int, seed: int) -> None:
    """A generator process: seat on "seat", drive on ("run", warmup, duration, period), send
    the figures back, and stop on "stop" (the commands come through ``pipe``)."""

    async def main() -> None:
        driver = Driver(slots, game, seats, per_slot, seed)
        loop = asyncio.get_running_loop()
        while True:
            command = await loop.run_in_executor(None, pipe.recv)
            if command[0] == "seat":
                try:
                    await driver.seat_all()
                    pipe.send(("seated", driver.seating_s))
                except Exception as exc:  # noqa: BLE001 - reported to the parent
                    pipe.send(("failed", repr(exc)))
            elif command[0] == "run":
                _, warmup, duration, period = command
                result = await driver.run(warmup, duration, period)
                pipe.send(("result", result))
            else:
                driver.close()
                await asyncio.sleep(0.2)
                pipe.send(("stopped",))
                return

    asyncio.run(main())
