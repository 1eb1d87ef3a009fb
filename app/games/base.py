"""The engine protocol every game implements, and the helpers engines share.

Engines are pure (sans-I/O): no asyncio, no database, no clock and no global ``random``.
All randomness comes from an :class:`Rng` whose state lives inside the game state, so a
game is fully reproducible from ``(seats, options, seed)`` plus its action log.

The table actor (``app/tables``) is the only caller in production. It relies on:

- ``setup(seats, options, seed) -> state``
- ``to_act(state) -> set[int]``: seats that may act now (one, several, or none when over).
- ``legal_actions(state, seat) -> list[Action]``: concrete, JSON-ready actions.
- ``apply(state, seat, action) -> (state, events)``; raises :class:`IllegalAction`; never
  mutates ``state``.
- ``view(state, seat | None) -> dict``: what that seat may know; ``None`` is a spectator.
- ``outcome(state) -> Outcome | None``.
- ``dump(state) -> dict`` / ``load(dict) -> state`` with ``load(dump(s)) == s``; the dump
  holds the seat count under ``"seats"``.
- ``timeout_action(state, seat) -> Action``: what to play for a seat whose turn timer ran out.

Optional hooks for the actor's turn timer (simultaneous games):

- ``waiting_for(state) -> set[int]``: the seats the turn still waits for (default ``to_act``);
  a seat that has chosen but may still change its mind is in ``to_act`` but not here.
- ``turn_marker(state) -> hashable``: changes exactly when a new turn begins; with it, one
  clock is shared by the whole turn.

Optional hooks for timed windows (seats answering outside their turn on a deadline, such as
Allegra's knock):

- ``window(state) -> Window | None``: the timed window open now, if any. While it is open the
  seats in ``Window.seats`` may answer (they are in ``to_act``); the engine closes it early
  itself when everyone has answered (``window`` then returns ``None`` or a new window).
- ``close_window(state, window_id) -> (state, events)``: the deadline has passed. The actor
  keeps the clock; when it runs out it stores ``{"type": "close_window", "window": id}`` as
  an action of :data:`SYSTEM_SEAT`, so a restart replays it from the log like any move
  (``app.tables.engine.apply_any`` applies a stored action whatever its seat).

An optional hook for live, unstored updates (a block being dragged in Block and Guess):

- ``ephemeral(state, seat, data) -> Event``: check a transient update from ``seat`` and say
  what to relay to whom (the event's visibility); raise :class:`IllegalAction` to refuse it.
  The actor rate-limits these, relays them, and never stores them.

And one for table chat:

- ``chat_allowed(state, seat) -> bool``: whether ``seat`` may chat now (Block and Guess
  closes chat to builders); default: always.

Hooks for the table's life beyond the rules (all optional):

- ``cooperative: bool``: everyone wins or loses together (Hanabi).
- ``view_all(state) -> dict``: the spectator's view with nothing hidden, shaped so the game's
  client draws it (every hand face up); extra hidden facts the client does not draw go under
  ``"revealed"``. Used for replays of finished games and, for cooperative games whose host
  allows it, for spectators; never for a seat. Default: ``view(state, None)``.
- ``current_scores(state) -> list[int]``: each seat's score so far, for a game that ends
  early (a resignation, an abandoned table). Default: zeros.

One for the log's first lines:

- ``opening(state) -> list[Event]``: what the log says as the game starts, from the state
  ``setup`` dealt: the lines a later round's start gives (``round_started``, Block and
  Guess's builders' objects), with their visibility. Shown at the start, kept in the
  history a (re)connecting client rebuilds its log from, and in replays (rebuilt from the
  seed: nothing of it is stored). Default: nothing.

One for the table's per-seat versions (docs/api.md, "Versions"):

- ``acts_on(state, seat) -> Any``: what ``seat`` decides its move from besides its view;
  default (``app.tables.engine``): its legal actions. While several seats may act, another
  seat's move that leaves this unchanged never makes this seat's pending action stale.

One for playing on from a moment of a finished game (a *branch* of its replay):

- ``redeal_unknown(state, rng) -> state``: the same position with what *no* seat could know
  (the order of a deck, cards nobody has seen, the seed of later shuffles) dealt anew from
  ``rng``, and everything some seat knows as it was: every seat's view (and the
  spectator's) and legal actions are unchanged. The re-dealt part must not depend on what
  it replaces (put it in a fixed order, then shuffle), so
  ``redeal_unknown(redeal_unknown(s, r1), r2) == redeal_unknown(s, r2)``: nothing of the
  original's future survives in a branch. Default: the game cannot be branched.

Every optional hook's default is given once, in ``app.tables.engine.EngineAdapter``.

Two more hooks serve tests and bots:

- ``scramble(state, seat | None, rng) -> state``: the same game with everything hidden from
  ``seat`` re-dealt at random (OpenSpiel's "resample from information state"). The
  conformance suite uses it to prove views and events leak nothing.
- ``all_cards(state) -> list``: every card identity in every zone, for conservation checks.

Events carry per-seat visibility (:class:`Event`) and are redacted with :func:`event_for`.
"""

from __future__ import annotations

import copy
import importlib.util
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

Action = dict[str, Any]
Seat = int
JSON = dict[str, Any]

# The seat of actions taken by the platform itself (a timed window's deadline), in the log.
SYSTEM_SEAT = -1
CLOSE_WINDOW = "close_window"
# The platform ending a game early, also stored as actions of SYSTEM_SEAT (always last).
RESIGN = "resign"  # {"type": "resign", "seat": s}
ABANDON = "abandon"  # {"type": "abandon", "reason": "vote" | "empty"}
ABANDON_REASONS = ("vote", "empty")
# {"type": "autopilot", "seat": s, "on": bool}: a bot plays seat s for its absent player (on),
# or the player is back and has the seat again (off); the game's state is unchanged
AUTOPILOT = "autopilot"

T = TypeVar("T")


class IllegalAction(Exception):
    """An action the rules do not allow. ``code`` is stable and machine-readable."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class BadOptions(ValueError):
    """Table options (or seat count) a game does not accept."""


# --------------------------------------------------------------------------- options


@dataclass(frozen=True)
class OptionSpec:
    """One table option: its type, default, and allowed values (``choices``) or bounds."""

    name: str
    type: str  # "bool" | "int" | "choice"
    default: Any
    choices: tuple[Any, ...] | None = None
    minimum: int | None = None
    maximum: int | None = None
    ruling: bool = False  # a house ruling from RULES.md that players should see

    def describe(self) -> JSON:
        out: JSON = {"name": self.name, "type": self.type, "default": self.default}
        if self.choices is not None:
            out["choices"] = list(self.choices)
        if self.minimum is not None:
            out["minimum"] = self.minimum
        if self.maximum is not None:
            out["maximum"] = self.maximum
        if self.ruling:
            out["ruling"] = True
        return out

    def coerce(self, value: Any) -> Any:
        """Validate ``value`` for this option; raise :class:`BadOptions` if it is not allowed."""
        if self.type == "bool":
            if not isinstance(value, bool):
                raise BadOptions(f"option {self.name!r} must be true or false")
        elif self.type in ("int", "choice"):
            if self.type == "int" and (isinstance(value, bool) or not isinstance(value, int)):
                raise BadOptions(f"option {self.name!r} must be an integer")
            if self.minimum is not None and value < self.minimum:
                raise BadOptions(f"option {self.name!r} must be at least {self.minimum}")
            if self.maximum is not None and value > self.maximum:
                raise BadOptions(f"option {self.name!r} must be at most {self.maximum}")
        # exact types: True is not 1 and 8.0 is not 8 here
        if self.choices is not None and not any(
            type(value) is type(choice) and value == choice for choice in self.choices
        ):
            allowed = ", ".join(str(c) for c in self.choices)
            raise BadOptions(f"option {self.name!r} must be one of: {allowed}")
        return value


# Every game gets these platform options; the table actor (not the engine) applies them
# (app/tables/options.py resolves them, app/tables/core/clocks.py runs the clocks).
TURN_TIMER = OptionSpec("turn_seconds", "int", 0, minimum=0, maximum=3600)
CLOCK = OptionSpec("clock", "choice", "none", choices=("none", "turn", "chess"))
BANK = OptionSpec("bank_seconds", "int", 600, minimum=10, maximum=86400)
INCREMENT = OptionSpec("increment_seconds", "int", 5, minimum=0, maximum=3600)
ABSENT_GRACE = OptionSpec("absent_grace_seconds", "int", 120, minimum=0, maximum=86400)
SPECTATOR_CHAT = OptionSpec("spectator_chat", "bool", True)
# how long a bot seat waits before it moves (milliseconds): a human-like pause; 0 for tests
BOT_DELAY = OptionSpec("bot_delay", "int", 800, minimum=0, maximum=10_000)
PLATFORM_OPTIONS: tuple[OptionSpec, ...] = (CLOCK, TURN_TIMER, BANK, INCREMENT, ABSENT_GRACE,
                                            SPECTATOR_CHAT, BOT_DELAY)
# cooperative games only: spectators (never a seated player) see every hidden card
SEE_ALL = OptionSpec("spectators_see_all", "bool", False)
TABLE_OPTION_NAMES = frozenset(o.name for o in (*PLATFORM_OPTIONS, SEE_ALL))


def table_options(engine: Any) -> tuple[OptionSpec, ...]:
    """The platform's options a table of ``engine`` offers (see-all only if cooperative)."""
    if engine.cooperative:
        return (*PLATFORM_OPTIONS, SEE_ALL)
    return PLATFORM_OPTIONS


def first_seat_option(max_players: int) -> OptionSpec:
    """RULES.md's general ruling: the first player is drawn at random, or the host picks."""
    return OptionSpec("first_seat", "choice", "random",
                      choices=("random", *range(max_players)), ruling=True)


def first_seat(options: Mapping[str, Any], seats: int, rng: Rng) -> int:
    """The starting seat. The draw always happens, so a chosen start changes nothing else."""
    drawn = rng.below(seats)
    chosen = options.get("first_seat", "random")
    if chosen == "random":
        return drawn
    if not 0 <= chosen < seats:
        raise BadOptions(f"first_seat must be a seat of this table (0 to {seats - 1})")
    return int(chosen)


def engine_options(options: Mapping[str, Any]) -> JSON:
    """A table's options less the platform's own (the engine never sees clocks, chat...)."""
    return {k: v for k, v in options.items() if k not in TABLE_OPTION_NAMES}


def resolve_options(specs: Sequence[OptionSpec], given: Mapping[str, Any] | None) -> JSON:
    """Fill defaults and validate; unknown option names are an error, not ignored."""
    given = dict(given or {})
    known = {s.name: s for s in specs}
    unknown = sorted(set(given) - set(known))
    if unknown:
        raise BadOptions(f"unknown option(s): {', '.join(unknown)}")
    return {s.name: s.coerce(given[s.name]) if s.name in given else s.default for s in specs}


# --------------------------------------------------------------------------- randomness


_MASK64 = (1 << 64) - 1


@dataclass
class Rng:
    """SplitMix64: tiny, fast, and its whole state is one integer that dumps to JSON."""

    state: int

    @classmethod
    def from_seed(cls, seed: int) -> Rng:
        return cls(seed & _MASK64)

    def next64(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """Uniform integer in ``[0, n)`` (rejection sampling, no modulo bias)."""
        if n <= 0:
            raise ValueError("n must be positive")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            x = self.next64()
            if x < limit:
                return x % n

    def shuffle(self, items: list[T]) -> None:
        """Fisher-Yates in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def choice(self, items: Sequence[T]) -> T:
        return items[self.below(len(items))]


# --------------------------------------------------------------------------- events


@dataclass(frozen=True)
class Event:
    """Something that happened, for the log and the live feed.

    ``data`` goes to the seats in ``visible_to`` (everyone, spectators included, when it is
    ``None``). Everyone else gets ``redacted`` instead, or nothing at all when it is ``None``.
    """

    type: str
    data: JSON = field(default_factory=dict)
    visible_to: frozenset[int] | None = None
    redacted: JSON | None = None

    def for_seat(self, seat: Seat | None) -> JSON | None:
        if self.visible_to is None or (seat is not None and seat in self.visible_to):
            return {"type": self.type, **self.data}
        if self.redacted is None:
            return None
        return {"type": self.type, **self.redacted}


def event_for(events: Iterable[Event], seat: Seat | None) -> list[JSON]:
    """The events as ``seat`` may see them, in order, dropping the ones it may not see."""
    out = []
    for event in events:
        shown = event.for_seat(seat)
        if shown is not None:
            out.append(shown)
    return out


# --------------------------------------------------------------------------- windows


@dataclass(frozen=True)
class Window:
    """A timed window: ``seats`` may answer until ``seconds`` after it opened.

    ``id`` names this window within its game and never repeats (e.g. ``"knock-17"``); the
    actor keeps one deadline per id, so a new id means a new clock.
    """

    id: str
    seconds: float
    seats: frozenset[int]

    def to_json(self) -> JSON:
        return {"id": self.id, "seconds": self.seconds, "seats": sorted(self.seats)}


# --------------------------------------------------------------------------- outcome


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended.

    ``scores[i]`` is seat i's score; ``ranking`` is a list of groups of seats, best first
    (a group shares its place); ``winners`` may be several seats (shared victory or a
    cooperative game) or none (a cooperative loss). ``details`` is game-specific, JSON-ready:
    verdicts, per-round breakdowns.
    """

    scores: tuple[int, ...]
    ranking: tuple[tuple[int, ...], ...]
    winners: tuple[int, ...]
    details: JSON = field(default_factory=dict)

    def to_json(self) -> JSON:
        return {
            "scores": list(self.scores),
            "ranking": [list(g) for g in self.ranking],
            "winners": list(self.winners),
            "details": self.details,
        }


def rank_by(scores: Sequence[int], higher_is_better: bool = True,
            tiebreak: Sequence[Any] | None = None) -> tuple[tuple[int, ...], ...]:
    """Group seats into places by score (then by ``tiebreak``, compared the same way)."""
    sign = 1 if higher_is_better else -1
    keys = {
        s: (sign * scores[s], (tiebreak[s] if tiebreak is not None else 0))
        for s in range(len(scores))
    }
    groups: list[tuple[int, ...]] = []
    for key in sorted(set(keys.values()), reverse=True):
        groups.append(tuple(s for s in range(len(scores)) if keys[s] == key))
    return tuple(groups)


# --------------------------------------------------------------------------- the protocol


class Engine(Protocol):
    """What a game provides. Each game module exposes one instance as ``ENGINE``."""

    id: str
    name: str
    min_players: int
    max_players: int
    options: tuple[OptionSpec, ...]
    simultaneous: bool  # several seats may be in to_act at once
    cooperative: bool  # everyone wins or loses together

    @property
    def has_bot(self) -> bool: ...  # a server-side bot can play a seat

    def setup(self, seats: int, options: Mapping[str, Any], seed: int) -> Any: ...
    def to_act(self, state: Any) -> set[Seat]: ...
    def legal_actions(self, state: Any, seat: Seat) -> list[Action]: ...
    def apply(self, state: Any, seat: Seat, action: Action) -> tuple[Any, list[Event]]: ...
    def view(self, state: Any, seat: Seat | None) -> JSON: ...
    def outcome(self, state: Any) -> Outcome | None: ...
    def dump(self, state: Any) -> JSON: ...
    def load(self, data: JSON) -> Any: ...
    def timeout_action(self, state: Any, seat: Seat) -> Action: ...
    def scramble(self, state: Any, seat: Seat | None, rng: Rng) -> Any: ...
    def all_cards(self, state: Any) -> list[Any]: ...


class BaseEngine:
    """Shared behaviour for engines: option handling, catalogue entry, default timeout."""

    id: str = ""
    name: str = ""
    min_players: int = 2
    max_players: int = 2
    options: tuple[OptionSpec, ...] = ()
    simultaneous: bool = False
    # everyone wins or loses together (Hanabi): resigning ends the game as a loss for all,
    # and the host may let spectators see every card (``view_all``)
    cooperative: bool = False
    # simultaneous choices that stay secret until a reveal (Ajolocracia's picks): the tests
    # check that a choice changes no byte of what the others receive before it
    secret_picks: bool = False

    @property
    def has_bot(self) -> bool:
        """Whether the game has a server-side bot: its package holds a ``bot`` module (with
        ``BOT``, see app/games/bots.py)."""
        package = type(self).__module__.rpartition(".")[0]
        return bool(package) and importlib.util.find_spec(f"{package}.bot") is not None

    def check_setup(self, seats: int, options: Mapping[str, Any] | None) -> JSON:
        if not isinstance(seats, int) or not self.min_players <= seats <= self.max_players:
            raise BadOptions(
                f"{self.id} is for {self.min_players} to {self.max_players} players"
            )
        resolved = resolve_options(self.options, options)
        # who starts is offered for the game's largest table: at a smaller one, a seat past
        # its last is refused here, when the table is made, not when its host starts it
        chosen = resolved.get("first_seat", "random")
        if chosen != "random" and not 0 <= chosen < seats:
            raise BadOptions(f"first_seat must be a seat of this table (0 to {seats - 1})")
        return resolved

    def catalogue_entry(self) -> JSON:
        return {
            "id": self.id,
            "name": self.name,
            "min_players": self.min_players,
            "max_players": self.max_players,
            "simultaneous": self.simultaneous,
            "bots": self.has_bot,
            "cooperative": self.cooperative,
            "options": [*(o.describe() for o in self.options),
                        *({**o.describe(), "platform": True} for o in table_options(self))],
        }

    def timeout_action(self, state: Any, seat: Seat) -> Action:
        """Default for a seat whose turn timer ran out: its first legal action."""
        actions = self.legal_actions(state, seat)  # type: ignore[attr-defined]
        if not actions:
            raise IllegalAction("not_your_turn", "this seat has nothing to do")
        return actions[0]

    @staticmethod
    def copy(state: T) -> T:
        """A deep copy, so ``apply`` can work on it without touching its input."""
        return copy.deepcopy(state)


def require(condition: bool, code: str, message: str) -> None:
    """Raise :class:`IllegalAction` unless ``condition`` holds."""
    if not condition:
        raise IllegalAction(code, message)


# --------------------------------------------------------------------------- action shapes

# the integers JSON carries exactly everywhere (JavaScript's safe integers)
SAFE_INT = 2**53 - 1
_KINDS = ("int", "number", "str", "bool", "ints")


@dataclass(frozen=True)
class Field:
    """One field of an action: its kind and the values it may take.

    ``kind``: ``"int"`` (a JSON integer; ``true`` is not 1), ``"number"`` (an integer or a
    finite float: NaN and the infinities are refused), ``"str"``, ``"bool"``, or ``"ints"``
    (a list of integers). ``low``/``high`` bound numbers (and list items), ``choices``
    lists the allowed values, ``longest`` bounds a string's or a list's length. Bounds that
    depend on the game's state (a seat of this table, a card in this hand) stay in the
    engine, with its own error codes.
    """

    kind: str
    required: bool = True
    low: float | None = None
    high: float | None = None
    choices: tuple[Any, ...] | None = None
    longest: int = 64
    plain_int: bool = field(default=False, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.kind not in _KINDS:
            raise ValueError(f"unknown field kind {self.kind!r}")
        # an integer with no bounds or choices of its own: checked inline by check_action
        plain = self.kind == "int" and self.low is None and self.high is None \
            and self.choices is None
        object.__setattr__(self, "plain_int", plain)

    def accepts(self, value: Any) -> bool:
        """The quick test every action's fields go through (``_explain`` says why not)."""
        low = self.low if self.low is not None else -SAFE_INT
        high = self.high if self.high is not None else SAFE_INT
        kind = self.kind
        if kind == "int":
            ok = type(value) is int and low <= value <= high
        elif kind == "str":
            ok = type(value) is str and len(value) <= self.longest
        elif kind == "ints":
            ok = type(value) is list and len(value) <= self.longest and all(
                type(item) is int and low <= item <= high for item in value)
        elif kind == "bool":
            ok = type(value) is bool
        else:  # a number: an int, or a finite float
            ok = (type(value) is int or type(value) is float and math.isfinite(value)) \
                and low <= value <= high
        return ok and (self.choices is None or any(
            type(value) is type(choice) and value == choice for choice in self.choices))


# an action type's fields, besides "type" itself
ActionShape = Mapping[str, Field]


def _bad(message: str) -> IllegalAction:
    return IllegalAction("bad_action", message)


def _number_problem(name: str, value: Any, spec: Field) -> IllegalAction | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return _bad(f"field {name!r} must be a number")
    if spec.kind in ("int", "ints") and not isinstance(value, int):
        return _bad(f"field {name!r} must be a whole number")
    if isinstance(value, float) and not math.isfinite(value):
        return _bad(f"field {name!r} must be a finite number")
    low = -SAFE_INT if spec.low is None else spec.low
    high = SAFE_INT if spec.high is None else spec.high
    if not low <= value <= high:
        return _bad(f"field {name!r} is out of range ({low:g} to {high:g})")
    return None


def _explain(name: str, value: Any, spec: Field) -> IllegalAction | None:
    """What is wrong with ``value`` for ``spec`` (None: nothing)."""
    problem: IllegalAction | None = None
    if spec.kind in ("int", "number"):
        problem = _number_problem(name, value, spec)
    elif spec.kind == "str":
        if not isinstance(value, str):
            problem = _bad(f"field {name!r} must be a string")
        elif len(value) > spec.longest:
            problem = _bad(f"field {name!r} is too long (at most {spec.longest} characters)")
    elif spec.kind == "bool":
        if not isinstance(value, bool):
            problem = _bad(f"field {name!r} must be true or false")
    elif not isinstance(value, list):
        problem = _bad(f"field {name!r} must be a list of whole numbers")
    elif len(value) > spec.longest:
        problem = _bad(f"field {name!r} is too long (at most {spec.longest} items)")
    else:
        problem = next((p for p in (_number_problem(name, item, spec) for item in value) if p),
                       None)
    if problem is None and spec.choices is not None and not any(
            type(value) is type(choice) and value == choice for choice in spec.choices):
        problem = _bad(f"field {name!r} must be one of: {', '.join(map(str, spec.choices))}")
    return problem


def check_action(action: Any, shapes: Mapping[str, ActionShape]) -> str:
    """Check an action's shape before any rule looks at it, and answer its type.

    ``shapes`` maps each action type of the game to its fields. Refused, with
    :class:`IllegalAction` and a message that says what is wrong: anything but a JSON object
    (``bad_action``), a type the game does not have (``unknown_action``), a field the type
    does not have, a missing required field, a value of the wrong kind (a bool is not a
    number; NaN and the infinities are not numbers) or out of its range (``bad_action``).
    Every engine calls this first, so nothing unchecked is ever stored in the log."""
    if type(action) is not dict and not isinstance(action, Mapping):  # (the ABC is slow)
        raise _bad("an action is a JSON object")
    kind = action.get("type")
    if type(kind) is not str:
        raise _bad("an action has a \"type\" (a string)")
    shape = shapes.get(kind)
    if shape is None:
        raise IllegalAction("unknown_action", f"unknown action type {kind[:40]!r}; this game "
                            f"has: {', '.join(sorted(shapes))}")
    for key in action:
        if key not in shape and key != "type":
            unknown = sorted(str(k)[:40] for k in action if k != "type" and k not in shape)
            raise _bad(f"unknown field(s) for {kind!r}: {', '.join(unknown)}")
    for name, spec in shape.items():
        if name in action:
            value = action[name]
            if type(value) is int and spec.plain_int and -SAFE_INT <= value <= SAFE_INT:
                continue  # the common case, without a call
            if not spec.accepts(value):
                raise _explain(name, value, spec) or _bad(f"field {name!r} is not allowed")
        elif spec.required:
            raise _bad(f"missing field {name!r}")
    return kind


def action_field(action: Mapping[str, Any], name: str, kind: type | tuple[type, ...]) -> Any:
    """Read a required field of an action with a type check; bools are not ints here."""
    if name not in action:
        raise IllegalAction("bad_action", f"missing field {name!r}")
    value = action[name]
    if isinstance(value, bool) and bool not in (kind if isinstance(kind, tuple) else (kind,)):
        raise IllegalAction("bad_action", f"field {name!r} has the wrong type")
    if not isinstance(value, kind):
        raise IllegalAction("bad_action", f"field {name!r} has the wrong type")
    return value
