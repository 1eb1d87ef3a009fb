"""Every competitive game's bot (``app.games.bots``), over random games of every size.

- It only ever proposes one of the engine's legal actions, which the engine accepts, at
  every player count and with the options that change the game's flow.
- Same arguments, same choice; and it changes none of its arguments.
- It is a function of what its seat may know: at random points of random games, its
  choice is the same when everything hidden from its seat is re-dealt (``scramble``),
  whose view (and legal actions) must then be the same too.

Hanabi's bot is tested with Hanabi. Scenario tests live beside each game's tests.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest

from app.games import ENGINES
from app.games.base import CLOSE_WINDOW, SYSTEM_SEAT, Action, Rng
from app.games.bots import bot_for, bot_rng, seat_history
from app.tables.engine import apply_any, open_window

GAMES = [g for g, e in sorted(ENGINES.items()) if e.has_bot and g != "hanabi"]

# options that change how a game flows (each is played at every player count)
VARIANTS: dict[str, list[dict[str, Any]]] = {
    "ikebana": [{}, {"final_bouquet_double": True}],
    "ajolocracia": [{}, {"alternate_direction": True}],
    "alebrijes": [{}, {"first_seat": 0}],
    "allegra": [{"rounds": 1}, {"rounds": 1, "knock": False},
                {"target_score": 40, "knock_seconds": 2}],
}

Check = Callable[[Any, Any, int, list[dict[str, Any]], Action], None]


def bot_game(game: str, seats: int, options: dict[str, Any], seed: int,
             bots: set[int], check: Check | None = None) -> Any:
    """Play a game to the end with bots in ``bots`` and random seats elsewhere; every bot
    action must be legal. ``check(engine, state, seat, history, action)`` sees each one."""
    engine = ENGINES[game]
    bot = bot_for(game)
    assert bot is not None
    state = engine.setup(seats, options, seed)
    rng = Rng.from_seed(seed + 101)
    histories: list[list[dict[str, Any]]] = [[] for _ in range(seats)]
    version = 0
    waiting_for = getattr(engine, "waiting_for", None)

    def act(seat: int) -> None:
        nonlocal state, version
        legal = engine.legal_actions(state, seat)
        if seat in bots:
            view = engine.view(state, seat)
            action = bot.choose(view, legal, histories[seat], bot_rng(seed, version, seat))
            assert action in legal, f"{game}: {action} is not among the legal actions"
            if check is not None:
                check(engine, state, seat, histories[seat], action)
        else:
            action = rng.choice(legal)
        apply(seat, action)

    def apply(seat: int, action: Action) -> None:
        nonlocal state, version
        state, events = apply_any(engine, state, seat, action)
        version += 1
        for s in range(seats):
            histories[s].extend(seat_history([(version, events)], s))

    while engine.outcome(state) is None:
        assert version < 20_000, f"{game}: the game does not end"
        window = open_window(engine, state)
        if window is not None:
            for seat in sorted(window.seats):
                current = open_window(engine, state)
                if current is None or current.id != window.id:
                    break
                if seat in bots or rng.below(3):  # random seats sometimes stay silent
                    act(seat)
            current = open_window(engine, state)
            if current is not None and current.id == window.id:
                apply(SYSTEM_SEAT, {"type": CLOSE_WINDOW, "window": window.id})
            continue
        ready = sorted(waiting_for(state) if waiting_for is not None else engine.to_act(state))
        act(ready[rng.below(len(ready))])
    return engine.outcome(state)


def _counts(game: str) -> list[int]:
    engine = ENGINES[game]
    return list(range(engine.min_players, engine.max_players + 1))


@pytest.mark.parametrize("game", GAMES)
def test_bots_only_play_legal_actions(game: str) -> None:
    for seats in _counts(game):
        for number, options in enumerate(VARIANTS[game]):
            seed = 1000 * seats + number
            everyone = set(range(seats))
            some = {s for s in range(seats) if (s + number) % 2 == 0}
            outcome = bot_game(game, seats, options, seed, everyone if number == 0 else some)
            assert outcome is not None


def _view_only_check(every: int) -> tuple[Check, list[int]]:
    """A check that, on one bot decision in ``every``, re-asks the bot: the same choice from
    copies of its arguments (which it must not change), and from a re-dealt state."""
    calls = [0]
    checked = [0]

    def check(engine: Any, state: Any, seat: int, history: list[dict[str, Any]],
              action: Action) -> None:
        calls[0] += 1
        if calls[0] % every:
            return
        checked[0] += 1
        bot = bot_for(engine.id)
        assert bot is not None
        version = len(history) + calls[0]
        view = engine.view(state, seat)
        legal = engine.legal_actions(state, seat)
        args = (copy.deepcopy(view), copy.deepcopy(legal), copy.deepcopy(history))
        first = bot.choose(view, legal, history, bot_rng(7, version, seat))
        assert (view, legal, history) == args, "the bot changed its arguments"
        assert bot.choose(*copy.deepcopy(args), bot_rng(7, version, seat)) == first
        other = engine.scramble(state, seat, Rng.from_seed(calls[0]))
        assert engine.view(other, seat) == view, "scramble changed what the seat sees"
        assert engine.legal_actions(other, seat) == legal
        again = bot.choose(engine.view(other, seat), engine.legal_actions(other, seat),
                           copy.deepcopy(history), bot_rng(7, version, seat))
        assert again == first, f"{engine.id}: the bot's choice depends on hidden cards"

    return check, checked


@pytest.mark.parametrize("game", GAMES)
def test_bot_choice_is_deterministic_and_depends_only_on_the_view(game: str) -> None:
    check, checked = _view_only_check(every=3)
    for seats in (ENGINES[game].min_players, 4):
        for seed in (1, 2):
            bot_game(game, seats, VARIANTS[game][0], seed, set(range(seats)), check)
    assert checked[0] > 20
