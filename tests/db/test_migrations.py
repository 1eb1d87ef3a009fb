"""The Alembic migrations build exactly the tables the models describe (no drift), the chat
lines and rematch link of migration 0002 included."""

from __future__ import annotations

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import create_engine

from app.db.models import Base
from app.db.session import migrate


def test_migrations_match_the_models(tmp_path) -> None:
    path = tmp_path / "m.db"
    migrate(f"sqlite+aiosqlite:///{path}")
    engine = create_engine(f"sqlite:///{path}")
    with engine.connect() as conn:
        diff = compare_metadata(MigrationContext.configure(conn), Base.metadata)
        tables = set(engine.dialect.get_table_names(conn))
    engine.dispose()
    assert diff == []
    assert {"chat_lines", "tables", "actions", "table_seats", "players"} <= tables
