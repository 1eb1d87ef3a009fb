"""Hand-made Block and Guess states and quick ways to play through phases."""

from __future__ import annotations

from typing import Any

from app.games.block_and_guess import ENGINE

E = ENGINE


def fresh(seats: int, seed: int = 1, first: int = 0, card: int | None = None,
          targets: tuple[int, int] | None = None) -> dict[str, Any]:
    """A new game; optionally this round's construction card and the two targets."""
    s = E.setup(seats, {"first_seat": first}, seed)
    if card is not None:
        set_card(s, card)
    if targets is not None:
        for build, target in zip(s["builds"], targets, strict=True):
            build["target"] = target
    return s


def set_card(s: dict[str, Any], card: int) -> None:
    """Swap ``card`` in as this round's construction card (before the draft starts)."""
    if s["card"] != card:
        s["card_deck"].remove(card)
        s["card_deck"].append(s["card"])
        s["card"] = card
    E._start_draft(s)


def act(s: dict[str, Any], seat: int, action: dict[str, Any]) -> tuple[dict[str, Any], list]:
    return E.apply(s, seat, action)


def draft_all(s: dict[str, Any]) -> dict[str, Any]:
    while s["phase"] == "draft":
        (seat,) = E.to_act(s)
        s, _ = act(s, seat, E.legal_actions(s, seat)[0])
    return s


def build_all(s: dict[str, Any]) -> dict[str, Any]:
    """Every builder in play follows the engine's plan and submits."""
    while s["phase"] == "build":
        seat = min(E.to_act(s))
        s, _ = act(s, seat, E.legal_actions(s, seat)[0])
    return s


def build_of(s: dict[str, Any], builder: int) -> dict[str, Any]:
    return next(b for b in s["builds"] if b["builder"] == builder)


def guess(s: dict[str, Any], builder: int, right: bool,
          seat: int | None = None) -> tuple[dict[str, Any], list]:
    b = build_of(s, builder)
    guesser = seat if seat is not None else E.guessers(s, builder)[0]
    target = b["target"]
    obj = target if right else next(k for k in range(1, 8)
                                    if k != target and k not in b["wrong"])
    return act(s, guesser, {"type": "guess", "build": builder, "object": obj})


def play_stage(s: dict[str, Any], right: dict[int, bool]) -> dict[str, Any]:
    """Draft, build and guess one stage; ``right[builder]`` says which guesses are right."""
    s = build_all(draft_all(s))
    for builder in [b["builder"] for b in s["builds"] if b["in_play"]]:
        s, _ = guess(s, builder, right.get(builder, False))
    return s


def play_round(s: dict[str, Any], right1: dict[int, bool],
               right2: dict[int, bool] | None = None) -> dict[str, Any]:
    number = s["round"]
    s = play_stage(s, right1)
    if s["round"] == number and not s["over"]:
        s = play_stage(s, right2 or {})
    assert s["over"] or s["round"] == number + 1
    return s
