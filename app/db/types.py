"""Column types that keep one form of data everywhere, whatever the database.

``UTCDateTime``: every datetime the application handles is timezone-aware UTC. PostgreSQL
gives aware values back but SQLite gives naive ones, and comparing the two raises
``TypeError`` (a lobby listing a table restored from SQLite beside a new one did exactly
that). This type refuses naive values on the way in and hands back aware UTC values on the
way out, so tables from memory and from storage can always be compared.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import DateTime
from sqlalchemy.types import TypeDecorator


class UTCDateTime(TypeDecorator[datetime]):
    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Any) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None or value.utcoffset() is None:
            raise ValueError("naive datetimes are not stored: use app.db.repository.now()")
        return value.astimezone(UTC)

    def process_result_value(self, value: datetime | None, dialect: Any) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:  # SQLite stores the UTC wall time without its offset
            return value.replace(tzinfo=UTC)
        return value.astimezone(UTC)
