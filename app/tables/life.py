"""The table's life beyond the rules, as part of the table actor (a mixin of ``TableActor``):
chat stored with the table and its system lines, who is connected and for how long, the
clock, resigning, votes, and tables that expire or are closed when everyone has left.

Everything here runs inside the actor's task, like the rest of the actor: commands come in
on its queue; time is the actor's ``_clock`` (a fake one in tests).

System lines are codes with parameters (``{"code": "timeout", "params": {"name": "Ana"}}``),
never English text: the page translates ``chat.system.<code>``.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from app.db.repository import now
from app.errors import AppError, forbidden
from app.games.base import SYSTEM_SEAT, IllegalAction, open_window
from app.tables import limits
from app.tables.clocks import TableClock
from app.tables.ending import early_outcome
from app.tables.options import option
from app.tables.votes import PROPOSALS, VOTE_SECONDS, Vote

if TYPE_CHECKING:
    from app.tables.connections import Connection

log = logging.getLogger(__name__)

CHAT_KEPT = 100  # lines kept in memory (and replayed to a new connection: the last 50)
# presence lines (away / back) per player: a burst of 4, then one every 30 s
PRESENCE_BURST = 4
PRESENCE_PER_SECOND = 1 / 30


# --------------------------------------------------------------------------- commands


@dataclass
class Resign:
    player_id: str


@dataclass
class Propose:
    player_id: str
    proposal: str
    target: int | None = None


@dataclass
class Cast:
    player_id: str
    vote_id: int
    yes: bool


@dataclass
class ClockCheck:
    """A clock (a seat's time, a vote's) has or may have run out."""

    token: int


@dataclass
class Housekeep:
    """The janitor's round: expire a waiting table nobody has been at for ``waiting_after``
    seconds; close as abandoned a playing table no seated player has been connected to for
    ``empty_after`` seconds. Answers what it did: None, "expired" or "closed"."""

    waiting_after: float
    empty_after: float


@dataclass
class SetRematch:
    """The rematch of this finished table is ``table_id`` (created by ``by``); ``invite`` is
    its invite token, shown to this table's seated players only."""

    table_id: str
    invite: str
    by: str


# --------------------------------------------------------------------------- the mixin


class TableLife:
    # provided by TableActor
    info: Any
    engine: Any
    repo: Any
    state: Any
    connections: dict[int, Connection]
    chat: list[dict[str, Any]]
    _clock: Any
    _queue: asyncio.Queue[Any]
    autopilot: set[int]

    def _init_life(self, table_clock: TableClock | None, chat: list[dict[str, Any]] | None,
                   sources: dict[int, tuple[str, int]] | None) -> None:
        self.chat = list(chat or [])[-CHAT_KEPT:]
        self._chat_seq = max((line["id"] for line in self.chat), default=0)
        self.table_clock = table_clock or TableClock.from_options(self.info.options,
                                                                  self.info.seat_count)
        self._clock_handle: asyncio.TimerHandle | None = None
        self._clock_token = 0
        self.vote: Vote | None = None
        self._vote_ids = 0
        self._away_since: dict[int, float] = {}  # seat -> when its last connection left
        self._announced_away: set[int] = set()
        self._presence_buckets: dict[str, limits.Bucket] = {}
        self._idle_since = self._clock()  # nobody (seated, once playing) connected since
        self._busy = False
        self.rematch_id: str | None = None
        self.rematch_invite = ""
        # version -> (source, seat) of the actions a player did not choose (a timeout, a
        # window's deadline, a resignation, a vote...): the page marks them in the log
        self._sources: dict[int, tuple[str, int]] = dict(sources or {})

    # ------------------------------------------------------------------ presence

    def connected_seats(self) -> set[int]:
        return {c.seat for c in self.connections.values() if c.seat is not None and not c.dropped}

    def _track_presence(self) -> tuple[set[int], set[int]]:
        """Bring the away-since marks up to date; answer (seats that just left, seats that
        just came back)."""
        t = self._clock()
        here = self.connected_seats()
        bots = getattr(self.info, "bots", set())
        left, back = set(), set()
        for seat, pid in enumerate(self.info.seats):
            if pid is None:
                self._away_since.pop(seat, None)
            elif seat in here or pid in bots:  # a bot seat is never away
                if self._away_since.pop(seat, None) is not None:
                    back.add(seat)
            elif seat not in self._away_since:
                self._away_since[seat] = t
                left.add(seat)
        busy = bool(here) if self.info.status == "playing" else any(
            not c.dropped for c in self.connections.values())
        if busy or self._busy:  # idle from the moment the last one left
            self._idle_since = t
        self._busy = busy
        return left, back

    def away_for(self, seat: int) -> float | None:
        since = self._away_since.get(seat)
        return None if since is None else max(0.0, self._clock() - since)

    def absent_seats(self, t: float) -> list[int]:
        grace = float(option(self.info.options, "absent_grace_seconds", 120))
        return sorted(s for s, since in self._away_since.items()
                      if self.info.seats[s] is not None and t - since >= grace)

    async def _presence_changed(self) -> None:
        left, back = self._track_presence()
        if self.info.status == "playing":
            for seat in sorted(left):
                if self._presence_allowed(seat):
                    self._announced_away.add(seat)
                    await self.system_line("away", seat=seat)
            for seat in sorted(back):
                if seat in self._announced_away:
                    self._announced_away.discard(seat)
                    await self.system_line("back", seat=seat)
                if seat in self.autopilot:  # the player is back: the seat is theirs at once
                    try:
                        await self.set_autopilot(seat, False, "back")  # type: ignore[attr-defined]
                    except AppError:
                        log.warning("table %s: seat %s not handed back yet", self.info.id,
                                    seat)
        await self._recheck_vote()
        self._arm_clock()

    def _presence_allowed(self, seat: int) -> bool:
        player = self.info.seats[seat] or ""
        bucket = self._presence_buckets.setdefault(
            player, limits.Bucket(PRESENCE_PER_SECOND, PRESENCE_BURST, self._clock))
        return bucket.spend()

    # ------------------------------------------------------------------ chat

    async def system_line(self, code: str, seat: int | None = None,
                          **params: Any) -> None:
        """A short system line in the chat (stored; a storage failure only loses it)."""
        if seat is not None:
            params.setdefault("name", self._name_of_seat(seat))
        # not awaited: stored with the chat writer's next batch (a failure is logged there)
        await self._store_line(False, kind="system", seat=seat, player_id=None, name="",
                               text=None, code=code, params=params)

    async def _store_line(self, wait: bool, **line: Any) -> dict[str, Any]:
        """Give the line the table's next chat number, store it (``wait``: until it is
        stored, else in the background) and push it to every connection."""
        self._chat_seq += 1
        at = now()
        stored = self.repo.queue_chat_line(self.info.id, self._chat_seq, at=at, **line)
        if wait:
            await stored
        message = {"type": "chat", "version": self.info.version, "id": self._chat_seq,
                   "kind": line["kind"], "seat": line["seat"], "name": line["name"],
                   "text": line["text"], "code": line["code"], "params": line["params"],
                   "at": at.isoformat()}
        self.chat = [*self.chat[-(CHAT_KEPT - 1):], message]
        for conn in list(self.connections.values()):
            conn.push(message)
        return message

    def _name_of_seat(self, seat: int) -> str:
        pid = self.info.seats[seat] if 0 <= seat < len(self.info.seats) else None
        return self.info.names.get(pid or "", "") if pid else ""

    def spectator_chat_allowed(self) -> bool:
        if not option(self.info.options, "spectator_chat", True):
            return False
        # spectators who see every card must not tell the players theirs
        return not (self.sees_all(None) and self.info.status == "playing")

    def sees_all(self, seat: int | None, screen: bool = False) -> bool:
        """Whether ``seat`` gets the view with nothing hidden: only spectators, never a table
        screen, only in a cooperative game whose host allowed it."""
        return (seat is None and not screen and getattr(self.engine, "cooperative", False)
                and bool(option(self.info.options, "spectators_see_all", False)))

    def _source_json(self, version: int) -> dict[str, Any]:
        source, seat = self._sources.get(version, ("player", None))  # type: ignore[arg-type]
        return {"source": source, "by": seat}

    def view_for(self, seat: int | None, screen: bool = False) -> Any:
        if self.sees_all(seat, screen):
            return view_all(self.engine, self.state)
        return self.engine.view(self.state, seat)

    # ------------------------------------------------------------------ the clock

    def _clock_inputs(self) -> tuple[set[int], Any, bool]:
        return clock_inputs(self.engine, self.state)

    def _update_clock(self) -> None:
        t = self._clock()
        if self.info.status != "playing" or self.state is None:
            self.table_clock.stop(t)
        else:
            waiting, marker, has_marker = self._clock_inputs()
            self.table_clock.update(t, waiting, marker, has_marker)
        self._arm_clock()

    def _arm_clock(self) -> None:
        """One timer for whatever runs out first: a seat's time or the open vote."""
        if self._clock_handle is not None:
            self._clock_handle.cancel()
            self._clock_handle = None
        due = [d for d in (self.table_clock.next_due(),
                           self.vote.deadline if self.vote is not None else None)
               if d is not None]
        if not due:
            return
        self._clock_token += 1
        delay = max(0.0, min(due) - self._clock())
        self._clock_handle = asyncio.get_running_loop().call_later(
            delay, self._fire_clock, self._clock_token)

    def _fire_clock(self, token: int) -> None:
        from app.tables.actor import _Envelope

        self._queue.put_nowait(_Envelope(ClockCheck(token)))

    async def _on_clockcheck(self, cmd: ClockCheck) -> None:
        # a check is always safe: the token only avoids piling up stale wake-ups
        if cmd.token != self._clock_token and cmd.token != 0:
            return
        await self._expire_vote()
        # one timeout move per wake-up: when more are due the timer fires again at once,
        # so what else is queued for this table (moves, chat) goes in between
        waiting = self._clock_inputs()[0] if self.info.status == "playing" else set()
        due = [s for s in self.table_clock.due(self._clock()) if s in waiting]
        if due:
            seat = due[0]
            try:
                action = self.engine.timeout_action(self.state, seat)
                await self._apply(seat, action, "timeout")  # type: ignore[attr-defined]
            except (AppError, IllegalAction) as exc:  # nobody awaits a clock's answer
                log.error("table %s: no timeout move for seat %s: %s", self.info.id, seat,
                          exc)
                self.table_clock.deadlines.pop(seat, None)  # not again until the next change
        self._arm_clock()

    # ------------------------------------------------------------------ ending early

    async def _on_resign(self, cmd: Resign) -> int:
        seat = self._seated(cmd.player_id)
        if self.info.status != "playing":
            raise AppError("not_playing", "the game is not in progress", 409)
        return await self.end_early({"type": "resign", "seat": seat}, "resign")

    async def end_early(self, action: dict[str, Any], source: str) -> int:
        """Store a platform action that ends the game (see ``app.tables.ending``) and tell
        everyone; the engine's state stays as it was."""
        version = await self._apply(SYSTEM_SEAT, action, source)  # type: ignore[attr-defined]
        outcome = self.info.outcome or {}
        details = outcome.get("details", {})
        if details.get("end") == "resigned":
            await self.system_line("resigned", seat=details["seat"])
        else:
            await self.system_line("abandoned", reason=details.get("reason"))
        return int(version)

    def early_outcome(self, action: dict[str, Any]) -> dict[str, Any]:
        return early_outcome(self.engine, self.state, self.info.seat_count, action)

    # ------------------------------------------------------------------ votes

    def _seated(self, player_id: str) -> int:
        seat = self.seat_of(player_id)  # type: ignore[attr-defined]
        if seat is None:
            raise forbidden("only seated players can do that")
        return int(seat)

    async def _on_propose(self, cmd: Propose) -> dict[str, Any]:
        seat = self._seated(cmd.player_id)
        proposal = PROPOSALS.get(cmd.proposal)
        if proposal is None:
            raise AppError("unknown_proposal", "no such proposal; there is: "
                           + ", ".join(sorted(PROPOSALS)), 422)
        if cmd.target is not None and not 0 <= cmd.target < self.info.seat_count:
            raise AppError("bad_seat", f"seats go from 0 to {self.info.seat_count - 1}")
        if self.vote is not None:
            raise AppError("vote_open", "a vote is already open at this table", 409)
        t = self._clock()
        proposal.check(self, cmd.target, t)  # type: ignore[arg-type]
        self._vote_ids += 1
        voters = proposal.voters(self, cmd.target) | {seat}  # type: ignore[arg-type]
        vote = Vote(self._vote_ids, proposal.name, seat, cmd.target, frozenset(voters),
                    t + VOTE_SECONDS, yes={seat})
        self.vote = vote
        await self.system_line("vote_proposed", seat=seat, proposal=proposal.name)
        await self._settle_vote()
        return vote.to_json(t)

    async def _on_cast(self, cmd: Cast) -> dict[str, Any]:
        seat = self._seated(cmd.player_id)
        vote = self.vote
        if vote is None or vote.id != cmd.vote_id:
            raise AppError("no_vote", "that vote is not open", 409)
        if seat not in vote.voters:
            raise forbidden("this vote does not ask you")
        (vote.yes if cmd.yes else vote.no).add(seat)
        (vote.no if cmd.yes else vote.yes).discard(seat)
        result = vote.to_json(self._clock())
        await self._settle_vote()
        return result

    async def _settle_vote(self) -> None:
        vote = self.vote
        if vote is None:
            return
        decided = vote.decided()
        if decided is None:
            self._arm_clock()
            self._broadcast()  # type: ignore[attr-defined]
            return
        self.vote = None
        await self.system_line(f"vote_{decided}", proposal=vote.proposal)
        if decided == "passed":
            await PROPOSALS[vote.proposal].enact(self, vote)  # type: ignore[arg-type]
        else:
            self._broadcast()  # type: ignore[attr-defined]
        self._arm_clock()

    async def _recheck_vote(self) -> None:
        vote = self.vote
        if vote is None:
            return
        try:
            PROPOSALS[vote.proposal].check(self, vote.target, self._clock())  # type: ignore[arg-type]
        except AppError:
            self.vote = None
            await self.system_line("vote_cancelled", proposal=vote.proposal)

    async def _expire_vote(self) -> None:
        if self.vote is not None and self._clock() >= self.vote.deadline:
            proposal = self.vote.proposal
            self.vote = None
            await self.system_line("vote_failed", proposal=proposal)
            self._broadcast()  # type: ignore[attr-defined]

    # ------------------------------------------------------------------ housekeeping

    async def _on_housekeep(self, cmd: Housekeep) -> str | None:
        idle = self._clock() - self._idle_since
        if self.info.status == "waiting" and idle >= cmd.waiting_after and \
                not any(not c.dropped for c in self.connections.values()):
            await self._delete(code="table_expired",  # type: ignore[attr-defined]
                               message="nobody came to this table: it expired")
            return "expired"
        if self.info.status == "playing" and idle >= cmd.empty_after and \
                not self.connected_seats():
            await self.end_early({"type": "abandon", "reason": "empty"}, "empty")
            return "closed"
        return None

    def idle_for(self) -> float:
        return self._clock() - self._idle_since

    # ------------------------------------------------------------------ rematch

    async def _on_setrematch(self, cmd: SetRematch) -> str:
        # the API holds a lock per finished table and only sends this when there is no live
        # rematch yet (none, or the last one was deleted)
        self.rematch_id, self.rematch_invite = cmd.table_id, cmd.invite
        await self.system_line("rematch", name=self.info.names.get(cmd.by, ""))
        self._broadcast()  # type: ignore[attr-defined]
        return self.rematch_id

    def rematch_json(self, seat: int | None) -> dict[str, Any] | None:
        if self.rematch_id is None:
            return None
        out: dict[str, Any] = {"table": self.rematch_id}
        if seat is not None and self.rematch_invite:
            # the players are invited (the new table may be private); spectators only learn
            # which table it is
            out["invite"] = self.rematch_invite
        return out


def clock_inputs(engine: Any, state: Any) -> tuple[set[int], Any, bool]:
    """The seats a clock presses now (the game waits for them; seats answering a timed
    window are left to the window's deadline), the turn marker, and whether there is one."""
    waiting = set(getattr(engine, "waiting_for", engine.to_act)(state))
    window = open_window(engine, state)
    if window is not None:
        waiting -= set(window.seats)
    marker_fn = getattr(engine, "turn_marker", None)
    return waiting, (marker_fn(state) if marker_fn is not None else None), marker_fn is not None


def view_all(engine: Any, state: Any) -> Any:
    """The engine's view with nothing hidden (``view_all``), else the spectator's view (a
    game with nothing private to one seat)."""
    hook = getattr(engine, "view_all", None)
    return hook(state) if hook is not None else engine.view(state, None)


def chat_message(row: Any, version: int) -> dict[str, Any]:
    """A stored chat line (``app.db.models.ChatLine``) as the WebSocket sends it."""
    return {"type": "chat", "version": version, "id": row.seq, "kind": row.kind,
            "seat": row.seat, "name": row.name, "text": row.text, "code": row.code,
            "params": row.params, "at": row.created_at.isoformat()}
