"""The one error family of the application: a stable code, a message, an HTTP status."""

from __future__ import annotations

import asyncpg
from redis.exceptions import RedisError
from sqlalchemy.exc import SQLAlchemyError

# what a database or Redis that is down (or restarting) raises: answered as
# storage_unavailable (503, try again), never as a 500. asyncpg raises some of its own while
# connecting, unwrapped by SQLAlchemy ("the database system is shutting down")
STORAGE_DOWN: tuple[type[Exception], ...] = (
    SQLAlchemyError, OSError, RedisError, asyncpg.PostgresError, asyncpg.InterfaceError)


class AppError(Exception):
    def __init__(self, code: str, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status

    def to_json(self) -> dict[str, str]:
        return {"code": self.code, "message": self.message}


def not_found(what: str = "table") -> AppError:
    return AppError("not_found", f"no such {what}", 404)


def forbidden(message: str) -> AppError:
    return AppError("forbidden", message, 403)


def storage_unavailable() -> AppError:
    """The database could not be reached or refused a write: nothing changed; try again."""
    return AppError("storage_unavailable",
                    "the game storage is unavailable for a moment: nothing changed, "
                    "try again shortly", 503)
