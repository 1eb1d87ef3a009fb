"""The table's life (app/tables/core: ending.py, votes.py, room.py, presence.py) through the
actor with a fake clock: resigning in a cooperative and a competitive game, the abandon vote
(passed, refused, expired, cancelled), presence and system lines, spectators (their chat,
the all-cards option only for cooperative games and never for a seat), expiry of waiting
and empty tables, and replaying a game that ended early from its log."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from app.errors import AppError
from app.games.base import SYSTEM_SEAT
from app.tables.actor import TableActor
from app.tables.connections import Connection
from app.tables.core.commands import (
    Act,
    AddBot,
    Cast,
    Chat,
    Disconnect,
    Housekeep,
    Join,
    Leave,
    Propose,
    Resign,
    Start,
    Wake,
)
from app.tables.core.ending import replay
from app.tables.core.votes import VOTE_SECONDS
from tests.tables import support
from tests.tables.support import FakeClock, MemoryRepo, Recorder, system_codes

pytestmark = pytest.mark.asyncio
PLAYERS = "abcde"


def make(game: str, seats: int, options: dict[str, Any] | None = None,
         clock: FakeClock | None = None) -> tuple[TableActor, MemoryRepo, FakeClock]:
    return support.make(game, seats, options, clock, seed=11)


async def started(game: str, seats: int, options: dict[str, Any] | None = None
                  ) -> tuple[TableActor, MemoryRepo, FakeClock]:
    return await support.started(game, seats, options, seed=11)


async def connect(actor: TableActor, player: str | None, name: str = "") -> tuple[Connection,
                                                                                   Recorder]:
    return await support.connect(actor, player, name)


async def test_resigning_a_cooperative_game_is_a_loss_for_everyone() -> None:
    actor, repo, _ = await started("hanabi", 3)
    await actor.submit(Resign("b"))
    assert actor.table.status == "finished"
    assert repo.actions[-1][1:] == (SYSTEM_SEAT, {"type": "resign", "seat": 1}, "resign")
    outcome = actor.table.outcome
    assert outcome["winners"] == [] and outcome["scores"] == [0, 0, 0]
    assert outcome["details"]["end"] == "resigned" and outcome["details"]["seat"] == 1
    message = actor.state_message(0)
    assert message["legal_actions"] == [] and message["to_act"] == []
    assert "resigned" in system_codes(repo)
    with pytest.raises(AppError) as err:
        await actor.submit(Resign("a"))
    assert err.value.code == "not_playing"
    await actor.stop()


async def test_resigning_a_competitive_game_ranks_you_last_and_the_others_share_the_win() -> None:
    actor, repo, _ = await started("ikebana", 3)
    seat = next(iter(actor.engine.to_act(actor.state)))
    await actor.submit(Act(PLAYERS[seat], actor.engine.legal_actions(actor.state, seat)[0],
                           actor.table.version))
    scores = actor.engine.current_scores(actor.state, 3)
    await actor.submit(Resign("c"))
    outcome = actor.table.outcome
    assert outcome["ranking"] == [[0, 1], [2]] and outcome["winners"] == [0, 1]
    assert outcome["scores"] == scores
    assert repo.outcome == outcome  # stored with the finishing action
    with pytest.raises(AppError) as err:
        await actor.submit(Resign("z"))
    assert err.value.code == "forbidden"
    await actor.stop()


async def test_a_game_ended_early_replays_to_the_same_outcome_from_its_log() -> None:
    actor, repo, _ = await started("alebrijes", 3)
    for _ in range(5):
        seat = next(iter(actor.engine.to_act(actor.state)))
        await actor.submit(Act(PLAYERS[seat], actor.engine.timeout_action(actor.state, seat),
                               actor.table.version))
    await actor.submit(Resign("a"))
    again = replay(actor.engine, 3, actor.table.options, actor.table.seed,
                   [(seq, seat, action) for seq, seat, action, _ in repo.actions])
    assert again.outcome == actor.table.outcome
    await actor.stop()


async def test_the_abandon_vote_needs_an_absence_past_the_grace_and_every_present_yes() -> None:
    actor, repo, clock = await started("hanabi", 3, {"absent_grace_seconds": 60})
    conns = {p: await connect(actor, p) for p in "abc"}
    with pytest.raises(AppError) as err:
        await actor.submit(Propose("a", "abandon"))
    assert err.value.code == "nobody_absent"
    await actor.submit(Disconnect(conns["c"][0].id))
    assert actor.summary()["seats"][2]["away_for"] == 0.0
    clock.now += 59
    with pytest.raises(AppError):
        await actor.submit(Propose("a", "abandon"))
    clock.now += 1
    assert actor.summary()["seats"][2]["away_for"] == 60.0
    vote = await actor.submit(Propose("a", "abandon"))
    assert vote["voters"] == [0, 1] and vote["yes"] == [0]
    assert actor.state_message(1)["vote"]["id"] == vote["id"]
    with pytest.raises(AppError) as err:
        await actor.submit(Propose("b", "abandon"))
    assert err.value.code == "vote_open"
    with pytest.raises(AppError) as err:
        await actor.submit(Cast("c", vote["id"], True))  # the absent seat is not asked
    assert err.value.code == "forbidden"
    await actor.submit(Cast("b", vote["id"], True))
    assert actor.table.status == "finished"
    outcome = actor.table.outcome
    assert outcome["winners"] == [] and outcome["details"] == {"end": "abandoned",
                                                               "reason": "vote"}
    assert repo.actions[-1][1:] == (SYSTEM_SEAT, {"type": "abandon", "reason": "vote"}, "vote")
    codes = system_codes(repo)
    assert codes[-3:] == ["vote_proposed", "vote_passed", "abandoned"]
    assert "away" in codes
    await actor.stop()


async def test_an_abandon_vote_fails_on_a_no_expires_and_is_cancelled_by_a_return() -> None:
    actor, repo, clock = await started("ikebana", 3, {"absent_grace_seconds": 0})
    conns = {p: await connect(actor, p) for p in "abc"}
    await actor.submit(Disconnect(conns["c"][0].id))
    vote = await actor.submit(Propose("a", "abandon"))
    await actor.submit(Cast("b", vote["id"], False))
    assert actor.table.vote is None and actor.table.status == "playing"
    vote = await actor.submit(Propose("b", "abandon"))
    clock.now += VOTE_SECONDS
    await actor.submit(Wake("vote"))
    assert actor.table.vote is None and actor.table.status == "playing"
    await actor.submit(Propose("b", "abandon"))
    back, _ = await connect(actor, "c")
    assert actor.table.vote is None and actor.table.status == "playing"
    assert system_codes(repo)[-2:] == ["back", "vote_cancelled"]
    assert system_codes(repo).count("vote_failed") == 2
    with pytest.raises(AppError) as err:
        await actor.submit(Propose("a", "no_such_thing"))
    assert err.value.code == "unknown_proposal"
    await actor.stop()


async def test_alone_with_an_absent_player_your_own_yes_is_enough() -> None:
    actor, repo, _ = await started("hanabi", 2, {"absent_grace_seconds": 0})
    await connect(actor, "a")
    await actor.submit(Propose("a", "abandon"))
    assert actor.table.status == "finished"
    await actor.stop()


async def test_system_lines_for_seats_and_start_and_the_stored_chat() -> None:
    actor, repo, _ = make("hanabi", 2)
    await actor.submit(Join("b", "Beto"))
    await actor.submit(Leave("b"))
    await actor.submit(Join("b", "Beto"))
    await actor.submit(Start("a"))
    assert system_codes(repo) == ["joined", "left", "joined", "started"]
    assert repo.chat[0]["params"] == {"name": "Beto"}
    conn, sock = await connect(actor, "b")
    await actor.submit(Chat(conn.id, "<b>hola</b>"))
    assert repo.chat[-1] == {"kind": "player", "seat": 1, "player_id": "b", "name": "Beto",
                             "text": "<b>hola</b>", "code": None, "params": None}
    await asyncio.sleep(0.02)
    lines = [m for m in sock.sent if m["type"] == "chat"]
    assert lines[-1]["text"] == "<b>hola</b>" and lines[-1]["kind"] == "player"
    assert [m["code"] for m in lines if m["kind"] == "system"] == [
        "joined", "left", "joined", "started"]  # replayed to a new connection
    await actor.stop()


async def test_spectators_chat_only_if_the_host_allows_it_and_with_a_name() -> None:
    actor, repo, _ = await started("ikebana", 2, {"spectator_chat": False})
    watcher, _ = await connect(actor, "w", "Wanda")
    anonymous, _ = await connect(actor, None)
    with pytest.raises(AppError) as err:
        await actor.submit(Chat(watcher.id, "hi"))
    assert err.value.code == "spectator_chat_closed"
    assert actor.state_message(None)["chat_allowed"] is False
    assert actor.summary()["spectators"] == {"count": 2, "names": ["Wanda"]}
    other, _, _ = await started("ikebana", 2)
    watcher2, _ = await connect(other, "w", "Wanda")
    await other.submit(Chat(watcher2.id, "go!"))
    assert other.chat[-1]["kind"] == "spectator" and other.chat[-1]["name"] == "Wanda"
    anonymous2, _ = await connect(other, None)
    with pytest.raises(AppError) as err:
        await other.submit(Chat(anonymous2.id, "hi"))
    assert err.value.code == "forbidden"
    await actor.stop()
    await other.stop()


async def test_spectators_see_every_card_only_when_the_host_allows_it_and_never_a_seat() -> None:
    plain, _, _ = await started("hanabi", 3)
    shown, _, _ = await started("hanabi", 3, {"spectators_see_all": True})
    assert plain.state_message(None)["view"] == plain.engine.view(plain.state, None)
    assert all("color" not in c for hand in plain.state_message(None)["view"]["hands"]
               for c in hand)
    everything = shown.state_message(None)["view"]
    assert all("color" in c for hand in everything["hands"] for c in hand)
    assert shown.state_message(None)["spectators_see_all"] is True
    for seat in range(3):  # a seat still sees its own hand as backs
        mine = shown.state_message(seat)["view"]["hands"][seat]
        assert all("color" not in c for c in mine)
    # and spectators who see everything may not chat while the game goes on
    watcher, _ = await connect(shown, "w", "Wanda")
    with pytest.raises(AppError) as err:
        await shown.submit(Chat(watcher.id, "your 5 is red"))
    assert err.value.code == "spectator_chat_closed"
    await plain.stop()
    await shown.stop()


async def test_waiting_tables_expire_and_tables_everyone_left_are_closed() -> None:
    waiting, repo, clock = make("hanabi", 2)
    conn, _ = await connect(waiting, "a")
    clock.now += 500  # the host stays a long while: idle counts from when they leave
    assert await waiting.submit(Housekeep(60, 60)) is None
    await waiting.submit(Disconnect(conn.id))
    assert await waiting.submit(Housekeep(60, 60)) is None
    clock.now += 59
    assert await waiting.submit(Housekeep(60, 60)) is None
    clock.now += 1
    assert await waiting.submit(Housekeep(60, 60)) == "expired"
    assert waiting.table.status == "deleted" and repo.deleted

    playing, repo2, clock2 = await started("ikebana", 2)
    a, _ = await connect(playing, "a")
    watcher, _ = await connect(playing, None)  # a spectator keeps nobody's seat warm
    await playing.submit(Disconnect(a.id))
    clock2.now += 100
    assert await playing.submit(Housekeep(60, 60)) == "closed"
    assert playing.table.outcome["details"] == {"end": "abandoned", "reason": "empty"}
    assert repo2.actions[-1][1:] == (SYSTEM_SEAT, {"type": "abandon", "reason": "empty"},
                                     "empty")
    await playing.stop()


async def test_a_bot_seat_is_never_away_and_votes_are_for_the_humans() -> None:
    actor, repo, clock = make("hanabi", 3, {"bot_delay": 10_000, "absent_grace_seconds": 0})
    await actor.submit(AddBot("a", 2))
    await actor.submit(Join("b", "Beto"))
    await actor.submit(Start("a"))
    await connect(actor, "a")
    clock.now += 100
    assert actor.summary()["seats"][2]["away_for"] is None
    assert actor.summary()["seats"][1]["away_for"] == 100.0  # Beto never came
    vote = await actor.submit(Propose("a", "abandon"))
    assert actor.table.status == "finished" and vote["voters"] == [0]  # not the bot
    assert "joined" in system_codes(repo)
    await actor.stop()
