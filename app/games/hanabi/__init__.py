"""Hanabi: cooperative fireworks (RULES.md §1)."""

from app.games.hanabi.rules import ENGINE

__all__ = ["ENGINE"]
