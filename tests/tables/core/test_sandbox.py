"""The hot seat of a branch, as plain ``decide`` calls: its host takes every seat (only at a
branch, only before the start), each connection is for one of them (its views and moves are
that seat's only), the player is at every seat it holds (never away), a vote counts its
answer for each, leaving frees them all, and seats given to bots stay the bots'."""

from __future__ import annotations

from datetime import UTC, datetime

from app.games import ENGINES
from app.games.base import Rng
from app.tables import options as table_options
from app.tables.core import presence
from app.tables.core.commands import (
    Act,
    AddBot,
    BotsPlay,
    Chat,
    Connect,
    Join,
    Leave,
    Propose,
    Resign,
    Start,
    TakeSeats,
)
from app.tables.core.effects import ChatLine, SendState, SystemLine
from app.tables.core.state import TableState, new_table, seats_of
from app.tables.core.views import state_message, summary
from app.tables.engine import adapt, apply_any
from tests.games.conformance import playout
from tests.tables.core.helpers import ok, refused, run, started
from tests.tables.support import table_for


def branch_table(game: str = "hanabi", seats: int = 3, step: int = 4) -> TableState:
    """A waiting branch of a game of ``game``: its position after ``step`` moves of a game
    from seed 7, re-dealt from seed 11; hosted by "a" in seat 0."""
    engine = ENGINES[game]
    _final, log = playout(engine, seats, {}, 7, deep_checks=False)
    state = engine.setup(seats, {}, 7)
    for seat, action in log[:step]:
        state = apply_any(engine, state, seat, action)[0]
    position = engine.dump(adapt(engine).redeal_unknown(state, Rng.from_seed(11)))
    opts = table_options.resolve(engine, seats, {"bot_delay": 0})
    return new_table(id="b1", engine=adapt(engine), seat_count=seats, options=opts,
                     private=False, invite_token="inv", seed=11,
                     created_at=datetime.now(UTC), host_id="a", host_name="Ana",
                     position=position, branch_of=("m1", step), now=1000.0)


def test_the_host_of_a_branch_takes_every_seat_and_plays_them_one_connection_each() -> None:
    table = branch_table()
    table, seats = ok(table, TakeSeats("a"))
    assert seats == [0, 1, 2] and table.seats == ("a", "a", "a")
    table, _ = ok(table, Start("a"))
    # the game starts in the stored position, not from the set-up
    engine = table.engine
    assert engine.dump(table.game_state) == dict(table.position)
    table, seat = ok(table, Connect(1, "a", "Ana", seat=2))
    assert seat == 2 and table.conns[1].seat == 2
    table, seat = ok(table, Connect(2, "a", "Ana"))  # no seat named: the first one
    assert seat == 0
    # every seat of the player is connected: nobody is away
    assert presence.connected_seats(table) == {0, 1, 2}
    assert all(s["connected"] for s in summary(table, 1000.0)["seats"])
    # the connection for seat 2 is told seat 2's view only
    message = state_message(table, table.conns[1].seat, 1000.0)
    assert message["seat"] == 2 and message["view"] == engine.view(table.game_state, 2)
    # a move goes for the seat of the connection it came on
    mover = min(table.turn.to_act)
    conn = {0: 2, 2: 1}.get(mover)
    if conn is None:  # seat 1: connect for it too
        table, _ = ok(table, Connect(3, "a", "Ana", seat=1))
        conn = 3
    other = 1 if conn != 1 else 2
    action = engine.legal_actions(table.game_state, mover)[0]
    _, error = refused(table, Act("a", action, table.version, conn=other))
    assert error.code in ("not_your_turn", "no_such_card", "bad_target")
    after, version = ok(table, Act("a", action, table.version, conn=conn))
    assert version == table.version + 1 and after.history[-1].seat == mover


def test_a_connection_may_only_name_a_seat_its_player_holds() -> None:
    table = branch_table()
    table, _ = ok(table, Join("b", "Beto", seat=1))
    _, error = refused(table, Connect(1, "a", "Ana", seat=1))
    assert error.code == "not_your_seat"
    _, error = refused(table, Connect(1, None, "", seat=0))
    assert error.code == "not_your_seat"
    _, error = refused(table, Connect(1, "a", "Ana", seat=7))
    assert error.code == "not_your_seat"
    table, seat = ok(table, Connect(1, "b", "Beto", seat=1))  # one's own seat: fine
    assert seat == 1


def test_only_the_host_of_a_waiting_branch_takes_more_seats() -> None:
    plain = table_for("hanabi", 3)
    _, error = refused(plain, TakeSeats("a"))
    assert error.code == "not_a_branch"
    table = branch_table()
    table, _ = ok(table, Join("b", "Beto"))
    _, error = refused(table, TakeSeats("b"))
    assert error.code == "forbidden"
    _, error = refused(table, TakeSeats("a", seat=1))
    assert error.code == "seat_taken"
    _, error = refused(table, TakeSeats("a", seat=9))
    assert error.code == "bad_seat"
    table, seats = ok(table, TakeSeats("a", seat=2))
    assert seats == [0, 2] and table.seats == ("a", "b", "a")
    after, effects = ok(table, TakeSeats("a"))  # nothing free: nothing stored
    assert after.seats == table.seats
    table, _ = ok(table, Start("a"))
    _, error = refused(table, TakeSeats("a"))
    assert error.code == "game_started"


def test_bots_take_any_of_the_hosts_seats_and_leaving_frees_the_rest() -> None:
    table = branch_table(seats=5)
    table, _ = ok(table, Join("b", "Beto", seat=4))
    table, _ = ok(table, TakeSeats("a"))
    table, _ = ok(table, AddBot("a", 0, bot_id="bot-1"))
    table, _ = ok(table, AddBot("a", 2, bot_id="bot-2"))
    assert table.seats == ("bot-1", "a", "bot-2", "a", "b")
    assert seats_of(table, "a") == {1, 3}
    table, _ = ok(table, Connect(1, "a", "Ana", seat=3))
    table, _ = ok(table, AddBot("a", 1, bot_id="bot-3"))
    assert table.conns[1].seat == 3  # the connection keeps the seat it is for
    table, _ = ok(table, Leave("a"))
    assert table.seats == ("bot-1", "bot-3", "bot-2", None, "b")
    assert table.host_id == "b"


def test_a_hot_seat_answers_a_vote_for_every_seat_it_holds() -> None:
    table = branch_table(seats=3)
    table, _ = ok(table, TakeSeats("a", seat=1))
    table, _ = ok(table, Join("c", "Cleo"))
    table, _ = ok(table, Start("a"))
    table, _ = ok(table, Connect(1, "a", "Ana", seat=1))
    table, _ = ok(table, Connect(2, "c", "Cleo"))
    assert presence.connected_seats(table) == {0, 1, 2}
    # nobody is away: no abandon vote
    _, error = refused(table, Propose("a", "abandon"))
    assert error.code == "nobody_absent"
    # the hot seat's chat is the seat of its connection
    _, effects = run(table, Chat(1, "hola"))
    line = next(e for e in effects if isinstance(e, ChatLine))
    assert line.seat == 1 and line.kind == "player"


def test_a_branch_starts_in_its_position_for_every_seat() -> None:
    table = branch_table("alebrijes", seats=3, step=6)
    table, _ = ok(table, TakeSeats("a"))
    table, effects = run(table, Connect(1, "a", "Ana", seat=1))
    assert any(isinstance(e, SendState) for e in effects)
    table, _ = ok(table, Start("a"))
    engine = table.engine
    for seat in range(3):
        assert engine.view(table.game_state, seat) == engine.view(
            engine.engine.load(dict(table.position)), seat)


def test_the_host_of_a_branch_in_play_hands_seats_to_the_bot() -> None:
    table = branch_table(seats=3)
    table, _ = ok(table, TakeSeats("a", seat=1))
    table, _ = ok(table, Join("c", "Cleo"))
    _, error = refused(table, BotsPlay("a"))
    assert error.code == "not_playing"
    table, _ = ok(table, Start("a"))
    _, error = refused(table, BotsPlay("c"))
    assert error.code == "forbidden"
    _, error = refused(table, BotsPlay("a", seat=2))
    assert error.code == "not_your_seat"
    version = table.version
    _, effects = run(table, BotsPlay("a", seat=1))
    lines = [e for e in effects if isinstance(e, SystemLine)]
    assert [(e.code, e.seat) for e in lines] == [("bot_plays_seat", 1)]
    table, bot_seats = ok(table, BotsPlay("a", seat=1))
    assert bot_seats == [1] and table.autopilot == {1} and table.version == version + 1
    table, bot_seats = ok(table, BotsPlay("a"))
    assert bot_seats == [0, 1] and table.autopilot == {0, 1}
    # recorded in the log, so a restart and the replay know the bot played those seats
    assert [s.source for s in table.history][-2:] == ["host", "host"]
    again, bot_seats = ok(table, BotsPlay("a"))  # nothing more to hand over
    assert bot_seats == [0, 1] and again.version == table.version
    plain = started("hanabi", 2)
    _, error = refused(plain, BotsPlay("a"))
    assert error.code == "not_a_branch"


def test_a_hot_seat_resigns_for_the_seat_being_played() -> None:
    """In a competitive game the seat that gives up is ranked last: the host of a hot seat
    names it (the one whose page they are on), and may name only a seat they hold."""
    table = branch_table("ikebana", seats=3)
    table, _ = ok(table, TakeSeats("a"))
    table, _ = ok(table, Start("a"))
    _, error = refused(table, Resign("a", seat=5))
    assert error.code == "forbidden"
    _, error = refused(table, Resign("b", seat=1))
    assert error.code == "forbidden"
    after, _ = ok(table, Resign("a", seat=1))
    assert after.history[-1].source == "resign" and after.status.value == "finished"
    assert after.outcome["details"]["seat"] == 1
    first, _ = ok(table, Resign("a"))  # no seat named: the first one, as before
    assert first.outcome["details"]["seat"] == 0
