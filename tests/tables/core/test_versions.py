"""Versions judged per seat (docs/api.md, "Versions"): another seat's move while both could
act never makes a seat's move stale unless what it acts on changed; anything else does.
Plain ``decide`` calls on real engines, answers crossing in flight: every move below is
sent for a version older than the table's by the time it is judged."""

from __future__ import annotations

from app.tables.core.commands import Act, Wake
from app.tables.core.effects import SendState
from tests.tables.core.helpers import ok, refused, run, started
from tests.tables.support import PLAYERS


def pick(table, seat: int, version: int | None = None, index: int = 0) -> Act:  # noqa: ANN001
    legal = [a for a in table.engine.legal_actions(table.game_state, seat)
             if a["type"] == "pick" and "second" not in a]
    return Act(PLAYERS[seat], legal[index], table.version if version is None else version,
               conn=seat)


def test_re_picking_unpicking_seats_never_make_another_seats_pick_stale() -> None:
    table = started("ajolocracia", 3)
    sent_for = table.version  # what seats 1 and 2 saw when they chose
    move_1, move_2 = pick(table, 1, sent_for), pick(table, 2, sent_for)
    turn = table.engine.turn_marker(table.game_state)
    for index in (0, 1, 2, 0):  # seat 0 changes its mind again and again
        table, _ = ok(table, pick(table, 0, index=index))
    table, _ = ok(table, Act("a", {"type": "unpick"}, table.version))
    table, _ = ok(table, pick(table, 0, index=3))
    assert table.version == sent_for + 6
    table, _ = ok(table, move_1)  # sent six versions ago: still what seat 1 acts on
    assert table.engine.turn_marker(table.game_state) == turn
    table, version = ok(table, move_2)  # the last pick: the turn is revealed and passed
    assert table.engine.turn_marker(table.game_state) != turn and version == table.version


def test_a_move_is_stale_once_what_its_seat_acts_on_has_changed() -> None:
    table = started("ajolocracia", 2)
    old = table.version
    late = pick(table, 1, old)
    table, _ = ok(table, pick(table, 0))
    table, _ = ok(table, pick(table, 1))  # the turn resolves: new hands for everyone
    table, error = refused(table, late)
    assert error.code == "stale_version" and error.status == 409
    assert f"version {old}" in error.message
    # the sender is sent a fresh view with the refusal
    _, effects = run(table, late)
    assert any(isinstance(e, SendState) and e.conn == 1 for e in effects)
    # a seat's own move changes what it acts on: its next one is sent for the new version
    table, _ = ok(table, pick(table, 0))
    _, error = refused(table, pick(table, 0, table.version - 1, index=1))
    assert error.code == "stale_version"


def test_versions_that_never_were_are_stale_and_the_current_one_is_judged_by_the_rules() -> None:
    table = started("hanabi", 2)
    seat = min(table.engine.to_act(table.game_state))
    move = table.engine.legal_actions(table.game_state, seat)[0]
    _, error = refused(table, Act(PLAYERS[seat], move, table.version + 1))
    assert error.code == "stale_version"
    _, error = refused(table, Act(PLAYERS[1 - seat], move, table.version))
    assert error.code == "not_your_turn"  # sent for the current version: the rules answer
    table, _ = ok(table, Act(PLAYERS[seat], move, table.version))
    # in a game of turns, a seat's turn changes what it acts on: older moves are stale
    other = table.engine.legal_actions(table.game_state, 1 - seat)[0]
    _, error = refused(table, Act(PLAYERS[1 - seat], other, table.version - 1))
    assert error.code == "stale_version"


def test_allegra_knock_answers_cross_in_flight() -> None:
    table = started("allegra", 3, seed=5)
    engine = table.engine
    while table.game_state.phase == "reveal":
        seat = min(engine.to_act(table.game_state))
        table, _ = ok(table, Act(PLAYERS[seat], engine.legal_actions(table.game_state, seat)[0],
                                 table.version))
    active = min(engine.to_act(table.game_state))
    table, _ = ok(table, Act(PLAYERS[active], {"type": "draw"}, table.version))
    window = table.window
    assert window is not None and len(window.window.seats) == 2
    sent_for = table.version
    first, second = sorted(window.window.seats)
    table, _ = ok(table, Act(PLAYERS[first], {"type": "knock"}, sent_for))
    assert table.window is not None and table.window.window.seats == {second}
    assert table.window.deadline == window.deadline  # the same window keeps its clock
    table, _ = ok(table, Act(PLAYERS[second], {"type": "no_knock"}, sent_for))
    assert table.window is None and table.game_state.phase == "accept"
    assert table.game_state.knockers == [first]


def test_an_answer_after_the_deadline_closes_the_window_first_and_is_refused_by_the_rules(
) -> None:
    table = started("allegra", 3, seed=5)
    engine = table.engine
    while table.game_state.phase == "reveal":
        seat = min(engine.to_act(table.game_state))
        table, _ = ok(table, Act(PLAYERS[seat], engine.legal_actions(table.game_state, seat)[0],
                                 table.version))
    table, _ = ok(table, Act(PLAYERS[min(engine.to_act(table.game_state))], {"type": "draw"},
                             table.version))
    window = table.window
    assert window is not None
    late_seat = min(window.window.seats)
    table, error = refused(table, Act(PLAYERS[late_seat], {"type": "knock"}, table.version),
                           now=window.deadline + 0.1)
    assert error.code == "knock_closed"
    step = table.history[-1]
    assert (step.source, step.seat) == ("window", -1) and table.window is None
    # the timer that was on its way finds nothing left to close
    again, effects = run(table, Wake(f"window:{window.window.id}"), window.deadline + 1)
    assert again.version == table.version and effects == []
    assert table.history[-1].events[0].type == "knock_timeout"


def test_block_and_guess_team_proposals_and_guesses_cross_in_flight() -> None:
    table = started("block-and-guess", 5, seed=3)
    engine = table.engine
    while table.game_state["phase"] != "guess":
        seat = min(engine.to_act(table.game_state))
        legal = engine.legal_actions(table.game_state, seat)
        move = next((a for a in legal if a["type"] == "submit"), legal[0])
        table, _ = ok(table, Act(PLAYERS[seat], move, table.version))
    state = table.game_state
    team_build = next(x["builder"] for x in state["builds"]
                      if len(engine.engine.guessers(state, x["builder"])) == 2)
    other_build = next(x["builder"] for x in state["builds"] if x["builder"] != team_build)
    mate_1, mate_2 = engine.engine.guessers(state, team_build)
    (lone,) = engine.engine.guessers(state, other_build)
    sent_for = table.version
    moves = [Act(PLAYERS[mate_1], {"type": "propose", "build": team_build, "object": 3}, sent_for),
             Act(PLAYERS[mate_2], {"type": "propose", "build": team_build, "object": 5}, sent_for),
             Act(PLAYERS[lone], {"type": "ask_front", "build": other_build}, sent_for),
             # changing one's mind: sent after one's own proposal, crossing the question
             Act(PLAYERS[mate_2], {"type": "propose", "build": team_build, "object": 3},
                 sent_for + 2)]
    for move in moves:
        table, _ = ok(table, move)
    proposals = next(x for x in table.game_state["builds"]
                     if x["builder"] == team_build)["proposals"]
    assert proposals == {str(mate_1): 3, str(mate_2): 3}
    # one teammate's guess is final for the build: the other's pending proposal is stale
    late = Act(PLAYERS[mate_1], {"type": "propose", "build": team_build, "object": 4},
               table.version)
    table, _ = ok(table, Act(PLAYERS[mate_2], {"type": "guess", "build": team_build,
                                               "object": 3}, table.version))
    _, error = refused(table, late)
    assert error.code == "stale_version"
