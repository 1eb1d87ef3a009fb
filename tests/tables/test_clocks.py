"""The table clock's bookkeeping (app/tables/core/clocks.py) on a number line of seconds, and the
actor playing the timeout move when each kind of clock reaches zero, with a fake clock:
nothing here sleeps for a deadline."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from app.errors import AppError
from app.games import ENGINES
from app.games.base import BadOptions
from app.tables import options as table_options
from app.tables.actor import TableActor
from app.tables.core.clocks import TableClock
from app.tables.core.commands import Act, Wake
from tests.tables.support import FakeClock, MemoryRepo
from tests.tables.support import started as started_game

# --------------------------------------------------------------------------- pure


def test_turn_clock_gives_each_seat_its_limit_from_when_it_became_due() -> None:
    clock = TableClock("turn", 3, turn_seconds=30)
    clock.update(0, {0})
    assert clock.next_due() == 30 and clock.due(29.9) == []
    clock.update(10, {0})  # the same seat still to act (a two-step turn): same deadline
    assert clock.deadlines == {0: 30}
    clock.update(12, {1})
    assert clock.deadlines == {1: 42} and clock.due(42) == [1]


def test_turn_clock_with_a_marker_shares_one_deadline_per_turn() -> None:
    clock = TableClock("turn", 3, turn_seconds=20)
    clock.update(0, {0, 1, 2}, marker=1, has_marker=True)
    clock.update(5, {1, 2}, marker=1, has_marker=True)  # seat 0 picked
    clock.update(8, {0, 1, 2}, marker=1, has_marker=True)  # and took it back: no new time
    assert set(clock.deadlines.values()) == {20}
    clock.update(9, {0, 1, 2}, marker=2, has_marker=True)
    assert set(clock.deadlines.values()) == {29}


def test_chess_clock_runs_banks_down_and_adds_the_increment() -> None:
    clock = TableClock("chess", 2, bank_seconds=60, increment_seconds=5)
    clock.update(0, {0})
    clock.update(20, {1})  # seat 0 spent 20, gets 5
    assert clock.banks == [45, 60]
    clock.update(50, {0})  # seat 1 spent 30, gets 5
    assert clock.banks == [45, 35]
    assert clock.deadlines == {0: 95}
    assert clock.to_json(60)["banks"] == [35, 35]
    assert clock.due(95) == [0]


def test_chess_clock_pays_one_increment_per_turn_with_a_marker() -> None:
    clock = TableClock("chess", 2, bank_seconds=60, increment_seconds=10)
    clock.update(0, {0, 1}, marker=1, has_marker=True)
    for t in range(1, 9, 2):  # pick / unpick / pick...: no increment farming
        clock.update(t, {1}, marker=1, has_marker=True)
        clock.update(t + 1, {0, 1}, marker=1, has_marker=True)
    assert clock.banks[0] <= 60 + 10 - 4


def test_chess_clock_rebased_after_a_restart_charges_no_downtime() -> None:
    clock = TableClock("chess", 2, bank_seconds=100, increment_seconds=0)
    clock.update(0, {0})
    clock.update(30, {1})
    clock.rebase(5000.0)  # the server came back much later
    assert clock.deadlines == {1: 5100.0}


def test_table_options_resolve_the_clock() -> None:
    hanabi = ENGINES["hanabi"]
    assert table_options.resolve(hanabi, 2, {"turn_seconds": 30})["clock"] == "turn"
    assert table_options.resolve(hanabi, 2, {})["clock"] == "none"
    chess = table_options.resolve(hanabi, 2, {"clock": "chess", "bank_seconds": 300})
    assert (chess["bank_seconds"], chess["increment_seconds"]) == (300, 5)
    for bad in ({"clock": "turn"}, {"clock": "chess", "turn_seconds": 5},
                {"clock": "sundial"}, {"spectators_see_all": "yes"}):
        with pytest.raises(BadOptions):
            table_options.resolve(hanabi, 2, bad)
    with pytest.raises(BadOptions, match="cooperative"):
        table_options.resolve(ENGINES["ikebana"], 2, {"spectators_see_all": True})


# --------------------------------------------------------------------------- the actor


async def started(game: str, options: dict[str, Any], clock: FakeClock,
                  seats: int = 2) -> tuple[TableActor, MemoryRepo]:
    actor, repo, _ = await started_game(game, seats, options, clock=clock, seed=7)
    return actor, repo


@pytest.mark.asyncio
@pytest.mark.parametrize("options", [{"clock": "turn", "turn_seconds": 30},
                                     {"clock": "chess", "bank_seconds": 30,
                                      "increment_seconds": 0}])
async def test_each_clock_mode_reaching_zero_plays_the_timeout_move(options) -> None:
    clock = FakeClock()
    actor, repo = await started("hanabi", options, clock)
    first = next(iter(actor.engine.to_act(actor.state)))
    expected = actor.engine.timeout_action(actor.state, first)
    message = actor.state_message(first)
    assert message["clock"]["mode"] == options["clock"]
    assert message["clock"]["running"] == [first]
    assert message["deadlines"] == {str(first): 30.0}
    clock.now += 29.5
    await actor.submit(Wake("clock"))
    assert repo.actions == []  # not yet
    clock.now += 0.5
    await actor.submit(Wake("clock"))
    assert repo.actions[0][1:] == (first, expected, "timeout")
    assert actor.state_message(first)["source"] == "timeout"
    assert actor.state_message(first)["by"] == first
    assert [line["code"] for line in repo.chat if line["kind"] == "system"][-1] == "timeout"
    await actor.stop()


@pytest.mark.asyncio
async def test_no_clock_never_plays_for_anyone() -> None:
    clock = FakeClock()
    actor, repo = await started("hanabi", {}, clock)
    clock.now += 10_000
    await actor.submit(Wake("clock"))
    assert repo.actions == [] and actor.state_message(0)["clock"]["running"] == []
    await actor.stop()


@pytest.mark.asyncio
async def test_chess_clock_keeps_each_seats_bank_across_turns() -> None:
    clock = FakeClock()
    actor, repo = await started("hanabi", {"clock": "chess", "bank_seconds": 100,
                                           "increment_seconds": 3}, clock)
    spent = {0: 0.0, 1: 0.0}
    for think in (10, 25, 7, 40):
        seat = next(iter(actor.engine.to_act(actor.state)))
        clock.now += think
        spent[seat] += think
        action = actor.engine.legal_actions(actor.state, seat)[-1]
        await actor.submit(Act("ab"[seat], action, actor.table.version))
    banks = actor.state_message(0)["clock"]["banks"]
    assert banks == [100 - spent[0] + 6, 100 - spent[1] + 6]
    assert all(source == "player" for *_, source in repo.actions)
    await actor.stop()


@pytest.mark.asyncio
async def test_a_seat_out_of_time_in_a_simultaneous_game_gets_its_timeout_pick() -> None:
    clock = FakeClock()
    actor, repo = await started("ajolocracia", {"clock": "chess", "bank_seconds": 20,
                                                "increment_seconds": 0}, clock, seats=3)
    engine = actor.engine
    await actor.submit(Act("a", engine.legal_actions(actor.state, 0)[0], actor.table.version))
    await actor.submit(Act("b", engine.legal_actions(actor.state, 1)[0], actor.table.version))
    clock.now += 20
    await actor.submit(Wake("clock"))
    for _ in range(50):  # one timeout per wake-up; the next wake-ups follow at once
        await asyncio.sleep(0.01)
        if 2 not in actor.engine.waiting_for(actor.state):
            break
    moves = [(seat, source) for _, seat, _, source in repo.actions]
    assert moves[:3] == [(0, "player"), (1, "player"), (2, "timeout")]
    # with no increment, seat 2's later picks are made as soon as they are due
    assert set(moves[3:]) <= {(2, "timeout")}
    assert 2 not in actor.engine.waiting_for(actor.state)
    await actor.stop()


@pytest.mark.asyncio
async def test_the_real_timer_is_armed_for_the_next_deadline() -> None:
    actor, repo = await started("hanabi", {"clock": "turn", "turn_seconds": 1},
                                FakeClock())
    at, handle = actor._timers["clock"]  # a loop timer waits for it (no sleeping here)
    assert at == actor.table.clock.next_due() and handle is not None
    await actor.stop()
    await asyncio.sleep(0)


@pytest.mark.asyncio
async def test_a_timeout_move_the_engine_cannot_give_is_logged_once_not_looped(
        monkeypatch) -> None:
    from app.games.base import IllegalAction

    clock = FakeClock()
    actor, repo = await started("hanabi", {"clock": "turn", "turn_seconds": 5}, clock)

    def nothing(state: Any, seat: int) -> Any:
        raise IllegalAction("not_your_turn", "nothing to play")

    monkeypatch.setattr(actor.engine, "timeout_action", nothing)
    clock.now += 5
    with pytest.raises(AppError) as err:  # a timer's wake-up: the actor logs it
        await actor.submit(Wake("clock"))
    assert err.value.code == "no_timeout_move"
    assert repo.actions == [] and actor.table.clock.next_due() is None
    assert "clock" not in actor._timers  # nothing left to wake for: no loop
    await actor.stop()
