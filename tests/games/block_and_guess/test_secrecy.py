"""Targets stay with the builders: guessers and spectators never see a target number (views,
events, legal actions, errors) until that build is done."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from app.games.base import IllegalAction, event_for
from tests.games.block_and_guess.helpers import E


def _targets_in(value: Any) -> list[Any]:
    """Every non-null value under a key naming a target, anywhere in a JSON value."""
    found = []
    if isinstance(value, dict):
        for k, v in value.items():
            if k in ("target", "targets") and v is not None:
                found.append(v)
            found += _targets_in(v)
    elif isinstance(value, list):
        for v in value:
            found += _targets_in(v)
    return found


@pytest.mark.parametrize("seats", [3, 4, 6])
def test_guessers_and_spectators_never_see_an_open_target(seats: int) -> None:
    chooser = random.Random(seats)
    s = E.setup(seats, {}, seats)
    revealed_seen = 0
    while not s["over"]:
        open_targets = {b["builder"]: b["target"] for b in s["builds"] if not b["revealed"]}
        for seat in [None, *range(seats)]:
            if seat in s["builders"]:
                assert {b["builder"]: b["target"] for b in E.view(s, seat)["builds"]} == \
                    {b["builder"]: b["target"] for b in s["builds"]}
                continue
            view = E.view(s, seat)
            for build in view["builds"]:
                if build["builder"] in open_targets:
                    assert build["target"] is None
            if seat is not None:
                assert _targets_in(E.legal_actions(s, seat)) == []
        acting = sorted(E.to_act(s))
        seat = chooser.choice(acting)
        action = chooser.choice(E.legal_actions(s, seat))
        new, events = E.apply(s, seat, action)
        for observer in [None, *range(seats)]:
            if observer in s["builders"]:
                continue
            for shown in event_for(events, observer):
                if shown["type"] == "revealed":
                    revealed_seen += 1
                    judged = [e.data for e in events if e.type == "judged"
                              and e.data["build"] == shown["build"]]
                    assert judged and (judged[0]["right"] or s["stage"] == 2)
                    # only when the phase is over for every build
                    assert not any(b["in_play"] and b["guess"] is None
                                   for b in new["builds"] if new["phase"] == "guess")
                elif shown["type"] == "targets":  # a new round: only its builders get it
                    assert observer in new["builders"]
                elif shown["type"] != "round_scored":  # a finished round's record
                    text = json.dumps(shown)
                    assert "target" not in text, shown
        s = new
    assert revealed_seen > 0


def test_errors_never_tell_a_target() -> None:
    s = E.setup(4, {"first_seat": 0}, 3)
    secret = s["builds"][0]["target"]
    for action in ({"type": "guess", "build": 0, "object": secret},
                   {"type": "ask_front", "build": 0}, {"type": "propose", "build": 0, "object": 1}):
        with pytest.raises(IllegalAction) as err:
            E.apply(s, 2, action)
        assert str(secret) not in err.value.message or err.value.code == "bad_object"
        assert err.value.code == "wrong_phase"
