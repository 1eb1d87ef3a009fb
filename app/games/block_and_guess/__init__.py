"""Alan & Bobby's Block and Guess (RULES.md §6)."""

from app.games.block_and_guess.rules import ENGINE

__all__ = ["ENGINE"]
