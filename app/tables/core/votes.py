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

from typing import Protocol

from app.errors import AppError, forbidden
from app.games.base import ABANDON
from app.tables.core import bots, presence
from app.tables.core.commands import Cast, Propose
from app.tables.core.effects import Broadcast, Effect, Reply, SystemLine
from app.tables.core.ending import end_early
from app.tables.core.play import Decision, not_playing
from app.tables.core.state import TableState, TableStatus, Vote, evolve, name_of_seat, seats_of

VOTE_SECONDS = 120.0


class Proposal(Protocol):
    name: str

    def check(self, table: TableState, target: int | None, now: float) -> None:
        """Raise ``AppError`` (409) if the proposal cannot be made, or go on, now."""

    def voters(self, table: TableState, target: int | None) -> frozenset[int]:
        """The seats whose yes it needs."""

    def enact(self, table: TableState, vote: Vote, now: float) -> Decision:
        """Carry it out."""


class Abandon:
    """End the game as abandoned (no winner) once a seat has been away past the table's
    grace period. The seats still connected vote."""

    name = "abandon"

    def check(self, table: TableState, target: int | None, now: float) -> None:
        if table.status is not TableStatus.PLAYING:
            raise not_playing()
        if not presence.absent_seats(table, now):
            raise AppError("nobody_absent", "a game can be ended as abandoned only when a "
                           "player has been away longer than the table's grace period", 409)

    def voters(self, table: TableState, target: int | None) -> frozenset[int]:
        return presence.connected_seats(table)

    def enact(self, table: TableState, vote: Vote, now: float) -> Decision:
        return end_early(table, {"type": ABANDON, "reason": "vote"}, "vote", now)


class HandToBot:
    """Let the game's bot play an absent player's seat (``target``) so the game goes on; the
    player gets the seat back the moment they reconnect. The seats still connected vote."""

    name = "bot"

    def check(self, table: TableState, target: int | None, now: float) -> None:
        if table.status is not TableStatus.PLAYING:
            raise not_playing()
        if not table.engine.has_bot:
            raise AppError("no_bot", "this game has no bot (see its rules page)", 422)
        if target is None:
            raise AppError("bad_seat", "say which seat the bot should play (target)", 422)
        if target in table.autopilot or table.seats[target] in table.bots:
            raise AppError("already_bot", "a bot already plays that seat", 409)
        if target not in presence.absent_seats(table, now):
            raise AppError("not_absent", "a seat goes to a bot only when its player has been "
                           "away longer than the table's grace period", 409)

    def voters(self, table: TableState, target: int | None) -> frozenset[int]:
        return presence.connected_seats(table) - {target}

    def enact(self, table: TableState, vote: Vote, now: float) -> Decision:
        assert vote.target is not None
        return bots.set_autopilot(table, vote.target, True, "vote", now)


PROPOSALS: dict[str, Proposal] = {p.name: p for p in (Abandon(), HandToBot())}


def _seated(table: TableState, player_id: str) -> frozenset[int]:
    """The player's seats (several at a branch's hot seat: one answer counts for each)."""
    seats = seats_of(table, player_id)
    if not seats:
        raise forbidden("only seated players can do that")
    return seats


def propose(table: TableState, cmd: Propose, now: float) -> Decision:
    mine = _seated(table, cmd.player_id)
    seat = min(mine)
    proposal = PROPOSALS.get(cmd.proposal)
    if proposal is None:
        raise AppError("unknown_proposal", "no such proposal; there is: "
                       + ", ".join(sorted(PROPOSALS)), 422)
    if cmd.target is not None and not 0 <= cmd.target < table.seat_count:
        raise AppError("bad_seat", f"seats go from 0 to {table.seat_count - 1}")
    if table.vote is not None:
        raise AppError("vote_open", "a vote is already open at this table", 409)
    proposal.check(table, cmd.target, now)
    voters = proposal.voters(table, cmd.target) | {seat}
    vote = Vote(table.vote_ids + 1, proposal.name, seat, cmd.target, frozenset(voters),
                now + VOTE_SECONDS, yes=frozenset(voters & mine))
    table = evolve(table, vote=vote, vote_ids=vote.id)
    line = SystemLine("vote_proposed", seat,
                      {"name": name_of_seat(table, seat), "proposal": proposal.name})
    table, effects = settle(table, now)
    return table, [line, *effects, Reply(vote.to_json(now))]


def cast(table: TableState, cmd: Cast, now: float) -> Decision:
    mine = _seated(table, cmd.player_id)
    vote = table.vote
    if vote is None or vote.id != cmd.vote_id:
        raise AppError("no_vote", "that vote is not open", 409)
    asked = mine & vote.voters
    if not asked:
        raise forbidden("this vote does not ask you")
    yes = vote.yes | asked if cmd.yes else vote.yes - asked
    no = vote.no - asked if cmd.yes else vote.no | asked
    vote = evolve(vote, yes=yes, no=no)
    table, effects = settle(evolve(table, vote=vote), now)
    return table, [*effects, Reply(vote.to_json(now))]


def settle(table: TableState, now: float) -> Decision:
    """Close the vote if it is decided (and carry it out if it passed)."""
    vote = table.vote
    if vote is None:
        return table, []
    decided = vote.decided()
    if decided is None:
        return table, [Broadcast()]
    table = evolve(table, vote=None)
    effects: list[Effect] = [SystemLine(f"vote_{decided}", None, {"proposal": vote.proposal})]
    if decided == "passed":
        table, enacted = PROPOSALS[vote.proposal].enact(table, vote, now)
        return table, [*effects, *enacted]
    return table, [*effects, Broadcast()]


def recheck(table: TableState, now: float) -> Decision:
    """Cancel the open vote if its proposal is no longer possible (the absent came back)."""
    vote = table.vote
    if vote is None:
        return table, []
    try:
        PROPOSALS[vote.proposal].check(table, vote.target, now)
    except AppError:
        return evolve(table, vote=None), [SystemLine("vote_cancelled", None,
                                                     {"proposal": vote.proposal})]
    return table, []


def expire(table: TableState, now: float) -> Decision:
    """The vote's time is up: it fails."""
    vote = table.vote
    if vote is None or now < vote.deadline:
        return table, []
    return evolve(table, vote=None), [SystemLine("vote_failed", None,
                                                 {"proposal": vote.proposal}), Broadcast()]
