"""Block and Guess geometry: the server's single source of truth about a build (pure Python).

Coordinates are board units, x to the right, y up; the ground ("the table") is the line y=0
and the board is ``BOARD_W`` x ``BOARD_H``. A block type is a union of convex polygons
(``data.BLOCKS``). A placement ``(x, y, angle, flip)`` puts the centre of the block's
bounding box (as it lies at angle 0) at ``(x, y)``, mirrored left-right first when ``flip``,
then turned ``angle`` degrees counter-clockwise (multiples of ``ANGLE_STEP``).

Definitions (documented on the rules page):

- overlap: two blocks overlap when some pair of their convex parts interpenetrates by more
  than ``OVERLAP_TOL`` on every separating axis (so blocks that merely touch never overlap);
- touching: the distance between two blocks is at most ``TOUCH``;
- on the ground: the block's lowest point is within ``TOUCH`` of y=0;
- resting on: block A rests on block B when they touch and A lowered by ``SINK`` would
  overlap B (B holds it up from below; a side-by-side contact is not support, and a block
  hovering above another without touching it is not held up by it: RULES.md §6's ruling
  that support means contact);
- standing (RULES.md's "must stand" **Ruling**): every block is on the ground or rests on a
  block that itself stands (a chain of support down to the ground).
"""

from __future__ import annotations

import math
from functools import cache, lru_cache

from app.games.block_and_guess.data import BLOCKS, Point

BOARD_W = 640.0
BOARD_H = 400.0
ANGLE_STEP = 15
TOUCH = 1.0
OVERLAP_TOL = 0.5
SINK = 2.0

Poly = tuple[Point, ...]
Parts = tuple[Poly, ...]


@cache
def local_parts(block: int) -> Parts:
    """The block's parts centred on its bounding box at angle 0."""
    parts = BLOCKS[block].parts
    xs = [x for part in parts for x, _ in part]
    ys = [y for part in parts for _, y in part]
    cx, cy = (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2
    return tuple(tuple((x - cx, y - cy) for x, y in part) for part in parts)


def size(block: int) -> tuple[float, float]:
    """Width and height of the block at angle 0."""
    xs = [x for part in BLOCKS[block].parts for x, _ in part]
    ys = [y for part in BLOCKS[block].parts for _, y in part]
    return max(xs) - min(xs), max(ys) - min(ys)


@lru_cache(maxsize=65536)
def placed(block: int, x: float, y: float, angle: int, flip: bool) -> Parts:
    """The block's parts in board coordinates for a placement."""
    c, s = math.cos(math.radians(angle)), math.sin(math.radians(angle))
    out = []
    for part in local_parts(block):
        pts = [(-px, py) for px, py in reversed(part)] if flip else list(part)
        out.append(tuple((x + px * c - py * s, y + px * s + py * c) for px, py in pts))
    return tuple(out)


def bounds(parts: Parts) -> tuple[float, float, float, float]:
    xs = [x for part in parts for x, _ in part]
    ys = [y for part in parts for _, y in part]
    return min(xs), min(ys), max(xs), max(ys)


def _axes(poly: Poly) -> list[Point]:
    axes = []
    for i, (x1, y1) in enumerate(poly):
        x2, y2 = poly[(i + 1) % len(poly)]
        nx, ny = y2 - y1, x1 - x2
        length = math.hypot(nx, ny)
        if length > 1e-9:
            axes.append((nx / length, ny / length))
    return axes


def _penetration(a: Poly, b: Poly) -> float:
    """The smallest overlap of the two convex polygons' projections over all separating axes
    (negative when they are apart)."""
    least = math.inf
    for ax, ay in _axes(a) + _axes(b):
        pa = [x * ax + y * ay for x, y in a]
        pb = [x * ax + y * ay for x, y in b]
        least = min(least, min(max(pa), max(pb)) - max(min(pa), min(pb)))
        if least < 0:
            return least
    return least


def _point_segment(p: Point, a: Point, b: Point) -> float:
    (px, py), (ax, ay), (bx, by) = p, a, b
    dx, dy = bx - ax, by - ay
    length2 = dx * dx + dy * dy
    t = 0.0 if length2 == 0 else max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / length2))
    return math.hypot(px - ax - t * dx, py - ay - t * dy)


def _poly_distance(a: Poly, b: Poly) -> float:
    if _penetration(a, b) > 0:
        return 0.0
    best = math.inf
    for p, q in ((a, b), (b, a)):
        for point in p:
            for i in range(len(q)):
                best = min(best, _point_segment(point, q[i], q[(i + 1) % len(q)]))
    return best


def overlap(a: Parts, b: Parts) -> bool:
    """Interpenetration beyond the tolerance (touching is not overlapping)."""
    return any(_penetration(p, q) > OVERLAP_TOL for p in a for q in b)


def distance(a: Parts, b: Parts) -> float:
    return min(_poly_distance(p, q) for p in a for q in b)


def touching(a: Parts, b: Parts) -> bool:
    return distance(a, b) <= TOUCH


def on_ground(a: Parts) -> bool:
    return bounds(a)[1] <= TOUCH


def rests_on(upper: Parts, lower: Parts) -> bool:
    if not touching(upper, lower):
        return False
    sunk = tuple(tuple((x, y - SINK) for x, y in part) for part in upper)
    return overlap(sunk, lower)


def in_board(a: Parts) -> bool:
    x0, y0, x1, y1 = bounds(a)
    return x0 >= -OVERLAP_TOL and x1 <= BOARD_W + OVERLAP_TOL and y0 >= -OVERLAP_TOL \
        and y1 <= BOARD_H + OVERLAP_TOL


def _drop_gap(moving: Poly, still: Poly) -> float:
    """How far ``moving`` can go straight down before it meets ``still`` (inf: never)."""
    best = math.inf
    for points, edges, sign in ((moving, still, 1), (still, moving, -1)):
        for px, py in points:
            for i in range(len(edges)):
                (x1, y1), (x2, y2) = edges[i], edges[(i + 1) % len(edges)]
                if abs(x2 - x1) < 1e-9 or not min(x1, x2) - 1e-9 <= px <= max(x1, x2) + 1e-9:
                    continue
                ey = y1 + (y2 - y1) * (px - x1) / (x2 - x1)
                gap = (py - ey) * sign
                if gap >= -1e-6:
                    best = min(best, max(gap, 0.0))
    return best


def drop(block: int, x: float, angle: int, flip: bool, others: list[Parts]) -> float:
    """The y at which the block, held at ``x`` above everything and let go, comes to rest."""
    top = max([bounds(o)[3] for o in others], default=0.0)
    start = top + BOARD_H
    parts = placed(block, x, start, angle, flip)
    gap = bounds(parts)[1]  # to the ground
    for other in others:
        for p in parts:
            for q in other:
                gap = min(gap, _drop_gap(p, q))
    return math.ceil((start - gap) * 100) / 100


def slide_left(block: int, y: float, angle: int, flip: bool, others: list[Parts]) -> float | None:
    """The x at which the block, pushed leftwards at height ``y`` from beyond the right of the
    board, first meets one of ``others`` (None when it meets nothing)."""
    start = BOARD_W * 2
    parts = placed(block, start, y, angle, flip)
    swap = [tuple((py, px) for px, py in p) for p in parts]
    gap = math.inf
    for other in others:
        for p in swap:
            for q in other:
                gap = min(gap, _drop_gap(p, tuple((qy, qx) for qx, qy in q)))
    if gap == math.inf:
        return None
    return math.ceil((start - gap) * 100) / 100


def footprint(block: int, angle: int, flip: bool) -> tuple[float, float, float, float]:
    """Bounds of the block centred on the origin for an orientation."""
    return bounds(placed(block, 0.0, 0.0, angle, flip))
