"""What a table is, as plain data: who sits where, the game, its history and clock, the
vote, who is connected. ``decide`` (decide.py) takes one of these and gives back another.

A ``TableState`` is never changed in place: ``evolve(table, field=value)`` makes a new one
that shares everything else. Containers inside are tuples, frozensets, or dicts copied
before a change; the history is a :class:`Journal`, an append-only list two states can share.
That is what lets the shell keep the old state when a write fails. (The records made on
every move, ``Step`` and ``Turn``, are plain slotted classes for speed: never changed either.)
"""

from __future__ import annotations

import secrets
from collections.abc import Iterator, Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from typing import Any, TypeVar, overload

from app.games.base import Event, Window
from app.tables.core.clocks import TableClock
from app.tables.engine import EngineAdapter


class TableStatus(StrEnum):
    WAITING = "waiting"  # seats being taken
    PLAYING = "playing"
    FINISHED = "finished"
    DELETED = "deleted"


_PLAYING = TableStatus.PLAYING  # (a module constant: the enum's own look-up is slower)


@dataclass(frozen=True)
class Conn:
    """A connection as the table knows it (the socket itself stays in the shell)."""

    id: int
    player_id: str | None
    name: str  # the player's display name (spectators are listed by it)
    seat: int | None
    # a table screen (/tables/<id>/screen): a spectator that never gets the "all hands" view
    # a cooperative table may allow its spectators (the whole room sees the screen)
    screen: bool = False


# the source of a history's first step: the log's opening lines (the engine's ``opening``)
# at the version the game started; no action, nothing stored
START = "start"


@dataclass(slots=True)
class Step:
    """One stored action: its version, what happened, and what produced it (a player, or
    the platform: bot, timeout, window, resign, vote, empty, back); or, first, the game's
    opening lines (source ``START``)."""

    version: int
    events: Sequence[Event]
    source: str = "player"
    seat: int | None = None


class Journal(Sequence[Step]):
    """An append-only list of steps. ``appended`` gives a new journal and leaves this one as
    it was; both share one list while they agree, so appending costs O(1)."""

    __slots__ = ("_items", "_n")

    def __init__(self, items: Sequence[Step] = ()) -> None:
        self._items: list[Step] = list(items)
        self._n = len(self._items)

    def appended(self, step: Step) -> Journal:
        new = Journal.__new__(Journal)
        if len(self._items) == self._n:  # nobody appended to our list since: share it
            self._items.append(step)
            new._items = self._items
        else:
            new._items = [*self._items[: self._n], step]
        new._n = self._n + 1
        return new

    def __len__(self) -> int:
        return self._n

    def last(self) -> Step | None:
        return self._items[self._n - 1] if self._n else None

    @overload
    def __getitem__(self, index: int) -> Step: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[Step]: ...

    def __getitem__(self, index: int | slice) -> Step | Sequence[Step]:
        if isinstance(index, slice):
            return self._items[: self._n][index]
        if index < 0:
            index += self._n
        if not 0 <= index < self._n:
            raise IndexError(index)
        return self._items[index]

    def __iter__(self) -> Iterator[Step]:
        return iter(self._items[: self._n])


@dataclass(slots=True)
class Turn:
    """Who the game wants now, worked out once per version: the seats that may act, the
    seats it waits for (a seat that has chosen in a simultaneous turn may still act but is
    not waited for), the engine's turn marker, and, while several seats may act, what each
    of them acts on (the per-seat versions compare it; see play.py)."""

    to_act: AbstractSet[int] = frozenset()
    waiting: AbstractSet[int] = frozenset()
    marker: Any = None
    acting: Mapping[int, Any] = field(default_factory=dict)


NO_TURN = Turn()


@dataclass(frozen=True)
class OpenWindow:
    """The engine's open timed window and when it closes (on the shell's clock)."""

    window: Window
    deadline: float


@dataclass(frozen=True)
class Vote:
    id: int
    proposal: str
    by: int
    target: int | None
    voters: frozenset[int]
    deadline: float
    yes: frozenset[int] = frozenset()
    no: frozenset[int] = frozenset()

    def decided(self) -> str | None:
        """``"passed"``, ``"failed"`` or None while it is open."""
        if self.no:
            return "failed"
        if self.voters <= self.yes:
            return "passed"
        return None

    def to_json(self, now: float) -> dict[str, Any]:
        return {"id": self.id, "proposal": self.proposal, "by": self.by,
                "target": self.target, "voters": sorted(self.voters), "yes": sorted(self.yes),
                "no": sorted(self.no), "remaining": round(max(0.0, self.deadline - now), 1)}


@dataclass(frozen=True)
class Presence:
    """Who is away, since when, and whether anyone is at the table at all."""

    away_since: Mapping[int, float] = field(default_factory=dict)
    announced: frozenset[int] = frozenset()  # seats whose leaving was said in the chat
    idle_since: float = 0.0  # nobody (seated, once playing) connected since
    busy: bool = False


@dataclass(frozen=True)
class Bucket:
    """A token bucket's level at a time (app/tables/core/buckets.py spends it)."""

    tokens: float
    at: float


@dataclass(frozen=True)
class TableSetup:
    """Who the table is: fixed when it is created (kept apart, so that a move does not copy
    it: a ``TableState`` is copied on every change)."""

    id: str
    game: str
    seat_count: int
    options: Mapping[str, Any]
    private: bool
    invite_token: str
    seed: int
    created_at: datetime
    rematch_of: str | None = None
    epoch: int = 0  # the owner epoch this process took the table with (the write fence)
    position: Mapping[str, Any] | None = None  # a stored position to start from, not setup
    # a branch: (match id, step) of the finished game it plays on from (with ``position``)
    branch_of: tuple[str, int] | None = None


@dataclass(frozen=True)
class TableState:
    setup: TableSetup
    engine: EngineAdapter
    # seating
    status: TableStatus = TableStatus.WAITING
    version: int = 1
    host_id: str = ""
    seats: tuple[str | None, ...] = ()
    names: Mapping[str, str] = field(default_factory=dict)
    bots: frozenset[str] = frozenset()  # player ids of the bots seated here
    # the game
    game_state: Any = None
    history: Journal = field(default_factory=Journal)
    outcome: dict[str, Any] | None = None
    error: str | None = None
    turn: Turn = field(default_factory=Turn)
    autopilot: frozenset[int] = frozenset()  # seats a bot plays while their player is away
    context: tuple[int, ...] = ()  # per seat: the version what it acts on last changed at
    context_at: tuple[float, ...] = ()  # ... and when (a bot moves a pause after it)
    clock: TableClock = field(default_factory=lambda: TableClock("none", 0))
    window: OpenWindow | None = None
    # the table's life
    vote: Vote | None = None
    vote_ids: int = 0
    presence: Presence = field(default_factory=Presence)
    conns: Mapping[int, Conn] = field(default_factory=dict)
    buckets: Mapping[tuple[str, Any], Bucket] = field(default_factory=dict)
    rematch: tuple[str, str] | None = None  # (table id, invite token) of the rematch

    # who the table is, read through (see TableSetup)
    id = property(lambda self: self.setup.id)
    game = property(lambda self: self.setup.game)
    seat_count = property(lambda self: self.setup.seat_count)
    options = property(lambda self: self.setup.options)
    private = property(lambda self: self.setup.private)
    invite_token = property(lambda self: self.setup.invite_token)
    seed = property(lambda self: self.setup.seed)
    created_at = property(lambda self: self.setup.created_at)
    rematch_of = property(lambda self: self.setup.rematch_of)
    epoch = property(lambda self: self.setup.epoch)
    position = property(lambda self: self.setup.position)
    branch_of = property(lambda self: self.setup.branch_of)

    @property
    def playing(self) -> bool:
        return self.status is _PLAYING and self.game_state is not None


T = TypeVar("T")


def evolve(table: T, **changes: Any) -> T:
    """A copy of a frozen dataclass with ``changes``: a shallow copy of its attributes, as
    one dict (far cheaper than ``dataclasses.replace``, which runs every field's setter)."""
    attributes = table.__dict__.copy()
    attributes.update(changes)
    new = object.__new__(type(table))
    object.__setattr__(new, "__dict__", attributes)  # (frozen: its own setter refuses)
    return new


def seat_of(table: TableState, player_id: str | None) -> int | None:
    """The seat ``player_id`` holds (the first, if a hot seat ever holds several)."""
    if player_id is None:
        return None
    for seat, pid in enumerate(table.seats):
        if pid == player_id:
            return seat
    return None


def seats_of(table: TableState, player_id: str | None) -> frozenset[int]:
    """Every seat ``player_id`` holds: one, or several at a branch's hot seat (the host may
    take every seat of a branch, app/tables/core/sandbox.py)."""
    if player_id is None:
        return frozenset()
    return frozenset(seat for seat, pid in enumerate(table.seats) if pid == player_id)


def name_of_seat(table: TableState, seat: int) -> str:
    pid = table.seats[seat] if 0 <= seat < len(table.seats) else None
    return table.names.get(pid, "") if pid else ""


def bot_seats(table: TableState) -> frozenset[int]:
    """Seats a bot plays: the host's bots, and absent players' seats handed to one."""
    return frozenset(s for s, p in enumerate(table.seats) if p in table.bots) | table.autopilot


def same_secret(given: str | None, expected: str) -> bool:
    return given is not None and secrets.compare_digest(given.encode(), expected.encode())


def new_table(*, id: str, engine: EngineAdapter, seat_count: int,  # noqa: A002
              options: Mapping[str, Any], private: bool, invite_token: str, seed: int,
              created_at: datetime, host_id: str, host_name: str, host_seat: int = 0,
              rematch_of: str | None = None, epoch: int = 0,
              position: Mapping[str, Any] | None = None,
              branch_of: tuple[str, int] | None = None, now: float = 0.0) -> TableState:
    """A table just created: its host in ``host_seat``, everyone else to come."""
    seats: list[str | None] = [None] * seat_count
    seats[host_seat] = host_id
    setup = TableSetup(id=id, game=engine.id, seat_count=seat_count, options=dict(options),
                       private=private, invite_token=invite_token, seed=seed,
                       created_at=created_at, rematch_of=rematch_of, epoch=epoch,
                       position=position, branch_of=branch_of)
    return TableState(
        setup=setup, engine=engine, host_id=host_id, seats=tuple(seats),
        names={host_id: host_name},
        clock=TableClock.from_options(options, seat_count),
        presence=Presence(idle_since=now))
