"""What the multi-process tests share: reconnecting a socket, and calm random play."""

from __future__ import annotations

import asyncio
import random
import time

from websockets.exceptions import ConnectionClosed, InvalidStatus

from tests.support.client import SeatClient


async def reconnect(client: SeatClient, urls: list[str], deadline: float) -> None:
    """Open the socket again through any of ``urls`` until a state arrives."""
    table_path = client.url.split("/ws/", 1)[1]
    while True:
        for base in urls:
            client.url = f"{base}/ws/{table_path}"
            try:
                await client.open()
                return
            except (OSError, InvalidStatus, ConnectionClosed, TimeoutError):
                pass
        if time.monotonic() > deadline:
            raise AssertionError("could not reconnect to the table")
        await asyncio.sleep(0.2)


async def play_some(clients: list[SeatClient], rng: random.Random, moves: int,
                     seen: set[int]) -> None:
    """Random moves that rarely end the game (Hanabi: plays only when nothing else is legal)."""
    for _ in range(moves):
        state = max((c.state for c in clients), key=lambda s: s["version"])
        if state["table"]["status"] == "finished":
            return
        mover = next(c for c in clients if c.my_turn() and c.state["version"] == state["version"])
        legal = mover.state["legal_actions"]
        calm = [x for x in legal if x["type"] != "play"] or legal
        await mover.act_until_accepted(rng.choice(calm))
        for c in clients:
            await c.wait_version(state["version"] + 1)
        seen.add(state["version"] + 1)
