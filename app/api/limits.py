"""REST-side limits, each with a clear error: tables hosted at once, and how fast one player
or one address may create players and tables (display names: ``app.names``).

Limits on what a WebSocket sends live in ``app.tables.limits``; the token bucket is shared.
Settings (``LUDOTECA_*``) are in ``app.config``; a rate of 0 turns that limit off.
"""

from __future__ import annotations

import asyncio
import math
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from functools import lru_cache
from ipaddress import ip_address, ip_network
from typing import TYPE_CHECKING

from starlette.requests import HTTPConnection

from app.config import Settings, get_settings
from app.errors import AppError
from app.tables.limits import Bucket

if TYPE_CHECKING:
    from app.tables.registry import Registry

class RateLimited(AppError):
    """Too many creations too fast: 429 with ``Retry-After`` (whole seconds)."""

    def __init__(self, message: str, retry_after: float) -> None:
        super().__init__("rate_limited", message, 429)
        self.retry_after = max(1, math.ceil(retry_after))

    @property
    def headers(self) -> dict[str, str]:
        return {"Retry-After": str(self.retry_after)}


class RateLimiter:
    """One token bucket per key (a player id or an address), ``per_minute`` a minute with a
    burst of as many. Buckets that have filled up again are forgotten now and then."""

    def __init__(self, per_minute: float, what: str,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.per_minute = per_minute
        self.what = what
        self.clock = clock
        self.buckets: dict[str, Bucket] = {}

    def check(self, key: str) -> None:
        if self.per_minute <= 0:
            return
        if len(self.buckets) > 10_000:
            self._forget_full()
        bucket = self.buckets.get(key)
        if bucket is None:
            burst = max(1, int(self.per_minute))
            bucket = self.buckets[key] = Bucket(self.per_minute / 60, burst, self.clock)
        if not bucket.spend():
            wait = bucket.retry_after()
            raise RateLimited(f"too many {self.what}: at most {self.per_minute:g} a minute; "
                              f"try again in {max(1, math.ceil(wait))} s", wait)

    def _forget_full(self) -> None:
        now = self.clock()
        self.buckets = {k: b for k, b in self.buckets.items()
                        if b.tokens + (now - b.at) * b.rate < b.burst}


class Limits:
    """The limiters of one application (kept on ``app.state.limits``)."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.players_by_ip = RateLimiter(settings.players_per_minute_per_ip,
                                         "new players from this address")
        self.tables_by_player = RateLimiter(settings.tables_per_minute, "new tables")
        self.tables_by_ip = RateLimiter(settings.tables_per_minute_per_ip,
                                        "new tables from this address")
        self.exempt = {_normal_ip(a) for a in settings.limit_exempt_ips.split(",") if a.strip()}
        self._hosting: dict[str, asyncio.Lock] = {}

    def _address(self, conn: HTTPConnection) -> str | None:
        """The caller's address (uvicorn puts the forwarded one here behind a trusted
        proxy), or None when it is exempt from per-address rates."""
        host = conn.client.host if conn.client else "unknown"
        address = _normal_ip(host)
        return None if address in self.exempt else address

    def new_player(self, conn: HTTPConnection) -> None:
        if self.players_by_ip.per_minute <= 0:  # the limit is off
            return
        address = self._address(conn)
        if address is not None:
            self.players_by_ip.check(address)

    @asynccontextmanager
    async def new_table(self, conn: HTTPConnection, registry: Registry,
                        player_id: str) -> AsyncIterator[None]:
        """Guard one table creation: the number of tables the player hosts, then the rates
        (checked and the table created under a per-player lock, so two requests at once
        cannot both squeeze under the limit)."""
        lock = self._hosting.get(player_id)
        if lock is None:
            if len(self._hosting) > 10_000:  # forget idle players' locks
                self._hosting = {k: v for k, v in self._hosting.items() if v.locked()}
            lock = self._hosting[player_id] = asyncio.Lock()
        async with lock:
            hosted = await registry.hosted_count(player_id)
            cap = self.settings.max_hosted_tables
            if cap > 0 and hosted >= cap:
                raise AppError("too_many_tables",
                               f"you already host {hosted} tables waiting or playing (at most "
                               f"{cap}): finish or delete one first", 409)
            self.tables_by_player.check(player_id)
            address = self._address(conn) if self.tables_by_ip.per_minute > 0 else None
            if address is not None:
                self.tables_by_ip.check(address)
            yield


@lru_cache(maxsize=65536)  # a pure function of the text: parsed once per address
def _normal_ip(text: str) -> str:
    """The key an address is counted under: itself for IPv4, its /64 for IPv6 (one home or
    machine usually holds a whole /64, so single addresses would be free to rotate)."""
    try:
        ip = ip_address(text.strip())
    except ValueError:
        return text.strip()
    if ip.version == 6 and ip.ipv4_mapped is not None:
        return str(ip.ipv4_mapped)
    if ip.version == 6 and not ip.is_loopback:
        return str(ip_network(f"{ip}/64", strict=False))
    return str(ip)


def get_limits(conn: HTTPConnection) -> Limits:
    limits = getattr(conn.app.state, "limits", None)
    if limits is None:
        limits = conn.app.state.limits = Limits(get_settings())
    return limits
