"""Every engine checks an action's shape with the one helper of app/games/base.py before its
rules look at it: unknown fields, wrong kinds (a bool is not a number; NaN and the
infinities are not numbers), out-of-range integers and unknown types are refused with a
clear error, and the state is left as it was (nothing unchecked reaches the log)."""

from __future__ import annotations

import copy
import math
from typing import Any

import pytest

from app.games import ENGINES
from app.games.base import SAFE_INT, Field, IllegalAction, check_action


def _a_legal_move(game_id: str) -> tuple[Any, Any, int, dict[str, Any]]:
    engine = ENGINES[game_id]
    state = engine.setup(engine.min_players, {}, 7)
    seat = min(engine.to_act(state))
    return engine, state, seat, engine.legal_actions(state, seat)[0]


def _refused(engine: Any, state: Any, seat: int, action: Any) -> IllegalAction:
    before = engine.dump(state)
    with pytest.raises(IllegalAction) as err:
        engine.apply(state, seat, action)
    assert err.value.message
    assert engine.dump(state) == before
    return err.value


@pytest.mark.parametrize("game_id", sorted(ENGINES))
def test_every_engine_refuses_a_malformed_action(game_id: str) -> None:
    engine, state, seat, legal = _a_legal_move(game_id)
    engine.apply(state, seat, copy.deepcopy(legal))  # the move itself is fine
    cases: list[Any] = [
        {**legal, "extra": 1},
        {**legal, "note": math.nan},
        [legal],
        "play",
        {k: v for k, v in legal.items() if k != "type"},
        {**legal, "type": 3},
    ]
    for name, value in legal.items():
        if isinstance(value, int) and not isinstance(value, bool):
            cases += [{**legal, name: True}, {**legal, name: math.nan},
                      {**legal, name: math.inf}, {**legal, name: 10**30},
                      {**legal, name: str(value)}]
    for action in cases:
        err = _refused(engine, state, seat, action)
        assert err.code == "bad_action", (action, err.code, err.message)
    err = _refused(engine, state, seat, {"type": "juggle"})
    assert err.code == "unknown_action" and "juggle" in err.message


def test_the_helper_says_what_is_wrong() -> None:
    shapes = {"place": {"x": Field("number", low=0, high=10), "n": Field("int"),
                        "tag": Field("str", required=False, choices=("a", "b")),
                        "cells": Field("ints", required=False, longest=3, low=0, high=8),
                        "up": Field("bool", required=False)},
              "pass": {}}
    assert check_action({"type": "place", "x": 2.5, "n": 3}, shapes) == "place"
    assert check_action({"type": "place", "x": 0, "n": -SAFE_INT, "tag": "b",
                         "cells": [0, 8], "up": False}, shapes) == "place"
    assert check_action({"type": "pass"}, shapes) == "pass"
    for action, words in [
        ({"type": "place", "x": 2, "n": 3, "y": 1}, "unknown field(s) for 'place': y"),
        ({"type": "place", "x": 2}, "missing field 'n'"),
        ({"type": "place", "x": 11, "n": 3}, "out of range (0 to 10)"),
        ({"type": "place", "x": math.nan, "n": 3}, "finite"),
        ({"type": "place", "x": 2, "n": 2.0}, "whole number"),
        ({"type": "place", "x": False, "n": 3}, "must be a number"),
        ({"type": "place", "x": 2, "n": SAFE_INT + 1}, "out of range"),
        ({"type": "place", "x": 2, "n": 3, "tag": "c"}, "one of: a, b"),
        ({"type": "place", "x": 2, "n": 3, "cells": [1, 2, 3, 4]}, "at most 3 items"),
        ({"type": "place", "x": 2, "n": 3, "cells": [9]}, "out of range"),
        ({"type": "place", "x": 2, "n": 3, "cells": [True]}, "must be a number"),
        ({"type": "place", "x": 2, "n": 3, "up": 1}, "true or false"),
        ({"type": "pass", "x": 1}, "unknown field(s) for 'pass': x"),
        ({"x": 1}, '"type"'),
        (None, "JSON object"),
    ]:
        with pytest.raises(IllegalAction) as err:
            check_action(action, shapes)
        assert err.value.code == "bad_action" and words in err.value.message, err.value.message
    with pytest.raises(IllegalAction) as err:
        check_action({"type": "fly"}, shapes)
    assert err.value.code == "unknown_action" and "pass, place" in err.value.message
    with pytest.raises(ValueError):
        Field("float")
