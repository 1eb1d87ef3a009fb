"""Block and Guess geometry and build checks: overlap, touching, support, and every checked
construction card (1, 2, 5, 7, 8), from hand-made builds."""

from __future__ import annotations

import random

import pytest

from app.games.block_and_guess import build as bld
from app.games.block_and_guess import geometry as geo

# colours: natural 0 12 14 · red 1 4 9 · blue 2 7 11 · yellow 3 6 10 · green 5 8 13
PLANK, RED_PLANK, RED_CUBE, GREEN_CUBE, WEDGE, ARCH = 0, 1, 4, 5, 7, 8
RED_HALF_DISC, DISC, COLUMN = 9, 10, 12


def at(block: int, x: float, y: float, angle: int = 0, flip: bool = False) -> bld.Placement:
    return (block, x, y, angle, flip)


def parts(p: bld.Placement) -> geo.Parts:
    return bld.parts_of(p)


def codes(held: tuple[int, ...], build: bld.Build, card: int = 0) -> dict[str, tuple]:
    return dict(bld.reasons(held, build, card))


# ------------------------------------------------------------------ primitives


def test_overlap_and_touching_with_a_tolerance() -> None:
    a = parts(at(RED_CUBE, 100, 20))
    assert geo.overlap(a, parts(at(GREEN_CUBE, 130, 20)))  # 10 units into each other
    side_by_side = parts(at(GREEN_CUBE, 140, 20))
    assert not geo.overlap(a, side_by_side) and geo.touching(a, side_by_side)
    nearly = parts(at(GREEN_CUBE, 139.6, 20))  # 0.4 in: within the tolerance
    assert not geo.overlap(a, nearly) and geo.touching(a, nearly)
    close = parts(at(GREEN_CUBE, 140.8, 20))  # 0.8 apart: still touching
    assert geo.touching(a, close)
    apart = parts(at(GREEN_CUBE, 142, 20))
    assert not geo.touching(a, apart) and geo.distance(a, apart) == pytest.approx(2)


def test_rotation_and_flip_change_the_shape() -> None:
    wedge = parts(at(WEDGE, 100, 20))
    flipped = parts(at(WEDGE, 100, 20, flip=True))
    assert geo.bounds(wedge) == pytest.approx(geo.bounds(flipped))
    # the wedge's vertical side is on the left; flipped, on the right
    assert min(x for x, y in wedge[0] if y > 30) == pytest.approx(80)
    assert max(x for x, y in flipped[0] if y > 30) == pytest.approx(120)
    diamond = parts(at(RED_CUBE, 100, 100, angle=45))
    x0, y0, x1, y1 = geo.bounds(diamond)
    assert x1 - x0 == pytest.approx(40 * 2 ** 0.5)
    assert geo.bounds(parts(at(COLUMN, 100, 100, angle=90)))[3] == pytest.approx(110)


def test_the_arch_is_not_convex() -> None:
    arch = parts(at(ARCH, 100, 20))  # opening: x 80..120, y 0..20
    inside = (((80.0, 0.0), (120.0, 0.0), (120.0, 15.0), (80.0, 15.0)),)  # fills it
    assert not geo.overlap(arch, inside) and geo.touching(arch, inside)
    too_tall = (((85.0, 0.0), (115.0, 0.0), (115.0, 25.0), (85.0, 25.0)),)
    assert geo.overlap(arch, too_tall)


def test_ground_support_and_resting() -> None:
    cube = parts(at(RED_CUBE, 100, 20))
    assert geo.on_ground(cube)
    assert not geo.on_ground(parts(at(RED_CUBE, 100, 22)))
    on_top = parts(at(GREEN_CUBE, 110, 60))
    assert geo.rests_on(on_top, cube) and not geo.rests_on(cube, on_top)
    beside_in_air = parts(at(GREEN_CUBE, 140, 50))  # touches the cube's side only
    assert geo.touching(beside_in_air, cube) and not geo.rests_on(beside_in_air, cube)


def test_drop_and_slide() -> None:
    plank = parts(at(PLANK, 100, 10))
    assert geo.drop(RED_CUBE, 100, 0, False, [plank]) == pytest.approx(40)
    assert geo.drop(RED_CUBE, 300, 0, False, [plank]) == pytest.approx(20)
    assert geo.slide_left(RED_CUBE, 20, 0, False, [plank]) == pytest.approx(180)


def test_board_bounds() -> None:
    assert geo.in_board(parts(at(PLANK, 60, 10)))
    assert not geo.in_board(parts(at(PLANK, 50, 10)))
    assert not geo.in_board(parts(at(PLANK, 100, 5)))
    assert not geo.in_board(parts(at(COLUMN, 100, geo.BOARD_H - 10)))
    assert bld.fits((), at(PLANK, 50, 10)) == "out_of_board"
    assert bld.fits((at(RED_CUBE, 100, 20),), at(GREEN_CUBE, 120, 20)) == "overlap"
    assert bld.fits((at(RED_CUBE, 100, 20),), at(RED_CUBE, 300, 20)) is None  # itself


# ------------------------------------------------------------------ the base rules


def test_a_valid_build_and_the_base_rules() -> None:
    held = (PLANK, RED_CUBE, GREEN_CUBE)
    good = (at(RED_CUBE, 100, 20), at(GREEN_CUBE, 200, 20), at(PLANK, 150, 50))
    assert codes(held, good) == {}
    assert codes(held, good[:2]) == {"unplaced": (PLANK,), "not_touching": (RED_CUBE, GREEN_CUBE)}
    floating = (at(RED_CUBE, 100, 20), at(GREEN_CUBE, 140, 20), at(PLANK, 300, 100))
    assert codes(held, floating) == {"not_standing": (PLANK,), "not_touching": (PLANK,)}
    # held up only from the side: touching, but not standing
    side = (at(RED_CUBE, 100, 20), at(GREEN_CUBE, 140, 20), at(PLANK, 220, 30))
    assert codes(held, side) == {"not_standing": (PLANK,)}


def test_standing_needs_a_chain_to_the_ground() -> None:
    held = (RED_CUBE, GREEN_CUBE, PLANK)
    tower = (at(PLANK, 100, 10), at(RED_CUBE, 100, 40), at(GREEN_CUBE, 100, 80))
    assert codes(held, tower) == {}
    # the green cube rests on the red one, which floats: neither stands
    floating = (at(PLANK, 300, 10), at(RED_CUBE, 100, 140), at(GREEN_CUBE, 100, 180))
    assert codes(held, floating)["not_standing"] == (RED_CUBE, GREEN_CUBE)


# ------------------------------------------------------------------ construction cards


def test_card_1_all_blocks_on_the_ground() -> None:
    held = (RED_CUBE, GREEN_CUBE, PLANK)
    row = (at(RED_CUBE, 100, 20), at(GREEN_CUBE, 140, 20), at(PLANK, 220, 10))
    assert codes(held, row, 1) == {}
    stacked = (at(RED_CUBE, 100, 20), at(GREEN_CUBE, 140, 20), at(PLANK, 120, 50))
    assert codes(held, stacked) == {}
    assert codes(held, stacked, 1) == {"card1_ground": (PLANK,)}


def test_card_2_no_block_touches_another() -> None:
    held = (RED_CUBE, GREEN_CUBE, PLANK)
    apart = (at(RED_CUBE, 100, 20), at(GREEN_CUBE, 160, 20), at(PLANK, 300, 10))
    assert codes(held, apart, 2) == {}
    assert codes(held, apart) == {"not_touching": (PLANK, RED_CUBE, GREEN_CUBE)}
    two_touch = (at(RED_CUBE, 100, 20), at(GREEN_CUBE, 140, 20), at(PLANK, 300, 10))
    assert codes(held, two_touch, 2) == {"card2_touching": (RED_CUBE, GREEN_CUBE)}


def test_card_5_different_colours_never_touch() -> None:
    held = (RED_CUBE, GREEN_CUBE, RED_PLANK)
    mixed = (at(RED_CUBE, 100, 20), at(GREEN_CUBE, 140, 20), at(RED_PLANK, 120, 50))
    assert codes(held, mixed) == {}
    assert codes(held, mixed, 5) == {"card5_colours": (RED_PLANK, RED_CUBE, GREEN_CUBE)}
    # reds together, the only green apart (a unique colour need not touch: ruling)
    sorted_out = (at(RED_CUBE, 100, 20), at(RED_PLANK, 180, 10), at(GREEN_CUBE, 400, 20))
    assert codes(held, sorted_out, 5) == {}
    reds_apart = (at(RED_CUBE, 100, 20), at(RED_PLANK, 300, 10), at(GREEN_CUBE, 500, 20))
    assert codes(held, reds_apart, 5) == {"not_touching": (RED_PLANK, RED_CUBE)}


def test_card_7_one_block_on_the_ground() -> None:
    held = (RED_CUBE, GREEN_CUBE, PLANK)
    tower = (at(PLANK, 100, 10), at(RED_CUBE, 80, 40), at(GREEN_CUBE, 120, 40))
    assert codes(held, tower, 7) == {}
    bridge = (at(RED_CUBE, 100, 20), at(GREEN_CUBE, 200, 20), at(PLANK, 150, 50))
    assert codes(held, bridge, 7) == {"card7_ground": (RED_CUBE, GREEN_CUBE)}


def test_card_8_blocks_of_one_colour_touch() -> None:
    held = (RED_CUBE, GREEN_CUBE, RED_HALF_DISC)
    apart = (at(RED_CUBE, 100, 20), at(GREEN_CUBE, 140, 20), at(RED_HALF_DISC, 190, 15))
    assert codes(held, apart) == {}
    assert codes(held, apart, 8) == {"card8_colours": (RED_CUBE, RED_HALF_DISC)}
    together = (at(GREEN_CUBE, 100, 20), at(RED_CUBE, 140, 20), at(RED_HALF_DISC, 190, 15))
    assert codes(held, together, 8) == {}


# ------------------------------------------------------------------ the planner


@pytest.mark.parametrize("card", range(1, 12))
def test_the_plan_is_a_valid_build_for_any_blocks(card: int) -> None:
    rng = random.Random(card)
    for _ in range(60):
        held = tuple(rng.sample(range(15), rng.choice([2, 3, 4, 6])))
        placements = bld.plan(held, card)
        build = tuple(placements[b] for b in held)
        assert bld.reasons(held, build, card) == ()
        assert all(bld.fits(build, p) is None for p in build)
        if card == 4:
            assert all(p[3] == 0 for p in build)
