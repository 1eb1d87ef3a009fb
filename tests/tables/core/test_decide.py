"""The table core as plain function calls: ``decide(table, command, now)`` answers the next
table and the effects, and never changes the table it was given (every call here checks
it). Seating, starting, the effects a move asks for (stored first), refusals, wake-ups for
clocks, votes, windows and bots, presence and votes with a clock that is just a number."""

from __future__ import annotations

from app.games.base import SYSTEM_SEAT
from app.tables.core import bots, views
from app.tables.core.commands import (
    Act,
    AddBot,
    BotMove,
    Cast,
    Chat,
    Connect,
    Disconnect,
    HandBack,
    Join,
    Leave,
    Propose,
    Resign,
    Start,
    Wake,
)
from app.tables.core.decide import HANDLERS
from app.tables.core.effects import (
    AppendAction,
    Broadcast,
    ChatLine,
    FollowUp,
    SaveSeats,
    SetStatus,
    Store,
    SystemLine,
    Think,
)
from app.tables.core.state import TableStatus, evolve
from app.tables.core.wakeups import wakeups
from tests.tables.core.helpers import kinds, ok, refused, run, started
from tests.tables.support import PLAYERS, table_for


def test_every_command_has_one_handler_and_the_registry_is_explicit() -> None:
    import app.tables.core.commands as commands

    declared = {obj for name, obj in vars(commands).items()
                if isinstance(obj, type) and obj.__module__ == commands.__name__}
    assert declared == set(HANDLERS)


def test_seats_are_stored_before_anyone_is_told_and_refusals_change_nothing() -> None:
    table = table_for("hanabi", 3)
    table, effects = run(table, Join("b", "Beto"))
    assert kinds(effects) == ["Store", "Broadcast", "SystemLine", "Reply"]
    assert effects[0] == Store(SaveSeats(("a", "b", None), "a", 2))
    assert table.version == 2 and table.names["b"] == "Beto"
    same, error = refused(table, Join("c", "Cora", seat=1))
    assert error.code == "seat_taken" and same is table
    _, error = refused(table, Start("a"))
    assert error.code == "not_full"
    table, _ = ok(table, Join("c", "Cora"))
    _, error = refused(table, Start("b"))
    assert error.code == "forbidden"
    table, effects = run(table, Start("a"), now=50.0)
    assert table.status is TableStatus.PLAYING and table.game_state is not None
    assert effects[0] == Store(SetStatus("playing", 4, started=True))
    assert table.context == (4, 4, 4) and table.context_at == (50.0,) * 3
    _, error = refused(table, Leave("b"))
    assert error.code == "game_started"


def test_a_move_is_stored_then_pushed_with_its_events_and_the_history_grows() -> None:
    table = started("hanabi", 2)
    seat = min(table.turn.to_act)
    move = table.engine.legal_actions(table.game_state, seat)[-1]
    after, effects = run(table, Act(PLAYERS[seat], move, table.version))
    assert kinds(effects) == ["Store", "Broadcast", "Reply"]
    assert effects[0] == Store(AppendAction(table.version + 1, seat, move, "player", None))
    assert isinstance(effects[1], Broadcast) and effects[1].events
    assert len(after.history) == len(table.history) + 1 == 1
    assert after.history[-1].version == after.version and after.turn.to_act == {1 - seat}
    # the table it was given still reads as it was (run() compared them deeply)
    assert table.history.last() is None and len(table.history) == 0


def test_refusals_of_the_rules_say_why_and_keep_the_table() -> None:
    table = started("ikebana", 2)
    seat = min(table.turn.to_act)
    same, error = refused(table, Act(PLAYERS[seat], {"type": "fly"}, table.version))
    assert (error.code, error.status) == ("unknown_action", 422) and same is table
    _, error = refused(table, Act("zed", {"type": "draw"}, table.version))
    assert error.code == "forbidden"


def test_the_clock_asks_to_be_woken_and_plays_the_timeout_move_then() -> None:
    table = started("hanabi", 2, {"clock": "turn", "turn_seconds": 30}, now=100.0)
    seat = min(table.turn.to_act)
    assert wakeups(table, 100.0) == {"clock": 130.0}
    same, effects = run(table, Wake("clock"), 129.0)  # early: nothing to do yet
    assert same.version == table.version and effects == []
    table, effects = run(table, Wake("clock"), 130.0)
    assert kinds(effects) == ["Store", "Broadcast", "SystemLine"]
    store = effects[0]
    assert isinstance(store, Store) and isinstance(store.write, AppendAction)
    assert (store.write.seat, store.write.source) == (seat, "timeout")
    assert wakeups(table, 130.0) == {"clock": 160.0}  # the next seat's turn


def test_a_vote_passes_on_every_yes_and_fails_when_its_time_is_up() -> None:
    table = started("hanabi", 3, {"absent_grace_seconds": 60})
    table, _ = ok(table, Disconnect(2), now=1000.0)
    assert table.presence.away_since == {2: 1000.0}
    _, error = refused(table, Propose("a", "abandon"), now=1059.0)
    assert error.code == "nobody_absent"
    voting, vote = ok(table, Propose("a", "abandon"), now=1060.0)
    assert vote["voters"] == [0, 1] and wakeups(voting, 1060.0)["vote"] == 1180.0
    expired, effects = run(voting, Wake("vote"), 1180.0)
    assert expired.vote is None and SystemLine("vote_failed", None,
                                               {"proposal": "abandon"}) in effects
    voting, vote = ok(table, Propose("a", "abandon"), now=1060.0)
    done, effects = run(voting, Cast("b", vote["id"], True), 1061.0)
    assert done.status is TableStatus.FINISHED and done.vote is None
    assert done.outcome["details"] == {"end": "abandoned", "reason": "vote"}
    assert [e.code for e in effects if isinstance(e, SystemLine)] == ["vote_passed",
                                                                      "abandoned"]


def test_a_bot_thinks_a_pause_after_its_turn_comes_and_a_stale_choice_is_dropped() -> None:
    table = table_for("hanabi", 2, {"bot_delay": 500})
    table, _ = ok(table, AddBot("a", 1, bot_id="bot-1"))
    table, _ = ok(table, Start("a"), now=10.0)
    bot_turn = 1 in table.turn.to_act
    if not bot_turn:  # the human moves first: then it is the bot's turn
        move = table.engine.legal_actions(table.game_state, 0)[0]
        table, _ = ok(table, Act("a", move, table.version), now=10.0)
    assert bots.due(table) == {1} and wakeups(table, 10.0) == {"bot:1": 10.5}
    same, effects = run(table, Wake("bot:1"), 10.2)  # too early: nothing yet
    assert effects == []
    same, effects = run(table, Wake("bot:1"), 10.5)
    assert effects == [Think(1, table.version)]
    move = table.engine.legal_actions(table.game_state, 1)[0]
    moved, effects = run(table, BotMove(1, table.version, move), 11.0)
    assert moved.version == table.version + 1 and moved.history[-1].source == "bot"
    ignored, effects = run(moved, BotMove(1, table.version, move), 11.0)  # thought for before
    assert ignored is moved and kinds(effects) == ["Reply"]


def test_a_player_back_has_the_seat_from_the_bot_at_once() -> None:
    table = started("hanabi", 2, {"bot_delay": 0, "absent_grace_seconds": 0})
    table, _ = ok(table, Disconnect(1), now=1000.0)
    table, _ = ok(table, Propose("a", "bot", 1), now=1000.0)
    assert table.autopilot == {1} and table.history[-1].seat == SYSTEM_SEAT
    table, effects = run(table, Connect(7, "b", "B"), now=1001.0)
    assert FollowUp(HandBack(1)) in effects
    table, effects = run(table, HandBack(1), now=1001.0)
    assert table.autopilot == frozenset() and table.history[-1].source == "back"
    assert [e.code for e in effects if isinstance(e, SystemLine)] == ["seat_returned"]


def test_presence_lines_are_rate_limited_and_chat_is_checked() -> None:
    table = started("ikebana", 2)
    codes = []
    for i in range(6):  # a flickering connection
        table, effects = run(table, Disconnect(1 if i == 0 else 100 + i), now=1000.0 + i)
        table, more = run(table, Connect(100 + i + 1, "b", "B"), now=1000.0 + i)
        codes += [e.code for e in (*effects, *more) if isinstance(e, SystemLine)]
    assert codes.count("away") == 4  # a burst of four, then one every 30 s
    table, effects = run(table, Chat(0, "hola"))
    assert [e for e in effects if isinstance(e, ChatLine)] == [
        ChatLine("player", 0, "a", "Ana", "hola")]
    for _ in range(4):
        table, _ = ok(table, Chat(0, "más"))
    _, error = refused(table, Chat(0, "y más"))
    assert error.code == "chat_rate" and "wait 2 s" in error.message


def test_resigning_ends_the_game_and_the_views_say_so() -> None:
    table = started("hanabi", 2)
    table, version = ok(table, Resign("b"))
    assert version == table.version and table.status is TableStatus.FINISHED
    message = views.state_message(table, 0, 1000.0)
    assert message["legal_actions"] == [] and message["to_act"] == []
    assert message["source"] == "resign" and message["by"] == SYSTEM_SEAT
    assert wakeups(table, 1000.0) == {}


def test_a_stored_table_whose_first_seat_is_past_its_last_is_refused_at_start() -> None:
    """Tables made before their options were checked against their size kept a first seat
    past the last: starting one is refused with the reason (it was a server error), and the
    table stays waiting, as it was."""
    table = table_for("hanabi", 2)
    table = evolve(table, setup=evolve(table.setup, options={**table.options, "first_seat": 4}))
    table, _ = ok(table, Join("b", "Beto"))
    after, error = refused(table, Start("a"))
    assert (error.code, error.status) == ("bad_options", 422)
    assert "first_seat" in error.message
    assert after.status is TableStatus.WAITING and after.game_state is None
    assert after.version == table.version
