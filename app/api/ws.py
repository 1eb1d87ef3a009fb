"""The table WebSocket: authenticate, register with the actor, relay messages both ways.

Authentication: ``Authorization: Bearer <token>`` or ``?token=`` (scripts and bots), or the
browser's identity cookie (then the Origin must be this site). Anyone allowed to watch may
connect without a seat and gets the spectator view. Private tables need a seat, ``?invite=``
or the spectator link's ``?watch=<key>``. ``?screen=1``: a table screen, a spectator whoever
opens it, that never gets a cooperative game's "all hands" view. ``?seat=N``: which of its
player's seats the connection is for, when the player holds several (the hot seat of a
branch): it gets that seat's view only and its moves are that seat's.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from urllib.parse import urlsplit

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from app import bounds
from app.api.deps import get_registry, identify, token_from, watch_key_ok
from app.api.forward import original_host
from app.config import get_settings
from app.errors import STORAGE_DOWN, AppError, storage_unavailable
from app.tables import limits
from app.tables.actor import TableActor
from app.tables.connections import Connection
from app.tables.core.commands import Act, Chat, Ephemeral, Sync
from app.tables.core.state import TableStatus
from app.tables.protocol import (
    ActionMessage,
    ChatMessage,
    EphemeralMessage,
    PingMessage,
    parse_client_message,
)

router = APIRouter()
log = logging.getLogger(__name__)

POLICY_VIOLATION = 1008
TRY_AGAIN_LATER = 1013


def _origin_ok(websocket: WebSocket) -> bool:
    origin = websocket.headers.get("origin")
    if origin is None:
        return True  # not a browser
    # the host the browser used, also when another process of a cluster piped it here
    return urlsplit(origin).netloc == original_host(websocket.headers, websocket.url.path)


async def _close_quietly(websocket: WebSocket, code: int, reason: str) -> None:
    """Close the socket; one already closed, or whose client has gone (Starlette raises
    WebSocketDisconnect, 1006), has nothing to close and is no error of the server's."""
    try:
        await websocket.close(code, reason)
    except (RuntimeError, WebSocketDisconnect):
        pass


async def _refuse(websocket: WebSocket, error: dict[str, object], code: int,
                  reason: str) -> None:
    """Say why the socket is refused, then close it; a client that has already gone (it
    may leave before the answer is ready) needs neither."""
    try:
        await websocket.send_json(error)
    except (RuntimeError, WebSocketDisconnect):
        return
    await _close_quietly(websocket, code, reason)


@router.websocket("/ws/tables/{table_id}")
async def table_socket(websocket: WebSocket, table_id: str) -> None:
    settings = get_settings()
    registry = get_registry(websocket)
    await websocket.accept()
    try:
        player = await identify(websocket)
        _, from_cookie = token_from(websocket, settings)
        if from_cookie and not _origin_ok(websocket):
            raise AppError("forbidden", "cross-site WebSocket refused", 403)
        actor = await registry.get(table_id)
    except AppError as exc:
        await _refuse(websocket, {"type": "error", "version": 0, **exc.to_json()},
                      POLICY_VIOLATION, exc.code)
        return
    except STORAGE_DOWN:
        # the database (or a cluster's Redis) is down: say so; the page's socket reconnects
        # by itself later
        log.warning("storage unavailable while opening a table socket", exc_info=True)
        await _refuse(websocket, {"type": "error", "version": 0,
                                  **storage_unavailable().to_json()},
                      TRY_AGAIN_LATER, "storage_unavailable")
        return

    close = functools.partial(_close_quietly, websocket)

    # a table screen (?screen=1) holds no seat, whoever opened it: a spectator, never shown
    # a cooperative game's "all hands" view
    screen = websocket.query_params.get("screen") == "1"
    if screen:
        player = None
    conn = Connection(player.id if player else None, websocket.send_text, close,
                      settings.outbound_queue)
    conn.screen = screen
    conn.name = player.name if player else ""
    # ?seat=N: which of its player's seats it is for (a branch's hot seat holds several)
    wanted = websocket.query_params.get("seat", "")
    conn.seat = int(wanted) if wanted.isascii() and wanted.isdigit() and len(wanted) < 4 \
        else None
    watch = watch_key_ok(actor.table.id, actor.table.invite_token,
                         websocket.query_params.get("watch"))
    writer = asyncio.get_running_loop().create_task(conn.writer())
    ending: str | None = None  # why the server closes it (else the client did)
    try:
        try:
            await actor.connect(conn, websocket.query_params.get("invite"), watch)
        except AppError as exc:
            conn.push({"type": "error", "version": actor.table.version, **exc.to_json()})
            ending = exc.code
        else:
            # the socket's loop runs as a task of its own: each message resumes that task's
            # few frames, not the whole ASGI chain (server, middlewares, router) this handler
            # sits under; cancelling this handler cancels the task it awaits
            relay = asyncio.get_running_loop().create_task(
                _relay(websocket, actor, conn, settings.max_message_bytes))
            if await relay:
                ending = "flood"
    finally:
        # however the socket ended (or this handler was stopped), the connection ends here,
        # and with it its place at the table (``TableActor.connect``: ``on_end``)
        conn.finish()
        try:
            await asyncio.wait_for(writer, timeout=5)
        except (TimeoutError, asyncio.CancelledError):
            writer.cancel()
    if ending is not None:  # after the writer has delivered the reason
        await close(POLICY_VIOLATION, ending)


async def _relay(websocket: WebSocket, actor: TableActor, conn: Connection, limit: int
                 ) -> bool:
    """Relay the socket's messages to the actor until it closes (or the table is deleted);
    True if it was cut off for flooding."""
    bucket = limits.Bucket(limits.MESSAGES_PER_SECOND, limits.MESSAGE_BURST)
    strikes = 0  # messages dropped in a row for going over the rate
    try:
        while True:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                break
            if conn.dropped:
                # too slow: it has left the table, and its socket is closed with 4008 once
                # it has read what it was sent; until then what it says is not heard (this
                # handler returning now would end the socket with no close frame at all)
                continue
            if not bucket.spend():
                strikes += 1
                if strikes >= limits.FLOOD_STRIKES:
                    conn.push({"type": "error", "version": actor.table.version,
                               "code": "flood", "message": "too many messages; disconnected"})
                    return True
                if strikes == 1:  # one error per burst, not one per dropped message
                    conn.push({"type": "error", "version": actor.table.version,
                               "code": "rate_limited",
                               "message": f"at most {limits.MESSAGES_PER_SECOND:g} messages "
                               "a second: this one was dropped, nothing changed"})
                continue
            strikes = 0
            raw = message.get("text")
            if raw is None:
                conn.push({"type": "error", "version": actor.table.version,
                           "code": "bad_message",
                           "message": "binary frames are not accepted: send JSON as text"})
                continue
            await _handle(actor, conn, raw, limit)
            if actor.table.status is TableStatus.DELETED:
                break
    except WebSocketDisconnect:
        pass
    return False


def _parse(raw: str | bytes, limit: int) -> object:
    """The message, or ``AppError``: also for text nested deeper than any game message,
    which would take the decoder past the interpreter's recursion limit (a RecursionError
    used to drop the socket)."""
    if len(raw) <= limit and bounds.text_too_deep(raw):
        raise AppError("bad_message", f"message: nested too deeply (at most "
                       f"{bounds.MAX_DEPTH} levels of arrays and objects)")
    try:
        return parse_client_message(raw, limit)
    except RecursionError:  # a decoder's own limit: the bound above should come first
        raise AppError("bad_message", "message: nested too deeply") from None


async def _handle(actor: TableActor, conn: Connection, raw: str | bytes, limit: int) -> None:
    try:
        msg = _parse(raw, limit)
        if isinstance(msg, ActionMessage):
            if conn.player_id is None:
                raise AppError("forbidden", "spectators cannot act", 403)
            await actor.submit(Act(conn.player_id, msg.action, msg.version, conn.id))
        elif isinstance(msg, ChatMessage):
            await actor.submit(Chat(conn.id, msg.text))
        elif isinstance(msg, EphemeralMessage):
            await actor.submit(Ephemeral(conn.id, msg.data))
        elif isinstance(msg, PingMessage):
            conn.push({"type": "pong", "version": actor.table.version})
        else:
            await actor.submit(Sync(conn.id))
    except AppError as exc:
        conn.push({"type": "error", "version": actor.table.version, **exc.to_json()})
