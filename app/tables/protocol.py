"""Messages a client may send over the table WebSocket, validated with pydantic.

The seat never comes from a message: it comes from the authenticated connection.
"""

from __future__ import annotations

import json
import re
from typing import Annotated, Any, Literal

import orjson
from pydantic import AfterValidator, BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from app.errors import AppError
from app.names import clean_chat_text


class _Message(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ActionMessage(_Message):
    type: Literal["action"]
    action: dict[str, Any]
    version: int


class ChatMessage(_Message):
    type: Literal["chat"]
    text: Annotated[str, Field(min_length=1, max_length=500), AfterValidator(clean_chat_text)]


class SyncMessage(_Message):
    type: Literal["sync"]


class PingMessage(_Message):
    type: Literal["ping"]


class EphemeralMessage(_Message):
    """A live update that is relayed to the table but never stored (a block being dragged)."""

    type: Literal["ephemeral"]
    data: dict[str, Any]


ClientMessage = Annotated[
    ActionMessage | ChatMessage | SyncMessage | PingMessage | EphemeralMessage,
    Field(discriminator="type"),
]
_adapter: TypeAdapter[Any] = TypeAdapter(ClientMessage)


# an integer literal orjson would read as a float (past 64 bits) where json reads an int
_LONG_NUMBER = re.compile(r"\d{19}")
_LONG_NUMBER_BYTES = re.compile(rb"\d{19}")
_ACTION_KEYS = {"type", "action", "version"}


def _decode(raw: str | bytes) -> Any:
    """``json.loads(raw)``: by orjson (several times faster) when it reads the text the
    same (no integer past 64 bits; anything orjson refuses, NaN say, goes to json, whose
    errors the client is told)."""
    long = _LONG_NUMBER_BYTES if isinstance(raw, bytes) else _LONG_NUMBER
    if long.search(raw) is None:  # type: ignore[arg-type]
        try:
            return orjson.loads(raw)
        except orjson.JSONDecodeError:
            pass
    return json.loads(raw)


def parse_client_message(raw: str | bytes, limit: int) -> Any:
    """Decode and validate one message; raise ``AppError`` with a clear reason otherwise."""
    if len(raw) > limit:
        raise AppError("too_large", f"messages are limited to {limit} bytes")
    try:
        data = _decode(raw)
    except (ValueError, UnicodeDecodeError) as exc:
        raise AppError("bad_message", f"not valid JSON: {exc}") from None
    if type(data) is dict and data.keys() == _ACTION_KEYS and data["type"] == "action" \
            and type(data["action"]) is dict and type(data["version"]) is int:
        # a move, well formed (what validation would accept unchanged): built as it is
        return ActionMessage.model_construct(type="action", action=data["action"],
                                             version=data["version"])
    try:
        return _adapter.validate_python(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "message"
        raise AppError("bad_message", f"{where}: {first['msg']}") from None
