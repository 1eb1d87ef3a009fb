"""Settings from the environment (prefix ``LUDOTECA_``; ``DATABASE_URL`` also accepted), and
where the server's own files are.

SQLite under the data directory is the default so the server runs with no other service.
"""

from __future__ import annotations

import os
import secrets
import time
from functools import lru_cache
from pathlib import Path
from typing import Literal

from pydantic import AliasChoices, Field
from pydantic_settings import BaseSettings, SettingsConfigDict

PACKAGE = Path(__file__).resolve().parent
# the repository around the package (a checkout, or an editable install of one)
ROOT = PACKAGE.parent


def _shipped(name: str) -> Path:
    """templates/, static/ or migrations/: inside the package when installed from a wheel
    (setup.py puts them there), beside it in the repository."""
    inside = PACKAGE / name
    return inside if inside.is_dir() else ROOT / name


TEMPLATES = _shipped("templates")
STATIC = _shipped("static")
MIGRATIONS = _shipped("migrations")  # alembic.ini is in it
IS_CHECKOUT = (ROOT / "pyproject.toml").is_file() and not (PACKAGE / "templates").is_dir()
# uvicorn closes an HTTP connection idle this long (app/cli.py); a client reusing one must
# drop it sooner: a request sent just as the server closes it fails (a POST is not retried)
KEEP_ALIVE_SECONDS = 5
# how long our own clients of it (the cluster's forwarder, the benchmarks) reuse an idle one
CLIENT_IDLE_SECONDS = 2.0


def default_data_dir() -> Path:
    """./data in a checkout (the README's `python3 -m app serve`); for an installed package,
    the user's data directory (``$XDG_DATA_HOME/ludoteca``, else ~/.local/share/ludoteca),
    never site-packages nor whatever directory the command was started from."""
    if IS_CHECKOUT:
        return ROOT / "data"
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "ludoteca"


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="LUDOTECA_", extra="ignore")

    data_dir: Path = Field(default_factory=default_data_dir)
    database_url: str = Field(
        default="",
        validation_alias=AliasChoices("LUDOTECA_DATABASE_URL", "DATABASE_URL"),
    )
    secret_key: str = ""
    # the operators' token for /metrics (Prometheus) and /metrics.json; empty: generated once
    # into the data directory's operator_token file
    operator_token: str = ""
    # log lines: "text" (one line per event) or "json" (one JSON object per line)
    log_format: Literal["text", "json"] = "text"
    # e.g. https://games.example.org; invite links use the request's host when empty
    public_url: str = ""
    max_message_bytes: int = 16 * 1024
    # a connection that has not sent a whole first request by then is closed (app/idle.py)
    first_request_seconds: float = 30.0
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
    # table life (app/tables/core/ending.py): a waiting table nobody has been at for this long is
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
    # a process that receives a table's request through the proxy's hash (deploy/nginx.conf)
    # asks the table's owner to hand it over while nobody's socket is at it there
    # (docs/operations.md); off: such requests are always forwarded to the owner
    table_handover: bool = True

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
        return f"sqlite+aiosqlite:///{self.ensure_data_dir() / 'ludoteca.db'}"

    def ensure_data_dir(self) -> Path:
        """The data directory, created private (0700: it holds the database, its backups'
        keys and the generated secrets) if it is not there yet."""
        self.data_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
        return self.data_dir

    def resolved_secret_key(self) -> str:
        """The configured key, or one generated once and kept in the data directory."""
        return self.secret_key or self._generated("secret_key")

    def resolved_operator_token(self) -> str:
        """What /metrics and /metrics.json ask for (``Authorization: Bearer``): the
        configured token, or one generated once into the data directory's operator_token."""
        return self.operator_token or self._generated("operator_token")

    def _generated(self, name: str) -> str:
        """A random value created once in the data directory (mode 600) and read back."""
        path = self.ensure_data_dir() / name
        try:  # created at most once, even by two processes starting on one volume together
            fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600)
        except FileExistsError:
            pass
        else:
            with os.fdopen(fd, "w") as out:
                out.write(secrets.token_urlsafe(32))
        for _ in range(100):  # the other process may be between creating and writing it
            value = path.read_text().strip()
            if value:
                return value
            time.sleep(0.01)
        raise RuntimeError(f"{path} is empty: delete it to have a new value generated")


@lru_cache
def get_settings() -> Settings:
    return Settings()
