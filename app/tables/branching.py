"""Playing on from a moment of a finished match: a *branch* ("what if").

From any step of a finished match's replay a new table can start in exactly that position:
the same game and options, the same public information, each seat's private knowledge as it
was; what no seat could know at that step (the order of a deck, cards nobody has seen, the
seed of later shuffles) is dealt anew from the new table's own seed, by the engine's
``redeal_unknown`` (app/games/base.py), so the branch is a real game and nobody can read its
future from the replay they have just watched.

The position is stored with the table (``TableSetup.position``, the ``tables.position``
column): its game starts from it instead of the set-up, a restart replays the branch's own
log from it, and so do its replay and its export. The branch remembers its origin (match
and step); its result is kept apart from the players' history of real games.

Who may branch: whoever may see the match's replay (app/api/match_access.py). Replays are
for finished matches only (a game still running has none, so nothing of this exists for it).
A public match's anyone may play on from; a private match's only its players, its host and
whoever holds its private link, and to anyone else it does not exist (404, as for no match
at all). A branch of a private match is private too: a private game's position is not made
into a public table.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from app.db.models import GameTable
from app.db.repository import Repository
from app.errors import AppError, not_found
from app.games import ENGINES
from app.games.base import Rng
from app.tables.engine import adapt
from app.tables.records import ReplayCache, finished_row


@dataclass(frozen=True)
class BranchPoint:
    """Where a branch starts: the match it comes from, the step, and the position (the
    engine's dump of the re-dealt state)."""

    row: GameTable
    step: int
    position: dict[str, Any]


def is_member(row: GameTable, player_id: str | None) -> bool:
    """Whether ``player_id`` played at this table or hosts it (the importer of an imported
    match): one who may always read it, private or not."""
    if player_id is None:
        return False
    return player_id == row.host_id or any(s.player_id == player_id for s in row.seats)


def position_at(row: GameTable, states: list[Any], step: int, seed: int) -> dict[str, Any]:
    """The position after ``step`` actions of the match, what no seat knew re-dealt from
    ``seed``, as JSON. Refused: a step that is not one of the match's, one where the game
    is already over, and a game that cannot be branched."""
    engine = adapt(ENGINES[row.game])
    if not engine.can_branch:
        raise AppError("no_branch", f"{engine.name} cannot be played on from a replay", 422)
    if not 0 <= step < len(states):
        raise AppError("bad_step", f"steps go from 0 to {len(states) - 1}", 400)
    state = states[step]
    if engine.outcome(state) is not None:
        raise AppError("game_over", "the game is over at this step: choose an earlier one",
                       409)
    redealt = engine.redeal_unknown(state, Rng.from_seed(seed))
    position: dict[str, Any] = json.loads(json.dumps(engine.dump(redealt)))
    return position


async def branch_point(repo: Repository, cache: ReplayCache, match_id: str, step: int,
                       seed: int, may_read: Callable[[GameTable], bool] | None
                       ) -> BranchPoint:
    """Where a branch of ``match_id`` at ``step`` starts, for a caller ``may_read`` says may
    read the match (None: someone already allowed, a player of a branch of it asking for a
    rematch). 404 for a match that is not finished (a game still running has no replay) and
    for one the caller may not read (asked before the match is replayed: nothing of it is
    worked out for a stranger)."""
    if may_read is not None and not may_read(await finished_row(repo, match_id)):
        raise not_found("match")
    row, _actions, replayed = await cache.get(repo, match_id)
    return BranchPoint(row, step, position_at(row, replayed.states or [], step, seed))
