"""The one error family of the application: a stable code, a message, an HTTP status."""

from __future__ import annotations


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
