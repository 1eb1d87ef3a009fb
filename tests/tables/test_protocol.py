"""A client's message is read by one parser: the standard library's decoder and one pydantic
TypeAdapter over the union of client messages (orjson used to read moves first, on a second
path). Every well-formed message reads as they read it, and every bad one is a
``bad_message`` that says what is wrong and where, in the words clients have had."""


from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from app.errors import AppError
from app.tables import protocol
from app.tables.protocol import ActionMessage, parse_client_message

GOOD = [
    '{"type":"action","action":{"type":"play","card":3},"version":7}',
    '{"version":7,"action":{"type":"clue","target":1,"rank":5},"type":"action"}',
    b'{"type":"action","action":{"type":"play","card":3},"version":7}',
    '{"type":"action","action":{"type":"play","card":3},"version":"7"}',
    '{"type":"action","action":{"type":"play","card":3},"version":7.0}',
    '{"type":"action","action":{"type":"play","card":3},"version":true}',
    '{"type":"action","action":{"card":12345678901234567890123},"version":7}',
    '{"type":"action","action":{"card":1},"version":12345678901234567890123}',
    '{"type":"action","action":{"a":1,"a":2},"version":1}',
    '{"type":"chat","text":"hola"}', '{"type":"ping"}', '{"type":"sync"}',
    '{"type":"ephemeral","data":{"x":1}}', '   {"type":"ping"}  ',
    '{"type":"action","action":{"card":1},"version":1}\n',
    '{"type":"action","action":{"card":[1]},"version":1}',
    '{"type":"action","action":{"card":1.5},"version":1}',
    '{"type":"action","action":{"card":1e2},"version":1}',
    '{"type":"action","action":{"card":{"deep":[1,{"x":null}]}},"version":1}',
    '{"type":"action","action":{"note":"\\ud800"},"version":1}',
    b'\xef\xbb\xbf{"type":"action","action":{"card":1},"version":1}',
]


@pytest.mark.parametrize("raw", GOOD, ids=[str(i) for i in range(len(GOOD))])
def test_a_good_message_reads_as_json_and_pydantic_read_it(raw: str | bytes) -> None:
    got = parse_client_message(raw, 10_000)
    expected = protocol._adapter.validate_python(json.loads(raw))
    assert type(got) is type(expected) and got == expected
    assert got.model_fields_set == expected.model_fields_set
    if isinstance(got, ActionMessage):
        assert json.dumps(got.action) == json.dumps(expected.action)  # ints stay ints


def test_not_a_number_reads_as_json_reads_it() -> None:
    got = parse_client_message('{"type":"action","action":{"card":NaN},"version":7}', 100)
    assert isinstance(got, ActionMessage) and math.isnan(got.action["card"])


BAD = [
    ('{"type":"action","action":[],"version":7}',
     "action.action: Input should be a valid dictionary"),
    ('{"type":"action","action":{},"version":7,"extra":1}',
     "action.extra: Extra inputs are not permitted"),
    ('{"type":"nope"}', "message: Input tag 'nope' found using 'type' does not match any of "
     "the expected tags: 'action', 'chat', 'sync', 'ping', 'ephemeral'"),
    ('{"version":1}', "message: Unable to extract tag using discriminator 'type'"),
    ('[1,2]', "message: Input should be a valid dictionary or object to extract fields from"),
    ('"action"', "message: Input should be a valid dictionary or object to extract fields from"),
    ('{"type":"action","action":{},"version":"x"}',
     "action.version: Input should be a valid integer, unable to parse string as an integer"),
    ('{"type":"chat","text":""}', "chat.text: String should have at least 1 character"),
    ('{"type":"chat","text":"a \\u0007"}', "chat.text: Value error, control characters in "
     "the text"),
    ('{"type":"chat","text":"a \\ud800"}', "chat.text: Input should be a valid string, "
     "unable to parse raw data as a unicode string"),
    ('{', "not valid JSON: Expecting property name enclosed in double quotes: line 1 column 2 "
     "(char 1)"),
    ('{"type":"action"', "not valid JSON: Expecting ',' delimiter: line 1 column 17 (char 16)"),
    ('', "not valid JSON: Expecting value: line 1 column 1 (char 0)"),
    ('{"type":"ping"} x', "not valid JSON: Extra data: line 1 column 17 (char 16)"),
    ('\ufeff{"type":"ping"}', "not valid JSON: Unexpected UTF-8 BOM (decode using "
     "utf-8-sig): line 1 column 1 (char 0)"),
    (b'\xff{}', "not valid JSON: 'utf-8' codec can't decode byte 0xff in position 0: invalid "
     "start byte"),
]


@pytest.mark.parametrize(("raw", "said"), BAD, ids=[str(i) for i in range(len(BAD))])
def test_a_bad_message_is_a_bad_message_that_says_why(raw: str | bytes, said: str) -> None:
    with pytest.raises(AppError) as caught:
        parse_client_message(raw, 10_000)
    assert (caught.value.code, caught.value.message) == ("bad_message", said)


def test_a_message_over_the_limit_is_refused_before_it_is_read() -> None:
    with pytest.raises(AppError) as caught:
        parse_client_message('{"type":"ping"}' + " " * 100, 50)
    assert caught.value.code == "too_large"


def test_the_protocol_has_one_parser() -> None:
    """pydantic's, with no decoder beside it (orjson used to read moves first)."""
    source = Path(protocol.__file__).read_text()
    assert "orjson" not in source and source.count("json.loads(") == 1
    assert source.count("validate_python(") == 1
