"""The registry: creates table actors, finds them by id or invite token, and restores them.

After a restart every waiting or playing table comes back: a playing table's state is rebuilt
from its seed and its stored action log, so players reconnect to where they were; its chat
comes back from storage and a chess clock's banks are worked out again from the stored
actions' times (the time the server was down is not charged to anyone).

With a :class:`~app.tables.cluster.Cluster` (several processes sharing one database and
Redis), this registry holds only the tables this process owns: it takes a table over when it
claims its lease (bumping the owner epoch, then replaying the log), sweeps for tables whose
owner has gone, and gives a table up when its lease is lost.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import secrets
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

from app.db.models import GameTable
from app.db.repository import HostedTables, Repository, now
from app.errors import AppError, not_found
from app.games import ENGINES
from app.games.base import BadOptions
from app.tables import options as table_options
from app.tables.actor import TableActor
from app.tables.cluster import Cluster
from app.tables.core import play, presence
from app.tables.core.clocks import TableClock
from app.tables.core.commands import Housekeep
from app.tables.core.ending import replay
from app.tables.core.state import (
    START,
    Presence,
    Step,
    TableSetup,
    TableState,
    TableStatus,
    evolve,
    new_table,
)
from app.tables.core.views import branch_json
from app.tables.engine import adapt
from app.tasks import spawn

log = logging.getLogger(__name__)
LIVE = (TableStatus.WAITING, TableStatus.PLAYING)  # tables that are waiting or being played


class Registry:
    def __init__(self, repo: Repository, cluster: Cluster | None = None) -> None:
        self.repo = repo
        self.cluster = cluster
        self.actors: dict[str, TableActor] = {}
        self._by_invite: dict[str, str] = {}
        # the public tables that may still be waiting or playing (the lobby's list goes
        # through these, not every actor held: ``public_tables`` drops the ones that ended)
        self._listed: dict[str, TableActor] = {}
        self._adopting: dict[str, asyncio.Lock] = {}
        # hand-overs (``give``/``take``): tables being handed to another process right now,
        # when each table arrived here by one, and until when an owner's refusal is believed
        self._moving: dict[str, asyncio.Event] = {}
        self._arrived: dict[str, float] = {}
        self._refused: dict[str, float] = {}
        if cluster is not None:
            cluster.on_lost = self.drop
        elif getattr(repo, "hosted", None) is None:  # this process writes every table:
            repo.hosted = HostedTables()  # count each player's hosted tables as it goes

    # ------------------------------------------------------------------ create / find

    async def create(self, host_id: str, host_name: str, game: str, seats: int,
                     options: dict[str, Any] | None, private: bool, host_seat: int = 0,
                     rematch_of: str | None = None, seed: int | None = None,
                     position: dict[str, Any] | None = None,
                     branch_of: tuple[str, int] | None = None) -> TableActor:
        """A new waiting table, its host in ``host_seat``. A branch (app/tables/branching.py)
        gives the ``position`` its game starts from and the (match, step) it comes from."""
        engine = ENGINES.get(game)
        if engine is None:
            raise AppError("unknown_game", f"no game called {game!r}", 422)
        try:
            resolved = table_options.resolve(engine, seats, options)
        except BadOptions as exc:
            raise AppError("bad_options", str(exc), 422) from None
        # the new row's columns (a dict: an ORM instance costs more to build than to store)
        table_id, invite, created_at = secrets.token_urlsafe(8), secrets.token_urlsafe(18), now()
        table_seed = secrets.randbits(63) if seed is None else seed
        row = {"id": table_id, "game": game, "seat_count": seats, "options": resolved,
               "private": private, "invite_token": invite, "host_id": host_id,
               "status": "waiting", "seed": table_seed, "version": 1, "created_at": created_at,
               "rematch_of": rematch_of, "position": position,
               "branch_of": branch_of[0] if branch_of else None,
               "branch_step": branch_of[1] if branch_of else None}
        if self.cluster is not None and not await self.cluster.claim(table_id):
            raise AppError("storage_unavailable", "could not register the new table", 503)
        await self.repo.create_table(row, host_seat=host_seat)
        table = new_table(id=table_id, engine=adapt(engine), seat_count=seats, options=resolved,
                          private=private, invite_token=invite, seed=table_seed,
                          created_at=created_at, host_id=host_id, host_name=host_name,
                          host_seat=host_seat, rematch_of=rematch_of, position=position,
                          branch_of=branch_of, now=time.monotonic())
        return self._add(TableActor(table, self.repo))

    def _add(self, actor: TableActor) -> TableActor:
        self.actors[actor.table.id] = actor
        self._by_invite[actor.table.invite_token] = actor.table.id
        if not actor.table.private and actor.table.status in LIVE:
            self._listed[actor.table.id] = actor
        if self.cluster is not None:
            actor.on_change = self._publish
            actor.on_stale = self._stale
            # every write of the table passes the lease fence first (app/tables/cluster.py)
            actor.repo = self.cluster.fence(self.repo, actor.info.id)  # type: ignore[assignment]
            self._publish(actor)
        actor.start()
        return actor

    async def get(self, table_id: str) -> TableActor:
        """The live table; a finished one no longer in memory is brought back from storage
        (in a cluster: any table this process may take over)."""
        actor = self.actors.get(table_id)
        if actor is None:
            if self.cluster is not None:
                actor = await self.adopt(table_id)
            else:
                actor = await self._load_finished(table_id)
        if actor is None or actor.table.status is TableStatus.DELETED:
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
                if a.table.status is TableStatus.DELETED
                or (a.table.status is TableStatus.FINISHED and not a.connections
                    and a.last_activity < cutoff)]
        for actor in gone:
            self._forget(actor)
            spawn(self._retire(actor), f"retiring table {actor.table.id}")
        return len(gone)

    def _forget(self, actor: TableActor) -> None:
        if self.actors.get(actor.table.id) is actor:
            self.actors.pop(actor.table.id, None)
            self._arrived.pop(actor.table.id, None)
            self._listed.pop(actor.table.id, None)
        self._by_invite.pop(actor.table.invite_token, None)

    async def _retire(self, actor: TableActor) -> None:
        """Stop an evicted actor; in a cluster, hand its lease back too."""
        await actor.stop()
        if self.cluster is not None:
            self.cluster.publish_summary(actor.table.id, None)
            await self.cluster.release(actor.table.id)

    async def by_invite(self, token: str) -> TableActor:
        table_id = self._by_invite.get(token) or await self.repo.table_id_by_invite(token)
        if table_id is None:
            raise AppError("not_found", "this invite link is not valid (or the table is gone)",
                           404)
        return await self.get(table_id)

    async def housekeep(self, waiting_after: float, empty_after: float) -> dict[str, int]:
        """Expire waiting tables nobody came to, close playing tables everyone left (each
        actor decides with its own clock); answer how many of each."""
        done = {"expired": 0, "closed": 0}
        for actor in list(self.actors.values()):
            if actor.table.status not in LIVE:
                continue
            if actor.idle_for() < min(waiting_after, empty_after):
                continue
            try:
                result = await actor.submit(Housekeep(waiting_after, empty_after))
            except AppError:
                continue
            if result in done:
                done[result] += 1
                log.info("table %s %s", actor.table.id, result)
        return done

    def tables_of(self, player_id: str) -> list[TableActor]:
        """The waiting and playing tables where this player has a seat."""
        return [a for a in self.actors.values()
                if a.table.status in LIVE and player_id in a.table.seats]

    def public_tables(self) -> list[TableActor]:
        """The public tables waiting or playing, in the order they came. Goes through the
        public tables not yet seen ended, not every actor held: a table's privacy is fixed
        and its status never goes back to waiting or playing, so one that has ended is
        dropped from them for good."""
        out = []
        ended = []
        for table_id, actor in self._listed.items():
            if actor.table.status in LIVE:
                out.append(actor)
            else:
                ended.append(table_id)
        for table_id in ended:
            del self._listed[table_id]
        return out

    async def public_summaries(self) -> list[tuple[dict[str, Any], str]]:
        """(summary, invite token) of every public table waiting or playing; in a cluster
        also those of the other processes (their owners publish summaries to Redis)."""
        if self.cluster is None:
            return [(a.summary(), a.table.invite_token) for a in self.public_tables()]
        rows = await self.repo.public_active_tables()
        published = await self.cluster.summaries([r.id for r in rows if r.id not in self.actors])
        out = []
        for row in rows:
            actor = self.actors.get(row.id)
            if actor is not None:
                out.append((actor.summary(), row.invite_token))
            else:
                out.append((published.get(row.id) or _stored_summary(row), row.invite_token))
        return out

    async def hosted_count(self, player_id: str) -> int:
        """Waiting or playing tables ``player_id`` hosts (in a cluster: in every process,
        counted in the database; alone: kept as the tables' writes commit, without going
        through every live table: app/db/repository.py ``HostedTables``)."""
        hosted = getattr(self.repo, "hosted", None)
        if self.cluster is not None or hosted is None:
            return await self.repo.hosted_count(player_id)
        return hosted.count(player_id)

    # ------------------------------------------------------------------ cluster

    async def adopt(self, table_id: str) -> TableActor | None:
        """Take a table over if nobody owns it: claim its lease, bump its owner epoch, then
        rebuild it from its log. None if it does not exist (or is deleted)."""
        assert self.cluster is not None
        async with self._one_at_a_time(table_id):
            actor = self.actors.get(table_id)
            if actor is not None:
                return actor
            if table_id in self._moving or not await self.cluster.claim(table_id):
                raise AppError("table_moving", "this table is served by another server "
                               "right now: try again in a moment", 503)
            return await self._rebuild(table_id)

    @contextlib.asynccontextmanager
    async def _one_at_a_time(self, table_id: str) -> AsyncIterator[None]:
        """Adopting or taking ``table_id``: one request of this process at a time (the
        others then find the actor it made); the lock is forgotten when nobody waits."""
        lock = self._adopting.setdefault(table_id, asyncio.Lock())
        try:
            async with lock:
                yield
        finally:
            if not lock.locked():
                self._adopting.pop(table_id, None)

    async def _rebuild(self, table_id: str) -> TableActor | None:
        """The lease is ours: bump the owner epoch, rebuild the table from its log."""
        assert self.cluster is not None
        try:
            row = await self.repo.take_over(table_id)
            if row is None or row.status == "deleted" or row.game not in ENGINES:
                await self.cluster.release(table_id)
                return None
            actor = await self._actor_from_row(row)
            if row.idle_seconds is not None:
                await self.repo.forget_idle([row.id])
        except BaseException:
            await self.cluster.release(table_id)
            raise
        log.info("table %s taken over (epoch %d)", table_id, row.owner_epoch)
        return self._add(actor)

    # ------------------------------------------------------------------ hand-over

    # a table that has just arrived by a hand-over stays a while (a proxy that spreads one
    # table's requests over several processes must not bounce it from one to the next)
    SETTLE_SECONDS = 5.0
    # an owner's refusal (the table has sockets there) is believed this long before asking
    # again: meanwhile the requests are forwarded
    REFUSAL_SECONDS = 5.0

    def moving(self, table_id: str) -> asyncio.Event | None:
        """Set once the hand-over of ``table_id`` under way here is over (None: none is)."""
        return self._moving.get(table_id)

    async def give(self, table_id: str, to_node: str) -> str:
        """Another process asks for a table this one owns, because its traffic lands there
        (``app/api/forward.py``). Handed over only if nobody's socket is at it here (and it
        did not arrive by a hand-over a moment ago): its actor drains (every command already
        queued finishes, every accepted action durable; new ones are refused with
        ``table_moving`` and retried by their callers), stops, and its lease goes straight
        to ``to_node`` (nobody can claim it in between). A rematch stays while the finished
        table it follows is here. Answers "given", or why not."""
        assert self.cluster is not None
        actor = self.actors.get(table_id)
        if actor is None or not self.cluster.may_write(table_id) or table_id in self._moving:
            return "not_owner"
        if actor.connections:
            return "busy"
        if actor.table.setup.rematch_of in self.actors:
            # the finished table's rematch calls, served here, join its players to this
            # very actor (app/api/life.py): the rematch stays with it
            return "rematch"
        if time.monotonic() - self._arrived.get(table_id, -math.inf) < self.SETTLE_SECONDS:
            return "settling"
        done = asyncio.Event()
        self._moving[table_id] = done
        self._forget(actor)  # from here on, requests here wait, then reach the new owner
        try:
            await actor.drain()
            if not await self.cluster.transfer(table_id, to_node):
                return "not_owner"  # the lease was lost meanwhile: someone else has it
            self._arrived.pop(table_id, None)
            self.cluster.drop_pending_summary(table_id)  # the new owner's is newer
            self.cluster.counts["handed_over"] += 1
            log.info("table %s handed over to node %s", table_id, to_node)
            return "given"
        except BaseException:
            if table_id in self.cluster.owned:  # not transferred: let anyone adopt it
                with contextlib.suppress(Exception):
                    await self.cluster.release(table_id)
            raise
        finally:
            del self._moving[table_id]
            done.set()

    async def take(self, table_id: str, ask: Callable[[], Awaitable[bool]]
                   ) -> TableActor | None:
        """Ask the owner of ``table_id`` to hand it over (``ask``: the request to it, True
        if it says it did) and take it: the lease is then this process's, the owner epoch
        is bumped and the table rebuilt from its log, as in :meth:`adopt`. None when the
        owner keeps it (its refusal is then believed for a while: ``ask`` is not called)."""
        assert self.cluster is not None
        async with self._one_at_a_time(table_id):
            actor = self.actors.get(table_id)
            if actor is not None:
                return actor
            now = time.monotonic()
            if self._refused.get(table_id, 0.0) > now:
                return None
            asked = self.cluster.now()
            try:
                given = await ask()
            except Exception:  # noqa: BLE001 - no answer: the lease says what happened
                log.warning("table %s: the hand-over request failed", table_id,
                            exc_info=True)
                given = False
            # even without an answer the owner may have handed it over: Redis knows
            if not await self.cluster.accept(table_id, asked):
                if len(self._refused) > 10_000:
                    self._refused = {t: u for t, u in self._refused.items() if u > now}
                self._refused[table_id] = now + self.REFUSAL_SECONDS
                return None
            if not given:
                log.warning("table %s: handed over without an answer", table_id)
            actor = await self._rebuild(table_id)
            if actor is not None:
                self._arrived[table_id] = time.monotonic()
                self.cluster.counts["taken_over"] += 1
            return actor

    async def sweep(self) -> int:
        """Take over every waiting or playing table whose owner has gone (its lease expired),
        so its clocks keep running even while nobody is connected."""
        assert self.cluster is not None
        ids = [t for t in await self.repo.active_table_ids() if t not in self.actors]
        adopted = 0
        for start in range(0, len(ids), 500):
            owners = await self.cluster.owners(ids[start:start + 500])
            for table_id, owner in owners.items():
                if owner is not None:
                    continue
                try:
                    if await self.adopt(table_id) is not None:
                        adopted += 1
                except AppError:
                    pass  # another process was quicker
                except Exception:  # noqa: BLE001 - one bad table must not stop the sweep
                    log.exception("table %s could not be taken over", table_id)
        return adopted

    async def drop(self, table_id: str) -> None:
        """This process no longer owns the table (its lease was lost): stop serving it, and
        tell its clients to reconnect (they reach the new owner)."""
        actor = self.actors.get(table_id)
        if actor is not None:
            self._forget(actor)
            await actor.stop(moved=True)

    def _stale(self, actor: TableActor) -> None:
        """A write showed that another process has taken the table over."""
        self._forget(actor)
        assert self.cluster is not None
        self.cluster.owned.discard(actor.table.id)
        spawn(actor.stop(moved=True), f"stopping table {actor.table.id} (taken over)")

    def _publish(self, actor: TableActor) -> None:
        assert self.cluster is not None
        live = actor.table.status in LIVE and not actor.table.private
        self.cluster.publish_summary(actor.table.id, actor.summary() if live else None)

    # ------------------------------------------------------------------ restart

    async def restore(self) -> int:
        """Bring back every waiting or playing table from the database (in a cluster: every
        one nobody owns)."""
        if self.cluster is not None:
            return await self.sweep()
        await self.repo.take_over_active()
        rows = await self.repo.active_tables()
        restored = 0
        noted = [row.id for row in rows if row.idle_seconds is not None]
        for row in rows:
            if row.game not in ENGINES:
                log.error("table %s: game %s is not installed; skipped", row.id, row.game)
                continue
            try:
                actor = self._add(await self._actor_from_row(row))
                restored += 1
                hosted = getattr(self.repo, "hosted", None)
                if hosted is not None:
                    hosted.note(row.id, actor.table.host_id, actor.table.status.value)
            except Exception:  # noqa: BLE001 - one bad table must not stop the server
                log.exception("table %s could not be restored from its log", row.id)
        if noted:
            await self.repo.forget_idle(noted)
        return restored

    async def _actor_from_row(self, row: GameTable) -> TableActor:
        """Rebuild a table from storage: seats, names, and the state from seed + actions."""
        engine = adapt(ENGINES[row.game])
        seats: list[str | None] = [None] * row.seat_count
        for s in row.seats:
            seats[s.seat] = s.player_id
        players = await self.repo.players_by_id(sorted({p for p in seats if p} | {row.host_id}))
        t = time.monotonic()
        setup = TableSetup(
            id=row.id, game=row.game, seat_count=row.seat_count, options=dict(row.options),
            private=row.private, invite_token=row.invite_token, seed=row.seed,
            created_at=row.created_at, rematch_of=row.rematch_of, epoch=row.owner_epoch or 0,
            position=row.position, branch_of=branch_origin(row))
        table = TableState(
            setup=setup, engine=engine, status=TableStatus(row.status), version=row.version,
            host_id=row.host_id, seats=tuple(seats),
            names={pid: p.name for pid, p in players.items()},
            bots=frozenset(pid for pid, p in players.items() if p.bot),
            outcome=row.outcome, error=row.error)
        if row.status in ("playing", "finished"):
            table = await self._replayed(table, row, t)
        if row.status == "finished":
            rematch = await self.repo.rematch_of(row.id)
            if rematch is not None:
                table = evolve(table, rematch=rematch)
        # nobody is connected yet: idle from now, or for as long as nobody had been at the
        # table when its server stopped (the downtime itself is charged to nobody)
        live = row.status in ("waiting", "playing")
        idle_since = t - (row.idle_seconds or 0.0) if live else t
        table, _left, _back = presence.track(
            evolve(table, presence=Presence(idle_since=idle_since)), t)
        chat = [chat_message(line, row.version) for line in await self.repo.chat_lines(row.id)]
        return TableActor(table, self.repo, chat=chat)

    async def _replayed(self, table: TableState, row: GameTable, t: float) -> TableState:
        """The game state from the seed and the stored log; a chess clock's banks worked out
        again from the stored actions' times (the downtime is charged to nobody)."""
        engine = table.engine
        stored = await self.repo.actions(row.id)
        started = (row.started_at or row.created_at).timestamp()
        times = [started, *(a.at.timestamp() for a in stored)]
        clock = TableClock.from_options(table.options, table.seat_count)

        def follow_clock(step: int, state: Any) -> None:
            window = engine.window(state)
            waiting = engine.waiting_for(state) - (set(window.seats) if window else set())
            clock.update(times[step], waiting, engine.turn_marker(state),
                         engine.has_turn_marker)

        rebuilt = replay(engine, table.seat_count, table.options, table.seed,
                         ((a.seq, a.seat, a.action) for a in stored),
                         on_step=follow_clock if clock.mode != "none" else None,
                         position=table.position)
        sources = {a.seq: (a.source, a.seat) for a in stored}
        history = [Step(v, events, *sources.get(v, ("player", None))) for v, events in
                   rebuilt.history]
        if rebuilt.opening:  # at the version before the first action's (none stored)
            start = stored[0].seq - 1 if stored else row.version
            history.insert(0, Step(start, rebuilt.opening, START))
        if row.status == "playing":
            clock.rebase(t)
        else:
            clock.stop(times[-1])
        return play.resume(evolve(table, clock=clock), rebuilt.state, history, t)

    async def shutdown(self) -> None:
        await self._note_idle()
        # in a cluster the clients are told to reconnect: another process takes over
        for actor in list(self.actors.values()):
            await actor.stop(moved=self.cluster is not None)

    async def _note_idle(self) -> None:
        """How long nobody has been at each live table, stored before a graceful stop: the
        janitor counts on from there after the restart, where a waiting table nobody came
        to got a fresh hour after every restart (a crash notes nothing: idle from the
        restart, as before). A table with someone at it notes nothing: they reconnect."""
        idle = [(actor.table.id, actor.table.setup.epoch, actor.idle_for())
                for actor in self.actors.values()
                if actor.table.status in LIVE and not actor.table.presence.busy]
        try:
            await self.repo.note_idle(idle)
        except Exception:  # noqa: BLE001 - a stop must go on: idle from the restart then
            log.exception("the idle tables' times could not be noted")


def chat_message(row: Any, version: int) -> dict[str, Any]:
    """A stored chat line (``app.db.models.ChatLine``) as the WebSocket sends it."""
    return {"type": "chat", "version": version, "id": row.seq, "kind": row.kind,
            "seat": row.seat, "name": row.name, "text": row.text, "code": row.code,
            "params": row.params, "at": row.created_at.isoformat()}


def branch_origin(row: GameTable) -> tuple[str, int] | None:
    """(match id, step) a branch's game plays on from; None for a game from its set-up."""
    if row.branch_of is None:
        return None
    return row.branch_of, int(row.branch_step or 0)


def _stored_summary(row: GameTable) -> dict[str, Any]:
    """A table's public summary from the database alone (its owner has not published one)."""
    names = {s.player_id: s.player.name for s in row.seats}
    bots = {s.player_id for s in row.seats if s.player.bot}
    seats: list[dict[str, Any]] = [{"seat": i, "connected": False, "player": None}
                                   for i in range(row.seat_count)]
    for seat in row.seats:
        seats[seat.seat]["player"] = {"id": seat.player_id, "name": names[seat.player_id],
                                      "bot": seat.player_id in bots}
        seats[seat.seat]["connected"] = seat.player_id in bots
    return {
        "id": row.id, "game": row.game, "status": row.status, "version": row.version,
        "seat_count": row.seat_count, "options": dict(row.options), "private": row.private,
        "host": {"id": row.host_id, "name": names.get(row.host_id)},
        "seats": seats, "created_at": row.created_at.isoformat(), "outcome": row.outcome,
        "spectators": {"count": 0, "names": []}, "rematch_of": row.rematch_of,
        "branch_of": branch_json(branch_origin(row)),
    }
