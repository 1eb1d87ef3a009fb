"""Settings from the environment (prefix ``LUDOTECA_``; ``DATABASE_URL`` also accepted).

SQLite under ./data is the default so the server runs with no other service.
"""

from __future__ import annotations

import os
import secrets
import time
from functools import lru_cache
from pathlib import Path

from pydantic import AliasChoices, Field
from pydantic_settings import BaseSettings, SettingsConfigDict

ROOT = Path(__file__).resolve().parent.parent


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="LUDOTECA_", extra="ignore")

    data_dir: Path = ROOT / "data"
    database_url: str = Field(
        default="",
        validation_alias=AliasChoices("LUDOTECA_DATABASE_URL", "DATABASE_URL"),
    )
    secret_key: str = ""
    # e.g. https://games.example.org; invite links use the request's host when empty
    public_url: str = ""
    max_message_bytes: int = 16 * 1024
    outbound_queue: int = 64
    default_language: str = "es"
    # Secure cookies always; without it they are Secure when the request came over https
    # (directly, or X-Forwarded-Proto from a trusted proxy: uvicorn's proxy_headers)
    secure_cookies: bool = False

    # REST limits (app/api/limits.py); a rate of 0 turns that limit off
    max_hosted_tables: int = 10  # waiting or playing tables one player hosts at once
    tables_per_minute: float = 10  # tables one player may create (burst of as many)
    tables_per_minute_per_ip: float = 30
    players_per_minute_per_ip: float = 20  # new players (REST or the name form) per address
    # table life (app/tables/life.py): a waiting table nobody has been at for this long is
    # deleted; a playing table no seated player has been connected to for this long is
    # closed as abandoned (recorded, no winner); the janitor looks every janitor_seconds
    waiting_expiry_seconds: float = 3600
    empty_table_seconds: float = 1800
    janitor_seconds: float = 60
    # an imported match file (POST /api/matches/import) is refused above this size
    max_import_bytes: int = 2 * 1024 * 1024
    # addresses free of the per-address rates: the machine itself (benchmarks, a local
    # proxy that does not forward the client's address); comma-separated
    limit_exempt_ips: str = "127.0.0.1,::1"

    # several processes (docker-compose's "scale" profile): set to share tables through Redis
    redis_url: str = ""
    # how the other processes reach this one (default: http://127.0.0.1:<port>)
    internal_url: str = ""
    lease_seconds: float = 10.0  # a table's owner must renew its lease within this

    # tests only (tests/support/server.py turns it on): a new table takes the seed given in
    # the X-Ludoteca-Test-Seed header, so a test can pin a deal. Off, the header is ignored.
    test_seeds: bool = False

    def resolved_database_url(self) -> str:
        if self.database_url:
            url = self.database_url
            # docker-compose style URLs → the async drivers we ship
            if url.startswith("postgres://"):
                url = "postgresql+asyncpg://" + url[len("postgres://"):]
            elif url.startswith("postgresql://"):
                url = "postgresql+asyncpg://" + url[len("postgresql://"):]
            elif url.startswith("sqlite:///"):
                url = "sqlite+aiosqlite:///" + url[len("sqlite:///"):]
            return url
        self.data_dir.mkdir(parents=True, exist_ok=True)
        return f"sqlite+aiosqlite:///{self.data_dir / 'ludoteca.db'}"

    def resolved_secret_key(self) -> str:
        """The configured key, or one generated once and kept in the data directory."""
        if self.secret_key:
            return self.secret_key
        self.data_dir.mkdir(parents=True, exist_ok=True)
        path = self.data_dir / "secret_key"
        try:  # created at most once, even by two processes starting on one volume together
            fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600)
        except FileExistsError:
            pass
        else:
            with os.fdopen(fd, "w") as out:
                out.write(secrets.token_urlsafe(32))
        for _ in range(100):  # the other process may be between creating and writing it
            key = path.read_text().strip()
            if key:
                return key
            time.sleep(0.01)
        raise RuntimeError(f"{path} is empty: delete it to have a new key generated")


@lru_cache
def get_settings() -> Settings:
    return Settings()
