"""Table ownership across several app processes: leases in Redis.

With ``LUDOTECA_REDIS_URL`` set, every table lives in exactly one process, its owner. The
owner holds a lease in Redis (``owner:<table>`` = its node id, with a time to live) and renews
all its leases together a few times per lease period; every process also advertises where it
can be reached (``node:<id>`` = its internal URL, with the same time to live). Any process
accepts a request for any table: the router (``app/api/forward.py``) looks the owner up and
forwards the request or the WebSocket there, or claims the lease when nobody holds it. An
owner may also hand a table's lease straight to another process (:meth:`Cluster.transfer`,
the hand-over of ``app/tables/registry.py``), so a table moves to where its traffic lands.

A lease is the first fence: an owner that cannot renew in time gives its tables up before
the lease could expire, and a claim only succeeds on a lease nobody holds. The second fence
is in the database: each claim bumps the table's ``owner_epoch`` before reading its log, and
every write of an owner carries the epoch it claimed with, so a write from a stale owner is
refused by the log itself (``app/db/writer.py``), whatever the clocks say.

"In time" is measured on this process's monotonic clock from the start of the last renewal
that succeeded (``leases_fresh``: less than :data:`FRESH` of the lease ago), never from a
Redis answer that may not come: a renewal is given only the time left before that deadline,
so an owner whose Redis hangs (paused, partitioned) drops its tables at the deadline, well
before another process could claim them. Between renewals, every write of an owned table
passes :class:`LeaseFence` first, which refuses it once the leases are not fresh: a process
that was itself paused past its lease (SIGSTOP, a VM frozen) and wakes up refuses the first
write it would make, before the keep-alive even runs, and the table's actor gives the table
up (its sockets are told to reconnect, and reach the new owner).
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Awaitable, Callable, Iterable
from typing import Any

import orjson
from redis.asyncio import Redis
from redis.exceptions import RedisError

from app.db.repository import Repository, StaleOwner
from app.tables.connections import encode

log = logging.getLogger(__name__)

# an owner acts only while its last good renewal started less than this part of the lease
# ago: the rest of the lease is the margin for clocks, scheduling and a slow commit
FRESH = 0.6

PREFIX = "ludoteca:"
SUMMARIES = PREFIX + "summaries"  # hash: table id -> the owner's latest public summary

# renew every lease in KEYS still held by ARGV[1]; answer the indexes (1-based) of those lost
_RENEW = """
local lost = {}
for i, key in ipairs(KEYS) do
  if redis.call('GET', key) == ARGV[1] then
    redis.call('PEXPIRE', key, ARGV[2])
  else
    table.insert(lost, i)
  end
end
return lost
"""

# give a lease up only if it is still ours
_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""


# hand a lease still held by ARGV[1] straight to ARGV[2] (a hand-over): nobody else can
# claim the table in between
_TRANSFER = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
  return 1
end
return 0
"""


def owner_key(table_id: str) -> str:
    return f"{PREFIX}owner:{table_id}"


def node_key(node_id: str) -> str:
    return f"{PREFIX}node:{node_id}"


class Cluster:
    """This process's view of the cluster: its node id, its leases, and who owns what."""

    def __init__(self, redis_url: str, internal_url: str, lease_seconds: float = 10.0,
                 node_id: str | None = None, clock: Callable[[], float] = time.monotonic) -> None:
        self.redis: Redis = Redis.from_url(redis_url, decode_responses=True,
                                           socket_timeout=max(1.0, lease_seconds / 4),
                                           socket_connect_timeout=max(1.0, lease_seconds / 4))
        self.node_id = node_id or secrets.token_hex(6)
        self.internal_url = internal_url.rstrip("/")
        self.lease_ms = int(lease_seconds * 1000)
        self.owned: set[str] = set()
        self._clock = clock
        # leases are only good until the last successful renewal plus the lease, less a margin
        # for the time the renewal took to come back
        self._renewed_at = clock()
        self._claimed_at: dict[str, float] = {}  # when each lease was taken (if since renewed)
        self._renew = self.redis.register_script(_RENEW)
        self._release = self.redis.register_script(_RELEASE)
        self._transfer = self.redis.register_script(_TRANSFER)
        # what the router did (read by /metrics.json and bench.scale): requests and sockets
        # forwarded to another owner, frames piped client -> owner through them, and tables
        # handed over to another process / taken from one (``Registry.give`` / ``take``)
        self.counts = {"forwarded_requests": 0, "forwarded_sockets": 0,
                       "forwarded_frames": 0, "handed_over": 0, "taken_over": 0}
        self._dirty: dict[str, dict[str, Any]] = {}  # summaries to publish
        self._gone: set[str] = set()  # summaries to remove
        self.on_lost: Callable[[str], Awaitable[None]] | None = None
        self._task: asyncio.Task[None] | None = None

    @property
    def lease_seconds(self) -> float:
        return self.lease_ms / 1000

    # ------------------------------------------------------------------ life

    async def start(self) -> None:
        await self.redis.set(node_key(self.node_id), self.internal_url, px=self.lease_ms)
        self._renewed_at = self._clock()
        self._task = asyncio.get_running_loop().create_task(self._keep_alive(),
                                                            name="cluster-leases")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            try:
                await self._task
            except asyncio.CancelledError:
                pass
        try:  # a clean stop hands the tables over at once instead of after the lease
            for table_id in list(self.owned):
                await self.release(table_id)
            await self.redis.delete(node_key(self.node_id))
        except RedisError:
            log.warning("could not release leases at shutdown", exc_info=True)
        await self.redis.aclose()

    async def _keep_alive(self) -> None:
        period = min(1.0, self.lease_seconds / 3)
        while True:
            wait = period
            if self.owned:  # wake at the tables' deadline too, should a renewal fail
                wait = max(0.01, min(period, self._deadline() - self._clock()))
            await asyncio.sleep(wait)
            await self.tick()

    def _deadline(self, table_id: str | None = None) -> float:
        """Until when this process may act as the owner of ``table_id`` (None: of every table
        it owns): the start of the last renewal (or of the claim, if later), plus FRESH of
        the lease."""
        if table_id is None:
            if not self.owned:
                return self._renewed_at + self.lease_seconds * FRESH
            return min(self._deadline(t) for t in self.owned)
        since = max(self._renewed_at, self._claimed_at.get(table_id, self._renewed_at))
        return since + self.lease_seconds * FRESH

    async def tick(self) -> None:
        """Renew the node and every lease; give up tables whose lease is lost or stale."""
        now = self._clock()
        stale = {t for t in self.owned if now >= self._deadline(t)}
        if stale:
            # paused, or Redis silent for too long: the leases may be running out elsewhere,
            # so stop serving first (even before asking Redis)
            await self._give_up(stale, "leases not renewed in time")
        started = self._clock()
        # a renewal gets only the time left before the deadline: one that hangs (Redis
        # paused) must not keep this process acting past it (with no table to lose, the
        # usual time, so a process back from an outage is not held to an expired one)
        budget = (self._deadline() - started if self.owned
                  else self.lease_seconds * FRESH)
        try:
            lost = await asyncio.wait_for(self._renew_all(), timeout=max(0.05, budget))
        except (RedisError, TimeoutError):
            log.warning("cluster: could not renew leases", exc_info=True)
            now = self._clock()
            lost = {t for t in self.owned if now >= self._deadline(t)}
            why = "leases not renewed in time"
        else:
            self._renewed_at = started
            self._claimed_at = {t: at for t, at in self._claimed_at.items() if at > started}
            why = "lease lost"
        await self._give_up(lost, why)
        try:
            await asyncio.wait_for(self._publish(), timeout=max(0.05, self.lease_seconds / 4))
        except (RedisError, TimeoutError):
            log.warning("cluster: could not publish table summaries", exc_info=True)

    async def _give_up(self, table_ids: set[str], why: str) -> None:
        for table_id in sorted(table_ids):
            log.warning("cluster: %s; giving table %s up", why, table_id)
            self.owned.discard(table_id)
            self._claimed_at.pop(table_id, None)
            if self.on_lost is not None:
                await self.on_lost(table_id)

    async def _renew_all(self) -> set[str]:
        await self.redis.set(node_key(self.node_id), self.internal_url, px=self.lease_ms)
        owned = sorted(self.owned)
        lost: set[str] = set()
        for start in range(0, len(owned), 500):
            chunk = owned[start:start + 500]
            indexes = await self._renew(keys=[owner_key(t) for t in chunk],
                                        args=[self.node_id, self.lease_ms])
            lost.update(chunk[int(i) - 1] for i in indexes)
        return lost

    def leases_fresh(self) -> bool:
        """Whether the last renewal is recent enough to act as the owner of every table."""
        return self._clock() < self._deadline()

    def may_write(self, table_id: str) -> bool:
        """Whether this process may write ``table_id`` now: it owns the table and its lease
        was renewed (or taken) recently enough."""
        return table_id in self.owned and self._clock() < self._deadline(table_id)

    def fence(self, repo: Repository, table_id: str) -> LeaseFence:
        """``repo`` for the actor of ``table_id``: its writes refused once this process may
        no longer write the table (see :class:`LeaseFence`)."""
        return LeaseFence(repo, self, table_id)

    # ------------------------------------------------------------------ leases

    async def claim(self, table_id: str) -> bool:
        """Take the lease of a table nobody owns; True if it is ours now."""
        if table_id in self.owned:
            return True
        asked = self._clock()  # the lease runs from no earlier than this
        took = await self.redis.set(owner_key(table_id), self.node_id, nx=True,
                                    px=self.lease_ms)
        if took:
            self.owned.add(table_id)
            self._claimed_at[table_id] = asked
        return bool(took)

    async def release(self, table_id: str) -> None:
        self.owned.discard(table_id)
        self._claimed_at.pop(table_id, None)
        self._dirty.pop(table_id, None)
        await self._release(keys=[owner_key(table_id)], args=[self.node_id])

    async def transfer(self, table_id: str, node_id: str) -> bool:
        """Hand a table's lease to another node (a hand-over); False if it was no longer
        ours. Either way this process no longer owns the table."""
        self.owned.discard(table_id)
        self._claimed_at.pop(table_id, None)
        self._dirty.pop(table_id, None)  # the new owner publishes its summary
        done = await self._transfer(keys=[owner_key(table_id)],
                                    args=[self.node_id, node_id, self.lease_ms])
        return bool(done)

    async def accept(self, table_id: str, asked: float) -> bool:
        """After asking the owner for a hand-over: whether the lease is ours now (the owner
        transferred it; it runs from no earlier than ``asked``, this process's clock when
        it asked). True: the table is owned here from now on."""
        if await self.redis.get(owner_key(table_id)) != self.node_id:
            return False
        self.owned.add(table_id)
        self._claimed_at[table_id] = asked
        return True

    def now(self) -> float:
        return self._clock()

    async def owner(self, table_id: str) -> str | None:
        # (decode_responses=True: redis answers str, which its stubs cannot know)
        return await self.redis.get(owner_key(table_id))  # type: ignore[return-value]

    async def owners(self, table_ids: Iterable[str]) -> dict[str, str | None]:
        ids = list(table_ids)
        if not ids:
            return {}
        values = await self.redis.mget([owner_key(t) for t in ids])
        return dict(zip(ids, values, strict=True))  # type: ignore[arg-type]

    async def node_url(self, node_id: str) -> str | None:
        return await self.redis.get(node_key(node_id))  # type: ignore[return-value]

    # ------------------------------------------------------------------ lobby summaries

    def publish_summary(self, table_id: str, summary: dict[str, Any] | None) -> None:
        """Note a table's public summary for the lobby lists of every process (published
        with the next renewal, so a busy table costs one write per period, not per move)."""
        if summary is None:
            self._dirty.pop(table_id, None)
            self._gone.add(table_id)
        else:
            self._gone.discard(table_id)
            self._dirty[table_id] = summary

    def drop_pending_summary(self, table_id: str) -> None:
        """A table handed to another process: what this one had yet to publish of it is
        older than what its new owner publishes, so it is not published at all."""
        self._dirty.pop(table_id, None)
        self._gone.discard(table_id)

    async def _publish(self) -> None:
        dirty, gone = self._dirty, self._gone
        self._dirty, self._gone = {}, set()
        if not dirty and not gone:
            return
        async with self.redis.pipeline(transaction=False) as pipe:
            if dirty:
                pipe.hset(SUMMARIES, mapping={t: encode(s)
                                              for t, s in dirty.items()})
            if gone:
                pipe.hdel(SUMMARIES, *gone)
            await pipe.execute()

    async def summaries(self, table_ids: list[str]) -> dict[str, dict[str, Any]]:
        if not table_ids:
            return {}
        values = await self.redis.hmget(SUMMARIES, table_ids)
        return {t: orjson.loads(v) for t, v in zip(table_ids, values, strict=True) if v}


class LeaseFence:
    """A table actor's repository in a cluster: reads pass through, and each write of the
    table is refused with :class:`StaleOwner` (before it reaches the database) once the
    process may no longer write it (:meth:`Cluster.may_write`). The actor treats
    ``StaleOwner`` as "another process has the table" and gives the table up, as it does
    when the database's owner-epoch fence refuses a write.

    The writes fenced are every write an actor makes of its own table's rows: actions,
    seats, status, deletion, chat lines. A chat line is queued, not awaited, for system
    lines: the refusal is then a future already failed (and marked as seen, so an unawaited
    one is simply not stored).
    """

    WRITES = frozenset({"append_action", "save_seats", "set_status", "delete_table"})

    def __init__(self, repo: Repository, cluster: Cluster, table_id: str) -> None:
        self._repo = repo
        self._cluster = cluster
        self._table_id = table_id

    @property
    def inner(self) -> Repository:
        return self._repo

    def _refusal(self) -> StaleOwner | None:
        if self._cluster.may_write(self._table_id):
            return None
        log.warning("cluster: table %s: write refused here, this process may no longer "
                    "write it (lease not fresh or lost)", self._table_id)
        return StaleOwner(f"table {self._table_id}: this process's lease is not fresh")

    def __getattr__(self, name: str) -> Any:
        attribute = getattr(self._repo, name)
        if name not in self.WRITES:
            return attribute

        async def fenced(*args: Any, **kwargs: Any) -> Any:
            refusal = self._refusal()
            if refusal is not None:
                raise refusal
            return await attribute(*args, **kwargs)

        # kept: the next lookup finds it without coming here (a write's every call asks the
        # lease afresh, in ``fenced``; the repository is this fence's for good)
        self.__dict__[name] = fenced
        return fenced

    def queue_chat_line(self, *args: Any, **kwargs: Any) -> asyncio.Future[None]:
        refusal = self._refusal()
        if refusal is None:
            return self._repo.queue_chat_line(*args, **kwargs)
        failed: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        failed.set_exception(refusal)
        failed.add_done_callback(lambda f: f.exception())  # not awaited: not an error
        return failed
