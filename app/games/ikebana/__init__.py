"""Ikebana (Antoine Bauza): build five-card bouquets over four rounds; see RULES.md §2."""

from app.games.ikebana.rules import ENGINE, IkebanaEngine, IkebanaState

__all__ = ["ENGINE", "IkebanaEngine", "IkebanaState"]
