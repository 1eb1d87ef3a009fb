"""What the shell must do after a decision, as data (``decide`` does none of it).

The shell (app/tables/actor.py) carries them out in this order: every ``Store`` first, in
order (if one fails, the new table is dropped: nothing changed, nobody is told); then the
new table is kept and the rest is done as listed: pushes, chat lines, bots' thinking, and
the answer to whoever sent the command (``Reply`` or ``Refuse``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from app.errors import AppError
from app.games.base import Event

# ------------------------------------------------------------------------ writes (Store)


@dataclass(slots=True)
class SaveSeats:
    seats: tuple[str | None, ...]
    host_id: str
    version: int


@dataclass(slots=True)
class SetStatus:
    status: str
    version: int
    started: bool = False  # the game starts now: the start time is stored too


@dataclass(slots=True)
class AppendAction:
    version: int
    seat: int
    action: dict[str, Any]
    source: str
    outcome: dict[str, Any] | None  # the result, when this action ended the game


@dataclass(slots=True)
class DeleteTable:
    pass


@dataclass(slots=True)
class CreateBot:
    bot_id: str
    name: str


Write = SaveSeats | SetStatus | AppendAction | DeleteTable | CreateBot


@dataclass(slots=True)
class Store:
    """Write this (fenced by the table's owner epoch) before anything else happens."""

    write: Write


# ------------------------------------------------------------------------ telling people


@dataclass(slots=True)
class Broadcast:
    """Every connection gets its own state message (with these events, redacted per seat);
    ``exclude``: a connection already told."""

    events: Sequence[Event] = ()
    exclude: int | None = None


@dataclass(slots=True)
class SendState:
    """One connection gets its state message (``history``: with the whole log)."""

    conn: int
    history: bool = False


@dataclass(slots=True)
class SendChat:
    """One connection gets the table's recent chat lines (it just connected)."""

    conn: int


@dataclass(slots=True)
class Relay:
    """A live update from ``conn`` (seat ``seat``) to every other connection that may see
    it (``event``'s visibility)."""

    conn: int
    seat: int
    event: Event


@dataclass(slots=True)
class SystemLine:
    """A short system line in the chat: a code the page translates, with parameters."""

    code: str
    seat: int | None = None
    params: dict[str, Any] | None = None


@dataclass(slots=True)
class ChatLine:
    """Someone's chat line: stored (the sender waits for it), then pushed to everyone."""

    kind: str  # player | spectator
    seat: int | None
    player_id: str
    name: str
    text: str


@dataclass(slots=True)
class CloseAll:
    """The table is gone: tell every connection why and close it."""

    code: str
    message: str


# ------------------------------------------------------------------------ the rest


@dataclass(slots=True)
class Think:
    """Let the bot of ``seat`` choose a move off the event loop for ``version``; the shell
    sends its choice back as a ``BotMove`` command."""

    seat: int
    version: int


@dataclass(slots=True)
class FollowUp:
    """Decide this command next, before anything else queued (its own writes may fail
    without undoing this decision)."""

    command: Any


@dataclass(slots=True)
class Reply:
    value: Any = None


@dataclass(slots=True)
class Refuse:
    error: AppError


Effect = (Store | Broadcast | SendState | SendChat | Relay | SystemLine | ChatLine | CloseAll
          | Think | FollowUp | Reply | Refuse)
