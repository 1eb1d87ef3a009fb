"""Bots in seats, as the table actor runs them: seated by the host before the start (or in
the host's own seat), moving after the table's bot delay through the same checks and log as
a player, marked as a bot's moves; a crashing bot falls back to the game's timeout move."""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

import pytest

from app.errors import AppError
from app.games import ENGINES
from app.games.base import SYSTEM_SEAT, Rng
from app.tables import engine as engine_module
from app.tables.core.commands import Act, AddBot, Disconnect, Join, Propose, RemoveBot, Start
from app.tables.core.play import autopilot_from
from tests.tables.support import MemoryRepo, make


def make_actor(repo: MemoryRepo, options: dict | None = None, game: str = "hanabi",
               seats: int = 2) -> Any:
    return make(game, seats, options, clock=time.monotonic, repo=repo)[0]


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
    monkeypatch.setattr(engine_module, "bot_for",
                        lambda game, all_bots=False: fake if game == "hanabi" else None)
    return fake


async def until_finished(actor: Any, timeout: float = 20) -> None:
    async def wait() -> None:
        while actor.table.status != "finished":
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
    assert actor.table.seats == ("a", None)
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
    assert actor.seat_of("a") is None and actor.table.host_id == "a"
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
    version = actor.table.version
    await asyncio.sleep(0.1)
    assert actor.table.version == version  # still thinking
    await asyncio.sleep(0.4)
    assert actor.table.version == version + 1
    await actor.stop()


async def test_a_crashing_bot_plays_the_timeout_move_and_never_stalls(
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    monkeypatch.setattr(engine_module, "bot_for", lambda game, all_bots=False: Crashing())
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
    actor = make_actor(MemoryRepo(), game="block-and-guess", seats=3)
    with pytest.raises(AppError) as err:
        await actor.submit(AddBot("a", 1))
    assert err.value.code == "no_bot"
    await actor.stop()


async def test_an_absent_players_seat_goes_to_a_bot_by_vote_and_back_at_once(
        bot: FirstLegal) -> None:
    """Disconnect, grace, the others vote, the bot plays the seat (its moves marked as the
    bot's), the player reconnects and has the seat again before anything else happens."""
    from tests.tables.support import connect, system_codes

    actor, repo, clock = make("hanabi", 2, {"bot_delay": 0, "absent_grace_seconds": 30},
                              seed=11)
    await actor.submit(Join("b", "Beto"))
    await actor.submit(Start("a"))
    conn_a, _ = await connect(actor, "a")
    conn_b, _ = await connect(actor, "b")
    await actor.submit(Disconnect(conn_b.id))
    with pytest.raises(AppError) as err:  # not away long enough yet
        await actor.submit(Propose("a", "bot", 1))
    assert err.value.code == "not_absent"
    clock.now += 31
    vote = await actor.submit(Propose("a", "bot", 1))
    assert vote["voters"] == [0]  # the seats still here vote; Ana's yes passes it
    assert actor.table.autopilot == {1} and actor.summary()["seats"][1]["autopilot"] is True
    assert repo.actions[-1][1:] == (SYSTEM_SEAT, {"type": "autopilot", "seat": 1, "on": True},
                                    "vote")
    # Ana plays her turns; the bot answers Beto's
    for _ in range(4):
        if actor.table.status != "playing":
            break
        if actor.state.turn == 0:
            move = actor.engine.legal_actions(actor.state, 0)[-1]
            await actor.submit(Act("a", move, actor.table.version))
        else:
            async def moved(before: int = actor.table.version) -> None:
                while actor.table.version == before:
                    await asyncio.sleep(0.005)
            await asyncio.wait_for(moved(), 5)
    bot_moves = [a for a in repo.actions if a[3] == "bot"]
    assert bot_moves and all(a[1] == 1 for a in bot_moves)
    # Beto comes back: the seat is his again at once, and the bot stops
    await connect(actor, "b")
    assert actor.table.autopilot == set()
    assert repo.actions[-1][1:] == (SYSTEM_SEAT, {"type": "autopilot", "seat": 1, "on": False},
                                    "back")
    assert {"bot_plays", "seat_returned"} <= set(system_codes(repo))
    if actor.table.status == "playing" and actor.state.turn == 1:
        version = actor.table.version
        await asyncio.sleep(0.1)
        assert actor.table.version == version  # waits for Beto now
        move = actor.engine.legal_actions(actor.state, 1)[-1]
        await actor.submit(Act("b", move, actor.table.version))
    # after a restart, the log says who played which seat
    assert autopilot_from(actor.table.history) == set()
    assert autopilot_from(step for step in actor.table.history if not any(
        e.type == "autopilot" and not e.data["on"] for e in step.events)) == {1}
    await actor.stop()


async def test_no_bot_for_a_seat_that_is_here_or_already_a_bot(bot: FirstLegal) -> None:
    from tests.tables.support import connect

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
