"""What each seat sees of a Block and Guess game (``view``): everything is public except
unrevealed target numbers (this round's builders only) and guess proposals (the build's
guessers only). Each build carries whether it is valid now and why not, so the page can
show the server's reasons."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from app.games.base import JSON
from app.games.block_and_guess import build as bld
from app.games.block_and_guess import geometry as geo
from app.games.block_and_guess import roles
from app.games.block_and_guess.data import BLOCKS, CLUE_CARDS, CONSTRUCTION_CARDS


@lru_cache(maxsize=1)
def block_types() -> list[JSON]:
    out = []
    for b in BLOCKS:
        w, h = geo.size(b.id)
        # the parts exactly as the server's geometry uses them: the page runs the same
        # checks (static/js/games/block-and-guess/geometry.js) to find spots it will accept
        out.append({"id": b.id, "key": b.key, "colour": b.colour, "w": w, "h": h,
                    "parts": [[[x, y] for x, y in part] for part in geo.local_parts(b.id)]})
    return out


def clue_card(index: int | None) -> JSON | None:
    if index is None:
        return None
    return {"id": index, "objects": [{"n": n + 1, "es": es, "en": en}
                                     for n, (es, en) in enumerate(CLUE_CARDS[index])]}


def view_of(engine: Any, s: JSON, me: int | None, reveal: bool = False) -> JSON:
    """``me``'s view; ``reveal`` (a replay, never a seat) shows every target and proposal."""
    builders = s["builders"]
    builds = []
    for x in s["builds"]:
        guessers = roles.guessers_of(s, x["builder"]) if not s["over"] else []
        sees_target = reveal or x["revealed"] or (me is not None and me in builders)
        why = bld.reasons(tuple(x["held"]), engine._placements(x), s["card"])
        builds.append({
            "builder": x["builder"], "team": x["team"], "guessers": guessers,
            "held": list(x["held"]),
            "placed": [{"block": p[0], "x": p[1], "y": p[2], "angle": p[3], "flip": p[4]}
                       for p in x["placed"]],
            "in_play": x["in_play"], "submitted": x["submitted"],
            "valid": not why,
            "reasons": [{"code": code, "blocks": list(blocks)} for code, blocks in why],
            "target": x["target"] if sees_target else None,
            "guess": x["guess"], "guessed_by": x["guessed_by"], "wrong": list(x["wrong"]),
            "result": x["result"], "asked": x["asked"], "question": x["question"],
            "front": x["front"],
            "proposals": ({k: v for k, v in x["proposals"].items()}
                          if reveal or (me is not None and me in guessers) else None),
        })
    role = None
    if me is not None:
        role = "builder" if me in builders else (
            "guesser" if any(me in b["guessers"] for b in builds) else "idle")
    draft = None
    if s["draft"] is not None:
        picker, to = s["draft"]["steps"][s["draft"]["index"]]
        draft = {"picker": picker, "to": to,
                 "left": len(s["draft"]["steps"]) - s["draft"]["index"]}
    card = s["card"]
    mine = next((x for x in s["builds"] if x["builder"] == me), None)
    continuous = None
    if s["phase"] == "build" and mine is not None and mine["in_play"] and not mine["submitted"]:
        # the continuous action a builder may send beyond the concrete legal_actions
        continuous = {"type": "place", "block": list(mine["held"]),
                      "x": [0, geo.BOARD_W], "y": [0, geo.BOARD_H],
                      "angle": {"step": geo.ANGLE_STEP, "max": 0 if card == 4 else 345},
                      "flip": [False, True], "live": "ephemeral"}
    return {
        "game": engine.id, "seats": s["seats"], "me": me, "options": dict(s["options"]),
        "phase": s["phase"], "stage": s["stage"], "round": s["round"], "rounds": s["rounds"],
        "tiebreak": s["round"] > s["rounds"], "solo": s["seats"] == 3,
        "teams": [list(t) for t in s["teams"]],
        "my_team": roles.team_of(s, me) if me is not None else None,
        "role": role, "first": s["first"], "builders": list(builders),
        "clue": clue_card(s["clue"]),
        "construction": None if card is None else {
            "card": card, "kind": CONSTRUCTION_CARDS[card], "mode": engine.board_mode(s)},
        "pool": list(s["pool"]), "draft": draft, "builds": builds,
        "points": list(s["points"]), "scores": engine.scores(s),
        "results": [dict(r, points=list(r["points"]),
                         builds=[dict(b, name=dict(b["name"])) for b in r["builds"]])
                    for r in s["results"]],
        "holding_up": sorted(engine.holding_up(s)),
        "board": {"w": geo.BOARD_W, "h": geo.BOARD_H, "angle_step": geo.ANGLE_STEP,
                  "touch": geo.TOUCH, "overlap": geo.OVERLAP_TOL, "sink": geo.SINK,
                  "rotation": card != 4},
        "block_types": block_types(),
        "continuous": continuous,
        "clue_cards": len(s["clue_deck"]),
    }
