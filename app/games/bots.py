"""Server-side bots: the protocol every game's bot follows, and the registry of bots.

A bot is a pure function of what its seat may know: the seat's redacted ``view``, the legal
actions the engine lists for the seat, and the seat's redacted history (the same
``[{"version": v, "events": [...]}, ...]`` a WebSocket client receives). It never sees the
engine state, so it cannot use a card its seat cannot see; a REST bot could run the same code.
Randomness comes from the ``Rng`` it is given (seeded from the table's seed, the version and
the seat), so a bot's move is reproducible.

Each game that has a bot exposes ``BOT`` in ``app/games/<game>/bot.py`` (and may expose
``BOT_ALL_BOTS`` for tables where every seat is a bot). The view is read-only: engines share
parts of it between seats. Block and Guess has
none on purpose (building a shape that teammates can recognise is the game; see its rules page).
"""

from __future__ import annotations

import importlib
import importlib.util
import logging
from collections.abc import Sequence
from typing import Any, Protocol

from app.games.base import JSON, Action, Event, IllegalAction, Rng, event_for

log = logging.getLogger(__name__)

History = Sequence[JSON]  # [{"version": int, "events": [event, ...]}, ...] as the seat sees it


class Bot(Protocol):
    """What a game's bot provides (``BOT`` in its ``bot.py``)."""

    game: str

    def choose(self, view: JSON, legal: Sequence[Action], history: History,
               rng: Rng) -> Action:
        """A concrete action the engine will accept for the seat whose view this is.

        ``legal`` is ``engine.legal_actions(state, seat)`` (never empty when this is called);
        where a game lists families of actions rather than every concrete one (Alebrijes'
        combinations), the bot builds a concrete action from an entry.
        """
        ...


_loaded: dict[tuple[str, bool], Bot] = {}


def bot_for(game: str, all_bots: bool = False) -> Bot | None:
    """The bot of ``game``, or None if that game has none. ``all_bots``: every seat of the
    table is a bot from the start, so a game may use conventions no person would follow
    (a module's ``BOT_ALL_BOTS``, e.g. Hanabi's hat guessing); otherwise its ``BOT``, which
    plays the way people expect a partner to."""
    bot = _loaded.get((game, all_bots))
    if bot is None:
        name = f"app.games.{game.replace('-', '_')}.bot"
        try:
            found = importlib.util.find_spec(name)
        except ModuleNotFoundError:  # not even a game package of that name
            found = None
        if found is None:  # no bot module: no bot (see BaseEngine.has_bot)
            return None
        module = importlib.import_module(name)
        bot = getattr(module, "BOT_ALL_BOTS", module.BOT) if all_bots else module.BOT
        _loaded[(game, all_bots)] = bot
    return bot


def bot_rng(seed: int, version: int, seat: int) -> Rng:
    """The randomness of one bot decision: fixed by the table's seed, version and seat."""
    mixed = Rng.from_seed(seed ^ (version * 0x9E3779B97F4A7C15) ^ (seat + 1) * 0xBF58476D1CE4E5B9)
    mixed.next64()
    return mixed


def seat_history(history: Sequence[tuple[int, Sequence[Event]]], seat: int) -> list[JSON]:
    """The actor's ``(version, events)`` history as ``seat`` sees it."""
    return [{"version": version, "events": event_for(events, seat)}
            for version, events in history]


def decide(engine: Any, bot: Bot, state: Any, seat: int, history: History, rng: Rng) -> Action:
    """The bot's move for ``seat``, checked against the rules.

    A bot that raises, or proposes something the engine refuses, is a bug: it is logged and
    the seat plays the game's timeout move instead, so a bot never stalls a table.
    """
    view = engine.view(state, seat)
    legal = engine.legal_actions(state, seat)
    try:
        action = bot.choose(view, legal, history, rng)
        engine.apply(state, seat, action)  # pure: only checks that the move is legal
        return action
    except IllegalAction as exc:
        log.error("%s bot proposed an illegal move for seat %s: %s", engine.id, seat, exc)
    except Exception:  # noqa: BLE001 - a bot's crash must not stop the table
        log.exception("%s bot crashed for seat %s", engine.id, seat)
    return engine.timeout_action(state, seat)  # type: ignore[no-any-return]
