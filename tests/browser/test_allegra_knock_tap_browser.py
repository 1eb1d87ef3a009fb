"""A tap on Allegra's Knock button while another player answers. Each answer in the knock
window redraws the page, which replaced the Knock button between the press and the release:
the browser sends no click for a button that left the page, so the knock was lost and the
player, who had pressed the button, was left asking why nothing happened."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.browser.comfort import (
    LAPTOP,
    PHONE,
    act,
    connect,
    load_table,
    open_as,
    play_moves,
    run,
    seeded_table,
)
from tests.support.client import ApiClient

pytestmark = pytest.mark.browser

VERSION = "() => Number(document.getElementById('table-app').dataset.version)"


def knock_window(base: str, ws_base: str) -> tuple[list[ApiClient], str]:
    """Three players turn up two cards each; Beto draws from the deck: Ana and Celia may
    knock for 30 seconds."""
    players = [ApiClient(base, name) for name in ["Ana", "Beto", "Celia"]]
    table_id = seeded_table(players, "allegra", 5, {"rounds": 1, "knock": True,
                                                    "knock_seconds": 30, "first_seat": 1})
    reveals = [(seat, {"type": "reveal", "pos": pos}) for seat in range(3) for pos in (1, 2)]
    play_moves(ws_base, players, table_id, [*reveals, (1, {"type": "draw"})])
    return players, table_id


async def answer(ws_base: str, player: ApiClient, table_id: str, action: dict) -> None:
    [client] = await connect(ws_base, [player], table_id)
    try:
        await act(client, action)
    finally:
        await client.close()


async def state_of(ws_base: str, player: ApiClient, table_id: str) -> dict[str, Any]:
    [client] = await connect(ws_base, [player], table_id)
    try:
        return client.state
    finally:
        await client.close()


@pytest.mark.parametrize(("how", "viewport", "lang"), [
    ("mouse", LAPTOP, "en"), ("mouse", PHONE, "es"), ("space", LAPTOP, "en"),
    ("touch", PHONE, "es")])
def test_a_knock_pressed_while_another_player_answers_is_not_lost(
        worker_server, browser, how: str, viewport: dict, lang: str) -> None:
    players, table_id = knock_window(worker_server.url, worker_server.ws_url)
    context = open_as(browser, worker_server.url, players[0], viewport, lang)
    try:
        page = context.new_page()
        sent: list[dict] = []
        page.on("websocket", lambda ws: ws.on("framesent", lambda frame: sent.append(
            json.loads(frame) if isinstance(frame, str) else {})))
        load_table(page, worker_server.url, table_id)
        knock = page.wait_for_selector("button[data-action=knock]")
        version = page.evaluate(VERSION)
        box = knock.bounding_box()
        x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        if how == "mouse":
            page.mouse.move(x, y)
            page.mouse.down()
        elif how == "touch":
            # a finger: its tap is aimed when it ends, and must act once, not twice
            cdp = context.new_cdp_session(page)
            cdp.send("Input.dispatchTouchEvent",
                     {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
        else:
            knock.focus()
            page.keyboard.down(" ")
        # Celia lets the card go: Ana's page is drawn again, Knock included
        run(answer(worker_server.ws_url, players[2], table_id, {"type": "no_knock"}))
        page.wait_for_function(f"() => ({VERSION})() > {version}")
        assert not knock.evaluate("b => b.isConnected"), "the redraw kept the button"
        assert page.query_selector("button[data-action=knock]") is not None
        page.screenshot(path=f"/tmp/al-knock/knock-{how}-{lang}.png")
        if how == "mouse":
            page.mouse.up()
        elif how == "touch":
            cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
        else:
            page.keyboard.up(" ")
        # the knock reached the table: Beto now chooses whether to give Ana the card
        page.wait_for_function("() => !document.querySelector('button[data-action=knock]')",
                               timeout=5_000)
        state = run(state_of(worker_server.ws_url, players[1], table_id))
        assert state["view"]["phase"] == "accept", state["view"]["phase"]
        assert state["view"]["knock"]["knocked"] == [0], state["view"]["knock"]
        assert {"type": "accept", "knocker": 0} in state["legal_actions"]
        # one knock sent, not two (a finger's tap already lands on the new button)
        page.wait_for_timeout(500)
        knocks = [m for m in sent if m.get("type") == "action"
                  and m["action"].get("type") == "knock"]
        assert len(knocks) == 1, knocks
    finally:
        context.close()
