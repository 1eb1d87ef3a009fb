"""Messages a client may send over the table WebSocket, validated with pydantic.

The seat never comes from a message: it comes from the authenticated connection.
"""

from __future__ import annotations

import json
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


def _move(raw: str | bytes) -> Any:
    """A move as ``json.loads`` reads it, read by orjson (several times faster), or None: only
    an object of type "action" whose values are no floats and whose action is a flat object
    of no floats (orjson reads an integer past 64 bits as a float, json as an int; anything
    else they read alike), and nothing orjson refuses (NaN, a lone surrogate...): all that
    goes to json as before, its errors told as before."""
    try:
        data = orjson.loads(raw)
    except orjson.JSONDecodeError:
        return None
    if type(data) is not dict or data.get("type") != "action":
        return None
    for value in data.values():
        if type(value) is float:
            return None
        if type(value) is dict:
            for inner in value.values():
                if type(inner) is float or type(inner) is dict or type(inner) is list:
                    return None
        elif type(value) is list:
            return None
    return data


def parse_client_message(raw: str | bytes, limit: int) -> Any:
    """Decode and validate one message; raise ``AppError`` with a clear reason otherwise."""
    if len(raw) > limit:
        raise AppError("too_large", f"messages are limited to {limit} bytes")
    data = _move(raw)
    if data is None:
        try:
            data = json.loads(raw)
        except (ValueError, UnicodeDecodeError) as exc:
            raise AppError("bad_message", f"not valid JSON: {exc}") from None
    try:
        return _adapter.validate_python(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "message"
        raise AppError("bad_message", f"{where}: {first['msg']}") from None
