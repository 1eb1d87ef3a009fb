"""Reaching a table's owner in a cluster: every request about a table goes where it lives.

Several processes share the database and Redis; each table is owned by exactly one of them
(``app/tables/cluster.py``). Any process accepts any request. Before the application sees a
request about a table (``/api/tables/<id>...``, ``/ws/tables/<id>``, ``/tables/<id>``,
``/watch/<id>/<key>``, ``/screen/<id>/<key>``, ``/join/<invite>``), this middleware looks
the owner up in Redis:

- nobody owns it, or this process does: the request is served here (the registry takes the
  table over first if needed);
- another live process owns it: the HTTP request is forwarded to it as is (method, path,
  headers, body; the answer streamed back), and a WebSocket is piped both ways, frame by
  frame, until either side closes.

Why forward in the app rather than route by table id in the proxy: ownership moves (a
process dies, another takes its tables over) and only Redis knows where a table is now; a
proxy in front (nginx in docker-compose) can spread connections however it likes, and a
request that lands on the wrong process costs one hop on loopback or the LAN. The actor
stays the single writer of its table; the forwarding process holds no game state at all.

Before forwarding a request on a path the proxy hashes by table id, this process asks the
owner to hand the table over (``/_cluster/handover/<id>``, signed; ``Registry.take`` and
``Registry.give``): the owner does while no socket is at the table there, so a table comes
to live on the process its traffic lands on, and the hop is paid only while it has sockets
elsewhere (docs/operations.md, "A table moves to where its traffic lands").

A forwarded request carries a header signed with the shared secret key, so the owner serves
it without forwarding it again and trusts the original host it names (for the WebSocket
Origin check). Requests from outside can never set it.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import hashlib
import hmac
import json
import logging
import re
from typing import Any
from urllib.parse import urlsplit

import httpx
from redis.exceptions import RedisError
from starlette.datastructures import Headers
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.types import ASGIApp, Receive, Scope, Send
from websockets.asyncio.client import connect as ws_connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

from app.api.rendering import error_page
from app.api.security import wants_html
from app.config import CLIENT_IDLE_SECONDS, get_settings
from app.errors import AppError, storage_refusal
from app.tables.cluster import Cluster
from app.tasks import spawn

log = logging.getLogger(__name__)

FORWARDED = "x-ludoteca-forwarded"
FORWARDED_HOST = "x-ludoteca-host"
TABLE_PATH = re.compile(
    r"^/(?:api/tables|ws/tables|tables|watch|screen)/([A-Za-z0-9_-]{1,64})(?:/|$)")
INVITE_PATH = re.compile(r"^/join/([A-Za-z0-9_-]{1,128})/?$")
# the paths deploy/nginx.conf hashes by table id: a table's traffic through the proxy lands
# on one process, which asks the owner to hand the table over (``Registry.take``)
PLACED_PATH = re.compile(r"^/(?:api/tables|ws/tables|tables)/[A-Za-z0-9_-]")
HANDOVER_PATH = re.compile(r"^/_cluster/handover/([A-Za-z0-9_-]{1,64})$")
HANDOVER_TIMEOUT = 10.0  # seconds: the owner drains the table's queue first
MOVE_WAIT = 5.0  # seconds a request waits for a hand-over under way here
# not passed on: they describe one hop, not the request
HOP_BY_HOP = {"connection", "keep-alive", "proxy-authenticate", "proxy-authorization", "te",
              "trailer", "transfer-encoding", "upgrade", "content-length"}
WS_SKIP = HOP_BY_HOP | {"host", "origin", "sec-websocket-key", "sec-websocket-version",
                        "sec-websocket-extensions", "sec-websocket-protocol",
                        "sec-websocket-accept"}
MAX_BODY = 4 * 1024 * 1024
SERVICE_RESTART = 1012
TRY_AGAIN_LATER = 1013
# a socket piped to a table's owner (``_pipe_websocket``), in parts of the lease: the owner
# is pinged every PING_SHARE of it and given as long to answer; the table's owner is read
# again every OWNER_SHARE of it (``OwnerWatch``); an owner that stopped answering has its
# tables taken over within about a lease and a half, so the client is told to reconnect
# once that has happened (at most MOVE_SHARE of the lease later)
PING_SHARE = 0.5
OWNER_SHARE = 0.25
MOVE_SHARE = 2.0
PIPE_CLOSE_TIMEOUT = 2.0  # seconds an owner has to answer the pipe's close
# the close a piped client gets when the table's owner went away or the table moved
LOST = (SERVICE_RESTART, "table_moving")


def forward_signature(table_id: str) -> str:
    key = get_settings().resolved_secret_key().encode()
    return hmac.new(key, f"forward:{table_id}".encode(), hashlib.sha256).hexdigest()


def handover_signature(table_id: str, node_id: str) -> str:
    key = get_settings().resolved_secret_key().encode()
    return hmac.new(key, f"handover:{table_id}:{node_id}".encode(),
                    hashlib.sha256).hexdigest()


def is_forwarded(headers: Headers, table_id: str) -> bool:
    given = headers.get(FORWARDED)
    return given is not None and hmac.compare_digest(given, forward_signature(table_id))


def original_host(headers: Headers, path: str) -> str | None:
    """The Host the client used, also when another process forwarded the request here."""
    match = TABLE_PATH.match(path)
    if match and headers.get(FORWARDED_HOST) and is_forwarded(headers, match.group(1)):
        return headers.get(FORWARDED_HOST)
    return headers.get("host")


class ForwardMiddleware:
    """Serve a table's requests here or send them to the process that owns the table."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self._http: httpx.AsyncClient | None = None
        self._watch: OwnerWatch | None = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        registry = getattr(scope["app"].state, "registry", None)
        cluster: Cluster | None = getattr(registry, "cluster", None)
        if cluster is None or registry is None:  # (no registry: no cluster either)
            await self.app(scope, receive, send)
            return
        if scope["type"] == "http" and scope["path"].startswith("/_cluster/"):
            await self._give(scope, receive, send, registry)
            return
        try:
            table_id = await self._table_of(scope, registry)
            target = None
            if table_id is not None and table_id not in registry.actors \
                    and not is_forwarded(Headers(scope=scope), table_id):
                target = await self._route(scope, registry, cluster, table_id)
        except AppError as exc:
            await _refuse(scope, receive, send, exc)
            return
        except Exception as exc:
            # the database or Redis unavailable while placing the request (reading an
            # invite, taking a table over): outside the app's exception handlers, so the
            # same mapping here (app/errors.py)
            refusal = storage_refusal(exc)
            if refusal is None:
                raise
            log.warning("cluster: storage unavailable while routing %s: %r", scope["path"],
                        exc)
            await _refuse(scope, receive, send, refusal)
            return
        if target is None:
            await self.app(scope, receive, send)
        elif scope["type"] == "http":
            cluster.counts["forwarded_requests"] += 1
            await self._forward_http(scope, receive, send, target[1], table_id or "")
        else:
            cluster.counts["forwarded_sockets"] += 1
            moved = self._owners(cluster).moved(table_id or "", target[0])
            try:
                await _pipe_websocket(scope, receive, send, target[1], table_id or "",
                                      cluster, moved)
            finally:
                moved.cancel()

    def _owners(self, cluster: Cluster) -> OwnerWatch:
        if self._watch is None or self._watch.cluster is not cluster:
            self._watch = OwnerWatch(cluster)
        return self._watch

    async def _route(self, scope: Scope, registry: Any, cluster: Cluster,
                     table_id: str) -> tuple[str, str] | None:
        """Where a request about a table not in this process goes: None to serve it here
        (nobody owns it: the registry adopts it), else its owner (node, URL). A request on a path
        the proxy hashes by table id first asks the owner to hand the table over, so a
        table comes to live where its traffic lands (docs/operations.md)."""
        moving = registry.moving(table_id)
        if moving is not None:  # being handed over from here: wait, then follow it
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(moving.wait(), MOVE_WAIT)
        owner, target = await self._owner_url(cluster, table_id)
        if owner is None or target is None:
            return None
        if not get_settings().table_handover or not PLACED_PATH.match(scope["path"]):
            return owner, target

        async def ask() -> bool:
            return await self._ask_handover(target, table_id, cluster.node_id)

        if await registry.take(table_id, ask) is not None:
            return None
        if table_id in registry.actors:
            return None
        # kept by its owner (or it moved elsewhere meanwhile): follow the lease
        owner2, target2 = await self._owner_url(cluster, table_id)
        return (owner2, target2) if owner2 is not None and target2 is not None else None

    async def _ask_handover(self, target: str, table_id: str, node_id: str) -> bool:
        client = self._client()
        response = await client.post(
            f"{target}/_cluster/handover/{table_id}", json={"to": node_id},
            headers={FORWARDED: handover_signature(table_id, node_id)},
            timeout=HANDOVER_TIMEOUT)
        return response.status_code == 200 and response.json().get("result") == "given"

    async def _give(self, scope: Scope, receive: Receive, send: Send, registry: Any) -> None:
        """Another process asks for a table this one owns (``Registry.give``); only a
        request signed with the shared secret key is heard."""
        match = HANDOVER_PATH.match(scope["path"])
        body = bytearray()
        while True:
            message = await receive()
            body += message.get("body", b"")
            if len(body) > 4096 or not message.get("more_body"):
                break
        to_node = ""
        with contextlib.suppress(ValueError, AttributeError):
            to_node = str(json.loads(bytes(body)).get("to") or "")
        signature = Headers(scope=scope).get(FORWARDED) or ""
        if match is None or scope["method"] != "POST" or not to_node or not hmac.compare_digest(
                signature, handover_signature(match.group(1), to_node)):
            await JSONResponse({"code": "not_found", "message": "no such page"},
                               status_code=404)(scope, receive, send)
            return
        try:
            result = await registry.give(match.group(1), to_node)
        except RedisError:
            result = "storage_unavailable"
        status = 200 if result == "given" else 409
        await JSONResponse({"result": result}, status_code=status)(scope, receive, send)

    def _client(self) -> httpx.AsyncClient:
        if self._http is None:
            # the owner (this same server) closes a connection idle KEEP_ALIVE_SECONDS: one
            # kept as long (httpx's default, 5 s) is sometimes reused just as it closes, and
            # the request fails (httpx.ReadError: a spurious 503 "did not answer")
            limits = httpx.Limits(keepalive_expiry=CLIENT_IDLE_SECONDS)
            self._http = httpx.AsyncClient(timeout=httpx.Timeout(30.0, connect=3.0),
                                           limits=limits)
        return self._http

    async def _table_of(self, scope: Scope, registry: Any) -> str | None:
        path = scope["path"]
        match = TABLE_PATH.match(path)
        if match:
            return match.group(1)
        match = INVITE_PATH.match(path)
        if match:
            token = match.group(1)
            return registry._by_invite.get(token) or \
                await registry.repo.table_id_by_invite(token)
        return None

    @staticmethod
    async def _owner_url(cluster: Cluster, table_id: str) -> tuple[str | None, str | None]:
        """(owner node, its URL) of the table, or (None, None) to serve it here."""
        owner = await cluster.owner(table_id)
        if owner is None or owner == cluster.node_id:
            return None, None
        url = await cluster.node_url(owner)
        if url is None:  # its process is gone; the lease runs out in a moment
            raise AppError("table_moving", "this table's server stopped; it is being taken "
                           "over: try again in a moment", 503)
        return owner, url

    # ------------------------------------------------------------------ HTTP

    async def _forward_http(self, scope: Scope, receive: Receive, send: Send, target: str,
                            table_id: str) -> None:
        body = bytearray()
        while True:
            message = await receive()
            body += message.get("body", b"")
            if len(body) > MAX_BODY:
                await _refuse(scope, receive, send, AppError("too_large", "request too large",
                                                             413))
                return
            if not message.get("more_body"):
                break
        # the caller's address as this process resolved it (uvicorn already read a trusted
        # proxy's X-Forwarded-For into it), in place of the chain it came with
        headers = [(k.decode("latin-1"), v.decode("latin-1")) for k, v in scope["headers"]
                   if k.decode("latin-1").lower() not in HOP_BY_HOP | {"x-forwarded-for"}]
        headers.append((FORWARDED, forward_signature(table_id)))
        client = scope.get("client")
        if client:
            headers.append(("x-forwarded-for", client[0]))
        url = target + scope["raw_path"].decode("latin-1")
        if scope.get("query_string"):
            url += "?" + scope["query_string"].decode("latin-1")
        client = self._client()
        try:
            request = client.build_request(scope["method"], url, headers=headers,
                                               content=bytes(body))
            response = await client.send(request, stream=True)
        except httpx.HTTPError:
            log.warning("cluster: the owner of table %s at %s did not answer", table_id, target)
            await _refuse(scope, receive, send, AppError(
                "table_moving", "this table's server did not answer; it is being taken over: "
                "try again in a moment", 503))
            return
        try:
            await send({"type": "http.response.start", "status": response.status_code,
                        "headers": [(k.encode("latin-1"), v.encode("latin-1"))
                                    for k, v in response.headers.multi_items()
                                    if k.lower() not in HOP_BY_HOP]})
            async for chunk in response.aiter_raw():
                await send({"type": "http.response.body", "body": chunk, "more_body": True})
            await send({"type": "http.response.body", "body": b""})
        finally:
            await response.aclose()


async def _tell(send: Send, message: dict[str, Any]) -> bool:
    """Send ``message`` to the client; False if it has gone. uvicorn raises
    ``ClientDisconnected`` (an ``OSError``) for a client that has left: nobody to tell is no
    error of the server's (uncaught, uvicorn logs "Exception in ASGI application" at ERROR)."""
    try:
        await send(message)
    except OSError:
        return False
    return True


class OwnerWatch:
    """The owners of the tables whose sockets this process pipes to another one, read again
    every OWNER_SHARE of the lease (one MGET for them all, however many sockets): a pipe
    learns that its table's owner is no longer the process it reaches (taken over after
    that process froze or lost Redis, or handed on), and tells its client to reconnect.
    Nothing else would: a frozen owner's connection stays open, silent, for as long as it
    is frozen."""

    def __init__(self, cluster: Cluster) -> None:
        self.cluster = cluster
        # table id -> each pipe's future (done once the table moved) and the owner it reaches
        self._pipes: dict[str, dict[asyncio.Future[None], str]] = {}
        self._task: asyncio.Task[None] | None = None

    def moved(self, table_id: str, owner: str) -> asyncio.Future[None]:
        """Done once ``table_id`` is no longer owned by ``owner``; cancel it when the pipe
        ends."""
        loop = asyncio.get_running_loop()
        waiter: asyncio.Future[None] = loop.create_future()
        self._pipes.setdefault(table_id, {})[waiter] = owner
        waiter.add_done_callback(functools.partial(self._forget, table_id))
        if self._task is None or self._task.done():
            self._task = spawn(self._run(), "watching piped tables' owners")
        return waiter

    def _forget(self, table_id: str, waiter: asyncio.Future[None]) -> None:
        pipes = self._pipes.get(table_id)
        if pipes is not None:
            pipes.pop(waiter, None)
            if not pipes:
                del self._pipes[table_id]

    async def _run(self) -> None:
        every = self.cluster.lease_seconds * OWNER_SHARE
        while self._pipes:
            await asyncio.sleep(every)
            table_ids = list(self._pipes)
            for start in range(0, len(table_ids), 500):
                try:
                    owners = await self.cluster.owners(table_ids[start:start + 500])
                except (RedisError, OSError):  # the pipes' pings still find a dead owner
                    log.warning("cluster: could not read the piped tables' owners",
                                exc_info=True)
                    continue
                for table_id, owner in owners.items():
                    for waiter, piped_to in list(self._pipes.get(table_id, {}).items()):
                        if owner != piped_to and not waiter.done():
                            waiter.set_result(None)


async def _pipe_websocket(scope: Scope, receive: Receive, send: Send, target: str,
                          table_id: str, cluster: Cluster,
                          moved: asyncio.Future[None] | None = None) -> None:
    """Connect to the owner's socket for this table and copy frames both ways. The socket to
    the owner never outlives the client's: the owner would count a client that has gone as
    still at the table. The client is closed with 1012 (reconnect) once the table has moved
    to another owner (``moved``: see :class:`OwnerWatch`), or once the owner has stopped
    answering the pipe's pings and its table has moved (or, at the latest, MOVE_SHARE of
    the lease later): it then reconnects straight to the new owner."""
    await receive()  # websocket.connect
    incoming = Headers(scope=scope)
    headers = [(k, v) for k, v in incoming.items() if k.lower() not in WS_SKIP]
    headers.append((FORWARDED, forward_signature(table_id)))
    headers.append((FORWARDED_HOST, incoming.get("host", "")))
    split = urlsplit(target)
    scheme = "wss" if split.scheme == "https" else "ws"
    url = f"{scheme}://{split.netloc}{scope['raw_path'].decode('latin-1')}"
    if scope.get("query_string"):
        url += "?" + scope["query_string"].decode("latin-1")
    lease = cluster.lease_seconds
    try:
        upstream = await ws_connect(url, additional_headers=headers,
                                    origin=incoming.get("origin"),  # type: ignore[arg-type]
                                    compression=None, max_size=None, open_timeout=5,
                                    ping_interval=lease * PING_SHARE,
                                    ping_timeout=lease * PING_SHARE,
                                    close_timeout=PIPE_CLOSE_TIMEOUT, user_agent_header=None)
    except (OSError, InvalidHandshake, TimeoutError):
        log.warning("cluster: the owner of table %s at %s refused a socket", table_id, target)
        await _tell(send, {"type": "websocket.close", "code": TRY_AGAIN_LATER,
                           "reason": "table_moving"})
        return

    counts = cluster.counts

    async def client_to_owner() -> None:
        """Copy the client's frames until it leaves. Once the owner's side has closed, what
        the client still sends is dropped (``owner_to_client`` tells it to reconnect)."""
        while True:
            message = await receive()
            if message["type"] == "websocket.disconnect":
                return
            data = message.get("text")
            counts["forwarded_frames"] += 1
            with contextlib.suppress(ConnectionClosed):
                await upstream.send(data if data is not None else message.get("bytes") or b"")

    async def owner_to_client() -> tuple[int, str] | None:
        """Copy the owner's frames; then the close the client should get (None: the client
        has gone, there is nobody to close)."""
        try:
            async for data in upstream:
                key = "text" if isinstance(data, str) else "bytes"
                if not await _tell(send, {"type": "websocket.send", key: data}):
                    return None
        except ConnectionClosed:
            pass
        received = upstream.close_code
        if received is None or received in (1005, 1006):
            # the owner went away without a word (killed, or silent past the pings: frozen,
            # cut off): the client should reconnect, and will reach whoever takes the
            # table over
            return LOST
        return received, upstream.close_reason or ""

    to_owner: asyncio.Future[None] | None = None
    to_client: asyncio.Future[tuple[int, str] | None] | None = None
    try:
        if not await _tell(send, {"type": "websocket.accept"}):
            return  # the client left while the owner was being reached
        to_owner = asyncio.ensure_future(client_to_owner())
        to_client = asyncio.ensure_future(owner_to_client())
        waiting: set[asyncio.Future[Any]] = {to_owner, to_client}
        if moved is not None:
            waiting.add(moved)
        done, _ = await asyncio.wait(waiting, return_when=asyncio.FIRST_COMPLETED)
        closing: tuple[int, str] | None = None
        if to_client in done:
            closing = to_client.result()
            if closing is LOST and moved is not None and to_owner not in done:
                # its tables are being taken over: the client is told once they have been,
                # so that it reconnects straight to the new owner (the client leaving ends
                # the wait too)
                await asyncio.wait({moved, to_owner}, timeout=lease * MOVE_SHARE,
                                   return_when=asyncio.FIRST_COMPLETED)
                if to_owner.done():  # the client left meanwhile
                    closing = None
        elif to_owner not in done:  # the table has another owner now
            log.info("cluster: table %s moved from %s: its piped socket is told to "
                     "reconnect", table_id, target)
            closing = LOST
        if closing is not None:
            await _tell(send, {"type": "websocket.close", "code": closing[0],
                               "reason": closing[1]})
    except ConnectionClosed:
        pass
    finally:
        tasks = [task for task in (to_owner, to_client) if task is not None]
        for task in tasks:
            task.cancel()
        await upstream.close()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await asyncio.gather(*tasks, return_exceptions=True)


async def _refuse(scope: Scope, receive: Receive, send: Send, exc: AppError) -> None:
    """Answer a request the router cannot place: a JSON error, or a socket closed with a
    reason (1013: try again later)."""
    if scope["type"] == "websocket":
        await receive()
        await _tell(send, {"type": "websocket.close", "code": TRY_AGAIN_LATER,
                           "reason": exc.code})
        return
    request = Request(scope, receive)
    headers = exc.headers
    response: Response
    if wants_html(request):
        response = error_page(request, exc.status, f"error.{exc.code}", exc.message,
                              headers=headers)
    else:
        response = JSONResponse(exc.to_json(), status_code=exc.status, headers=headers)
    await response(scope, receive, send)
