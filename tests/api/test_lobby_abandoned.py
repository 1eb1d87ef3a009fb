"""Which games the lobby leaves out as abandoned (app.api.lobby.abandoned): a game in
progress every player has left for at least the table's absence grace."""

from __future__ import annotations

from typing import Any

from app.api.lobby import abandoned


def summary(status: str, seats: list[tuple[bool, bool, float | None]], grace: int = 120,
            stored: bool = False) -> dict[str, Any]:
    """seats: (bot, connected, away_for) each; stored: as the database alone knows it (no
    away_for at all)."""
    out = []
    for i, (bot, connected, away) in enumerate(seats):
        seat: dict[str, Any] = {"seat": i, "connected": connected,
                                "player": {"id": f"p{i}", "name": f"P{i}", "bot": bot}}
        if not stored:
            seat["away_for"] = away
        out.append(seat)
    return {"status": status, "options": {"absent_grace_seconds": grace}, "seats": out}


def test_a_game_everyone_left_for_the_grace_is_abandoned() -> None:
    assert abandoned(summary("playing", [(False, False, 130.0), (False, False, 500.0)]))
    assert abandoned(summary("playing", [(False, False, 0.0), (False, False, 0.0)], grace=0))
    # a bot left alone does not keep a game alive
    assert abandoned(summary("playing", [(False, False, 200.0), (True, True, None)]))
    # the owner is gone: only the database's word, nobody connected
    assert abandoned(summary("playing", [(False, False, None), (False, False, None)],
                             stored=True))


def test_a_game_someone_is_at_or_just_left_is_not() -> None:
    assert not abandoned(summary("playing", [(False, True, None), (False, False, 900.0)]))
    assert not abandoned(summary("playing", [(False, False, 30.0), (False, False, 900.0)]))
    assert not abandoned(summary("playing", [(True, True, None), (True, True, None)]))
    assert not abandoned(summary("waiting", [(False, False, 900.0), (False, False, 900.0)]))
    assert not abandoned(summary("playing", [(False, False, None), (False, False, 900.0)]))
