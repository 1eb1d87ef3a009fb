"""The table's life beyond the rules, over REST: resign, vote (a list of proposals, e.g.
ending an abandoned game), and rematch. Each call hands one command to the table's actor."""

from __future__ import annotations

import asyncio
import secrets
from typing import Annotated

from fastapi import APIRouter, Query, Request

from app.api.deps import CurrentPlayer, RegistryDep, RepoDep
from app.api.limits import get_limits
from app.api.schemas import Ballot, JoinedOut, NewVote, TableOut, VoteOut, errors
from app.api.shapes import table_out
from app.errors import AppError, forbidden
from app.tables import branching, records
from app.tables.actor import TableActor
from app.tables.core.commands import AddBot, Cast, Join, Propose, Resign, SetRematch, TakeSeats
from app.tables.core.state import TableStatus, seats_of
from app.tables.registry import Registry

router = APIRouter(prefix="/api/tables", tags=["table life"])

# one rematch per finished table, even when its players all click at once
_rematch_locks: dict[str, asyncio.Lock] = {}


@router.post("/{table_id}/resign", response_model=TableOut,
             responses=errors(401, 403, 404, 409, 503))
async def resign(table_id: str, request: Request, player: CurrentPlayer,
                 registry: RegistryDep,
                 seat: Annotated[int | None, Query(ge=0, le=63)] = None) -> TableOut:
    """Give up. In a cooperative game (Hanabi) the game ends for everyone as a loss; in a
    competitive game the game ends, you are ranked last and the others share the win.
    ``seat``: in a hot seat (a branch whose host holds several seats), the seat that gives
    up (one the caller holds; by default the first)."""
    actor = await registry.get(table_id)
    await actor.submit(Resign(player.id, seat))
    return table_out(request, actor, player.id)


@router.post("/{table_id}/votes", response_model=VoteOut,
             responses=errors(400, 401, 403, 404, 409, 422, 503))
async def propose(table_id: str, body: NewVote, player: CurrentPlayer,
                  registry: RegistryDep) -> VoteOut:
    """Propose something the table votes on (seated players). ``abandon``: end the game as
    abandoned, with no winner; possible once a seated player has been away longer than the
    table's ``absent_grace_seconds``; the seats still connected vote, and it passes when
    every one of them says yes (yours is counted)."""
    actor = await registry.get(table_id)
    return VoteOut(**await actor.submit(Propose(player.id, body.proposal, body.target)))


@router.post("/{table_id}/votes/{vote_id}", response_model=VoteOut,
             responses=errors(401, 403, 404, 409, 422, 503))
async def cast(table_id: str, vote_id: int, body: Ballot, player: CurrentPlayer,
               registry: RegistryDep) -> VoteOut:
    """Answer the open vote: one no and it fails; every yes and it passes."""
    actor = await registry.get(table_id)
    return VoteOut(**await actor.submit(Cast(player.id, vote_id, body.yes)))


@router.post("/{table_id}/rematch", response_model=JoinedOut,
             responses=errors(401, 403, 404, 409, 422, 429, 503))
async def rematch(table_id: str, request: Request, player: CurrentPlayer,
                  registry: RegistryDep, repo: RepoDep) -> JoinedOut:
    """After a game ends: the first player to ask creates a new table with the same game,
    seats and options (they sit where they sat); the others are invited, and this same call
    seats them at it (in their old seat when it is free). A branch's rematch plays on again
    from the same moment of the same match (dealt anew again; a hot seat is taken again)."""
    old = await registry.get(table_id)
    seat = old.seat_of(player.id)
    if seat is None:
        raise forbidden("only the players of this game can ask for a rematch")
    if old.table.status is not TableStatus.FINISHED:
        raise AppError("not_finished", "a rematch is for a game that has ended", 409)
    if len(_rematch_locks) > 10_000:  # forget the idle ones now and then
        for key in [k for k, v in _rematch_locks.items() if not v.locked()]:
            del _rematch_locks[key]
    async with _rematch_locks.setdefault(old.table.id, asyncio.Lock()):
        new = await _live_rematch(registry, old)
        if new is None:
            branch = None
            if old.table.branch_of is not None:  # the same moment again, dealt anew
                match_id, step = old.table.branch_of
                branch = await branching.branch_point(repo, records.replay_cache, match_id,
                                                      step, secrets.randbits(63), None)
            async with get_limits(request).new_table(request, registry, player.id):
                new = await registry.create(
                    player.id, player.name, old.table.game, old.table.seat_count,
                    dict(old.table.options), old.table.private, host_seat=seat,
                    rematch_of=old.table.id,
                    position=branch.position if branch else None,
                    branch_of=(branch.row.id, branch.step) if branch else None)
            # the same players: the bots that played take their seats again at once
            for bot_seat in sorted(old.bot_seats()):
                await new.submit(AddBot(player.id, bot_seat))
            if branch is not None and len(seats_of(old.table, player.id)) > 1:
                await new.submit(TakeSeats(player.id))  # the hot seat again
            await old.submit(SetRematch(new.table.id, new.table.invite_token, player.id))
    try:
        joined = await new.submit(Join(player.id, player.name, seat, new.table.invite_token))
    except AppError as exc:
        if exc.code != "seat_taken":
            raise
        joined = await new.submit(Join(player.id, player.name, None, new.table.invite_token))
    return JoinedOut(seat=joined, table=table_out(request, new, player.id))


async def _live_rematch(registry: Registry, old: TableActor) -> TableActor | None:
    if old.table.rematch is None:
        return None
    try:
        return await registry.get(old.table.rematch[0])
    except AppError as exc:
        if exc.code != "not_found":  # e.g. moving between processes: try again, never a twin
            raise
        return None  # it was deleted (everyone left it): a new one may be made
