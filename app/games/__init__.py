"""The game catalogue: every engine the platform can host, by game id (RULES.md ids)."""

from __future__ import annotations

from app.games.ajolocracia import ENGINE as AJOLOCRACIA
from app.games.alebrijes import ENGINE as ALEBRIJES
from app.games.allegra import ENGINE as ALLEGRA
from app.games.base import Engine
from app.games.block_and_guess import ENGINE as BLOCK_AND_GUESS
from app.games.hanabi import ENGINE as HANABI
from app.games.ikebana import ENGINE as IKEBANA

ENGINES: dict[str, Engine] = {
    engine.id: engine for engine in (HANABI, IKEBANA, AJOLOCRACIA, BLOCK_AND_GUESS, ALLEGRA,
                                  ALEBRIJES)
}


def get_engine(game_id: str) -> Engine | None:
    return ENGINES.get(game_id)
