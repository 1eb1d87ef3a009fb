"""Request and response bodies of the REST API (they shape the OpenAPI schema at /docs)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator


class NewPlayer(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field(min_length=1, max_length=32, examples=["Ana"])

    @field_validator("name")
    @classmethod
    def _clean(cls, value: str) -> str:
        value = " ".join(value.split())
        if not value or any(not ch.isprintable() for ch in value):
            raise ValueError("a name needs printable characters")
        return value


class PlayerOut(BaseModel):
    id: str
    name: str


class PlayerCreated(PlayerOut):
    token: str = Field(description="Bearer token for REST and WebSocket calls; keep it secret")


class NewTable(BaseModel):
    model_config = ConfigDict(extra="forbid")
    game: str = Field(examples=["hanabi"])
    seats: int = Field(ge=1, le=12, examples=[2])
    options: dict[str, Any] = Field(default_factory=dict)
    private: bool = False


class JoinTable(BaseModel):
    model_config = ConfigDict(extra="forbid")
    invite: str | None = Field(default=None, description="invite token, for private tables")
    seat: int | None = Field(default=None, ge=0)


class SeatOut(BaseModel):
    seat: int
    player: PlayerOut | None
    connected: bool


class TableOut(BaseModel):
    id: str
    game: str
    status: str
    version: int
    seat_count: int
    options: dict[str, Any]
    private: bool
    host: PlayerOut
    seats: list[SeatOut]
    created_at: str
    outcome: dict[str, Any] | None = None
    url: str
    invite_url: str | None = Field(
        default=None, description="shown to seated players, and to anyone for public tables")


class JoinedOut(BaseModel):
    seat: int
    table: TableOut


class MatchSeat(BaseModel):
    seat: int
    player: PlayerOut


class MatchAction(BaseModel):
    seq: int
    seat: int
    action: dict[str, Any]
    source: str
    at: str


class MatchOut(BaseModel):
    id: str
    game: str
    options: dict[str, Any]
    seed: int
    seats: list[MatchSeat]
    started_at: str | None
    finished_at: str | None
    outcome: dict[str, Any] | None


class MatchDetail(MatchOut):
    actions: list[MatchAction]


class ErrorOut(BaseModel):
    code: str
    message: str
