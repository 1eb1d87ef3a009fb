"""Device hand-off: "continue on another device" carries a player's identity to a second
device (a phone beside the laptop, the laptop after the phone) through a link or its QR code.

The link, ``/handoff/<nonce>.<expires>.<mac>``, is

- signed: the MAC (HMAC-SHA256 with the server's secret) covers the nonce and the expiry, so
  a forged or altered link is refused before anything is looked up;
- expiring within minutes (``HANDOFF_SECONDS``): the expiry is in the signed part and in the
  stored row, and both are checked;
- single use: claiming it is one atomic update of its row (``used_at`` from NULL to now), so
  of two devices opening it at once only one gets the identity.

The second device gets the same bearer token as the first (kept in its signed cookie), so the
first stays signed in and both act for the same seats, judged by the same rules. The token is
stored sealed with a key derived from the server's secret and the link's nonce (which is kept
only as a hash): neither a database dump nor the link alone reveals it.

Sans routes: the pages and API calls are in ``app/api/room.py``.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta

from app.db.models import DeviceHandoff
from app.db.repository import Repository

HANDOFF_SECONDS = 300  # five minutes: time to fetch the other device and scan
LIVE_LIMIT = 5  # unused, unexpired hand-offs one player may have at once


class HandoffRefused(Exception):
    """Why a hand-off link gives no identity: ``forged`` (not ours, or altered), ``expired``,
    ``used`` (already claimed), ``gone`` (its player no longer exists)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class NewHandoff:
    code: str
    expires_at: datetime


def _mac(key: str, nonce: str, expires: int) -> str:
    message = f"handoff:{nonce}:{expires}".encode()
    return hmac.new(key.encode(), message, hashlib.sha256).hexdigest()[:32]


def make_code(key: str, nonce: str, expires: int) -> str:
    return f"{nonce}.{expires}.{_mac(key, nonce, expires)}"


def read_code(key: str, code: str, now: datetime) -> tuple[str, int]:
    """The nonce and expiry (Unix seconds) of a signed code; refused if forged or expired."""
    nonce, _, rest = code.partition(".")
    expires_text, _, mac = rest.partition(".")
    if not nonce or not expires_text.isdigit() or len(expires_text) > 12 or not mac:
        raise HandoffRefused("forged")
    expires = int(expires_text)
    if not hmac.compare_digest(_mac(key, nonce, expires), mac):
        raise HandoffRefused("forged")
    if now.timestamp() >= expires:
        raise HandoffRefused("expired")
    return nonce, expires


def row_id(nonce: str) -> str:
    """The stored id of a hand-off: a hash of its nonce (the database never holds a link)."""
    return hashlib.sha256(f"handoff-id:{nonce}".encode()).hexdigest()


def _keystream(key: str, nonce: str, length: int) -> bytes:
    out = bytearray()
    counter = 0
    while len(out) < length:
        block = f"handoff-seal:{nonce}:{counter}".encode()
        out += hmac.new(key.encode(), block, hashlib.sha256).digest()
        counter += 1
    return bytes(out[:length])


def seal(key: str, nonce: str, token: str) -> str:
    raw = token.encode()
    mixed = bytes(a ^ b for a, b in zip(raw, _keystream(key, nonce, len(raw)), strict=True))
    return base64.urlsafe_b64encode(mixed).decode()


def unseal(key: str, nonce: str, sealed: str) -> str:
    mixed = base64.urlsafe_b64decode(sealed.encode())
    raw = bytes(a ^ b for a, b in zip(mixed, _keystream(key, nonce, len(mixed)), strict=True))
    return raw.decode("utf-8", errors="replace")  # a wrong key gives garbage, not an error


async def create(repo: Repository, key: str, player_id: str, token: str, next_path: str,
                 now: datetime, seconds: int = HANDOFF_SECONDS) -> NewHandoff | None:
    """A new hand-off link for ``player_id`` (whose bearer token is ``token``), leading to
    ``next_path``; None when the player already has ``LIVE_LIMIT`` links open."""
    nonce = secrets.token_urlsafe(18)
    expires = int(now.timestamp()) + seconds
    expires_at = datetime.fromtimestamp(expires, now.tzinfo)
    row = DeviceHandoff(id=row_id(nonce), player_id=player_id, sealed=seal(key, nonce, token),
                        next_path=next_path[:256], created_at=now, expires_at=expires_at)
    if not await repo.create_handoff(row, LIVE_LIMIT):
        return None
    return NewHandoff(make_code(key, nonce, expires), expires_at)


async def peek(repo: Repository, key: str, code: str, now: datetime) -> DeviceHandoff:
    """The hand-off a link names, if it would still be honoured (nothing is claimed)."""
    nonce, _ = read_code(key, code, now)
    row = await repo.handoff(row_id(nonce))
    if row is None:
        raise HandoffRefused("forged")  # signed by us, yet never stored (or long purged)
    if row.used_at is not None:
        raise HandoffRefused("used")
    if row.expires_at <= now:
        raise HandoffRefused("expired")
    return row


async def redeem(repo: Repository, key: str, code: str,
                 now: datetime) -> tuple[DeviceHandoff, str]:
    """Claim a hand-off once: its row and the player's token."""
    await peek(repo, key, code, now)  # the precise reason when it is refused
    nonce, _ = read_code(key, code, now)
    row = await repo.claim_handoff(row_id(nonce), now)
    if row is None:  # claimed (or expired) between the look and the claim
        raise HandoffRefused("used")
    token = unseal(key, nonce, row.sealed)
    player = await repo.player_by_token(token)
    if player is None or player.id != row.player_id:
        raise HandoffRefused("gone")
    return row, token


def expires_in(expires_at: datetime, now: datetime) -> int:
    return max(0, int((expires_at - now) / timedelta(seconds=1)))
