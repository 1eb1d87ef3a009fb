"""``app.bounds``: nesting measured without recursion, whatever the input."""

from __future__ import annotations

import json

import pytest

from app import bounds


def test_text_depth_counts_arrays_and_objects_but_not_brackets_in_strings() -> None:
    assert not bounds.text_too_deep('{"a": [1, {"b": 2}]}', limit=3)
    assert bounds.text_too_deep('{"a": [1, {"b": [2]}]}', limit=3)
    # brackets inside strings (escaped quotes too) do not nest
    assert not bounds.text_too_deep(json.dumps({"t": "[[[[{{{{" * 50, "u": 'x\\"[[[['}),
                                    limit=2)
    assert not bounds.text_too_deep("[]" * 10_000, limit=1)  # wide is not deep


@pytest.mark.parametrize("depth", [33, 1_000, 100_000])
def test_very_deep_text_is_caught_without_recursion(depth: int) -> None:
    assert bounds.text_too_deep("[" * depth + "]" * depth)
    assert bounds.text_too_deep(b"[" * depth)  # unbalanced, bytes: still measured


def test_the_depth_of_decoded_values() -> None:
    assert bounds.depth(1) == 0 and bounds.depth({}) == 1 and bounds.depth([[], {"a": [1]}]) == 3
    deep: list = []
    for _ in range(5_000):  # deeper than any recursive walk could go
        deep = [deep]
    assert bounds.depth(deep, limit=10) == 11


def test_check_names_the_problem() -> None:
    assert bounds.check({"a": 1}, "x", 2, 100) is None
    assert "nested too deeply" in (bounds.check([[[1]]], "x", 2, 100) or "")
    assert "too large" in (bounds.check("y" * 200, "x", 2, 100) or "")
    assert "not plain JSON" in (bounds.check({"n": float("nan")}, "x", 2, 100) or "")


def test_escapes_inside_strings() -> None:
    # an escaped quote does not end the string; an escaped backslash does not escape it
    assert not bounds.text_too_deep(json.dumps({"a": 'x\\"[[[[' * 20}), limit=2)
    assert not bounds.text_too_deep(json.dumps({"a": "x\\\\", "b": "[[[[" * 20}), limit=2)
    assert bounds.text_too_deep('{"a": "x\\\\", "b": [[[[1]]]]}', limit=4)


@pytest.mark.parametrize("raw", [
    '"\\' * 5400 + "[" * 40,  # a string never closed, made of escapes
    '"' + '\\"' * 5400 + "[" * 40,
    "[" * 40 + '"a' * 8000,
])
def test_hostile_text_is_measured_in_one_pass(raw: str) -> None:
    """Strings that are never closed (read in one pass: a pattern that retried from every
    quote took a second per 10 KB message); the brackets inside them do not count."""
    assert bounds.text_too_deep(raw) == raw.startswith("[")
