"""Bounds on untrusted JSON: how deeply it nests and how large it is, measured without
recursion.

Python's ``json`` decoder, pydantic, FastAPI's encoder and orjson all recurse once per level
of nesting, each with its own limit (orjson refuses more than 254 levels when encoding, the
interpreter stops at about 1,000 frames). A few kilobytes of ``[[[[...]]]]`` are enough to
reach any of them, so anything a client sends (a WebSocket message, an imported match file)
is measured here first, and refused with a clear reason when it nests deeper than any real
game message does.
"""

from __future__ import annotations

import json
import re
from typing import Any

# what a client sends nests a few levels at most: {"type": "action", "action": {"cells":
# [[1, 2], ...]}} is 4; this leaves room for any game while staying far below every limit
MAX_DEPTH = 32

# the only characters that matter for nesting: brackets, and what starts, ends or escapes
# inside a string (brackets inside strings do not nest)
_SPECIAL = re.compile(r'[\\"\[\]{}]')


def text_too_deep(raw: str | bytes, limit: int = MAX_DEPTH) -> bool:
    """Whether the JSON text ``raw`` opens more than ``limit`` arrays or objects inside each
    other (read as text, before any decoder sees it), in one pass over it whatever it holds.
    Malformed text is measured as far as it goes; the decoder reports what is wrong."""
    text = raw.decode("utf-8", "replace") if isinstance(raw, bytes) else raw
    if text.count("[") + text.count("{") <= limit:
        return False  # cannot nest deeper than the brackets it has
    depth = 0
    in_string = False
    escaped = -1  # the index of a character a backslash escapes
    for match in _SPECIAL.finditer(text):
        at = match.start()
        if at == escaped:
            continue
        char = match.group()
        if in_string:
            if char == "\\":
                escaped = at + 1
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            if depth > limit:
                return True
        elif char in "]}":
            depth -= 1
    return False


def depth(value: Any, limit: int = MAX_DEPTH) -> int:
    """How many lists and dicts ``value`` nests (a scalar is 0, ``{}`` is 1), counted
    without recursion; stops counting once past ``limit`` (answers ``limit + 1``)."""
    deepest = 0
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, dict):
            children: Any = item.values()
        elif isinstance(item, list | tuple):
            children = item
        else:
            continue
        level += 1
        if level > deepest:
            deepest = level
            if deepest > limit:
                return deepest
        stack.extend((child, level) for child in children)
    return deepest


def encoded_size(value: Any) -> int:
    """The size of ``value`` as compact JSON (call only on bounded depth). Raises
    ``ValueError`` for what JSON cannot hold (NaN, infinities)."""
    return len(json.dumps(value, allow_nan=False, separators=(",", ":"), ensure_ascii=False))


def check(value: Any, what: str, max_depth: int, max_bytes: int) -> str | None:
    """Why ``value`` cannot be taken (``what``: how to name it), or None if it can."""
    if depth(value, max_depth) > max_depth:
        return f"{what}: nested too deeply (at most {max_depth} levels)"
    try:
        size = encoded_size(value)
    except (TypeError, ValueError):
        return f"{what}: not plain JSON"
    if size > max_bytes:
        return f"{what}: too large ({size} characters, at most {max_bytes})"
    return None
