"""Request and response bodies of the REST API (they shape the OpenAPI schema at /docs)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator

from app.names import NAME_INPUT_MAX, NAME_MAX, clean_name


class NewPlayer(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)  # no 0 for false, no "2" for 2
    name: str = Field(
        min_length=1, max_length=NAME_INPUT_MAX, examples=["Ana"],
        description=f"1 to {NAME_MAX} characters once trimmed; runs of spaces become one; "
        "control and invisible characters are refused")

    @field_validator("name")
    @classmethod
    def _clean(cls, value: str) -> str:
        return clean_name(value)


class PlayerOut(BaseModel):
    id: str
    name: str
    bot: bool = Field(default=False, description="a server-side bot seated by the host")


class PlayerCreated(PlayerOut):
    token: str = Field(description="Bearer token for REST and WebSocket calls; keep it secret")


class NewTable(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)  # no 0 for false, no "2" for 2
    game: str = Field(examples=["hanabi"])
    seats: int = Field(ge=1, le=12, examples=[2])
    options: dict[str, Any] = Field(default_factory=dict)
    private: bool = False


class NewBot(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    seat: int = Field(ge=0, description="a free seat, or the host's own (the host then "
                      "watches)")


class TakeSeatsIn(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    seat: int | None = Field(default=None, ge=0, description="one free seat more; leave it "
                             "out to take every free seat")


class BranchIn(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    step: int = Field(ge=0, le=10_000_000, examples=[12], description="play on from the "
                      "position after this many actions (0: the set-up)")
    sandbox: bool = Field(default=False, description="the hot seat: you take every seat, "
                          "switch seats on the page and may give any of them to a bot")
    private: bool = Field(default=False, description="a branch of a private match is always "
                          "private")
    seat: int = Field(default=0, ge=0, description="your seat (without sandbox)")
    options: dict[str, Any] = Field(default_factory=dict, description="the table's own "
                                    "options (clock, turn_seconds, bot_delay, spectator_chat"
                                    "...); the game's options are the match's")


class BranchOrigin(BaseModel):
    match: str = Field(description="the finished match this game plays on from")
    step: int = Field(description="the step of that match it starts at")


class JoinTable(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)  # no 0 for false, no "2" for 2
    invite: str | None = Field(default=None, description="invite token, for private tables")
    seat: int | None = Field(default=None, ge=0)


class SeatOut(BaseModel):
    seat: int
    player: PlayerOut | None
    connected: bool
    away_for: float | None = Field(
        default=None, description="seconds since the seated player's last connection left")
    autopilot: bool = Field(default=False, description="a bot plays this seat while its "
                            "player is away (the table voted; off when they reconnect)")


class SpectatorsOut(BaseModel):
    count: int = Field(description="connections watching without a seat")
    names: list[str] = Field(description="the names of the spectators who chose one")


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
    outcome: dict[str, Any] | None = Field(
        default=None, description="once finished: scores, ranking, winners, details "
        "(details.end is 'resigned' or 'abandoned' when the game ended early)")
    spectators: SpectatorsOut = Field(default_factory=lambda: SpectatorsOut(count=0, names=[]))
    rematch_of: str | None = Field(default=None,
                                   description="the finished table this one is a rematch of")
    branch_of: BranchOrigin | None = Field(
        default=None, description="a branch: the match and step its game plays on from (the "
        "same position, what no seat knew dealt anew)")
    url: str
    invite_url: str | None = Field(
        default=None, description="shown to seated players, and to anyone for public tables")
    watch_url: str | None = Field(
        default=None, description="the spectator link (watch, never sit); shown like "
        "invite_url")


class MyTableOut(TableOut):
    seat: int | None = Field(description="your seat at this table")
    your_turn: bool = Field(description="the table is waiting for your move")


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
    branch_of: BranchOrigin | None = Field(
        default=None, description="a branch: the match and step it played on from (kept "
        "apart from the players' history of real games)")


class MatchDetail(MatchOut):
    actions: list[MatchAction]


class NewVote(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    proposal: str = Field(examples=["abandon"], max_length=32,
                          description="abandon: end the game as abandoned (no winner)")
    target: int | None = Field(default=None, ge=0, description="the seat it is about, "
                               "for proposals that name one")


class Ballot(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    yes: bool


class VoteOut(BaseModel):
    id: int
    proposal: str
    by: int = Field(description="the proposing seat")
    target: int | None
    voters: list[int] = Field(description="the seats whose yes it needs")
    yes: list[int]
    no: list[int]
    remaining: float = Field(description="seconds before it fails for want of answers")


class ErrorOut(BaseModel):
    code: str = Field(examples=["table_full"])
    message: str = Field(examples=["every seat is taken"])


ERROR_MEANINGS = {
    400: "a value that makes no sense here (bad_seat ...)",
    401: "no token, or not a valid one (unauthenticated, bad_token, token_in_url)",
    403: "not allowed: not the host, a wrong invite, or a cross-site browser request (csrf)",
    404: "no such table or match (not_found)",
    409: "not now: the table's state forbids it (game_started, table_full, too_many_tables, "
         "not_playing, vote_open, nobody_absent ...)",
    413: "the body is too large (too_large)",
    422: "an invalid body, parameter or option (bad_request, bad_options, unknown_game)",
    429: "too many creations too fast (rate_limited); see the Retry-After header",
    503: "the storage is unavailable for a moment; nothing changed (storage_unavailable)",
}


def errors(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """``responses=`` for a route: each error status it may answer, with the error body."""
    documented: dict[int | str, dict[str, Any]] = {}
    for status in statuses:
        documented[status] = {"model": ErrorOut, "description": ERROR_MEANINGS[status]}
        if status == 429:
            documented[status]["headers"] = {"Retry-After": {
                "description": "seconds to wait", "schema": {"type": "integer"}}}
    return documented


def complete_error_responses(schema: dict[str, Any]) -> dict[str, Any]:
    """Make the generated OpenAPI document honest about errors every route shares: invalid
    input answers ``ErrorOut`` (not FastAPI's default ``HTTPValidationError``), any call may
    meet unavailable storage (503), an id in the path may be unknown (404), and a browser
    write may be refused as cross-site (403)."""
    error_ref = {"$ref": "#/components/schemas/ErrorOut"}
    components = schema.setdefault("components", {}).setdefault("schemas", {})
    components.setdefault("ErrorOut", ErrorOut.model_json_schema())

    def add(responses: dict[str, Any], status: int) -> None:
        responses.setdefault(str(status), {
            "description": ERROR_MEANINGS[status],
            "content": {"application/json": {"schema": error_ref}}})

    for path, operations in schema.get("paths", {}).items():
        for method, operation in operations.items():
            if not isinstance(operation, dict) or "responses" not in operation:
                continue
            responses = operation["responses"]
            if "422" in responses:
                responses["422"] = {"description": ERROR_MEANINGS[422],
                                    "content": {"application/json": {"schema": error_ref}}}
            add(responses, 503)
            if "{" in path:
                add(responses, 404)
            if method in ("post", "put", "patch", "delete"):
                add(responses, 403)
    for unused in ("HTTPValidationError", "ValidationError"):
        components.pop(unused, None)
    return schema
