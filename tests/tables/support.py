"""What the table tests share: a repository in memory, a socket that records what it is
sent, a clock moved by hand, tables made and started in a line, and a registry over a real
SQLite file."""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, datetime
from types import SimpleNamespace
from typing import Any

from app.db.repository import Repository
from app.db.session import make_engine, make_sessionmaker, migrate
from app.games import ENGINES
from app.tables import options as table_options
from app.tables.actor import TableActor
from app.tables.connections import Connection
from app.tables.core.commands import Join, Start
from app.tables.core.state import TableState, new_table
from app.tables.engine import adapt
from app.tables.registry import Registry

PLAYERS = "abcdefgh"


class MemoryRepo:
    """Stands in for the database; ``fail_next`` makes the next action write fail."""

    def __init__(self) -> None:
        self.actions: list[tuple[int, int, dict, str]] = []
        self.fail_next = False
        self.chat: list[dict[str, Any]] = []
        self.outcome: Any = None
        self.deleted = False
        self.bots: list[str] = []
        self.seats: list[tuple[list[str | None], str, int]] = []

    async def save_seats(self, table_id: str, seats: list[str | None], host_id: str,
                         version: int, epoch: int | None = None,
                         chat: list[dict[str, Any]] | None = None) -> None:
        self.seats.append((seats, host_id, version))
        # the step's system lines, stored with the seats (as queue_chat_line records them)
        self.chat.extend({k: v for k, v in row.items()
                          if k not in ("table_id", "seq", "created_at")} for row in chat or ())

    async def create_bot(self, name: str, bot_id: str) -> Any:
        self.bots.append(bot_id)
        return SimpleNamespace(id=bot_id, name=name, bot=True)

    async def set_status(self, *args: Any, **kwargs: Any) -> None:
        return None

    async def append_action(self, table_id: str, seq: int, seat: int, action: dict,
                            source: str, outcome: Any, epoch: int = 0) -> None:
        await asyncio.sleep(0)
        if self.fail_next:
            self.fail_next = False
            raise OSError("disk full")
        self.actions.append((seq, seat, action, source))
        self.outcome = outcome

    def queue_chat_line(self, table_id: str, seq: int, *, at: Any, **line: Any) -> Any:
        self.chat.append(line)
        done = asyncio.get_running_loop().create_future()
        done.set_result(None)
        return done

    async def delete_table(self, *args: Any, **kwargs: Any) -> None:
        self.deleted = True


class Recorder:
    """A fake socket: records what the writer sends."""

    def __init__(self) -> None:
        self.sent: list[dict] = []
        self.closed: tuple[int, str] | None = None
        self.gate = asyncio.Event()
        self.gate.set()

    async def send_text(self, text: str) -> None:
        await self.gate.wait()
        self.sent.append(json.loads(text))

    async def close(self, code: int, reason: str) -> None:
        self.closed = (code, reason)


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def table_for(game: str, seats: int = 2, options: dict[str, Any] | None = None,
              engine: Any = None, seed: int = 42, now: float = 1000.0) -> TableState:
    """A new table of ``game`` hosted by player "a" in seat 0 (options resolved)."""
    engine = engine or ENGINES[game]
    opts = table_options.resolve(engine, seats, {"turn_seconds": 0, **(options or {})})
    return new_table(id="t1", engine=adapt(engine), seat_count=seats, options=opts,
                     private=False, invite_token="inv", seed=seed,
                     created_at=datetime.now(UTC), host_id="a", host_name="Ana", now=now)


def make(game: str = "hanabi", seats: int = 2, options: dict[str, Any] | None = None,
         clock: Any = None, engine: Any = None, repo: MemoryRepo | None = None,
         seed: int = 42) -> tuple[TableActor, MemoryRepo, Any]:
    """A started actor (not the game) with its repository and clock (a FakeClock unless
    ``clock`` is given: pass ``time.monotonic`` for the real one)."""
    repo = repo or MemoryRepo()
    clock = clock or FakeClock()
    actor = TableActor(table_for(game, seats, options, engine, seed, clock()), repo,  # type: ignore[arg-type]
                       clock=clock)
    actor.start()
    return actor, repo, clock


async def started(game: str = "hanabi", seats: int = 2, options: dict[str, Any] | None = None,
                  clock: Any = None, engine: Any = None, repo: MemoryRepo | None = None,
                  seed: int = 42) -> tuple[TableActor, MemoryRepo, Any]:
    """An actor whose game has started, every seat taken (players "a", "b", ...)."""
    actor, repo, clock = make(game, seats, options, clock, engine, repo, seed)
    for p in PLAYERS[1:seats]:
        await actor.submit(Join(p, p.upper() + "name"))
    await actor.submit(Start("a"))
    return actor, repo, clock


async def connect(actor: TableActor, player: str | None, name: str = "",
                  queue: int = 256) -> tuple[Connection, Recorder]:
    sock = Recorder()
    conn = Connection(player, sock.send_text, sock.close, queue)
    conn.name = name
    asyncio.get_running_loop().create_task(conn.writer())
    await actor.connect(conn)
    return conn, sock


def system_codes(repo: MemoryRepo) -> list[str]:
    return [line["code"] for line in repo.chat if line["kind"] == "system"]


async def open_registry(tmp_path: Any) -> tuple[Repository, Registry]:
    """A repository (identities cached) on a migrated SQLite file in ``tmp_path``, and a
    registry over it, restored."""
    url = f"sqlite+aiosqlite:///{tmp_path / 'registry.db'}"
    await asyncio.to_thread(migrate, url)
    repo = Repository(make_sessionmaker(make_engine(url)), cache_identities=True)
    registry = Registry(repo)
    await registry.restore()
    return repo, registry


async def close_registry(repo: Repository, registry: Registry) -> None:
    await registry.shutdown()
    await repo.close()
    await repo.engine.dispose()
