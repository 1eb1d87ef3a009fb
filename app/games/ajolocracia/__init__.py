"""Ajolocracia: simultaneous drafting of axolotls, habitats and institutions (RULES.md §4)."""

from app.games.ajolocracia.rules import ENGINE

__all__ = ["ENGINE"]
