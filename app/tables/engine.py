"""A game's engine as the table sees it: every optional hook with its default, given once.

Engines implement the protocol of ``app/games/base.py`` and may add optional hooks (a timed
window, a turn marker, the everything-revealed view...). Nothing in ``app/tables`` asks an
engine whether it has a hook: it asks this adapter, which looked once, when it was made
(boardgame.io's ``ProcessGameConfig`` is the model). The adapter also applies the
platform's own actions (``SYSTEM_SEAT``: a window's deadline, a resignation, an abandon, a
bot taking a seat), so a stored log replays through one function.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from app.games.base import (
    ABANDON,
    ABANDON_REASONS,
    AUTOPILOT,
    CLOSE_WINDOW,
    RESIGN,
    SYSTEM_SEAT,
    Action,
    Engine,
    Event,
    IllegalAction,
    Outcome,
    Rng,
    Window,
    engine_options,
)
from app.games.bots import Bot, bot_for


def _first_found(engine: Any, name: str) -> Callable[..., Any] | None:
    """The engine's optional hook ``name``, or None (the only place that probes)."""
    hook = getattr(engine, name, None)
    return hook if callable(hook) else None


class EngineAdapter:
    """``engine`` with its optional hooks resolved (see app/games/base.py for each)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.id: str = engine.id
        self.name: str = engine.name
        self.simultaneous = bool(getattr(engine, "simultaneous", False))
        # everyone wins or loses together (a resignation is a loss for all; spectators may
        # be allowed to see every card)
        self.cooperative = bool(getattr(engine, "cooperative", False))
        # a server-side bot can play a seat (host's bots, an absent player's seat)
        self.has_bot = bool(getattr(engine, "has_bot", False))
        # the protocol itself, called straight (these run for every seat of every push)
        self.to_act: Callable[[Any], set[int]] = engine.to_act
        self.legal_actions: Callable[[Any, int], list[Action]] = engine.legal_actions
        self.view: Callable[[Any, int | None], Any] = engine.view
        self.timeout_action: Callable[[Any, int], Action] = engine.timeout_action
        self.dump: Callable[[Any], dict[str, Any]] = engine.dump
        # a seat's move (``apply`` below also takes the platform's own actions)
        self.apply_move: Callable[[Any, int, Action], tuple[Any, list[Event]]] = engine.apply
        self.outcome: Callable[[Any], Outcome | None] = engine.outcome
        # the optional hooks, each with its default
        # whom the game waits for: in simultaneous games a seat that has chosen may still
        # be in to_act (to change its mind) but not here
        waiting_for = _first_found(engine, "waiting_for")
        self.waiting_for: Callable[[Any], set[int]] = waiting_for or engine.to_act
        self.has_waiting_for = waiting_for is not None
        # whether a seat may chat now (Block and Guess closes it to builders)
        chat_allowed = _first_found(engine, "chat_allowed")
        self.chat_allowed: Callable[[Any, int], bool] = chat_allowed or _anyone_may_chat
        self.closes_chat = chat_allowed is not None
        turn_marker = _first_found(engine, "turn_marker")
        # changes exactly when a new simultaneous turn begins (None without the hook)
        self.turn_marker: Callable[[Any], Any] = turn_marker or _no_marker
        self.has_turn_marker = turn_marker is not None
        self._window = _first_found(engine, "window")
        self.has_window = self._window is not None
        self._close_window = _first_found(engine, "close_window")
        self._view_all = _first_found(engine, "view_all")
        self._ephemeral = _first_found(engine, "ephemeral")
        self._current_scores = _first_found(engine, "current_scores")
        self._acts_on = _first_found(engine, "acts_on")
        self._opening = _first_found(engine, "opening")
        # what a seat acts on is its legal actions (the default): then the turn's record of
        # them serves the seat's state message too (app/tables/core/views.py)
        self.acts_on_legal = self._acts_on is None
        self.has_ephemeral = self._ephemeral is not None
        # play on from a moment of a finished game: what no seat knows is dealt anew
        self._redeal_unknown = _first_found(engine, "redeal_unknown")
        self.can_branch = self._redeal_unknown is not None

    def setup(self, seats: int, options: Mapping[str, Any], seed: int,
              position: Mapping[str, Any] | None = None) -> Any:
        """The starting state: dealt from ``seed``, or a stored position (``dump``) when the
        table starts from one instead."""
        if position is not None:
            return self.engine.load(dict(position))
        return self.engine.setup(seats, engine_options(options), seed)

    def outcome_json(self, state: Any) -> dict[str, Any] | None:
        outcome = self.outcome(state)
        return outcome.to_json() if outcome is not None else None

    # ------------------------------------------------------------------ optional hooks

    def window(self, state: Any) -> Window | None:
        """The timed window open now (Allegra's knock), if any."""
        return self._window(state) if self._window is not None and state is not None else None

    def view_all(self, state: Any) -> Any:
        """The view with nothing hidden (replays; spectators of a cooperative game whose host
        allows it); default: the spectator's view."""
        if self._view_all is not None:
            return self._view_all(state)
        return self.engine.view(state, None)

    def ephemeral(self, state: Any, seat: int, data: Any) -> Event:
        """Check a live, unstored update and say what to relay (callers check
        ``has_ephemeral`` first)."""
        assert self._ephemeral is not None
        return self._ephemeral(state, seat, data)  # type: ignore[no-any-return]

    def current_scores(self, state: Any, seats: int) -> list[int]:
        """Each seat's score so far (a game ended early); default: zeros."""
        if self._current_scores is None:
            return [0] * seats
        return [int(x) for x in self._current_scores(state)]

    def opening(self, state: Any) -> list[Event]:
        """What the log says as the game starts (round 1's opening lines); default: nothing."""
        return list(self._opening(state)) if self._opening is not None else []

    def acts_on(self, state: Any, seat: int) -> Any:
        """What ``seat`` decides its move from, beyond the view: by default its legal actions.

        The table's per-seat versions use it (app/tables/core/play.py): another seat's move
        while both could act leaves a seat's action valid as long as this is unchanged. An
        engine whose actions name things whose meaning another seat's concurrent move could
        change without changing the legal actions says more here (none does today)."""
        if self._acts_on is not None:
            return self._acts_on(state, seat)
        return self.engine.legal_actions(state, seat)

    def redeal_unknown(self, state: Any, rng: Rng) -> Any:
        """The position with what no seat could know dealt anew (a branch starts from it);
        default: no branch (``can_branch`` is False, and this refuses)."""
        if self._redeal_unknown is None:
            raise IllegalAction("no_branch", f"{self.name} cannot be played on from a replay")
        return self._redeal_unknown(state, rng)

    def bot(self, all_bots: bool = False) -> Bot | None:
        return bot_for(self.id, all_bots) if self.has_bot else None

    # ------------------------------------------------------------------ applying actions

    def apply(self, state: Any, seat: int, action: Action) -> tuple[Any, list[Event]]:
        """Apply a stored action: a seat's move, the platform closing a timed window, or the
        platform ending the game early or handing a seat to a bot (the state is unchanged:
        app/tables/core/ending.py gives an early end's outcome)."""
        if seat != SYSTEM_SEAT:
            return self.engine.apply(state, seat, action)  # type: ignore[no-any-return]
        kind = action.get("type") if isinstance(action, Mapping) else None
        seats = int(self.engine.dump(state)["seats"]) if kind in (RESIGN, AUTOPILOT) else 0
        if kind == RESIGN:
            resigner = action.get("seat")
            if not _is_seat(resigner, seats):
                raise IllegalAction("bad_action", "a resignation names a seat of the table")
            return state, [Event("resigned", {"seat": resigner})]
        if kind == ABANDON:
            if action.get("reason") not in ABANDON_REASONS:
                raise IllegalAction("bad_action", "an abandon says why: vote or empty")
            return state, [Event("abandoned", {"reason": action["reason"]})]
        if kind == AUTOPILOT:
            target, on = action.get("seat"), action.get("on")
            if not _is_seat(target, seats) or not isinstance(on, bool):
                raise IllegalAction("bad_action", "autopilot names a seat and on: true/false")
            return state, [Event(AUTOPILOT, {"seat": target, "on": on})]
        if kind != CLOSE_WINDOW:
            raise IllegalAction("bad_action", "the platform only closes timed windows, hands "
                                "a seat to a bot or ends a game early")
        window = self.window(state)
        if window is None or window.id != action.get("window") or self._close_window is None:
            raise IllegalAction("window_closed", "that window is not open")
        return self._close_window(state, window.id)  # type: ignore[no-any-return]


def _anyone_may_chat(state: Any, seat: int) -> bool:
    return True


def _no_marker(state: Any) -> None:
    return None


def _is_seat(value: Any, seats: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < seats


_adapters: dict[int, tuple[Any, EngineAdapter]] = {}


def adapt(engine: Engine) -> EngineAdapter:
    """The one adapter of ``engine`` (engines are module-level singletons; a test's engine
    is kept alive here with its adapter, so its id is never reused)."""
    found = _adapters.get(id(engine))
    if found is None:
        found = _adapters[id(engine)] = (engine, EngineAdapter(engine))
    return found[1]


def apply_any(engine: Engine, state: Any, seat: int, action: Action) -> tuple[Any, list[Event]]:
    """Apply a stored action whatever its seat (tests and tools replaying a log)."""
    return adapt(engine).apply(state, seat, action)


def open_window(engine: Engine, state: Any) -> Window | None:
    """The engine's open timed window, if it has the hook and one is open."""
    return adapt(engine).window(state)
