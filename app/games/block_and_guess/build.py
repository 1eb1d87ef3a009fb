"""Checking a build against RULES.md §6 and the round's construction card, and planning one.

A placement is ``(block, x, y, angle, flip)``; a build is a tuple of placements. Everything
here is pure and cached by value, so views and legal actions can ask as often as they like.

Rules checked (codes are the reasons a view shows; the rules page explains them):

- ``unplaced``: every block the builder holds must be used;
- ``not_standing``: every block stands (geometry's support chain to the ground);
- ``not_touching``: every block touches at least one other (not with card 2; with card 5,
  **Ruling**: only blocks that share their colour with another of the builder's blocks must
  touch, since a block of a unique colour may touch nothing else);
- card 1 ``card1_ground``: every block touches the ground (so nothing is stacked: a block
  leaning on a neighbour while it touches the ground is not stacked);
- card 2 ``card2_touching``: no two blocks touch;
- card 5 ``card5_colours``: blocks of different colours do not touch;
- card 7 ``card7_ground``: at most one block on the ground (the others stand on it);
- card 8 ``card8_colours``: each block that shares its colour touches one of that colour.

``plan`` lays out a valid build for any set of blocks under any card (a row on the ground,
or a tower for card 7): the engine offers its slots as concrete legal placements.
"""

from __future__ import annotations

from functools import lru_cache

from app.games.block_and_guess import geometry as geo
from app.games.block_and_guess.data import BLOCKS

Placement = tuple[int, float, float, int, bool]
Build = tuple[Placement, ...]
Reasons = tuple[tuple[str, tuple[int, ...]], ...]

ROW_START = 20.0
GAP = 10.0


def parts_of(p: Placement) -> geo.Parts:
    return geo.placed(p[0], p[1], p[2], p[3], p[4])


def colour(block: int) -> str:
    return BLOCKS[block].colour


@lru_cache(maxsize=8192)
def reasons(held: tuple[int, ...], build: Build, card: int) -> Reasons:
    """Why the build is not valid yet: ``(code, blocks)`` pairs; empty when it is valid."""
    out: list[tuple[str, tuple[int, ...]]] = []
    placed_ids = [p[0] for p in build]
    missing = tuple(b for b in held if b not in placed_ids)
    if missing:
        out.append(("unplaced", missing))
    parts = {p[0]: parts_of(p) for p in build}
    ids = list(parts)
    touch = {b: {o for o in ids if o != b and geo.touching(parts[b], parts[o])} for b in ids}
    ground = {b for b in ids if geo.on_ground(parts[b])}
    rests = {b: {o for o in ids if o != b and geo.rests_on(parts[b], parts[o])} for b in ids}
    standing = set(ground)
    grew = True
    while grew:
        grew = False
        for b in ids:
            if b not in standing and rests[b] & standing:
                standing.add(b)
                grew = True
    _add(out, "not_standing", [b for b in ids if b not in standing])
    shares = {b: [o for o in held if o != b and colour(o) == colour(b)] for b in ids}
    if card == 2:
        _add(out, "card2_touching", [b for b in ids if touch[b]])
    elif len(held) > 1:
        needs = [b for b in ids if card != 5 or shares[b]]
        _add(out, "not_touching", [b for b in needs if not touch[b]])
    if card == 1:
        _add(out, "card1_ground", [b for b in ids if b not in ground])
    if card == 5:
        _add(out, "card5_colours", [b for b in ids
                                    if any(colour(o) != colour(b) for o in touch[b])])
    if card == 7 and len(ground) > 1:
        _add(out, "card7_ground", sorted(ground))
    if card == 8:
        _add(out, "card8_colours", [b for b in ids if shares[b]
                                    and not any(colour(o) == colour(b) for o in touch[b])])
    return tuple(out)


def _add(out: list[tuple[str, tuple[int, ...]]], code: str, blocks: list[int]) -> None:
    if blocks:
        out.append((code, tuple(sorted(blocks))))


def fits(build: Build, p: Placement) -> str | None:
    """Why placement ``p`` cannot go on the board next to the rest of the build, or None."""
    parts = parts_of(p)
    if not geo.in_board(parts):
        return "out_of_board"
    for other in build:
        if other[0] != p[0] and geo.overlap(parts, parts_of(other)):
            return "overlap"
    return None


@lru_cache(maxsize=4096)
def plan(held: tuple[int, ...], card: int) -> dict[int, Placement]:
    """A valid build of ``held`` under ``card``: a tower for card 7, a row otherwise."""
    if card == 7:
        return _tower(held)
    order = sorted(held, key=lambda b: (colour(b), b))
    out: dict[int, Placement] = {}
    laid: list[geo.Parts] = []
    previous: int | None = None
    for b in order:
        w, h = geo.size(b)
        x = geo.slide_left(b, h / 2, 0, False, laid)
        if x is None or previous is None:
            x = ROW_START + w / 2
        elif card == 2 or (card == 5 and colour(previous) != colour(b)):
            x += GAP
        out[b] = (b, round(x, 2), round(h / 2, 2), 0, False)
        laid.append(parts_of(out[b]))
        previous = b
    return out


def _tower(held: tuple[int, ...]) -> dict[int, Placement]:
    """Widest first, each lying as flat as it can, dropped onto the middle of the board."""
    def lying(b: int) -> int:
        return min((0, 90), key=lambda a: (geo.footprint(b, a, False)[3]
                                           - geo.footprint(b, a, False)[1], a))

    def width(b: int) -> float:
        x0, _, x1, _ = geo.footprint(b, lying(b), False)
        return x1 - x0

    out: dict[int, Placement] = {}
    stack: list[geo.Parts] = []
    for b in sorted(held, key=lambda b: (-width(b), b)):
        angle = lying(b)
        x = geo.BOARD_W / 2
        y = geo.drop(b, x, angle, False, stack)
        out[b] = (b, x, y, angle, False)
        stack.append(parts_of(out[b]))
    return out


@lru_cache(maxsize=8192)
def suggestions(held: tuple[int, ...], build: Build, card: int) -> tuple[tuple, ...]:
    """A few concrete moves towards the planned build: ``("submit",)``, ``("remove", b)``,
    ``("place", placement)``. Blocks already where the plan puts them are left alone."""
    if not reasons(held, build, card):
        return (("submit",),)
    target = plan(held, card)
    where = {p[0]: p for p in build}
    out: list[tuple] = []
    for b in held:
        if where.get(b) == target[b]:
            continue
        if b in where:
            out.append(("remove", b))
        if fits(build, target[b]) is None:
            out.append(("place", target[b]))
    if not out:  # the plan is in place but not valid (should not happen): allow a restart
        out = [("remove", p[0]) for p in build]
    return tuple(out)
