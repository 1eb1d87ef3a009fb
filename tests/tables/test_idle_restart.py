"""A restart does not give a table nobody comes to a fresh idle time (app/tables/registry.py
``_note_idle``): a graceful stop notes how long nobody had been at each live table, the
restart counts on from there (the downtime is charged to nobody) and clears the note, so a
crash later (which notes nothing) counts from the restart, as before. A table someone was
at when the server stopped starts idle from the restart: its people reconnect."""

from __future__ import annotations

import time

import pytest

from app.tables.core.commands import Join, Start
from app.tables.core.state import TableStatus
from tests.tables.support import close_registry, connect, open_registry

pytestmark = pytest.mark.asyncio

AWAY = 1000.0  # seconds nobody has been at the idle tables when the server stops


def _later(seconds: float):
    return lambda: time.monotonic() + seconds


async def test_the_idle_time_before_a_stop_counts_after_the_restart(tmp_path) -> None:
    repo, registry = await open_registry(tmp_path)
    for p in ("p0", "p1", "p2"):
        await repo.create_player(p, p.upper(), f"tok-{p}")
    waiting = await registry.create("p0", "P0", "hanabi", 2, {}, False)
    playing = await registry.create("p1", "P1", "ikebana", 2, {}, False)
    await playing.submit(Join("p2", "P2"))
    await playing.submit(Start("p1"))
    watched = await registry.create("p2", "P2", "allegra", 3, {}, False)
    await connect(watched, "p2", "P2")  # its host waits at it when the server stops
    for actor in (waiting, playing, watched):
        actor._clock = _later(AWAY)  # nobody has been at the first two for AWAY seconds
    assert waiting.idle_for() >= AWAY and watched.table.presence.busy
    ids = {"waiting": waiting.table.id, "playing": playing.table.id,
           "watched": watched.table.id}

    await close_registry(repo, registry)
    repo, registry = await open_registry(tmp_path)
    idle = {name: registry.actors[i].idle_for() for name, i in ids.items()}
    assert AWAY <= idle["waiting"] < AWAY + 60 and AWAY <= idle["playing"] < AWAY + 60
    assert idle["watched"] < 60  # someone was there: they come back to it
    for i in ids.values():  # read back once, then cleared
        assert (await repo.table(i)).idle_seconds is None

    # the janitor goes on from there: the two tables nobody came to go, the other stays
    assert await registry.housekeep(AWAY - 1, AWAY - 1) == {"expired": 1, "closed": 1}
    assert (await repo.table(ids["waiting"])) is None or \
        (await repo.table(ids["waiting"])).status == "deleted"
    assert (await repo.table(ids["playing"])).status == "finished"
    assert registry.actors[ids["watched"]].table.status is TableStatus.WAITING

    # a crash notes nothing: the table left counts from the restart after it
    registry.actors[ids["watched"]]._clock = _later(AWAY)
    for actor in list(registry.actors.values()):
        await actor.stop()
    await repo.close()
    await repo.engine.dispose()
    repo, registry = await open_registry(tmp_path)
    assert registry.actors[ids["watched"]].idle_for() < 60
    await close_registry(repo, registry)
