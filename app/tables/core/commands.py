"""What can happen to a table: the commands ``decide`` takes (app/tables/core/decide.py).

Sockets and HTTP handlers build these and hand them to the table's actor; timers and bots
build ``Wake`` and ``BotMove``. A connection is named by its id: the socket stays in the
shell. The seat always comes from the player's seat at the table, never from the command.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

# ------------------------------------------------------------------------ seats


@dataclass(slots=True)
class Join:
    player_id: str
    name: str
    seat: int | None = None
    invite: str | None = None


@dataclass(slots=True)
class Leave:
    player_id: str


@dataclass(slots=True)
class Rename:
    """A seated player changed their display name: the table shows the new one."""

    player_id: str
    name: str


@dataclass(slots=True)
class Start:
    player_id: str


@dataclass(slots=True)
class Delete:
    player_id: str


@dataclass(slots=True)
class AddBot:
    """The host puts a bot in a free seat, or gives the host's own seat to one. ``bot_id``
    is the new bot player's id (the shell makes one when it is empty)."""

    player_id: str
    seat: int
    bot_id: str = ""


@dataclass(slots=True)
class RemoveBot:
    player_id: str
    seat: int


@dataclass(slots=True)
class TakeSeats:
    """The host of a branch takes a free seat more (``seat``), or every free seat (None):
    the hot seat, to study a position alone (app/tables/core/sandbox.py)."""

    player_id: str
    seat: int | None = None


@dataclass(slots=True)
class BotsPlay:
    """The host of a branch in play gives one of their seats (``seat``), or every one of
    them (None), to the game's bot, to see how the position plays out
    (app/tables/core/sandbox.py)."""

    player_id: str
    seat: int | None = None


# ------------------------------------------------------------------------ play


@dataclass(slots=True)
class Act:
    """A seat's move, sent for table version ``version`` (see docs/api.md, "Versions")."""

    player_id: str
    action: dict[str, Any]
    version: int
    conn: int | None = None  # told a fresh view if the action is stale


@dataclass(slots=True)
class Ephemeral:
    """A live, unstored update (a block being dragged): checked by the engine, relayed."""

    conn: int
    data: dict[str, Any]


@dataclass(slots=True)
class BotMove:
    """A bot's choice for ``seat``, thought out for ``version``."""

    seat: int
    version: int
    action: dict[str, Any]


@dataclass(slots=True)
class HandBack:
    """The player of ``seat`` is back: the bot that played it for them stops."""

    seat: int


@dataclass(slots=True)
class Wake:
    """A time the table asked for has come (a key of ``wakeups``: "clock", "vote",
    "window:<id>" or "bot:<seat>")."""

    key: str


# ------------------------------------------------------------------------ connections


@dataclass(slots=True)
class Connect:
    conn: int
    player_id: str | None
    name: str = ""
    invite: str | None = None
    watch: bool = False  # came with the table's spectator key (may watch, never sit)
    screen: bool = False  # a table screen: never shown the all-hands view
    # the seat it is for, when its player holds several (a branch's hot seat); None: the
    # player's first seat. Its views, and the moves it sends, are that seat's only.
    seat: int | None = None


@dataclass(slots=True)
class Disconnect:
    conn: int


@dataclass(slots=True)
class Sync:
    conn: int


@dataclass(slots=True)
class Chat:
    conn: int
    text: str


# ------------------------------------------------------------------------ the table's life


@dataclass(slots=True)
class Resign:
    player_id: str
    seat: int | None = None  # which of a hot seat's seats gives up (else the first)


@dataclass(slots=True)
class Propose:
    player_id: str
    proposal: str
    target: int | None = None


@dataclass(slots=True)
class Cast:
    player_id: str
    vote_id: int
    yes: bool


@dataclass(slots=True)
class Housekeep:
    """The janitor's round: expire a waiting table nobody has been at for ``waiting_after``
    seconds; close as abandoned a playing table no seated player has been connected to for
    ``empty_after`` seconds. Answers what it did: None, "expired" or "closed"."""

    waiting_after: float
    empty_after: float


@dataclass(slots=True)
class SetRematch:
    """The rematch of this finished table is ``table_id`` (created by ``by``); ``invite`` is
    its invite token, shown to this table's seated players only."""

    table_id: str
    invite: str
    by: str
