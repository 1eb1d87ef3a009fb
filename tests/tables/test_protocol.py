"""A client's message reads the same by the fast path (orjson, a well-formed move built as
it is) as by the standard library's decoder and pydantic's validation: same result, same
error text."""

from __future__ import annotations

import json

import pytest

from app.errors import AppError
from app.tables import protocol
from app.tables.protocol import ActionMessage, parse_client_message

MESSAGES = [
    '{"type":"action","action":{"type":"play","card":3},"version":7}',
    '{"version":7,"action":{"type":"clue","target":1,"rank":5},"type":"action"}',
    b'{"type":"action","action":{"type":"play","card":3},"version":7}',
    '{"type":"action","action":{"type":"play","card":3},"version":"7"}',
    '{"type":"action","action":{"type":"play","card":3},"version":7.0}',
    '{"type":"action","action":{"type":"play","card":3},"version":true}',
    '{"type":"action","action":[],"version":7}',
    '{"type":"action","action":{},"version":7,"extra":1}',
    '{"type":"action","action":{"card":NaN},"version":7}',
    '{"type":"action","action":{"card":12345678901234567890123},"version":7}',
    '{"type":"action","action":{"card":1},"version":12345678901234567890123}',
    '{"type":"action","action":{"note":"\\ud800"},"version":1}',
    '{"type":"action","action":{"a":1,"a":2},"version":1}',
    '{"type":"chat","text":"hola"}', '{"type":"ping"}', '{"type":"sync"}',
    '{"type":"ephemeral","data":{"x":1}}', '{"type":"nope"}', '[1,2]', '"action"', '{',
    '{"type":"action"', '', '   {"type":"ping"}  ',
    '\ufeff{"type":"action","action":{"card":1},"version":1}',
    b'\xef\xbb\xbf{"type":"action","action":{"card":1},"version":1}',
    '{"type":"action","action":{"card":1},"version":1}\n',
    '{"type":"action","action":{"card":[1]},"version":1}',
    '{"type":"action","action":{"card":1.5},"version":1}',
    '{"type":"action","action":{"card":1e2},"version":1}',
]


def _slow(raw: str | bytes) -> object:
    """What the parser gave before its fast path: json, then pydantic, every time."""
    try:
        data = json.loads(raw)
    except (ValueError, UnicodeDecodeError) as exc:
        return ("bad_message", f"not valid JSON: {exc}")
    try:
        return protocol._adapter.validate_python(data)
    except protocol.ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "message"
        return ("bad_message", f"{where}: {first['msg']}")


@pytest.mark.parametrize("raw", MESSAGES, ids=[str(i) for i in range(len(MESSAGES))])
def test_the_fast_path_reads_every_message_as_the_slow_one(raw: str | bytes) -> None:
    try:
        got: object = parse_client_message(raw, 10_000)
    except AppError as exc:
        got = (exc.code, exc.message)
    expected = _slow(raw)
    assert type(got) is type(expected)
    assert got == expected
    if isinstance(got, ActionMessage):
        assert got.model_dump() == expected.model_dump()  # type: ignore[attr-defined]
        assert got.model_fields_set == expected.model_fields_set  # type: ignore[attr-defined]


def test_a_lone_surrogate_in_the_text_reads_as_before() -> None:
    raw = '{"type":"action","action":{"note":"' + chr(0xD800) + '"},"version":1}'
    got: object = parse_client_message(raw, 10_000)
    assert got == _slow(raw)
