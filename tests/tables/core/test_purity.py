"""``decide`` never changes the table it is given: whole random games of every engine played
through the core, each step checked (tests/tables/core/helpers.run compares a deep snapshot
of its input before and after), with connections, chat and timers in between; and a table
kept from before a step still reads as it did, so the shell can drop a decision whose write
failed."""

from __future__ import annotations

import random

import pytest

from app.games import ENGINES
from app.tables.core import views
from app.tables.core.commands import Act, Chat, Connect, Disconnect, Wake
from app.tables.core.effects import Refuse
from app.tables.core.state import TableStatus
from app.tables.core.wakeups import wakeups
from tests.tables.core.helpers import run, started
from tests.tables.support import PLAYERS


@pytest.mark.parametrize("game", sorted(ENGINES))
def test_random_games_through_decide_leave_every_input_as_it_was(game: str) -> None:
    engine = ENGINES[game]
    seats = engine.min_players + 1 if engine.max_players > engine.min_players else 2
    rng = random.Random(3)
    now = 1000.0
    table = started(game, seats, {"clock": "turn", "turn_seconds": 30}, seed=3, now=now)
    kept = [(table, views.state_message(table, 0, now))]
    for step in range(300):
        if table.status is not TableStatus.PLAYING:
            break
        now += rng.random() * 3
        roll = rng.random()
        if roll < 0.05:
            table, _ = run(table, Disconnect(rng.randrange(seats)), now)
            table, _ = run(table, Connect(rng.randrange(seats), PLAYERS[0], "A"), now)
        elif roll < 0.1:
            table, _ = run(table, Chat(rng.randrange(seats), "hola"), now)
        elif roll < 0.15:
            for key, at in wakeups(table, now).items():
                table, _ = run(table, Wake(key), max(now, at))
        else:
            seat = rng.choice(sorted(table.turn.to_act))
            legal = table.engine.legal_actions(table.game_state, seat)
            version = table.version - rng.choice((0, 0, 0, 1))  # now and then an older one
            current = version == table.version
            table, effects = run(table, Act(PLAYERS[seat], rng.choice(legal), version), now)
            codes = [e.error.code for e in effects if isinstance(e, Refuse)]
            assert not (current and "stale_version" in codes)
        if step % 25 == 0:
            kept.append((table, views.state_message(table, 0, now)))
    assert len(kept) > 2
    for old, message in kept:  # what each kept table said then, it still says
        again = views.state_message(old, 0, now)
        assert (again["version"], again["view"], again["legal_actions"]) == (
            message["version"], message["view"], message["legal_actions"])
