"""The registry: creates table actors, finds them by id or invite token, and restores them.

After a restart every waiting or playing table comes back: a playing table's state is rebuilt
from its seed and its stored action log, so players reconnect to where they were.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from typing import Any

from app.db.models import GameTable
from app.db.repository import Repository, now
from app.errors import AppError, not_found
from app.games import ENGINES
from app.games.base import TURN_TIMER, BadOptions, apply_any, engine_options
from app.tables.actor import TableActor, TableInfo

log = logging.getLogger(__name__)


class Registry:
    def __init__(self, repo: Repository) -> None:
        self.repo = repo
        self.actors: dict[str, TableActor] = {}
        self._by_invite: dict[str, str] = {}

    # ------------------------------------------------------------------ create / find

    async def create(self, host_id: str, host_name: str, game: str, seats: int,
                     options: dict[str, Any] | None, private: bool) -> TableActor:
        engine = ENGINES.get(game)
        if engine is None:
            raise AppError("unknown_game", f"no game called {game!r}", 422)
        options = dict(options or {})
        timer = options.pop(TURN_TIMER.name, TURN_TIMER.default)
        try:
            resolved = engine.check_setup(seats, options)  # type: ignore[attr-defined]
            resolved[TURN_TIMER.name] = TURN_TIMER.coerce(timer)
        except BadOptions as exc:
            raise AppError("bad_options", str(exc), 422) from None
        row = GameTable(
            id=secrets.token_urlsafe(8), game=game, seat_count=seats, options=resolved,
            private=private, invite_token=secrets.token_urlsafe(18), host_id=host_id,
            status="waiting", seed=secrets.randbits(63), version=1, created_at=now(),
        )
        await self.repo.create_table(row, host_seat=0)
        info = _info(row, [host_id, *[None] * (seats - 1)], {host_id: host_name})
        return self._add(TableActor(info, engine, self.repo))

    def _add(self, actor: TableActor) -> TableActor:
        self.actors[actor.info.id] = actor
        self._by_invite[actor.info.invite_token] = actor.info.id
        actor.start()
        return actor

    async def get(self, table_id: str) -> TableActor:
        """The live table; a finished one no longer in memory is brought back from storage."""
        actor = self.actors.get(table_id)
        if actor is None:
            actor = await self._load_finished(table_id)
        if actor is None or actor.info.status == "deleted":
            raise not_found()
        return actor

    async def _load_finished(self, table_id: str) -> TableActor | None:
        row = await self.repo.table(table_id)
        if row is None or row.status != "finished" or row.game not in ENGINES:
            return None
        actor = await self._actor_from_row(row)
        return self._add(actor) if table_id not in self.actors else self.actors[table_id]

    def evict_idle(self, idle_seconds: float) -> int:
        """Drop deleted tables, and finished ones nobody has looked at for a while (those
        reload on demand); each actor's task is stopped."""
        cutoff = time.monotonic() - idle_seconds
        gone = [a for a in self.actors.values()
                if a.info.status == "deleted"
                or (a.info.status == "finished" and not a.connections
                    and a.last_activity < cutoff)]
        for actor in gone:
            self.actors.pop(actor.info.id, None)
            self._by_invite.pop(actor.info.invite_token, None)
            asyncio.get_running_loop().create_task(actor.stop())
        return len(gone)

    async def by_invite(self, token: str) -> TableActor:
        table_id = self._by_invite.get(token) or await self.repo.table_id_by_invite(token)
        if table_id is None:
            raise AppError("not_found", "this invite link is not valid (or the table is gone)",
                           404)
        return await self.get(table_id)

    def tables_of(self, player_id: str) -> list[TableActor]:
        """The waiting and playing tables where this player has a seat."""
        return [a for a in self.actors.values()
                if a.info.status in ("waiting", "playing") and player_id in a.info.seats]

    def public_tables(self) -> list[TableActor]:
        return [a for a in self.actors.values()
                if not a.info.private and a.info.status in ("waiting", "playing")]

    # ------------------------------------------------------------------ restart

    async def restore(self) -> int:
        """Bring back every waiting or playing table from the database."""
        rows = await self.repo.active_tables()
        restored = 0
        for row in rows:
            if row.game not in ENGINES:
                log.error("table %s: game %s is not installed; skipped", row.id, row.game)
                continue
            try:
                self._add(await self._actor_from_row(row))
                restored += 1
            except Exception:  # noqa: BLE001 - one bad table must not stop the server
                log.exception("table %s could not be restored from its log", row.id)
        return restored

    async def _actor_from_row(self, row: GameTable) -> TableActor:
        """Rebuild a table from storage: seats, names, and the state from seed + actions."""
        engine = ENGINES[row.game]
        seats: list[str | None] = [None] * row.seat_count
        for s in row.seats:
            seats[s.seat] = s.player_id
        players = await self.repo.players_by_id(sorted({p for p in seats if p} | {row.host_id}))
        info = _info(row, seats, {pid: p.name for pid, p in players.items()})
        state = None
        history = []
        if row.status in ("playing", "finished"):
            state = engine.setup(row.seat_count, engine_options(row.options), row.seed)
            for stored in await self.repo.actions(row.id):
                state, events = apply_any(engine, state, stored.seat, stored.action)
                history.append((stored.seq, events))
        return TableActor(info, engine, self.repo, state, history)

    async def shutdown(self) -> None:
        for actor in list(self.actors.values()):
            await actor.stop()


def _info(row: GameTable, seats: list[str | None], names: dict[str, str]) -> TableInfo:
    return TableInfo(
        id=row.id, game=row.game, seat_count=row.seat_count, options=dict(row.options),
        private=row.private, invite_token=row.invite_token, host_id=row.host_id,
        status=row.status, seed=row.seed, version=row.version, created_at=row.created_at,
        seats=seats, names=names, error=row.error, outcome=row.outcome,
    )
