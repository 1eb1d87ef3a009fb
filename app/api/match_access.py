"""Who may read a finished match: its record, replay (every step view), export, chat and page,
and play on from it (a branch).

A public match: anyone. A private one: its players, its host (the importer, for an imported
match) and whoever holds the table's private link, passed as ``?key=``: its spectator key
(the last part of its ``/watch/<id>/<key>`` link) or its invite token (the last part of its
``/join/<token>`` link), the same two the live table accepts (``app.api.deps``). Everyone
else is answered exactly as for a match that does not exist (404 ``not_found``, "no such
match"), never 403: a private match's existence is not revealed. Lists never show a private
match to anyone but its players and host (``Repository.finished_tables``' ``viewer_id``).
"""

from __future__ import annotations

import hmac
from typing import Annotated

from fastapi import Query

from app.api.deps import watch_key_ok
from app.db.models import GameTable, Player
from app.db.repository import Repository
from app.errors import not_found
from app.tables.branching import is_member
from app.tables.records import finished_row

KEY_HELP = ("a private match's link key: the spectator key of its table (the end of its "
            "/watch/<id>/<key> link) or its invite token; not needed by its players")
MatchKey = Annotated[str | None, Query(max_length=128, description=KEY_HELP)]


def key_opens(row: GameTable, key: str | None) -> bool:
    """Whether ``key`` is this table's spectator key or its invite token."""
    if not key or not key.isascii():
        return False
    return (watch_key_ok(row.id, row.invite_token, key)
            or hmac.compare_digest(key.encode(), row.invite_token.encode()))


def may_read(row: GameTable, player_id: str | None, key: str | None) -> bool:
    """Whether the caller (``player_id``, None: anonymous, holding ``key``) may read the
    finished match ``row`` (see the module doc)."""
    return not row.private or is_member(row, player_id) or key_opens(row, key)


async def readable_match(repo: Repository, match_id: str, player: Player | None,
                         key: str | None) -> GameTable:
    """The finished match ``match_id`` if the caller may read it; 404 ``not_found`` otherwise,
    the same answer as for a match that does not exist."""
    row = await finished_row(repo, match_id)
    if not may_read(row, player.id if player is not None else None, key):
        raise not_found("match")
    return row
