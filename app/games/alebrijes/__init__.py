"""Alebrijes (Joel and Rafael Escalante): a climbing and shedding card game; see RULES.md §3."""

from app.games.alebrijes.rules import ENGINE, AlebrijesEngine, AlebrijesState

__all__ = ["ENGINE", "AlebrijesEngine", "AlebrijesState"]
