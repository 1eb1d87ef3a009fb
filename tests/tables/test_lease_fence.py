"""The lease fence around a table actor's repository (app/tables/cluster.py ``LeaseFence``):
its write methods are made once and kept, and every call still asks the lease afresh."""

from __future__ import annotations

from typing import Any

import pytest

from app.db.repository import StaleOwner
from app.tables.cluster import LeaseFence

pytestmark = pytest.mark.asyncio


class Repo:
    def __init__(self) -> None:
        self.calls: list[tuple[Any, ...]] = []
        self.hosted: Any = "first"

    async def append_action(self, *args: Any) -> str:
        self.calls.append(args)
        return "stored"


class Lease:
    def __init__(self) -> None:
        self.fresh = True
        self.asked = 0

    def may_write(self, table_id: str) -> bool:
        self.asked += 1
        return self.fresh


async def test_a_kept_write_asks_the_lease_on_every_call() -> None:
    repo, lease = Repo(), Lease()
    fence = LeaseFence(repo, lease, "t1")  # type: ignore[arg-type]
    assert await fence.append_action("t1", 4) == "stored"
    assert await fence.append_action("t1", 5) == "stored"
    assert fence.append_action is fence.append_action  # made once, kept
    assert lease.asked == 2
    lease.fresh = False
    with pytest.raises(StaleOwner):
        await fence.append_action("t1", 6)
    assert lease.asked == 3
    assert repo.calls == [("t1", 4), ("t1", 5)]  # the refused write never reached it
    lease.fresh = True
    assert await fence.append_action("t1", 6) == "stored"


async def test_what_is_not_a_write_is_read_through_each_time() -> None:
    repo = Repo()
    fence = LeaseFence(repo, Lease(), "t1")  # type: ignore[arg-type]
    assert fence.hosted == "first"
    repo.hosted = "second"
    assert fence.hosted == "second"
