"""Token buckets kept in the table's state: ``burst`` tokens, refilled at ``rate`` a second,
one spent per message (chat lines, presence lines, live updates). Pure: ``now`` is given."""

from __future__ import annotations

from app.tables.core.state import Bucket, TableState, evolve

# presence lines (away / back) per player: a burst of 4, then one every 30 s
PRESENCE_BURST = 4
PRESENCE_PER_SECOND = 1 / 30
# live updates per connection: a burst of 20, refilled at 20 a second
LIVE_BURST = 20
LIVE_PER_SECOND = 20.0


def level(bucket: Bucket | None, rate: float, burst: int, now: float) -> float:
    """How many tokens the bucket holds at ``now`` (a new bucket is full)."""
    if bucket is None:
        return float(burst)
    return min(float(burst), bucket.tokens + (now - bucket.at) * rate)


def spend(table: TableState, key: tuple[str, object], rate: float, burst: int,
          now: float) -> tuple[bool, TableState]:
    """Spend one token of the bucket ``key``; (whether there was one, the new table). A
    refused message still counts: it leaves the bucket as empty as it found it."""
    tokens = level(table.buckets.get(key), rate, burst, now)
    allowed = tokens >= 1.0
    bucket = Bucket(tokens - 1.0 if allowed else tokens, now)
    return allowed, evolve(table, buckets={**table.buckets, key: bucket})


def retry_after(table: TableState, key: tuple[str, object], rate: float, burst: int,
                now: float) -> float:
    """Seconds until the bucket ``key`` has a token again."""
    return max(0.0, (1.0 - level(table.buckets.get(key), rate, burst, now)) / rate)


def forget(table: TableState, key: tuple[str, object]) -> TableState:
    if key not in table.buckets:
        return table
    return evolve(table, buckets={k: v for k, v in table.buckets.items() if k != key})
