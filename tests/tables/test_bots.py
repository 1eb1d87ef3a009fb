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
from app.games.base import Rng
from app.tables import actor as actor_module
from app.tables.actor import AddBot, Join, RemoveBot, Start
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
    monkeypatch.setattr(actor_module, "bot_for", lambda game: fake if game == "hanabi" else None)
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
    monkeypatch.setattr(actor_module, "bot_for", lambda game: Crashing())
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
