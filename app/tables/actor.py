"""The table actor: the imperative shell around the table's core (app/tables/core).

One asyncio task per table, fed by a queue of commands. For each command it asks the core
``decide(table, command, now)`` and carries out the effects: every write first (fenced by
the owner epoch); the new table is kept only if they all succeeded; then the pushes, chat
lines and bots' thinking, and the answer. After each command one set of timers is made to
match ``wakeups(table, now)``; all of them stop with the actor.

Bots think in a thread, off the event loop; the table goes on meanwhile, and the bot's
choice comes back as a command judged like anyone's move. A write that fails for a timer's
or a bot's command is tried again a little later (never in a loop).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any, cast

from app import metrics
from app.db.repository import Repository, StaleOwner, chat_row, now
from app.errors import AppError, storage_down, storage_unavailable
from app.games.bots import bot_rng, seat_history
from app.games.bots import decide as bot_decide
from app.tables.connections import BroadcastEncoder, Connection
from app.tables.core import bots, views
from app.tables.core.commands import AddBot, BotMove, Connect, Disconnect, Housekeep, Wake
from app.tables.core.decide import decide
from app.tables.core.effects import (
    AppendAction,
    Broadcast,
    ChatLine,
    CloseAll,
    CreateBot,
    DeleteTable,
    FollowUp,
    Refuse,
    Relay,
    Reply,
    SaveSeats,
    SendChat,
    SendState,
    SetStatus,
    Store,
    SystemLine,
    Think,
    Write,
)
from app.tables.core.presence import idle_for
from app.tables.core.state import TableState, TableStatus, bot_seats, name_of_seat, seat_of
from app.tables.core.wakeups import wakeups
from app.tables.engine import EngineAdapter

log = logging.getLogger(__name__)

CHAT_KEPT = 100  # lines kept in memory (and replayed to a new connection: the last 50)
SERVICE_RESTART = 1012  # close code: reconnect, the table is served elsewhere now


def table_moving() -> AppError:
    return AppError("table_moving", "this table is moving to another server: try again in a "
                    "moment", 503)


@dataclass
class _Envelope:
    command: Any
    reply: asyncio.Future[Any] | None  # None: the actor's own (a timer, a bot): nobody waits


class TableActor:
    def __init__(self, table: TableState, repo: Repository,
                 clock: Callable[[], float] = time.monotonic,
                 chat: list[dict[str, Any]] | None = None) -> None:
        self.table = table
        self.repo = repo
        self._clock = clock
        self.chat = list(chat or [])[-CHAT_KEPT:]
        self._chat_seq = max((line["id"] for line in self.chat), default=0)
        self.connections: dict[int, Connection] = {}
        self._queue: asyncio.Queue[_Envelope] = asyncio.Queue()
        self._task: asyncio.Task[None] | None = None
        self._handling: _Envelope | None = None  # the command the task is on
        self._timers: dict[str, tuple[float, asyncio.TimerHandle | None]] = {}
        self._thinking: dict[str, asyncio.Task[None]] = {}
        self._retry: dict[str, tuple[int, float]] = {}  # key -> (failures, not before)
        self.last_activity = time.monotonic()
        # told when the public summary may have changed (the cluster's lobby lists), and when
        # a write shows that another process has taken the table over
        self.on_change: Callable[[TableActor], None] | None = None
        self.on_stale: Callable[[TableActor], None] | None = None
        self.moved = False
        self._last_chat: asyncio.Future[None] | None = None  # the newest line queued to store
        # system lines a step's seat write has stored (id of the effect -> seq, at, line)
        self._stored_lines: dict[int, tuple[int, datetime, dict[str, Any]]] = {}
        # the summary a broadcast has just made, while ``on_change`` is told (the cluster's
        # lobby list publishes it: the same table at the same moment, not made twice)
        self._summary_now: dict[str, Any] | None = None

    # ------------------------------------------------------------------ reading the table

    @property
    def info(self) -> TableState:
        return self.table

    @property
    def state(self) -> Any:
        return self.table.game_state

    @property
    def engine(self) -> EngineAdapter:
        return self.table.engine

    def seat_of(self, player_id: str | None) -> int | None:
        return seat_of(self.table, player_id)

    def waiting_seats(self) -> set[int]:
        """The seats whose move the table waits for (none unless playing)."""
        return set(self.table.turn.waiting) if self.table.playing else set()

    def bot_seats(self) -> set[int]:
        return set(bot_seats(self.table))

    def now(self) -> float:
        """The time on this table's clock: what its summary, state messages and timers use
        (the lobby's list fills an away seat's ``away_for`` from it)."""
        return self._clock()

    def summary(self) -> dict[str, Any]:
        if self._summary_now is not None:  # asked while a broadcast tells of this table
            return self._summary_now
        return views.summary(self.table, self._clock())

    def state_message(self, seat: int | None) -> dict[str, Any]:
        return views.state_message(self.table, seat, self._clock())

    def idle_for(self) -> float:
        return idle_for(self.table, self._clock())

    # ------------------------------------------------------------------ lifecycle

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run(),
                                                            name=f"table-{self.table.id}")
        self._reconcile_timers()

    async def stop(self, moved: bool = False) -> None:
        """Stop the task, its timers and bots, and close every connection; ``moved``: the
        table now lives in another process, so clients are told to reconnect there."""
        self.moved = self.moved or moved
        for _at, handle in self._timers.values():
            if handle is not None:
                handle.cancel()
        self._timers.clear()
        for task in [*self._thinking.values(), *([self._task] if self._task else [])]:
            task.cancel()
            try:
                await task
            except asyncio.CancelledError:
                pass
        self._thinking.clear()
        self._refuse_waiting()
        closing = list(self.connections.values())
        self.connections.clear()  # (their ends need not be told to the table: it stops)
        for conn in closing:
            if self.moved:
                conn.push({"type": "error", "version": self.table.version,
                           "code": "table_moving",
                           "message": "this table moved to another server: reconnecting"})
                conn.finish(close=(SERVICE_RESTART, "table_moving"))
            else:
                conn.finish()

    def _refuse_waiting(self) -> None:
        """Answer the commands the stopped task will never handle (the one it was on, those
        queued): ``table_moving``, so their callers go on (a socket's handler ends, a
        request retries and finds the table where it is now) instead of waiting for
        ever."""
        waiting = [self._handling] if self._handling is not None else []
        self._handling = None
        while not self._queue.empty():
            waiting.append(self._queue.get_nowait())
        for envelope in waiting:
            if envelope.reply is not None and not envelope.reply.done():
                envelope.reply.set_exception(table_moving())

    async def drain(self) -> None:
        """Hand the table over (app/tables/registry.py ``give``): refuse new commands from
        now on (``table_moving``: the caller retries and reaches the new owner), let every
        command already queued finish, each accepted action durable (and its chat lines
        stored, so the next owner numbers its own after them), then stop."""
        self.moved = True
        if self._task is not None and not self._task.done():
            barrier = _Envelope(Housekeep(math.inf, math.inf),
                                asyncio.get_running_loop().create_future())
            self._queue.put_nowait(barrier)  # answered once everything before it is done
            assert barrier.reply is not None
            with contextlib.suppress(Exception):
                await barrier.reply
        if self._last_chat is not None:  # chat lines are stored in order: the last one, too
            with contextlib.suppress(Exception):
                await asyncio.wait_for(asyncio.shield(self._last_chat), 5)
        await self.stop(moved=True)

    async def submit(self, command: Any) -> Any:
        """Enqueue a command and wait for the actor's answer (or its AppError)."""
        if self.table.status is TableStatus.DELETED:
            raise AppError("not_found", "no such table", 404)
        if self.moved or (self._task is not None and self._task.done()):
            raise table_moving()
        envelope = _Envelope(command, asyncio.get_running_loop().create_future())
        await self._queue.put(envelope)
        assert envelope.reply is not None
        return await envelope.reply

    async def connect(self, conn: Connection, invite: str | None = None,
                      watch: bool = False) -> int | None:
        """Join a socket to the table (its seat, if its player has one). It leaves the
        table when it ends, whatever ends it (``Connection.on_end``: its socket closed, it
        fell too far behind, a send failed), or when it is refused here."""
        self.connections[conn.id] = conn
        conn.on_end = lambda: self._leave(conn)
        try:
            return await self.submit(Connect(conn.id, conn.player_id, conn.name, invite, watch,  # type: ignore[no-any-return]
                                             conn.screen, conn.seat))
        except BaseException:
            # refused, or the caller gave up waiting (its Connect may still be queued: the
            # Disconnect queued after it takes it out again)
            conn.on_end = None
            self._leave(conn)
            raise

    def _leave(self, conn: Connection) -> None:
        """The one place a connection's end reaches the table: no push reaches it from now
        on, and the table's own record of it (presence, seats connected, spectators) goes
        with the Disconnect queued here. Once per connection; nothing once the table has
        closed its connections itself (``stop``, ``CloseAll``)."""
        if self.connections.get(conn.id) is conn:
            del self.connections[conn.id]
            self._post(Disconnect(conn.id))

    async def disconnect(self, conn: Connection) -> None:
        """End ``conn`` and wait until the table has seen it go."""
        conn.finish()  # leaves at once (``_leave``); the Disconnect below finds it gone
        await self.submit(Disconnect(conn.id))

    def _post(self, command: Any) -> None:
        """Queue one of the actor's own commands (nobody waits for its answer)."""
        if self._task is not None and not self._task.done():
            self._queue.put_nowait(_Envelope(command, None))

    # ------------------------------------------------------------------ the loop

    async def _run(self) -> None:
        while True:
            envelope = await self._queue.get()
            self._handling = envelope
            self.last_activity = time.monotonic()
            pending = [envelope.command]
            answer: tuple[Any, BaseException | None] | None = None
            while pending:  # the command, then the follow-ups it asked for
                command = pending.pop(0)
                try:
                    with metrics.command(self.table.setup.game, command):
                        result: tuple[Any, BaseException | None] = (
                            await self._step(command, pending), None)
                except AppError as exc:
                    result = (None, exc)
                except Exception as exc:  # noqa: BLE001 - one table's bug never kills the actor
                    log.exception("table %s: error handling %r", self.table.id, command)
                    self._tell_all({"type": "error", "code": "internal_error", "message":
                                    "the server hit a bug at this table; the game log is kept"})
                    result = (None, AppError("internal_error",
                                             f"internal error: {type(exc).__name__}", 500))
                if answer is None:
                    answer = result  # follow-ups answer nobody: their refusals are logged
                elif result[1] is not None:
                    log.warning("table %s: %s failed: %s", self.table.id,
                                type(command).__name__, result[1])
            self._reconcile_timers()
            value, error = answer or (None, None)
            if envelope.reply is None:
                if error is not None:
                    log.warning("table %s: %s refused: %s", self.table.id,
                                type(envelope.command).__name__, error)
            elif not envelope.reply.done():
                if error is not None:
                    envelope.reply.set_exception(error)
                else:
                    envelope.reply.set_result(value)
            self._handling = None

    async def _step(self, command: Any, follow_ups: list[Any]) -> Any:
        """Decide one command and carry out its effects; answer its reply."""
        kind, key = type(command), None  # key: a timer's or a bot's own command
        if kind is Wake:
            key = command.key
            self._timers.pop(key, None)
        elif kind is BotMove:
            key = f"bot:{command.seat}"
            self._thinking.pop(key, None)
        elif kind is AddBot and not command.bot_id:
            command = replace(command, bot_id=secrets.token_urlsafe(12))
        try:
            table, effects = decide(self.table, command, self._clock())
            self._stored_lines.clear()
            for effect in effects:
                if type(effect) is Store:
                    await self._store(effect.write, table, effects)
        except Exception:
            if key is not None:  # a timer's or a bot's command: again later, not at once
                self._back_off(key)
            raise
        if key is not None:
            self._retry.pop(key, None)
        self.table = table
        answer: Any = None
        refused: AppError | None = None
        for effect in effects:
            kind = type(effect)  # (exact types: mypy cannot narrow on ``kind``, hence casts)
            if kind is Reply:
                answer = cast(Reply, effect).value
            elif kind is Refuse:
                refused = cast(Refuse, effect).error
            elif kind is FollowUp:
                follow_ups.append(cast(FollowUp, effect).command)
            elif kind is Broadcast:
                self._broadcast(cast(Broadcast, effect))
            elif kind is SystemLine or kind is ChatLine:
                await self._chat(cast(SystemLine | ChatLine, effect))
            elif kind is not Store:
                self._carry_out(effect)
        if refused is not None:
            if key is not None:  # refused for a timer or a bot: not again at once either
                self._back_off(key)
            raise refused
        return answer

    def _back_off(self, key: str) -> None:
        failures = self._retry.get(key, (0, 0.0))[0] + 1
        self._retry[key] = (failures, self._clock() + min(30.0, 0.5 * 2 ** failures))

    async def _store(self, write: Write, table: TableState,
                     effects: list[Any] | None = None) -> None:
        """Write to the database, fenced by the epoch this process took the table with; if
        another process has taken it over, give it up here and tell the caller to retry.
        A seat write stores the step's system lines (a join's, a leave's) in its own
        transaction: they are then only pushed when the step's effects are carried out."""
        repo, tid, epoch = self.repo, table.setup.id, table.setup.epoch
        try:
            if isinstance(write, AppendAction):
                await repo.append_action(tid, write.version, write.seat, write.action,
                                         write.source, write.outcome, epoch)
            elif isinstance(write, SaveSeats):
                seq_before = self._chat_seq
                lines = [(effect, *self._system_line(table, effect))  # each stored once
                         for effect in effects or () if type(effect) is SystemLine
                         and id(effect) not in self._stored_lines]
                chat = [chat_row(tid, seq, at=at, **line) for _, seq, at, line in lines]
                try:
                    await repo.save_seats(tid, list(write.seats), write.host_id,
                                          write.version, epoch=epoch, chat=chat)
                except BaseException:
                    self._chat_seq = seq_before  # their numbers were not stored: free again
                    raise
                self._stored_lines.update((id(effect), (seq, at, line))
                                          for effect, seq, at, line in lines)
            elif isinstance(write, SetStatus):
                extra = {"started_at": now()} if write.started else {}
                await repo.set_status(tid, write.status, write.version, epoch=epoch, **extra)
            elif isinstance(write, DeleteTable):
                await repo.delete_table(tid, epoch=epoch)
            elif isinstance(write, CreateBot):
                await repo.create_bot(write.name, write.bot_id)
        except StaleOwner:
            log.warning("table %s: taken over by another process; giving it up", tid)
            self.moved = True
            if self.on_stale is not None:
                self.on_stale(self)
            raise table_moving() from None
        except AppError:
            raise
        except Exception as exc:
            log.exception("table %s: could not store %s", tid, type(write).__name__)
            if isinstance(write, AppendAction) and not storage_down(exc):
                raise AppError("storage_error", "the move could not be saved; nothing "
                               "changed, try again", 503) from None
            raise storage_unavailable() from None

    def _carry_out(self, effect: Any) -> None:
        kind = type(effect)
        if kind is SendState:
            self._send_state(effect)
        elif kind is SendChat:
            conn = self.connections.get(effect.conn)
            for line in self.chat[-50:] if conn is not None else []:
                conn.push(line)  # type: ignore[union-attr]
        elif kind is Relay:
            self._relay(effect)
        elif kind is Think:
            self._think(effect)
        elif kind is CloseAll:
            self._tell_all({"type": "closed", "code": effect.code, "message": effect.message})
            closing = list(self.connections.values())
            self.connections.clear()  # (the table has let them all go already)
            for conn in closing:
                conn.finish()
        else:
            raise TypeError(f"unknown effect {effect!r}")

    async def _chat(self, effect: SystemLine | ChatLine) -> None:
        stored = self._stored_lines.pop(id(effect), None)
        if stored is not None:  # stored by the step's seat write: only told
            self._push_chat(*stored)
        elif isinstance(effect, SystemLine):
            await self._chat_line(False, kind="system", seat=effect.seat, player_id=None,
                                  name="", text=None, code=effect.code,
                                  params=dict(effect.params or {}))
        else:
            await self._chat_line(True, kind=effect.kind, seat=effect.seat,
                                  player_id=effect.player_id, name=effect.name,
                                  text=effect.text, code=None, params=None)

    # ------------------------------------------------------------------ telling people

    def _broadcast(self, effect: Broadcast) -> None:
        """Every connection its own state message: one view and one encoding per seat."""
        t = self._clock()
        table = self.table
        table_summary: dict[str, Any] | None = None
        if self.on_change is not None:
            table_summary = self._summary_now = views.summary(table, t)
            try:
                self.on_change(self)
            finally:
                self._summary_now = None
        cache: dict[tuple[int | None, bool], bytes] = {}  # (seat, a screen)
        shared: dict[str, Any] | None = None
        encoder = BroadcastEncoder()  # the parts the seats' messages share: encoded once
        for conn in list(self.connections.values()):
            known = table.conns.get(conn.id)
            if conn.id == effect.exclude or conn.dropped or known is None:
                continue
            key = (known.seat, known.screen)
            if key not in cache:
                if shared is None:
                    shared = views.shared(table, t, table_summary or views.summary(table, t))
                cache[key] = encoder.encode_bytes(views.state_message(
                    table, known.seat, t, effect.events, shared_part=shared,
                    screen=known.screen))
            conn.push_bytes(cache[key])

    def _send_state(self, effect: SendState) -> None:
        conn, known = self.connections.get(effect.conn), self.table.conns.get(effect.conn)
        if conn is not None and known is not None:
            conn.push(views.state_message(self.table, known.seat, self._clock(),
                                          with_history=effect.history, screen=known.screen))

    def _relay(self, effect: Relay) -> None:
        for other in list(self.connections.values()):
            known = self.table.conns.get(other.id)
            if other.id == effect.conn or known is None:
                continue
            shown = effect.event.for_seat(known.seat)
            if shown is not None:
                other.push({"type": "ephemeral", "version": self.table.version,
                            "seat": effect.seat, "event": shown})

    def _tell_all(self, message: dict[str, Any]) -> None:
        for conn in self.connections.values():
            conn.push({**message, "version": self.table.version})

    async def _chat_line(self, wait: bool, **line: Any) -> None:
        """Give the line the table's next chat number, store it (``wait``: until it is
        stored; else with the chat writer's next batch, a failure only loses it) and push
        it to every connection."""
        if line["seat"] is not None and line["kind"] == "system":
            line["params"].setdefault("name", name_of_seat(self.table, line["seat"]))
        self._chat_seq += 1
        seq, at = self._chat_seq, now()
        stored = self.repo.queue_chat_line(self.table.id, seq, at=at, **line)
        self._last_chat = stored
        if wait:
            try:
                await stored
            except Exception as exc:
                log.exception("table %s: could not store a chat line", self.table.id)
                if storage_down(exc):
                    raise storage_unavailable() from None
                raise AppError("storage_error", "the message could not be saved; try again",
                               503) from None
        self._push_chat(seq, at, line)

    def _system_line(self, table: TableState, effect: SystemLine
                     ) -> tuple[int, datetime, dict[str, Any]]:
        """The next chat number, the time and the line of a system line stored by the seat
        write of its step (as ``_chat_line`` would have made them)."""
        line: dict[str, Any] = {"kind": "system", "seat": effect.seat, "player_id": None,
                                "name": "", "text": None, "code": effect.code,
                                "params": dict(effect.params or {})}
        if effect.seat is not None:
            line["params"].setdefault("name", name_of_seat(table, effect.seat))
        self._chat_seq += 1
        return self._chat_seq, now(), line

    def _push_chat(self, seq: int, at: datetime, line: dict[str, Any]) -> None:
        message = {"type": "chat", "version": self.table.version, "id": seq,
                   "kind": line["kind"], "seat": line["seat"], "name": line["name"],
                   "text": line["text"], "code": line["code"], "params": line["params"],
                   "at": at.isoformat()}
        self.chat = [*self.chat[-(CHAT_KEPT - 1):], message]
        for conn in list(self.connections.values()):
            conn.push(message)

    # ------------------------------------------------------------------ bots and timers

    def _think(self, effect: Think) -> None:
        """Run the seat's bot in a thread on the table as it is now; its choice comes back
        as a ``BotMove``."""
        key = f"bot:{effect.seat}"
        if key in self._thinking:
            return
        table = self.table
        bot = table.engine.bot(all_bots=bots.all_bots(table))
        if bot is None:
            return
        history = seat_history([(s.version, s.events) for s in table.history], effect.seat)
        rng = bot_rng(table.seed, effect.version, effect.seat)

        async def think() -> None:
            try:
                action = await asyncio.to_thread(bot_decide, table.engine.engine, bot,
                                                 table.game_state, effect.seat, history, rng)
            except Exception:  # noqa: BLE001 - not even a timeout move: try again later
                log.exception("table %s: the bot of seat %s has no move", table.id,
                              effect.seat)
                self._thinking.pop(key, None)
                self._back_off(key)
                self._reconcile_timers()
                return
            self._post(BotMove(effect.seat, effect.version, action))

        self._thinking[key] = asyncio.get_running_loop().create_task(think())

    def _reconcile_timers(self) -> None:
        """Make the timers match what the table wants to be woken for."""
        table = self.table
        if not self._timers and table.vote is None and table.window is None \
                and table.clock.mode == "none" and not (table.bots or table.autopilot):
            return  # nothing to wait for (most tables, most of the time)
        wanted = wakeups(table, 0.0)  # (the times are absolute: no clock needed)
        if self._task is None or self._task.done() or self.moved:
            return
        t = self._clock()
        for key, (at, handle) in list(self._timers.items()):
            if handle is not None and wanted.get(key) != at:
                handle.cancel()
                del self._timers[key]
        loop = asyncio.get_running_loop()
        for key, at in wanted.items():
            if key in self._timers or key in self._thinking:
                continue
            when = max(at, self._retry.get(key, (0, 0.0))[1])
            self._timers[key] = (at, loop.call_later(max(0.0, when - t), self._fire, key))

    def _fire(self, key: str) -> None:
        if key in self._timers:
            self._timers[key] = (self._timers[key][0], None)  # fired: its Wake is queued
            self._post(Wake(key))
