"""A table's platform options (clock, absence grace, spectators' chat and cards), resolved
beside the game's own options when a table is created.

The specs live in ``app.games.base`` (the catalogue lists them with every game); this module
checks how they fit together. ``turn_seconds`` keeps working alone, as it always did: a
table created with only ``turn_seconds > 0`` gets a per-turn clock.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from app.games.base import (
    CLOCK,
    SEE_ALL,
    TABLE_OPTION_NAMES,
    TURN_TIMER,
    BadOptions,
    table_options,
)


def resolve(engine: Any, seats: int, given: Mapping[str, Any] | None) -> dict[str, Any]:
    """The game's options (checked by the engine) and the platform's, defaults filled in.
    Raises ``BadOptions`` with a clear reason."""
    given = dict(given or {})
    specs = table_options(engine)
    if SEE_ALL.name in given and SEE_ALL not in specs:
        raise BadOptions(f"option {SEE_ALL.name!r} is only for cooperative games")
    platform = {k: given.pop(k) for k in list(given) if k in TABLE_OPTION_NAMES}
    resolved = engine.check_setup(seats, given)
    table = {s.name: s.coerce(platform[s.name]) if s.name in platform else s.default
             for s in specs}
    turn = table[TURN_TIMER.name]
    if table[CLOCK.name] == "none" and turn > 0:
        table[CLOCK.name] = "turn"  # a script that only sets turn_seconds gets that clock
    if table[CLOCK.name] == "turn" and turn <= 0:
        raise BadOptions("a per-turn clock needs turn_seconds (1 to 3600)")
    if table[CLOCK.name] == "chess" and turn > 0:
        raise BadOptions("turn_seconds is for the per-turn clock; a chess clock uses "
                         "bank_seconds and increment_seconds")
    return {**resolved, **table}


def option(options: Mapping[str, Any], name: str, default: Any) -> Any:
    """A stored table's option, with the default for tables created before it existed."""
    return options.get(name, default)
