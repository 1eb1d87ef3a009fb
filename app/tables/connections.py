"""One live WebSocket as the actor sees it: a bounded outbound queue drained by a writer task.

The actor only ever calls :meth:`Connection.push`, which never blocks: a client that cannot
keep up is dropped (it resyncs when it reconnects) and never stalls the table.

A connection ends once, whatever ends it: its socket closed (a close frame, a reset, a close
during the first view: the socket's handler calls :meth:`Connection.finish`), the table
closing it, its client too slow (the queue full), or a send that failed. Each of these tells
``on_end`` (the table: app/tables/actor.py takes the connection out there), so no ending
leaves it behind at its table.

Every message goes out through the Starlette WebSocket's public ``send_text``, awaited by
the connection's writer task, in the order pushed; a send that stays blocked (the client reads
nothing) drops the client as a full queue does.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

import orjson

from app.tasks import spawn

log = logging.getLogger(__name__)

_ids = itertools.count(1)

SLOW_CLIENT = 4008  # close code: the client fell too far behind
# A send that waits longer than this (the socket's buffers are full: its client reads
# nothing, or far too little) drops the client as too slow, as a full queue does. It must be
# well inside uvicorn's keepalive (a ping every 20 s, 20 s to answer it), which otherwise
# gives up on a client that stops reading first and closes it with 1011, not 4008.
STALLED_SECONDS = 5.0


def _dumps(value: Any) -> bytes:
    """JSON bytes (orjson: several times faster than the standard library).

    Messages have string keys; a dict with other keys (an engine's detail keyed by seat,
    say) is still encoded, by a second, slower pass that turns its keys into strings (that
    option costs ~70 % more on every message, so it is not the first try)."""
    try:
        return orjson.dumps(value)
    except TypeError:
        return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS)


def encode(message: dict[str, Any]) -> str:
    """JSON text for the wire."""
    return _dumps(message).decode()


class BroadcastEncoder:
    """Encodes the state messages of one broadcast, each part that several messages hold
    once.

    The seats' messages of one change share objects: the table's summary, clock and
    turn (the part every seat is told alike), and inside each seat's view whatever the game
    built once for every seat (Hanabi's log, discard pile and the hands as others see them).
    Any list or dict met a second time, the same object, at the top of a message or at the
    top of a dict in it (the view), is spliced in as the JSON already made for it
    (``orjson.Fragment``): the text is exactly what encoding it again would give. Only the
    identical object is reused, never an equal-looking one, so a part one seat may not see
    can never reach another through this (the memo holds the objects, so their ids stay
    theirs while it lives). Use one encoder per broadcast: nothing is kept across changes.
    """

    __slots__ = ("_memo",)

    def __init__(self) -> None:
        self._memo: dict[int, tuple[Any, orjson.Fragment]] = {}

    def _part(self, value: Any) -> Any:
        hit = self._memo.get(id(value))
        if hit is None:
            hit = self._memo[id(value)] = (value, orjson.Fragment(_dumps(value)))
        return hit[1]

    def encode(self, message: dict[str, Any]) -> str:
        return self.encode_bytes(message).decode()

    def encode_bytes(self, message: dict[str, Any]) -> bytes:
        """The message's JSON as UTF-8 bytes (what the socket sends: no str in between)."""
        out = dict(message)
        table = out.get("table")
        if type(table) is dict:
            out["table"] = self._part(table)
        view = out.get("view")
        if type(view) is dict:
            view = out["view"] = dict(view)
            memo = self._memo
            for key, value in view.items():
                if type(value) is list and len(value) > 3:
                    if id(value) in memo or type(value[0]) is not list:
                        view[key] = self._part(value)
                    else:  # a seat's own list of shared lists (Hanabi's hands): those
                        view[key] = [self._part(item) if type(item) is list else item
                                     for item in value]
        return _dumps(out)


class Connection:
    def __init__(self, player_id: str | None, send_text: Callable[[str], Awaitable[None]],
                 close: Callable[[int, str], Coroutine[Any, Any, None]], queue_size: int
                 ) -> None:
        self.id = next(_ids)
        self.player_id = player_id
        self.name = ""  # the player's display name (spectators are listed by it)
        # a table screen (/tables/<id>/screen): a spectator that never gets the "all hands"
        # view a cooperative table may allow its spectators (the room sees the screen)
        self.screen = False
        # the seat it is for when its player holds several (a branch's hot seat: ?seat=)
        self.seat: int | None = None
        self._send_text = send_text
        self._close = close
        # UTF-8 JSON text as bytes (the writer task hands it to ``send_text`` as str)
        self._queue: asyncio.Queue[bytes | None] = asyncio.Queue(maxsize=queue_size)
        self.dropped = False
        # told once, when the connection ends, whatever ends it (the table lets it go)
        self.on_end: Callable[[], None] | None = None
        self._close_with: tuple[int, str] | None = None

    def push(self, message: dict[str, Any]) -> None:
        if not self.dropped:
            self.push_bytes(_dumps(message))

    def push_text(self, text: str) -> None:
        """Queue an already encoded message."""
        if not self.dropped:
            self.push_bytes(text.encode())

    def push_bytes(self, payload: bytes) -> None:
        """Queue an already encoded message, its JSON text as UTF-8 bytes (a broadcast
        encodes once per seat, not per connection, and the bytes go out as they are)."""
        if self.dropped:
            return
        try:
            self._queue.put_nowait(payload)
        except asyncio.QueueFull:
            self._too_slow()

    def _too_slow(self) -> None:
        """Drop the client, and close its socket with 4008 once what it was sent so far
        has gone out (the close waits behind it)."""
        if self.dropped:
            return
        self._drop()
        log.info("dropping slow connection %s", self.id)
        self._close_soon(SLOW_CLIENT, "too slow; resync")

    def _drop(self) -> None:
        """Nothing more goes out (the client is too slow, or its socket failed): ended."""
        self.dropped = True
        self._end()

    def _end(self) -> None:
        on_end, self.on_end = self.on_end, None
        if on_end is not None:
            on_end()

    def finish(self, close: tuple[int, str] | None = None) -> None:
        """Ask the writer to stop after what is already queued, then close the socket with
        ``close`` (code, reason) if given."""
        self._close_with = close
        try:
            self._queue.put_nowait(None)
        except asyncio.QueueFull:
            self._drop()
            if close is not None:
                self._close_soon(*close)
        self._end()

    def _close_soon(self, code: int, reason: str) -> None:
        """Close the socket in a task of its own; a socket whose client has already gone has
        nothing to close, so a failure is routine (told at debug level)."""
        spawn(self._close(code, reason), f"closing connection {self.id}", logging.DEBUG)

    async def writer(self) -> None:
        try:
            while not self.dropped:
                payload = await self._queue.get()
                if payload is None:
                    if self._close_with is not None:
                        await self._close(*self._close_with)
                    break
                try:
                    async with asyncio.timeout(STALLED_SECONDS):
                        await self._send_text(payload.decode())
                except TimeoutError:  # its buffers stayed full: nothing of it went out
                    self._too_slow()
                    break
        except Exception:  # noqa: BLE001 - a broken socket ends this connection only
            log.debug("writer for connection %s ended", self.id, exc_info=True)
            self._drop()
