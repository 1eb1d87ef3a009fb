"""Allegra: golf with displays of 15 that share columns, and the knock; see RULES.md §5."""

from app.games.allegra.rules import ENGINE, AllegraEngine
from app.games.allegra.state import AllegraState

__all__ = ["ENGINE", "AllegraEngine", "AllegraState"]
