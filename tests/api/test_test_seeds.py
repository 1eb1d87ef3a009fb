"""The test-only seed hook (issue 20): with ``LUDOTECA_TEST_SEEDS`` on (tests/support/server.py
turns it on) a new table takes the seed in the ``X-Ludoteca-Test-Seed`` header, so a test can
pin a deal (Block and Guess's construction card); off (the default, every real server) the
header is ignored."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import pytest

from app.api.deps import TEST_SEED_HEADER, requested_seed
from app.config import Settings
from app.errors import AppError
from app.games import ENGINES
from tests.support.client import ApiClient, SeatClient
from tests.support.server import LiveServer

ENGINE = ENGINES["block-and-guess"]


def test_the_setting_is_off_by_default_and_then_the_header_is_ignored() -> None:
    assert Settings().test_seeds is False
    assert requested_seed({TEST_SEED_HEADER: "42"}, Settings(test_seeds=False)) is None
    assert requested_seed({TEST_SEED_HEADER: "not a number"}, Settings()) is None
    on = Settings(test_seeds=True)
    assert requested_seed({TEST_SEED_HEADER: "42"}, on) == 42
    assert requested_seed({}, on) is None
    for bad in ("-1", "4.5", "1e3", "x", "", str(2**63), "٣"):
        with pytest.raises(AppError) as err:
            requested_seed({TEST_SEED_HEADER: bad}, on)
        assert err.value.code == "bad_seed" and err.value.status == 422


def first_deal(base: str, ws_base: str, seed: int | None) -> tuple[Any, ...]:
    """Create a 3-seat Block and Guess table (asking for ``seed``), start it and read round
    1's clue card, construction card and the builders' targets from a builder's view."""
    players = [ApiClient(base, f"S{i}") for i in range(3)]
    headers = {**players[0].headers, TEST_SEED_HEADER: str(seed)} if seed is not None \
        else players[0].headers
    r = httpx.post(f"{base}/api/tables", headers=headers, timeout=10,
                   json={"game": "block-and-guess", "seats": 3, "options": {"first_seat": 0}})
    assert r.status_code == 201, r.text
    table = r.json()
    invite = table["invite_url"].rsplit("/", 1)[1]
    for p in players[1:]:
        assert p.join(table["id"], invite=invite).status_code == 200
    assert players[0].start(table["id"]).status_code == 200

    async def read() -> dict[str, Any]:
        async with SeatClient(ws_base, table["id"], players[0].token) as client:
            await client.wait_status("playing")
            return client.state["view"]

    view = asyncio.run(read())
    return (view["clue"]["id"], view["construction"]["card"],
            tuple(b["target"] for b in view["builds"]))


def expected_deal(seed: int) -> tuple[Any, ...]:
    state = ENGINE.setup(3, {"first_seat": 0}, seed)
    return state["clue"], state["card"], tuple(b["target"] for b in state["builds"])


def test_a_test_server_pins_the_seed(shared_server) -> None:
    for seed in (5, 123456789):
        assert first_deal(shared_server.url, shared_server.ws_url, seed) == expected_deal(seed)
    r = httpx.post(f"{shared_server.url}/api/tables", timeout=10,
                   headers={**ApiClient(shared_server.url, "Bad").headers,
                            TEST_SEED_HEADER: "-3"},
                   json={"game": "block-and-guess", "seats": 3})
    assert r.status_code == 422 and r.json()["code"] == "bad_seed"


def test_a_server_without_the_setting_ignores_the_header(tmp_path) -> None:
    live = LiveServer(f"sqlite+aiosqlite:///{tmp_path / 'off.db'}", tmp_path / "data",
                      env={"LUDOTECA_TEST_SEEDS": "0"})
    live.start()
    try:
        wanted = expected_deal(77)
        deals = [first_deal(live.url, live.ws_url, 77) for _ in range(4)]
    finally:
        live.stop()
    # each table drew its own random seed: four deals all equal to seed 77's would take
    # odds of about one in 10**13 (36 clue cards x 11 construction cards x 49 targets)
    assert any(deal != wanted for deal in deals)
    assert len(set(deals)) > 1
