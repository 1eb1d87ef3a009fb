"""app/tasks.py: a spawned task is held until it ends, and its failure is logged by us at the
level asked for, never left for asyncio to report as an unretrieved exception."""

from __future__ import annotations

import asyncio
import gc
import logging

import pytest

from app.tasks import running, spawn

pytestmark = pytest.mark.asyncio


async def test_a_failing_task_is_logged_at_its_level_and_not_reported_by_asyncio(
        caplog: pytest.LogCaptureFixture) -> None:
    loop = asyncio.get_running_loop()
    reported: list[dict] = []
    loop.set_exception_handler(lambda _loop, context: reported.append(context))
    gate = asyncio.Event()

    async def fails(n: int) -> None:
        await gate.wait()
        raise RuntimeError(f"boom {n}")

    try:
        with caplog.at_level(logging.DEBUG, logger="app.tasks"):
            before = running()
            for n in range(3):
                spawn(fails(n), f"job {n}", logging.INFO if n else logging.DEBUG)
            gc.collect()  # nobody else holds the tasks: they must still run
            assert running() == before + 3
            gate.set()
            for _ in range(3):
                await asyncio.sleep(0)
            gc.collect()
            await asyncio.sleep(0)
    finally:
        loop.set_exception_handler(None)
    assert running() == before and reported == []
    got = sorted((r.levelno, r.getMessage(), str(r.exc_info[1]))
                 for r in caplog.records if r.name == "app.tasks")
    assert got == [(logging.DEBUG, "job 0 failed", "boom 0"),
                   (logging.INFO, "job 1 failed", "boom 1"),
                   (logging.INFO, "job 2 failed", "boom 2")]


async def test_a_task_that_ends_well_logs_nothing(caplog: pytest.LogCaptureFixture) -> None:
    async def fine() -> int:
        return 7

    with caplog.at_level(logging.DEBUG, logger="app.tasks"):
        task = spawn(fine(), "fine job")
        assert await task == 7
    assert [r for r in caplog.records if r.name == "app.tasks"] == []
