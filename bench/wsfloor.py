"""The floor of a move: the same work as the server's, on bare ``websockets``, no platform.

    python -m bench.wsfloor --port PORT --database-url postgresql://...

bench.scale starts it (``--modes floor``) beside the real server, under the same CPU quota,
driven by the same generator, to print the platform's overhead as a ratio. Per action it
does what a move must: parse the JSON, check it is the acting seat's and of the current
version, the engine's ``apply`` (which checks the action's shape and rules), the durable
append (asyncpg, many tables' actions per transaction, awaited before any push), and each
seat its own view, legal actions and events, encoded and sent. It has no players, tokens,
lobby, clocks, presence, votes, chat, metrics, leases, nor any of FastAPI/starlette/uvicorn:
a socket ``/t/<table>/<seat>`` is a seat, and a table starts when its seats are connected.
It runs on the event loop the server runs on: uvloop where it is installed (uvicorn's
``auto``, which picks it for the server), else the standard library's.

``--replay``: the transport alone, no engine. Before it says ready it plays a few games with
random legal actions and keeps every version's message for every seat, encoded as above (the
same bytes and sizes a live game sends); a table then replays one of them. Per action it
parses the JSON, checks the version and the acting seat, makes the durable append (the
action as sent) and sends the next version's messages: everything but the engine's work
(``apply``, views, legal actions, their encoding). The action sent is not checked against
the rules, and the next state is the recorded one whatever it was.
"""

from __future__ import annotations

import argparse
import asyncio
import random
from typing import Any

import asyncpg
import orjson
from websockets.asyncio.server import ServerConnection, serve

from app.games import ENGINES
from app.games.base import IllegalAction, event_for
from bench.drive import choose

# what a bad message raises: its answer is an error, and nothing is stored or sent
REFUSED = (IllegalAction, KeyError, TypeError, ValueError)


class Writer:
    """Group commit: every action queued while a transaction runs goes in the next one."""

    def __init__(self, pool: asyncpg.Pool) -> None:
        self.pool = pool
        self.pending: list[tuple[tuple[Any, ...], asyncio.Future[None]]] = []
        self.wake = asyncio.Event()

    async def append(self, row: tuple[Any, ...]) -> None:
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.pending.append((row, done))
        self.wake.set()
        await done

    async def run(self) -> None:
        while True:
            await self.wake.wait()
            self.wake.clear()
            batch, self.pending = self.pending, []
            if not batch:
                continue
            async with self.pool.acquire() as conn, conn.transaction():
                await conn.executemany(
                    "INSERT INTO floor_actions (table_id, version, seat, action) "
                    "VALUES ($1, $2, $3, $4)", [row for row, _ in batch])
            for _, done in batch:
                if not done.done():
                    done.set_result(None)


class Table:
    def __init__(self, table_id: str, game: str, seats: int) -> None:
        self.id = table_id
        self.engine = ENGINES[game]
        self.seats = seats
        self.sockets: dict[int, ServerConnection] = {}
        self.state: Any = None
        self.version = 0
        self.finished = False
        self.lock = asyncio.Lock()

    def message(self, seat: int, events: list[Any]) -> bytes:
        engine, state = self.engine, self.state
        return orjson.dumps({
            "type": "state", "version": self.version,
            "status": "finished" if self.finished else "playing", "seat": seat,
            "to_act": sorted(engine.to_act(state)), "view": engine.view(state, seat),
            "legal_actions": [] if self.finished else engine.legal_actions(state, seat),
            "events": event_for(events, seat) if events else []},
            option=orjson.OPT_NON_STR_KEYS)

    async def push(self, events: list[Any]) -> None:
        await self.send_all({seat: self.message(seat, events).decode()
                             for seat in self.sockets})

    async def send_all(self, texts: dict[int, str]) -> None:
        for seat, ws in list(self.sockets.items()):
            try:
                await ws.send(texts[seat])
            except Exception:  # noqa: BLE001 - a gone socket does not stop the others
                self.sockets.pop(seat, None)


# a recorded game: for each version (index 0 is version 1), the seats that may act and
# every seat's message as text
Recording = list[tuple[frozenset[int], dict[int, str]]]


def record(game: str, seats: int, seed: int) -> Recording:
    """A whole game with random legal actions, chosen as bench.drive's generators choose
    them (no play while anything else is legal: games as long as the ones they play),
    each version's messages as ``Table`` sends them."""
    rng = random.Random(seed)
    table = Table("recording", game, seats)
    engine = table.engine
    table.state = engine.setup(seats, {o.name: o.default for o in engine.options}, seed)
    table.version = 1
    events: list[Any] = []
    out: Recording = []
    while True:
        out.append((frozenset(engine.to_act(table.state)),
                    {seat: table.message(seat, events).decode() for seat in range(seats)}))
        if table.finished:
            return out
        seat = min(engine.to_act(table.state))
        action = choose(rng, engine.legal_actions(table.state, seat))
        table.state, events = engine.apply(table.state, seat, action)
        table.version += 1
        table.finished = engine.outcome(table.state) is not None


class Floor:
    def __init__(self, writer: Writer, game: str, seats: int,
                 recordings: list[Recording] | None = None) -> None:
        self.writer = writer
        self.game = game
        self.seats = seats
        self.tables: dict[str, Table] = {}
        self.recordings = recordings  # --replay: no engine
        self.replaying: dict[str, Recording] = {}

    async def handler(self, ws: ServerConnection) -> None:
        _, _, table_id, seat_text = ws.request.path.split("/")  # type: ignore[union-attr]
        seat = int(seat_text)
        table = self.tables.setdefault(table_id, Table(table_id, self.game, self.seats))
        table.sockets[seat] = ws
        if self.recordings is not None:
            if table.version == 0 and len(table.sockets) == table.seats:
                recording = self.recordings[len(self.replaying) % len(self.recordings)]
                self.replaying[table.id] = recording
                table.version = 1
                await table.send_all(recording[0][1])
            async for raw in ws:
                await self.replay(table, seat, raw)
            return
        if table.state is None and len(table.sockets) == table.seats:
            table.state = table.engine.setup(table.seats, {o.name: o.default for o in
                                                           table.engine.options}, 1)
            table.version = 1
            await table.push([])
        async for raw in ws:
            await self.act(table, seat, raw)

    @staticmethod
    def parse(table: Table, raw: str | bytes, may_act: bool) -> Any:
        """The action of a message for the table's current version from a seat that
        ``may_act``; else raises one of ``REFUSED``."""
        message = orjson.loads(raw)
        action = message["action"]
        if not may_act or message.get("version") != table.version:
            raise IllegalAction("stale_version", "not now")
        return action

    @staticmethod
    async def refuse(table: Table, seat: int, exc: Exception) -> None:
        await table.sockets[seat].send(orjson.dumps(
            {"type": "error", "code": getattr(exc, "code", "bad_message")}).decode())

    async def store(self, table: Table, seat: int, action: Any) -> None:
        """The durable append of the table's next version, awaited before any push."""
        await self.writer.append((table.id, table.version + 1, seat,
                                  orjson.dumps(action).decode()))

    async def replay(self, table: Table, seat: int, raw: str | bytes) -> None:
        """``act`` with the engine's work taken out: the next recorded version is sent."""
        async with table.lock:
            recording = self.replaying[table.id]
            try:
                action = self.parse(table, raw, table.version < len(recording)
                                    and seat in recording[table.version - 1][0])
            except REFUSED as exc:
                await self.refuse(table, seat, exc)
                return
            await self.store(table, seat, action)
            table.version += 1
            await table.send_all(recording[table.version - 1][1])

    async def act(self, table: Table, seat: int, raw: str | bytes) -> None:
        async with table.lock:
            engine = table.engine
            try:
                action = self.parse(table, raw, table.state is not None and not table.finished
                                    and seat in engine.to_act(table.state))
                state, events = engine.apply(table.state, seat, action)
            except REFUSED as exc:
                await self.refuse(table, seat, exc)
                return
            await self.store(table, seat, action)
            table.state, table.version = state, table.version + 1
            table.finished = engine.outcome(state) is not None
            await table.push(events)


async def main_async(port: int, database_url: str, game: str, seats: int,
                     replay: bool = False) -> None:
    recordings = [record(game, seats, seed) for seed in range(1, 5)] if replay else None
    pool = await asyncpg.create_pool(database_url, min_size=1, max_size=2)
    async with pool.acquire() as conn:
        await conn.execute("CREATE TABLE IF NOT EXISTS floor_actions (table_id text, "
                           "version int, seat int, action jsonb, "
                           "PRIMARY KEY (table_id, version))")
    writer = Writer(pool)
    writer_task = asyncio.create_task(writer.run())
    floor = Floor(writer, game, seats, recordings)
    async with serve(floor.handler, "127.0.0.1", port, compression=None,
                     max_size=1 << 20):
        print("ready", flush=True)
        await asyncio.Future()
    writer_task.cancel()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--database-url", required=True,
                        help="postgresql://... (asyncpg's form, no +driver)")
    parser.add_argument("--game", default="hanabi")
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--replay", action="store_true",
                        help="the transport alone: replay recorded games' messages, no engine")
    args = parser.parse_args()
    work = main_async(args.port, args.database_url, args.game, args.seats, args.replay)
    try:  # the server's event loop: uvicorn's "auto" picks uvloop where it is installed
        import uvloop
    except ImportError:
        asyncio.run(work)
    else:
        uvloop.run(work)


if __name__ == "__main__":
    main()
