"""The table actor: one asyncio task per table, the only owner of that table's game state.

HTTP handlers and sockets never touch the state: they put a command on the actor's queue
and await its reply. After each accepted action the actor stores it (durably, before anyone
sees the result), bumps the version and pushes every connection its own redacted view.

The table's life beyond the rules (chat, presence, clocks, votes, resigning, expiry) is in
``app.tables.life``, a part of this class.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from app import metrics
from app.db.repository import Repository, StaleOwner, now
from app.errors import AppError, forbidden
from app.games.base import (
    AUTOPILOT,
    BOT_DELAY,
    CLOSE_WINDOW,
    SYSTEM_SEAT,
    Engine,
    IllegalAction,
    Window,
    apply_any,
    engine_options,
    event_for,
    open_window,
)
from app.games.bots import bot_for, bot_rng, decide, seat_history
from app.tables import limits
from app.tables.clocks import TableClock
from app.tables.connections import Connection, encode
from app.tables.ending import is_early_end
from app.tables.life import TableLife

log = logging.getLogger(__name__)


# --------------------------------------------------------------------------- commands


@dataclass
class Join:
    player_id: str
    name: str
    seat: int | None = None
    invite: str | None = None


@dataclass
class Leave:
    player_id: str


@dataclass
class Rename:
    """A seated player changed their display name: the table shows the new one."""

    player_id: str
    name: str


@dataclass
class Start:
    player_id: str


@dataclass
class AddBot:
    """The host puts a bot in a free seat, or gives the host's own seat to one."""

    player_id: str
    seat: int


@dataclass
class RemoveBot:
    player_id: str
    seat: int


@dataclass
class BotTurn:
    """A bot seat's pause is over: it moves if the table is still where it was."""

    seat: int
    version: int


@dataclass
class Delete:
    player_id: str


@dataclass
class Act:
    player_id: str
    action: dict[str, Any]
    version: int
    connection: Connection | None = None


@dataclass
class Connect:
    connection: Connection
    invite: str | None = None
    watch: bool = False  # came with the table's spectator key (may watch, never sit)


@dataclass
class Disconnect:
    connection: Connection


@dataclass
class Chat:
    connection: Connection
    text: str


@dataclass
class Sync:
    connection: Connection


@dataclass
class Ephemeral:
    """A live, unstored update (a block being dragged): checked by the engine, relayed."""

    connection: Connection
    data: dict[str, Any]


@dataclass
class WindowDeadline:
    """A timed window's clock has (or may have) run out."""

    window_id: str


@dataclass
class _Envelope:
    command: Any
    reply: asyncio.Future[Any] = field(default_factory=lambda: asyncio.get_running_loop()
                                       .create_future())


# --------------------------------------------------------------------------- the actor


@dataclass
class TableInfo:
    id: str
    game: str
    seat_count: int
    options: dict[str, Any]
    private: bool
    invite_token: str
    host_id: str
    status: str  # waiting | playing | finished | deleted
    seed: int
    version: int
    created_at: datetime
    seats: list[str | None]
    names: dict[str, str]
    bots: set[str] = field(default_factory=set)  # player ids of the bots seated here
    error: str | None = None
    outcome: dict[str, Any] | None = None
    rematch_of: str | None = None
    epoch: int = 0  # the owner epoch this process took the table with (the write fence)


class TableActor(TableLife):
    # live updates relayed per connection: a burst of this many, refilled at this rate per second
    EPHEMERAL_BURST = 20
    EPHEMERAL_RATE = 20.0

    def __init__(self, info: TableInfo, engine: Engine, repo: Repository,
                 state: Any = None, history: list[tuple[int, list[Any]]] | None = None,
                 clock: Callable[[], float] = time.monotonic,
                 table_clock: TableClock | None = None,
                 chat: list[dict[str, Any]] | None = None,
                 sources: dict[int, tuple[str, int]] | None = None) -> None:
        self.info = info
        self.engine = engine
        self.repo = repo
        self.state = state
        # (version, events) of every accepted action, so a (re)connecting client can rebuild
        # its log; each seat gets them redacted, like live events
        self.history: list[tuple[int, list[Any]]] = history or []
        self.connections: dict[int, Connection] = {}
        self._queue: asyncio.Queue[_Envelope] = asyncio.Queue()
        self._task: asyncio.Task[None] | None = None
        # the engine's open timed window (Allegra's knock), its deadline on self._clock, and
        # the call that will close it; tests pass a fake clock and fire WindowDeadline
        self._clock = clock
        self._window: Window | None = None
        self._window_deadline = 0.0
        self._window_handle: asyncio.TimerHandle | None = None
        self._ephemeral_budget: dict[int, tuple[float, float]] = {}  # conn -> (tokens, at)
        self._chat_buckets: dict[str, limits.Bucket] = {}  # player -> chat allowance
        self.last_activity = time.monotonic()
        # told when the public summary may have changed (the cluster's lobby lists), and when
        # a write shows that another process has taken the table over
        self.on_change: Callable[[TableActor], None] | None = None
        self.on_stale: Callable[[TableActor], None] | None = None
        self.moved = False
        self._bot_handles: dict[int, asyncio.TimerHandle] = {}  # seat -> its pending move
        # seats a bot plays while their player is away (voted; off when they reconnect);
        # stored as platform actions, so it is rebuilt from the log's history here
        self.autopilot: set[int] = set()
        for _version, events in self.history:
            for event in events:
                if getattr(event, "type", None) == AUTOPILOT:
                    seat = event.data["seat"]
                    (self.autopilot.add if event.data["on"] else self.autopilot.discard)(seat)
        self._bot_failures = 0
        self._init_life(table_clock, chat, sources)
        self._track_presence()

    # ------------------------------------------------------------------ lifecycle

    def start(self) -> None:
        loop = asyncio.get_running_loop()
        self._task = loop.create_task(self._run(), name=f"table-{self.info.id}")
        self._arm_clock()
        self._schedule_window()
        self._schedule_bots()

    async def stop(self, moved: bool = False) -> None:
        """Stop the task and close every connection; ``moved``: the table now lives in
        another process, so clients are told to reconnect (they reach the new owner)."""
        self.moved = self.moved or moved
        for handle in self._bot_handles.values():
            handle.cancel()
        if self._clock_handle is not None:
            self._clock_handle.cancel()
        if self._window_handle is not None:
            self._window_handle.cancel()
        if self._task is not None:
            self._task.cancel()
            try:
                await self._task
            except asyncio.CancelledError:
                pass
        for conn in list(self.connections.values()):
            if self.moved:
                conn.push({"type": "error", "version": self.info.version, "code": "table_moving",
                           "message": "this table moved to another server: reconnecting"})
                conn.finish(close=(SERVICE_RESTART, "table_moving"))
            else:
                conn.finish()
        self.connections.clear()

    async def submit(self, command: Any) -> Any:
        """Enqueue a command and wait for the actor's answer (or its AppError)."""
        if self.info.status == "deleted":
            raise AppError("not_found", "no such table", 404)
        if self.moved or (self._task is not None and self._task.done()):
            raise table_moving()
        envelope = _Envelope(command)
        await self._queue.put(envelope)
        return await envelope.reply

    async def _run(self) -> None:
        while True:
            envelope = await self._queue.get()
            self.last_activity = time.monotonic()
            try:
                with metrics.command(self.info.game, envelope.command):  # counted and timed
                    result = await self._handle(envelope.command)
            except AppError as exc:
                if not envelope.reply.done():
                    envelope.reply.set_exception(exc)
            except Exception as exc:  # noqa: BLE001 - one table's bug never kills the actor
                log.exception("table %s: error handling %r", self.info.id, envelope.command)
                self._broadcast_error("internal_error",
                                      "the server hit a bug at this table; the game log is kept")
                if not envelope.reply.done():
                    envelope.reply.set_exception(
                        AppError("internal_error", f"internal error: {type(exc).__name__}", 500))
            else:
                if not envelope.reply.done():
                    envelope.reply.set_result(result)

    async def _handle(self, cmd: Any) -> Any:
        handler = getattr(self, "_on_" + type(cmd).__name__.lower())
        return await handler(cmd)

    # ------------------------------------------------------------------ seats

    async def _on_rename(self, cmd: Rename) -> None:
        if cmd.player_id not in self.info.names or self.info.names[cmd.player_id] == cmd.name:
            return
        self.info.names[cmd.player_id] = cmd.name
        self._broadcast()

    def waiting_seats(self) -> set[int]:
        """The seats whose move the table waits for (none unless playing)."""
        if self.state is None or self.info.status != "playing":
            return set()
        waiting = getattr(self.engine, "waiting_for", self.engine.to_act)
        return set(waiting(self.state))

    def seat_of(self, player_id: str | None) -> int | None:
        if player_id is None:
            return None
        for seat, pid in enumerate(self.info.seats):
            if pid == player_id:
                return seat
        return None

    async def _on_join(self, cmd: Join) -> int:
        existing = self.seat_of(cmd.player_id)
        if existing is not None:
            return existing
        if self.info.status != "waiting":
            raise AppError("game_started", "this game has already started", 409)
        if self.info.private and not _same(cmd.invite, self.info.invite_token):
            raise forbidden("this table is private: you need its invite link")
        free = [s for s, p in enumerate(self.info.seats) if p is None]
        if cmd.seat is None:
            if not free:
                raise AppError("table_full", "every seat is taken", 409)
            seat = free[0]
        else:
            if not 0 <= cmd.seat < self.info.seat_count:
                raise AppError("bad_seat", f"seats go from 0 to {self.info.seat_count - 1}")
            if cmd.seat not in free:
                raise AppError("seat_taken", "that seat is taken", 409)
            seat = cmd.seat
        seats = list(self.info.seats)
        seats[seat] = cmd.player_id
        await self._fenced(self.repo.save_seats(self.info.id, seats, self.info.host_id,
                                                self.info.version + 1, epoch=self.info.epoch))
        self.info.seats = seats
        self.info.names[cmd.player_id] = cmd.name
        self.info.version += 1
        self._rebind_connections()
        self._track_presence()
        self._broadcast()
        await self.system_line("joined", seat=seat)
        return seat

    async def _on_leave(self, cmd: Leave) -> None:
        seat = self.seat_of(cmd.player_id)
        if seat is None:
            raise AppError("not_seated", "you are not seated at this table", 409)
        if self.info.status != "waiting":
            raise AppError("game_started", "you cannot leave a game in progress", 409)
        seats = list(self.info.seats)
        seats[seat] = None
        name = self.info.names.get(cmd.player_id, "")
        humans = [p for p in seats if p is not None and p not in self.info.bots]
        if not humans and (cmd.player_id == self.info.host_id or not any(seats)):
            await self._delete()  # bots never host a table by themselves
            return
        host = self.info.host_id
        if host == cmd.player_id:
            host = humans[0]
        await self._fenced(self.repo.save_seats(self.info.id, seats, host,
                                                self.info.version + 1, epoch=self.info.epoch))
        self.info.seats, self.info.host_id = seats, host
        self.info.version += 1
        self._rebind_connections()
        self._track_presence()
        self._broadcast()
        await self.system_line("left", name=name)

    async def _on_delete(self, cmd: Delete) -> None:
        if cmd.player_id != self.info.host_id:
            raise forbidden("only the host can delete the table")
        if self.info.status != "waiting":
            raise AppError("game_started", "a table can only be deleted before it starts", 409)
        await self._delete()

    async def _delete(self, code: str = "table_deleted",
                      message: str = "the table was deleted") -> None:
        await self._fenced(self.repo.delete_table(self.info.id, epoch=self.info.epoch))
        self.info.status = "deleted"
        self.info.version += 1
        for conn in self.connections.values():
            conn.push({"type": "closed", "version": self.info.version,
                       "code": code, "message": message})
            conn.finish()
        self.connections.clear()

    async def _on_start(self, cmd: Start) -> None:
        if cmd.player_id != self.info.host_id:
            raise forbidden("only the host can start the game")
        if self.info.status != "waiting":
            raise AppError("game_started", "the game has already started", 409)
        if any(p is None for p in self.info.seats):
            raise AppError("not_full", "every seat must be taken before the game starts", 409)
        state = self.engine.setup(self.info.seat_count, engine_options(self.info.options),
                                  self.info.seed)
        await self._fenced(self.repo.set_status(self.info.id, "playing", self.info.version + 1,
                                                epoch=self.info.epoch, started_at=now()))
        self.state = state
        self.info.status = "playing"
        self.info.version += 1
        self._track_presence()
        self._update_clock()
        self._schedule_window()
        self._schedule_bots()
        self._broadcast()
        await self.system_line("started")

    # ------------------------------------------------------------------ bots

    async def _on_addbot(self, cmd: AddBot) -> int:
        bot = bot_for(self.info.game)
        if bot is None:
            raise AppError("no_bot", "this game has no bot (see its rules page)", 422)
        self._check_seating_by_host(cmd.player_id, cmd.seat)
        holder = self.info.seats[cmd.seat]
        if holder is not None and holder != self.info.host_id:
            raise AppError("seat_taken", "that seat is taken", 409)
        taken = {self.info.names.get(p) for p in self.info.bots}
        name = next(n for n in (f"Bot {i}" for i in range(1, 100)) if n not in taken)
        player = await self.repo.create_bot(name)
        seats = list(self.info.seats)
        seats[cmd.seat] = player.id  # the host may give their own seat and watch
        await self._fenced(self.repo.save_seats(self.info.id, seats, self.info.host_id,
                                                self.info.version + 1, epoch=self.info.epoch))
        self.info.seats = seats
        self.info.names[player.id] = name
        self.info.bots.add(player.id)
        self.info.version += 1
        self._rebind_connections()
        self._track_presence()
        self._broadcast()
        await self.system_line("joined", seat=cmd.seat)
        return cmd.seat

    async def _on_removebot(self, cmd: RemoveBot) -> None:
        self._check_seating_by_host(cmd.player_id, cmd.seat)
        holder = self.info.seats[cmd.seat]
        if holder is None or holder not in self.info.bots:
            raise AppError("not_a_bot", "no bot sits in that seat", 409)
        seats = list(self.info.seats)
        seats[cmd.seat] = None
        await self._fenced(self.repo.save_seats(self.info.id, seats, self.info.host_id,
                                                self.info.version + 1, epoch=self.info.epoch))
        self.info.seats = seats
        self.info.bots.discard(holder)
        self.info.version += 1
        self._broadcast()

    def _check_seating_by_host(self, player_id: str, seat: int) -> None:
        if player_id != self.info.host_id:
            raise forbidden("only the host can seat or remove bots")
        if self.info.status != "waiting":
            raise AppError("game_started", "bots are seated before the game starts", 409)
        if not 0 <= seat < self.info.seat_count:
            raise AppError("bad_seat", f"seats go from 0 to {self.info.seat_count - 1}")

    def bot_seats(self) -> set[int]:
        """Seats a bot plays: the host's bots, and absent players' seats handed to one."""
        return {s for s, p in enumerate(self.info.seats) if p in self.info.bots} | \
            self.autopilot

    async def set_autopilot(self, seat: int, on: bool, source: str) -> None:
        """A bot takes an absent player's seat (``on``), or gives it back. Stored in the log
        (a platform action), so a restart, a replay and the record know which moves were the
        bot's."""
        if (seat in self.autopilot) == on or self.info.status != "playing":
            return
        before = set(self.autopilot)
        (self.autopilot.add if on else self.autopilot.discard)(seat)
        try:
            await self._apply(SYSTEM_SEAT, {"type": AUTOPILOT, "seat": seat, "on": on}, source)
        except AppError:
            self.autopilot = before
            raise
        await self.system_line("bot_plays" if on else "seat_returned", seat=seat)

    def _schedule_bots(self) -> None:
        """Give every bot seat the game waits for a move after the table's bot delay."""
        for handle in self._bot_handles.values():
            handle.cancel()
        self._bot_handles.clear()
        if self.info.status != "playing" or self.state is None:
            return
        bots = self.bot_seats()
        if not bots:
            return
        due = self._bots_due(bots)
        delay = int(self.info.options.get(BOT_DELAY.name, BOT_DELAY.default)) / 1000
        loop = asyncio.get_running_loop()
        for seat in due:
            self._bot_handles[seat] = loop.call_later(
                delay, self._fire_bot, seat, self.info.version)

    def _bots_due(self, bots: set[int]) -> set[int]:
        """The bot seats the game waits for now: whose turn it is, who has not picked yet in
        a simultaneous turn, or who may still answer an open timed window."""
        waiting = getattr(self.engine, "waiting_for", self.engine.to_act)
        due = set(waiting(self.state))
        window = open_window(self.engine, self.state)
        if window is not None:
            due |= set(window.seats)
        return due & bots

    def _fire_bot(self, seat: int, version: int) -> None:
        self._queue.put_nowait(_Envelope(BotTurn(seat, version)))

    async def _on_botturn(self, cmd: BotTurn) -> None:
        self._bot_handles.pop(cmd.seat, None)
        if (self.info.status != "playing" or cmd.version != self.info.version
                or cmd.seat not in self.bot_seats()):
            return
        if cmd.seat not in self._bots_due({cmd.seat}):
            return
        # a table of bots only (from the start: host's bots fill every seat) may use the
        # game's bot-only conventions; a seat played for an absent person never does
        bot = bot_for(self.info.game, all_bots=all(p in self.info.bots for p in self.info.seats))
        assert bot is not None
        history = seat_history(self.history, cmd.seat)
        rng = bot_rng(self.info.seed, self.info.version, cmd.seat)
        # a bot thinks off the event loop: other tables keep moving meanwhile (this actor
        # waits, so the state cannot change under the bot)
        action = await asyncio.to_thread(decide, self.engine, bot, self.state, cmd.seat,
                                         history, rng)
        try:
            await self._apply(cmd.seat, action, "bot")
        except AppError as exc:
            if exc.code == "table_moving":
                return
            # storage trouble: try again a little later, never leave the table stalled
            self._bot_failures += 1
            log.warning("table %s: bot move for seat %s not stored (%s)", self.info.id,
                        cmd.seat, exc.code)
            delay = min(30.0, 0.5 * 2 ** min(self._bot_failures, 6))
            self._bot_handles[cmd.seat] = asyncio.get_running_loop().call_later(
                delay, self._fire_bot, cmd.seat, self.info.version)
        else:
            self._bot_failures = 0

    # ------------------------------------------------------------------ actions

    async def _on_act(self, cmd: Act) -> int:
        seat = self.seat_of(cmd.player_id)
        if seat is None:
            raise forbidden("only seated players can act")
        if self.info.status != "playing":
            raise AppError("not_playing", "the game is not in progress", 409)
        # the actor keeps the deadline, not the client: an answer that arrives after it is
        # judged after the window has closed (the engine then says why it is too late)
        if await self._close_window_if_due() and cmd.version == self.info.version - 1:
            cmd.version = self.info.version
        if cmd.version != self.info.version:
            if cmd.connection is not None:
                self._send_state(cmd.connection)
            raise AppError("stale_version",
                           f"your view is out of date (version {cmd.version}, now "
                           f"{self.info.version}); here is a fresh one", 409)
        return await self._apply(seat, cmd.action, "player")

    async def _on_windowdeadline(self, cmd: WindowDeadline) -> None:
        if self._window is not None and self._window.id == cmd.window_id:
            if not await self._close_window_if_due():
                self._arm_window()  # woke a little early: sleep again until it is due

    async def _close_window_if_due(self) -> bool:
        """Close the open timed window if its deadline has passed; True if it did."""
        window = self._window
        if window is None or self.info.status != "playing" or \
                self._clock() < self._window_deadline:
            return False
        await self._apply(SYSTEM_SEAT, {"type": CLOSE_WINDOW, "window": window.id}, "window")
        return True

    async def _apply(self, seat: int, action: dict[str, Any], source: str) -> int:
        try:
            new_state, events = apply_any(self.engine, self.state, seat, action)
        except IllegalAction as exc:
            raise AppError(exc.code, exc.message, 422) from None
        if is_early_end(seat, action):
            outcome_json: dict[str, Any] | None = self.early_outcome(action)
        else:
            outcome = self.engine.outcome(new_state)
            outcome_json = outcome.to_json() if outcome is not None else None
        version = self.info.version + 1
        try:
            await self._fenced(self.repo.append_action(self.info.id, version, seat, action,
                                                       source, outcome_json, self.info.epoch))
        except AppError:
            raise
        except Exception:
            log.exception("table %s: could not store action %s", self.info.id, version)
            raise AppError("storage_error",
                           "the move could not be saved; nothing changed, try again", 503) from None
        self.state = new_state
        self.info.version = version
        self.history.append((version, events))
        if source != "player":
            self._sources[version] = (source, seat)
        if outcome_json is not None:
            self.info.status = "finished"
            self.info.outcome = outcome_json
            self.vote = None
        self._update_clock()
        self._schedule_window()
        self._schedule_bots()
        self._broadcast(events)
        if source == "timeout":
            await self.system_line("timeout", seat=seat)
        return version

    async def _on_ephemeral(self, cmd: Ephemeral) -> None:
        conn = cmd.connection
        hook = getattr(self.engine, "ephemeral", None)
        if hook is None:
            raise AppError("not_supported", "this game has no live updates", 422)
        if conn.seat is None:
            raise forbidden("only seated players can send live updates")
        if self.info.status != "playing":
            raise AppError("not_playing", "the game is not in progress", 409)
        if not self._spend_ephemeral(conn.id):
            return  # over the rate: dropped, like a frame of a moving picture
        try:
            event = hook(self.state, conn.seat, cmd.data)
        except IllegalAction as exc:
            raise AppError(exc.code, exc.message, 422) from None
        for other in list(self.connections.values()):
            if other.id == conn.id:
                continue
            shown = event.for_seat(other.seat)
            if shown is not None:
                other.push({"type": "ephemeral", "version": self.info.version,
                            "seat": conn.seat, "event": shown})

    def _spend_ephemeral(self, conn_id: int) -> bool:
        clock = self._clock()
        tokens, at = self._ephemeral_budget.get(conn_id, (float(self.EPHEMERAL_BURST), clock))
        tokens = min(float(self.EPHEMERAL_BURST), tokens + (clock - at) * self.EPHEMERAL_RATE)
        if tokens < 1.0:
            self._ephemeral_budget[conn_id] = (tokens, clock)
            return False
        self._ephemeral_budget[conn_id] = (tokens - 1.0, clock)
        return True

    async def _fenced(self, write: Any) -> None:
        """Await a write of this table; if another process has taken the table over, give
        it up here (the registry stops this actor) and tell the caller to reconnect."""
        try:
            await write
        except StaleOwner:
            log.warning("table %s: taken over by another process; giving it up", self.info.id)
            self.moved = True
            if self.on_stale is not None:
                self.on_stale(self)
            raise table_moving() from None

    # ------------------------------------------------------------------ connections

    async def _on_connect(self, cmd: Connect) -> int | None:
        conn = cmd.connection
        conn.seat = self.seat_of(conn.player_id)
        if conn.seat is None and self.info.private and not cmd.watch and \
                not _same(cmd.invite, self.info.invite_token):
            raise forbidden("this table is private: you need its invite or spectator link")
        if conn.player_id is not None:
            mine = sum(1 for c in self.connections.values()
                       if c.player_id == conn.player_id and not c.dropped)
            if mine >= limits.CONNECTIONS_PER_PLAYER:
                raise AppError("too_many_connections",
                               f"at most {limits.CONNECTIONS_PER_PLAYER} connections per "
                               "player to one table: close another tab first", 429)
        self.connections[conn.id] = conn
        self._send_state(conn, with_history=True)
        for line in self.chat[-50:]:
            conn.push(line)
        await self._presence_changed()
        self._broadcast(exclude=conn.id)  # presence changed for everyone already here
        return conn.seat

    async def _on_disconnect(self, cmd: Disconnect) -> None:
        self._ephemeral_budget.pop(cmd.connection.id, None)
        if self.connections.pop(cmd.connection.id, None) is not None:
            await self._presence_changed()
            self._broadcast()

    async def _on_sync(self, cmd: Sync) -> None:
        self._send_state(cmd.connection, with_history=True)

    async def _on_chat(self, cmd: Chat) -> None:
        seat = self.seat_of(cmd.connection.player_id)
        name = self.info.names.get(cmd.connection.player_id or "", "")
        if seat is None:
            if cmd.connection.player_id is None:
                raise forbidden("choose a name to chat")
            if not self.spectator_chat_allowed():
                raise AppError("spectator_chat_closed",
                               "the host does not let spectators chat at this table", 403)
            name = cmd.connection.name or name
        elif not self._chat_allowed(seat):
            raise AppError("chat_closed", "the game closes the chat to you for now", 409)
        player = cmd.connection.player_id or ""
        bucket = self._chat_buckets.setdefault(
            player, limits.Bucket(limits.CHAT_PER_SECOND, limits.CHAT_BURST, self._clock))
        if not bucket.spend():
            raise AppError("chat_rate", "you are chatting too fast: wait "
                           f"{max(1, round(bucket.retry_after()))} s", 429)
        try:
            await self._store_line(True, kind="player" if seat is not None else "spectator",
                                   seat=seat, player_id=player, name=name, text=cmd.text,
                                   code=None, params=None)
        except Exception:
            log.exception("table %s: could not store a chat line", self.info.id)
            raise AppError("storage_error", "the message could not be saved; try again",
                           503) from None

    def _chat_allowed(self, seat: int | None) -> bool:
        hook = getattr(self.engine, "chat_allowed", None)
        if hook is None or seat is None or self.state is None or self.info.status != "playing":
            return True
        return bool(hook(self.state, seat))

    def _rebind_connections(self) -> None:
        for conn in self.connections.values():
            conn.seat = self.seat_of(conn.player_id)

    # ------------------------------------------------------------------ pushing views

    def summary(self) -> dict[str, Any]:
        """The public description of the table (no hidden information, no invite token)."""
        connected = self.connected_seats()
        watchers = [c for c in self.connections.values() if c.seat is None and not c.dropped]
        return {
            "id": self.info.id,
            "game": self.info.game,
            "status": self.info.status,
            "version": self.info.version,
            "seat_count": self.info.seat_count,
            "options": self.info.options,
            "private": self.info.private,
            "host": {"id": self.info.host_id, "name": self.info.names.get(self.info.host_id)},
            "seats": [
                {"seat": s, "connected": s in connected or p in self.info.bots,
                 "away_for": (None if p is None or s in connected or p in self.info.bots
                              else _rounded(self.away_for(s))),
                 "autopilot": s in self.autopilot,
                 "player": None if p is None else {"id": p, "name": self.info.names.get(p),
                                                   "bot": p in self.info.bots}}
                for s, p in enumerate(self.info.seats)
            ],
            # who is watching: the names of spectators who chose one, and how many in all
            "spectators": {"count": len(watchers),
                           "names": sorted({c.name for c in watchers if c.name})},
            "created_at": self.info.created_at.isoformat(),
            "outcome": self.info.outcome,
            "rematch_of": self.info.rematch_of,
        }

    def state_message(self, seat: int | None, events: list[Any] | None = None,
                      summary: dict[str, Any] | None = None,
                      with_history: bool = False,
                      shared: dict[str, Any] | None = None,
                      screen: bool = False) -> dict[str, Any]:
        """What ``seat`` (None: a spectator; ``screen``: a table screen) is sent: its view and
        legal actions, and what every seat is told alike (``shared``: worked out once per
        broadcast)."""
        shared = shared or self._shared_state(summary)
        state = self.state
        extra: dict[str, Any] = {}
        if with_history:
            extra["history"] = [{"version": v, "events": event_for(evts, seat),
                                 **self._source_json(v)} for v, evts in self.history]
        live = state is not None and self.info.status == "playing"
        return {
            **shared,
            "seat": seat,
            "view": self.view_for(seat, screen) if state is not None else None,
            "legal_actions": (self.engine.legal_actions(state, seat)
                              if live and seat is not None else []),
            "events": event_for(events or [], seat),
            "chat_allowed": (self._chat_allowed(seat) if seat is not None
                             else self.spectator_chat_allowed()),
            "rematch": self.rematch_json(seat),
            **extra,
        }

    def _shared_state(self, summary: dict[str, Any] | None = None) -> dict[str, Any]:
        """The part of a state message that is the same for every seat."""
        state = self.state
        live = state is not None and self.info.status == "playing"
        waiting = getattr(self.engine, "waiting_for", self.engine.to_act)
        t = self._clock()
        clock = self.table_clock.to_json(t)
        return {
            "type": "state",
            "version": self.info.version,
            "table": summary or self.summary(),
            "to_act": sorted(self.engine.to_act(state)) if live else [],
            # whom the game waits for: in simultaneous games a seat that has chosen may still
            # be in to_act (to change its mind) but is no longer waited for
            "waiting_for": sorted(waiting(state)) if live else [],
            # what produced this version: a player, or the platform (timeout, window, resign,
            # vote, empty): the page marks automatic moves in the log
            **self._source_json(self.info.version),
            "deadlines": clock["remaining"],
            "clock": clock,
            "window": self._window_json(),
            "spectators_see_all": self.sees_all(None),
            "vote": self.vote.to_json(t) if self.vote is not None else None,
        }

    def _send_state(self, conn: Connection, with_history: bool = False) -> None:
        conn.push(self.state_message(conn.seat, with_history=with_history, screen=conn.screen))

    def _broadcast(self, events: list[Any] | None = None, exclude: int | None = None) -> None:
        summary = self.summary()
        if self.on_change is not None:
            self.on_change(self)
        # one view and one encoding per seat (and for screens), not per socket
        cache: dict[tuple[int | None, bool], str] = {}
        shared: dict[str, Any] | None = None
        for conn in list(self.connections.values()):
            if conn.id == exclude or conn.dropped:
                continue
            key = (conn.seat, conn.screen)
            if key not in cache:
                shared = shared or self._shared_state(summary)
                cache[key] = encode(self.state_message(conn.seat, events, summary,
                                                       shared=shared, screen=conn.screen))
            conn.push_text(cache[key])

    def _broadcast_error(self, code: str, message: str) -> None:
        for conn in self.connections.values():
            conn.push({"type": "error", "version": self.info.version, "code": code,
                       "message": message})

    # ------------------------------------------------------------------ timed windows

    def _window_json(self) -> dict[str, Any] | None:
        if self._window is None:
            return None
        remaining = max(0.0, round(self._window_deadline - self._clock(), 1))
        return {**self._window.to_json(), "remaining": remaining}

    def _schedule_window(self) -> None:
        """Follow the engine's timed window: a new window id starts a new clock."""
        window = open_window(self.engine, self.state) if self.info.status == "playing" else None
        if window is None:
            self._window = None
            if self._window_handle is not None:
                self._window_handle.cancel()
                self._window_handle = None
            return
        if self._window is None or self._window.id != window.id:
            self._window_deadline = self._clock() + window.seconds
            self._window = window
            self._arm_window()
        else:
            self._window = window  # same window, fewer seats still to answer

    def _arm_window(self) -> None:
        if self._window is None:
            return
        if self._window_handle is not None:
            self._window_handle.cancel()
        delay = max(0.0, self._window_deadline - self._clock())
        self._window_handle = asyncio.get_running_loop().call_later(
            delay, self._fire_window, self._window.id)

    def _fire_window(self, window_id: str) -> None:
        self._queue.put_nowait(_Envelope(WindowDeadline(window_id)))


def _rounded(value: float | None) -> float | None:
    return None if value is None else round(value, 1)


SERVICE_RESTART = 1012  # close code: reconnect, the table is served elsewhere now


def table_moving() -> AppError:
    return AppError("table_moving", "this table is moving to another server: try again in a "
                    "moment", 503)


def _same(given: str | None, expected: str) -> bool:
    return given is not None and secrets.compare_digest(given.encode(), expected.encode())
