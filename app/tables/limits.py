"""Limits on what one connection or player may send to a table, and the bucket that counts.

A token bucket per connection (every WebSocket message), per connection for live updates,
and per seat for chat. Going over a limit gets a clear error and the message is dropped;
only a sustained flood (far over the limit) closes the connection, as abuse.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

# every message a connection sends: 30 a second on average, bursts of 60
MESSAGES_PER_SECOND = 30.0
MESSAGE_BURST = 60
# messages dropped in a row (over the limit) before the connection is closed as a flood
FLOOD_STRIKES = 200
# connections one player may hold to one table (several tabs and devices)
CONNECTIONS_PER_PLAYER = 5
# chat lines per seat: 5 in a burst, then one every 2 seconds
CHAT_BURST = 5
CHAT_PER_SECOND = 0.5


@dataclass
class Bucket:
    """``burst`` tokens, refilled at ``rate`` per second; each message spends one."""

    rate: float
    burst: int
    clock: Callable[[], float] = time.monotonic
    tokens: float = field(default=-1.0)
    at: float = 0.0

    def spend(self) -> bool:
        now = self.clock()
        if self.tokens < 0:
            self.tokens, self.at = float(self.burst), now
        self.tokens = min(float(self.burst), self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens < 1.0:
            return False
        self.tokens -= 1.0
        return True

    def retry_after(self) -> float:
        """Seconds until the next message would be accepted."""
        return max(0.0, (1.0 - self.tokens) / self.rate)
