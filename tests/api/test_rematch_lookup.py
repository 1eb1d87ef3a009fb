"""Which answers about a table's rematch let a second rematch be made: only "it is gone"."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from app.api.life import _live_rematch
from app.errors import AppError, not_found


class _Registry:
    def __init__(self, error: AppError | None, actor: Any = None) -> None:
        self.error = error
        self.actor = actor

    async def get(self, table_id: str) -> Any:
        if self.error is not None:
            raise self.error
        return self.actor


def _old(rematch: tuple[str, str] | None) -> Any:
    return SimpleNamespace(table=SimpleNamespace(rematch=rematch))


async def test_no_rematch_yet() -> None:
    assert await _live_rematch(_Registry(None), _old(None)) is None  # type: ignore[arg-type]


async def test_a_deleted_rematch_may_be_made_again() -> None:
    registry = _Registry(not_found())
    assert await _live_rematch(registry, _old(("t2", "inv"))) is None  # type: ignore[arg-type]


async def test_a_live_rematch_is_joined() -> None:
    live = object()
    registry = _Registry(None, live)
    assert await _live_rematch(registry, _old(("t2", "inv"))) is live  # type: ignore[arg-type]


async def test_a_moving_rematch_is_an_error_not_a_twin() -> None:
    moving = AppError("table_moving", "being taken over", 503)
    with pytest.raises(AppError) as caught:
        await _live_rematch(_Registry(moving), _old(("t2", "inv")))  # type: ignore[arg-type]
    assert caught.value.code == "table_moving"
