"""Votes at a table: a general mechanism with a list of proposals.

A seated player proposes (``POST /api/tables/{id}/votes``); the seats the proposal asks
(its ``voters``) answer yes or no (``POST /api/tables/{id}/votes/{vote}``). The proposal
passes when every voter has said yes (the proposer's yes is counted at once), fails at the
first no or after ``VOTE_SECONDS``, and is cancelled when it stops being possible (the absent
player came back). One vote at a time per table.

Proposals: ``abandon`` (end the game, no winner) and ``bot`` (a bot plays an absent player's
seat, ``target``, until they reconnect). To add one, write a class with the three methods of
:class:`Proposal` and add an instance to :data:`PROPOSALS`; ``target`` carries the seat it
is about. Nothing else changes: the API, the WebSocket state and the page list the
proposals by name (the page translates ``vote.proposal.<name>``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from app.errors import AppError
from app.games.bots import bot_for

if TYPE_CHECKING:
    from app.tables.actor import TableActor

VOTE_SECONDS = 120.0


class Proposal(Protocol):
    name: str

    def check(self, actor: TableActor, target: int | None, now: float) -> None:
        """Raise ``AppError`` (409) if the proposal cannot be made, or go on, now."""

    def voters(self, actor: TableActor, target: int | None) -> frozenset[int]:
        """The seats whose yes it needs."""

    async def enact(self, actor: TableActor, vote: Vote) -> None:
        """Carry it out (inside the actor)."""


@dataclass
class Vote:
    id: int
    proposal: str
    by: int
    target: int | None
    voters: frozenset[int]
    deadline: float
    yes: set[int] = field(default_factory=set)
    no: set[int] = field(default_factory=set)

    def decided(self) -> str | None:
        """``"passed"``, ``"failed"`` or None while it is open."""
        if self.no:
            return "failed"
        if self.voters <= self.yes:
            return "passed"
        return None

    def to_json(self, now: float) -> dict[str, Any]:
        return {"id": self.id, "proposal": self.proposal, "by": self.by,
                "target": self.target, "voters": sorted(self.voters), "yes": sorted(self.yes),
                "no": sorted(self.no), "remaining": round(max(0.0, self.deadline - now), 1)}


class Abandon:
    """End the game as abandoned (no winner) once a seat has been away past the table's
    grace period. The seats still connected vote."""

    name = "abandon"

    def check(self, actor: TableActor, target: int | None, now: float) -> None:
        if actor.info.status != "playing":
            raise AppError("not_playing", "the game is not in progress", 409)
        if not actor.absent_seats(now):
            raise AppError("nobody_absent", "a game can be ended as abandoned only when a "
                           "player has been away longer than the table's grace period", 409)

    def voters(self, actor: TableActor, target: int | None) -> frozenset[int]:
        return frozenset(actor.connected_seats())

    async def enact(self, actor: TableActor, vote: Vote) -> None:
        await actor.end_early({"type": "abandon", "reason": "vote"}, "vote")


class HandToBot:
    """Let the game's bot play an absent player's seat (``target``) so the game goes on; the
    player gets the seat back the moment they reconnect. The seats still connected vote."""

    name = "bot"

    def check(self, actor: TableActor, target: int | None, now: float) -> None:
        if actor.info.status != "playing":
            raise AppError("not_playing", "the game is not in progress", 409)
        if bot_for(actor.info.game) is None:
            raise AppError("no_bot", "this game has no bot (see its rules page)", 422)
        if target is None:
            raise AppError("bad_seat", "say which seat the bot should play (target)", 422)
        if target in actor.autopilot or actor.info.seats[target] in actor.info.bots:
            raise AppError("already_bot", "a bot already plays that seat", 409)
        if target not in actor.absent_seats(now):
            raise AppError("not_absent", "a seat goes to a bot only when its player has been "
                           "away longer than the table's grace period", 409)

    def voters(self, actor: TableActor, target: int | None) -> frozenset[int]:
        return frozenset(actor.connected_seats() - {target})

    async def enact(self, actor: TableActor, vote: Vote) -> None:
        assert vote.target is not None
        await actor.set_autopilot(vote.target, True, "vote")


PROPOSALS: dict[str, Proposal] = {p.name: p for p in (Abandon(), HandToBot())}
