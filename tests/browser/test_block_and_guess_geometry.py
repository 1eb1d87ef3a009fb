"""The page's geometry (static/js/games/block-and-guess/geometry.js) against the server's
(app/games/block_and_guess/geometry.py and build.py): the same cases fed to both give the
same answers: touching, overlap, resting on, the drop height, fits, and every build's
reasons under every construction card, with many cases a hair either side of the
tolerances. Then the page's spot search (place.js) builds whole builds block by block under
every card, and the server finds each of them valid."""

from __future__ import annotations

import random
from typing import Any

import pytest

from app.games.block_and_guess import build as bld
from app.games.block_and_guess import geometry as geo
from app.games.block_and_guess.data import BLOCKS
from tests.browser.bg_pages import ENGINE

pytestmark = pytest.mark.browser

# distances to a contact that straddle the tolerances (touch 1.0, overlap 0.5, sink 2)
NEAR = [-0.7, -0.5, -0.49, -0.3, 0.0, 0.01, 0.3, 0.5, 0.99, 1.0, 1.01, 1.2, 1.5, 2.5, 7.0]


def world() -> dict[str, Any]:
    view = ENGINE.view(ENGINE.setup(3, {}, 1), None)
    return {"block_types": view["block_types"], "board": view["board"]}


def placement(rng: random.Random, block: int, others: list[bld.Placement],
              rotate: bool = True) -> bld.Placement:
    """Somewhere near the others: dropped onto them, or slid against them, then a hair off."""
    angle = rng.choice([0, 0, 90, 45, 15, 180, 270]) if rotate else 0
    flip = rng.random() < 0.3
    x = rng.uniform(60, geo.BOARD_W - 60)
    parts = [bld.parts_of(o) for o in others]
    y = geo.drop(block, x, angle, flip, parts) + rng.choice(NEAR)
    if others and rng.random() < 0.3:
        slid = geo.slide_left(block, y, angle, flip, parts)
        if slid is not None:
            x = slid + rng.choice(NEAR)
    return (block, round(x, 2), round(max(y, 0.0), 2), angle, flip)


def cases(n: int, seed: int) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        held = rng.sample(range(len(BLOCKS)), rng.choice([1, 2, 3, 3, 4, 6]))
        build: list[bld.Placement] = []
        for block in held[: rng.randint(max(1, len(held) - 1), len(held))]:
            build.append(placement(rng, block, build))
        card = rng.randint(0, 11)
        pairs = []
        for a in build:
            for b in build:
                if a[0] < b[0]:
                    pa, pb = bld.parts_of(a), bld.parts_of(b)
                    pairs.append({"a": a, "b": b, "touching": geo.touching(pa, pb),
                                  "overlap": geo.overlap(pa, pb), "ab": geo.rests_on(pa, pb),
                                  "ba": geo.rests_on(pb, pa), "distance": geo.distance(pa, pb)})
        mover = rng.choice(held)
        x = rng.uniform(40, geo.BOARD_W - 40)
        angle, flip = rng.choice([0, 90, 30]), rng.random() < 0.5
        others = [bld.parts_of(p) for p in build if p[0] != mover]
        out.append({
            "held": held, "build": build, "card": card, "pairs": pairs,
            "reasons": [[code, list(blocks)] for code, blocks in
                        bld.reasons(tuple(held), tuple(build), card)],
            "fits": [bld.fits(tuple(build[:i]), p) for i, p in enumerate(build)],
            "ground": [geo.on_ground(bld.parts_of(p)) for p in build],
            "drop": {"block": mover, "x": x, "angle": angle, "flip": flip,
                     "others": [p for p in build if p[0] != mover],
                     "y": geo.drop(mover, x, angle, flip, others)},
        })
    return out


JS_CHECK = """async ([world, cases]) => {
  const g = await import('/static/js/games/block-and-guess/geometry.js');
  const w = g.worldOf(world);
  const P = (p) => ({ block: p[0], x: p[1], y: p[2], angle: p[3], flip: p[4] });
  return cases.map((c) => {
    const build = c.build.map(P);
    return {
      pairs: c.pairs.map((q) => {
        const a = g.placed(w, P(q.a)); const b = g.placed(w, P(q.b));
        return { touching: g.touching(w, a, b), overlap: g.overlap(w, a, b),
                 ab: g.restsOn(w, a, b), ba: g.restsOn(w, b, a), distance: g.distance(a, b) };
      }),
      reasons: g.reasons(w, c.held, build, c.card),
      memo: g.reasons(w, c.held, build, c.card, new Map()),
      fits: build.map((p, i) => g.fits(w, build.slice(0, i), p)),
      ground: build.map((p) => g.onGround(w, g.placed(w, p))),
      drop: g.drop(w, c.drop.block, c.drop.x, c.drop.angle, c.drop.flip,
                   c.drop.others.map((p) => g.placed(w, P(p)))),
    };
  });
}"""

JS_BUILD = """async ([world, trials]) => {
  const g = await import('/static/js/games/block-and-guess/geometry.js');
  const { nearestSpot } = await import('/static/js/games/block-and-guess/place.js');
  const w = g.worldOf(world);
  const colours = ['natural', 'red', 'blue', 'yellow', 'green'];
  const colour = (b) => w.types[b].colour;
  return trials.map(({ card, stages }) => {
    const build = [];
    for (const stage of stages) {
      const onBoard = new Set(build.map((p) => colour(p.block)));
      const order = [...stage].sort((a, b) => (onBoard.has(colour(b)) - onBoard.has(colour(a)))
        || colours.indexOf(colour(a)) - colours.indexOf(colour(b)) || a - b);
      order.forEach((block, i) => {
        const mates = build.filter((p) => colour(p.block) === colour(block));
        const xs = build.map((p) => p.x);
        let target = build.length ? { x: (Math.min(...xs) + Math.max(...xs)) / 2, y: 0 }
          : { x: card === 3 ? 160 : 320, y: 0 };
        if ((card === 5 || card === 8) && mates.length) {
          target = { x: mates.reduce((s, p) => s + p.x, 0) / mates.length,
                     y: mates.reduce((s, p) => s + p.y, 0) / mates.length };
        }
        const spot = nearestSpot(w, { build, block, angle: 0, flip: false, card, target,
          lean: 2, onlyLeft: card === 3, turns: card === 4 ? [] : [[90, false]],
          after: card === 5 || card === 8 ? order.slice(i + 1) : [] });
        if (spot) build.push(spot);
      });
    }
    return build.map((p) => [p.block, p.x, p.y, p.angle, p.flip]);
  });
}"""


@pytest.fixture(scope="module")
def page(worker_server, chromium):
    context = chromium.new_context()
    page = context.new_page()
    page.goto(worker_server.url + "/rules/block-and-guess")
    yield page
    context.close()


def test_the_page_and_the_server_judge_builds_alike(page) -> None:
    fed = cases(400, seed=20)
    got = page.evaluate(JS_CHECK, [world(), fed])
    compared = touching = near = floating = 0
    for case, js in zip(fed, got, strict=True):
        for py, answer in zip(case["pairs"], js["pairs"], strict=True):
            for key in ("touching", "overlap", "ab", "ba"):
                assert answer[key] == py[key], (key, py)
            assert answer["distance"] == pytest.approx(py["distance"], abs=1e-9)
            touching += py["touching"]
            near += 0.5 <= py["distance"] <= 1.5
            compared += 1
        assert js["reasons"] == case["reasons"], case
        assert js["memo"] == case["reasons"], case
        assert js["fits"] == case["fits"], case
        assert js["ground"] == case["ground"], case
        assert js["drop"] == pytest.approx(case["drop"]["y"], abs=0.0101), case["drop"]
        floating += any(code == "not_standing" for code, _ in case["reasons"])
    # the cases did reach both sides of the tolerances
    assert compared > 500 and touching > 100 and near > 30 and floating > 20, \
        (compared, touching, near, floating)


def test_spots_found_by_the_page_make_builds_the_server_accepts(page) -> None:
    rng = random.Random(21)
    trials = []
    for n in range(110):
        card = n % 11 + 1
        quota = 2 if card == 9 else 3
        blocks = rng.sample(range(len(BLOCKS)), 2 * quota)
        trials.append({"card": card, "stages": [blocks[:quota], blocks[quota:]]})
    builds = page.evaluate(JS_BUILD, [world(), trials])
    for trial, build in zip(trials, builds, strict=True):
        placed = tuple(tuple(p) for p in build)
        held = tuple(trial["stages"][0] + trial["stages"][1])
        assert len(placed) == len(held), trial
        for i, p in enumerate(placed):
            assert bld.fits(placed[:i] + placed[i + 1:], p) is None, (trial, p)
        assert bld.reasons(held, placed, trial["card"]) == (), (trial, placed)
        if trial["card"] == 4:
            assert all(p[3] == 0 for p in placed)
