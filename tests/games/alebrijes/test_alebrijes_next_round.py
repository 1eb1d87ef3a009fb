"""Who starts the next round (RULES.md §3): the worst total; on a tie the start token
decides — its holder, the leader of the round's last trick, if tied, else the tied player
nearest after the holder in turn order. The engine and the rules page say the same."""

from __future__ import annotations

import random
from pathlib import Path

import httpx
import pytest

from app.games.alebrijes import ENGINE
from app.games.base import event_for
from app.tables.engine import apply_any

ROOT = Path(__file__).resolve().parents[3]


def starter_by_the_page(totals: list[int], holder: int) -> int:
    """The page's sentence, written out: the holder if tied for the worst, else the tied
    player nearest after the holder in turn order."""
    worst = min(totals)
    tied = [s for s, t in enumerate(totals) if t == worst]
    if holder in tied:
        return holder
    return min(tied, key=lambda s: (s - holder) % len(totals))


def test_every_next_round_starts_as_the_page_says() -> None:
    ties = rounds = 0
    for seed in range(40):
        seats = 3 + seed % 4
        chooser = random.Random(seed)
        state = ENGINE.setup(seats, {}, seed)
        while ENGINE.outcome(state) is None:
            seat = chooser.choice(sorted(ENGINE.to_act(state)))
            action = chooser.choice(ENGINE.legal_actions(state, seat))
            holder = state.leader  # the leader of the trick being played
            after, events = apply_any(ENGINE, state, seat, action)
            started = [e for e in event_for(events, None) if e["type"] == "round_started"]
            if started:
                rounds += 1
                totals = list(after.totals)
                ties += totals.count(min(totals)) > 1
                assert started[0]["starter"] == starter_by_the_page(totals, holder), (
                    seed, totals, holder)
            state = after
    assert rounds >= 60 and ties >= 3, (rounds, ties)


@pytest.mark.parametrize(("lang", "words"), [
    ("es", ["empate", "ficha inicial", "quien la tiene", "última baza", "más cercano después"]),
    ("en", ["tie", "start token", "holder", "led the last trick", "nearest after the holder"]),
])
def test_the_rules_page_says_the_token_holder_breaks_the_tie(shared_server, lang: str,
                                                             words: list[str]) -> None:
    page = httpx.get(f"{shared_server.url}/rules/alebrijes", timeout=10,
                     headers={"Accept-Language": lang}, follow_redirects=True)
    assert page.status_code == 200
    html = page.text.replace("&#39;", "'").replace("&#x27;", "'")
    for word in words:
        assert word in html, word
