"""Bots in seats, as the table actor runs them: seated by the host before the start (or in
the host's own seat), moving after the table's bot delay through the same checks and log as
a player, marked as a bot's moves; a crashing bot falls back to the game's timeout move."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import pytest

from app.errors import AppError
from app.games import ENGINES
from app.games.base import SYSTEM_SEAT, Rng
from app.tables import actor as actor_module
from app.tables import votes as votes_module
from app.tables.actor import Act, AddBot, Disconnect, Join, RemoveBot, Start
from app.tables.life import Propose
from tests.tables.test_actor import MemoryRepo, make_actor


class FirstLegal:
    """A stand-in bot: the last legal action (concrete for Hanabi), and what it was shown."""

    game = "hanabi"

    def __init__(self) -> None:
        self.calls: list[tuple[dict, list, list]] = []

    def choose(self, view: dict, legal: list, history: list, rng: Rng) -> dict:
        self.calls.append((view, legal, history))
        return legal[-1]


class Crashing:
    game = "hanabi"

    def choose(self, view: dict, legal: list, history: list, rng: Rng) -> dict:
        raise RuntimeError("bot bug")


@pytest.fixture
def bot(monkeypatch: pytest.MonkeyPatch) -> FirstLegal:
    fake = FirstLegal()
    for module in (actor_module, votes_module):
        monkeypatch.setattr(module, "bot_for",
                            lambda game, all_bots=False: fake if game == "hanabi" else None)
    return fake


async def until_finished(actor: Any, timeout: float = 20) -> None:
    async def wait() -> None:
        while actor.info.status != "finished":
            await asyncio.sleep(0.01)
    await asyncio.wait_for(wait(), timeout)


async def test_the_host_seats_and_removes_bots_before_the_start(bot: FirstLegal) -> None:
    actor = make_actor(MemoryRepo(), {"bot_delay": 0})
    with pytest.raises(AppError) as err:
        await actor.submit(AddBot("b", 1))
    assert err.value.code == "forbidden"  # only the host
    assert await actor.submit(AddBot("a", 1)) == 1
    seat = actor.summary()["seats"][1]
    assert seat["player"]["bot"] is True and seat["player"]["name"] == "Bot 1"
    assert seat["connected"] is True
    with pytest.raises(AppError) as err:
        await actor.submit(Join("b", "Beto", seat=1))
    assert err.value.code == "seat_taken"
    await actor.submit(RemoveBot("a", 1))
    assert actor.info.seats == ["a", None]
    with pytest.raises(AppError) as err:
        await actor.submit(RemoveBot("a", 0))
    assert err.value.code == "not_a_bot"  # a person's seat is not the host's to empty
    await actor.submit(Join("b", "Beto"))
    with pytest.raises(AppError) as err:
        await actor.submit(AddBot("a", 1))
    assert err.value.code == "seat_taken"
    await actor.submit(Start("a"))
    with pytest.raises(AppError) as err:
        await actor.submit(AddBot("a", 0))
    assert err.value.code == "game_started"
    await actor.stop()


async def test_an_all_bot_table_plays_itself_to_the_end(bot: FirstLegal) -> None:
    repo = MemoryRepo()
    actor = make_actor(repo, {"bot_delay": 0})
    await actor.submit(AddBot("a", 1))
    await actor.submit(AddBot("a", 0))  # the host gives their own seat and watches
    assert actor.seat_of("a") is None and actor.info.host_id == "a"
    assert [p["name"] for p in (s["player"] for s in actor.summary()["seats"])] == [
        "Bot 2", "Bot 1"]
    await actor.submit(Start("a"))  # still the host, though not seated
    await until_finished(actor)
    assert repo.actions and all(source == "bot" for *_, source in repo.actions)
    # each decision saw its own seat's view and history only
    for view, legal, history in bot.calls:
        me = view["me"]
        assert all("color" not in card for card in view["hands"][me])
        assert legal and all(isinstance(h["events"], list) for h in history)
    await actor.stop()


async def test_a_bot_waits_for_the_table_delay(bot: FirstLegal) -> None:
    actor = make_actor(MemoryRepo(), {"bot_delay": 300})
    await actor.submit(AddBot("a", 1))
    await actor.submit(AddBot("a", 0))
    await actor.submit(Start("a"))
    version = actor.info.version
    await asyncio.sleep(0.1)
    assert actor.info.version == version  # still thinking
    await asyncio.sleep(0.4)
    assert actor.info.version == version + 1
    await actor.stop()


async def test_a_crashing_bot_plays_the_timeout_move_and_never_stalls(
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    monkeypatch.setattr(actor_module, "bot_for", lambda game, all_bots=False: Crashing())
    repo = MemoryRepo()
    actor = make_actor(repo, {"bot_delay": 0})
    await actor.submit(AddBot("a", 1))
    await actor.submit(AddBot("a", 0))
    with caplog.at_level(logging.ERROR):
        await actor.submit(Start("a"))
        await until_finished(actor)
    assert "bot crashed" in caplog.text
    engine = ENGINES["hanabi"]
    state = engine.setup(2, {o.name: o.default for o in engine.options}, 42)
    first = repo.actions[0]
    assert first[2] == engine.timeout_action(state, first[1])  # the fallback move
    await actor.stop()


async def test_a_game_without_a_bot_says_so(bot: FirstLegal) -> None:
    actor = make_actor(MemoryRepo(), game="block-and-guess")
    with pytest.raises(AppError) as err:
        await actor.submit(AddBot("a", 1))
    assert err.value.code == "no_bot"
    await actor.stop()


async def test_an_absent_players_seat_goes_to_a_bot_by_vote_and_back_at_once(
        bot: FirstLegal) -> None:
    """Disconnect, grace, the others vote, the bot plays the seat (its moves marked as the
    bot's), the player reconnects and has the seat again before anything else happens."""
    from tests.tables.test_life import connect, make, system_codes

    actor, repo, clock = make("hanabi", 2, {"bot_delay": 0, "absent_grace_seconds": 30})
    await actor.submit(Join("b", "Beto"))
    await actor.submit(Start("a"))
    conn_a, _ = await connect(actor, "a")
    conn_b, _ = await connect(actor, "b")
    await actor.submit(Disconnect(conn_b))
    with pytest.raises(AppError) as err:  # not away long enough yet
        await actor.submit(Propose("a", "bot", 1))
    assert err.value.code == "not_absent"
    clock.now += 31
    vote = await actor.submit(Propose("a", "bot", 1))
    assert vote["voters"] == [0]  # the seats still here vote; Ana's yes passes it
    assert actor.autopilot == {1} and actor.summary()["seats"][1]["autopilot"] is True
    assert repo.actions[-1][1:] == (SYSTEM_SEAT, {"type": "autopilot", "seat": 1, "on": True},
                                    "vote")
    # Ana plays her turns; the bot answers Beto's
    for _ in range(4):
        if actor.info.status != "playing":
            break
        if actor.state.turn == 0:
            move = actor.engine.legal_actions(actor.state, 0)[-1]
            await actor.submit(Act("a", move, actor.info.version))
        else:
            async def moved(before: int = actor.info.version) -> None:
                while actor.info.version == before:
                    await asyncio.sleep(0.005)
            await asyncio.wait_for(moved(), 5)
    bot_moves = [a for a in repo.actions if a[3] == "bot"]
    assert bot_moves and all(a[1] == 1 for a in bot_moves)
    # Beto comes back: the seat is his again at once, and the bot stops
    await connect(actor, "b")
    assert actor.autopilot == set()
    assert repo.actions[-1][1:] == (SYSTEM_SEAT, {"type": "autopilot", "seat": 1, "on": False},
                                    "back")
    assert {"bot_plays", "seat_returned"} <= set(system_codes(repo))
    if actor.info.status == "playing" and actor.state.turn == 1:
        version = actor.info.version
        await asyncio.sleep(0.1)
        assert actor.info.version == version  # waits for Beto now
        move = actor.engine.legal_actions(actor.state, 1)[-1]
        await actor.submit(Act("b", move, actor.info.version))
    # after a restart, the log says who played which seat
    from app.tables.actor import TableActor
    rebuilt = TableActor(actor.info, actor.engine, repo, actor.state, actor.history)
    assert rebuilt.autopilot == set()
    on_only = TableActor(actor.info, actor.engine, repo, actor.state,
                         [h for h in actor.history if not any(
                             getattr(e, "type", "") == "autopilot" and not e.data["on"]
                             for e in h[1])])
    assert on_only.autopilot == {1}
    await actor.stop()


async def test_no_bot_for_a_seat_that_is_here_or_already_a_bot(bot: FirstLegal) -> None:
    from tests.tables.test_life import connect, make

    actor, _, clock = make("hanabi", 2, {"bot_delay": 0, "absent_grace_seconds": 0})
    await actor.submit(AddBot("a", 1))
    await actor.submit(Start("a"))
    await connect(actor, "a")
    clock.now += 5
    with pytest.raises(AppError) as err:
        await actor.submit(Propose("a", "bot", 1))
    assert err.value.code == "already_bot"
    with pytest.raises(AppError) as err:
        await actor.submit(Propose("a", "bot", None))
    assert err.value.code == "bad_seat"
    await actor.stop()
