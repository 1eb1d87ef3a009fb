"""Nobody learns anything about another seat's pick before the reveal (RULES.md §4)."""

from __future__ import annotations

import json
from typing import Any

from app.games.ajolocracia import ENGINE
from app.games.base import event_for
from tests.games.ajolocracia.test_rules import build, card

OBSERVERS: list[int | None] = [None, 1, 2]


def three_seats() -> Any:
    # seat 0 alone holds the mexicanum and the value; it has an INE in front of it
    return build([["mexicanum", "value", "institution", "isopods_algae"],
                  ["citizenship_1", "citizenship_2", "citizenship_3", "institution"],
                  ["beetles_annelids", "beetles_annelids", "rosaceum", "institution"]],
                 tableau=[["ine"], [], []])


def others_see(state: Any) -> list[Any]:
    return [ENGINE.view(state, seat) for seat in OBSERVERS]


def test_others_cannot_tell_which_card_or_how_many_cards_were_picked() -> None:
    state = three_seats()
    m, v, i = (card(state, 0, k) for k in ("mexicanum", "value", "institution"))
    choices = [{"type": "pick", "card": m}, {"type": "pick", "card": v},
               {"type": "pick", "card": m, "second": v},
               {"type": "pick", "card": i, "second": m}]
    seen = []
    for action in choices:
        after, events = ENGINE.apply(state, 0, action)
        seen.append((others_see(after),
                     [event_for(events, seat) for seat in OBSERVERS]))
        mine = ENGINE.view(after, 0)
        assert sorted(mine["my_pick"]) == sorted(c for k, c in action.items() if k != "type")
        assert event_for(events, 0)[0]["cards"]  # the picker sees its own cards
    assert all(s == seen[0] for s in seen)
    views, events = seen[0]
    assert events == [[{"type": "picked", "seat": 0}]] * 3
    for view in views:
        assert view["players"][0]["picked"] is True
        assert view["players"][0]["hand_size"] == 4  # picked cards still count as held
        assert view["waiting_for"] == [1, 2]


def test_picked_cards_stay_out_of_other_views_until_the_reveal() -> None:
    state = three_seats()
    for seat in OBSERVERS:
        text = json.dumps(ENGINE.view(state, seat))
        assert "mexicanum" not in text and '"value"' not in text
    state, _ = ENGINE.apply(state, 0, {"type": "pick", "card": card(state, 0, "mexicanum")})
    state, _ = ENGINE.apply(state, 1, {"type": "pick", "card": card(state, 1, "institution")})
    state, _ = ENGINE.apply(state, 1, {"type": "unpick"})
    state, _ = ENGINE.apply(state, 1, {"type": "pick", "card": card(state, 1, "citizenship_3")})
    for seat in OBSERVERS:
        text = json.dumps(ENGINE.view(state, seat))
        assert "mexicanum" not in text
        if seat != 1:
            assert "citizenship_3" not in text
    state, events = ENGINE.apply(state, 2, {"type": "pick",
                                            "card": card(state, 2, "rosaceum")})
    for seat in OBSERVERS:
        assert "mexicanum" in json.dumps(ENGINE.view(state, seat))
        revealed = [e for e in event_for(events, seat) if e["type"] == "revealed"]
        assert revealed[0]["picks"][0]["cards"][0]["kind"] == "mexicanum"


def test_spectators_and_other_seats_see_no_hands() -> None:
    state = three_seats()
    spectator = ENGINE.view(state, None)
    assert spectator["hand"] is None and spectator["my_pick"] is None
    for view in others_see(state):
        assert "hand" not in view["players"][0]
        assert view["players"][0]["hand_size"] == 4
        assert view["pile"] == 108 - 12 - 1
    mine = ENGINE.view(state, 0)
    assert sorted(c["kind"] for c in mine["hand"]) == [
        "institution", "isopods_algae", "mexicanum", "value"]
    assert mine["my_pick"] == []
