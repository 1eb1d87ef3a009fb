"""Block and Guess with 3 players, in Chromium: each plays alone, and the one guesser answers
both builds. While they think, a builder's page said "Waiting for Cleo to guess" twice, in
two identical boxes (one per build); it says it once."""

from __future__ import annotations

import pytest

from tests.browser.bg_pages import LAPTOP, PHONE, open_seat, pinned_table
from tests.browser.comfort import act, connect, run, settle

pytestmark = pytest.mark.browser


def test_the_builders_wait_for_the_one_guesser_once(worker_server, browser) -> None:
    players, table_id = pinned_table(worker_server.url, 3, 5, ["Ana", "Beto", "Cleo"])

    async def to_guessing() -> dict:
        """Drafts and builds through the API (the server's own legal moves) until Cleo,
        the round's only guesser, must answer."""
        clients = await connect(worker_server.ws_url, players, table_id)
        try:
            while True:
                state = await settle(clients)
                if state["view"]["phase"] == "guess":
                    return state
                mover = next(c for c in clients if c.state["seat"] in c.state["to_act"]
                             and c.state["legal_actions"])
                await act(mover, mover.state["legal_actions"][0])
        finally:
            for c in clients:
                await c.close()

    state = run(to_guessing())
    builds = [b for b in state["view"]["builds"] if b["in_play"]]
    assert len(builds) == 2 and all(b["guessers"] == [2] for b in builds)
    for seat, viewport, lang, words in ((0, PHONE, "es", "Cleo"), (1, LAPTOP, "en", "Cleo")):
        page = open_seat(browser, worker_server.url, players[seat], table_id, viewport, lang)
        notes = page.locator("#game .bg-waiting").all_inner_texts()
        assert len(notes) == 1 and words in notes[0], notes
        assert not page.errors, page.errors
        page.context.close()
