// Block and Guess geometry in the browser: a faithful port of the server's
// app/games/block_and_guess/geometry.py and build.py (overlap, touching, support, the build
// check and its reasons), so that the page can find a spot the server will accept before it
// sends anything. The server stays the judge: tests/browser/test_block_and_guess_geometry.py
// feeds the same cases to both and requires the same answers. Pure: no DOM.
//
// Units and conventions as on the server: x right, y up, the ground at y=0; a placement
// {block, x, y, angle, flip} puts the centre of the block's bounding box (at angle 0) at
// (x, y), mirrored left-right first when flip, then turned angle degrees counter-clockwise.
// `world` carries the server's numbers from the view: {types, w, h, touch, overlap, sink}.

export function worldOf(view) {
  const b = view.board;
  return { types: view.block_types, w: b.w, h: b.h, touch: b.touch, overlap: b.overlap, sink: b.sink };
}

const DEG = Math.PI / 180; // CPython's math.radians multiplies by pi/180 computed once

// The block's convex parts in board coordinates (geometry.placed).
export function placed(world, p) {
  const a = p.angle * DEG;
  const c = Math.cos(a);
  const s = Math.sin(a);
  return world.types[p.block].parts.map((part) => {
    const pts = p.flip ? [...part].reverse().map(([x, y]) => [-x, y]) : part;
    return pts.map(([px, py]) => [p.x + px * c - py * s, p.y + px * s + py * c]);
  });
}

export function bounds(parts) {
  let x0 = Infinity; let y0 = Infinity; let x1 = -Infinity; let y1 = -Infinity;
  for (const part of parts) {
    for (const [x, y] of part) {
      if (x < x0) x0 = x;
      if (x > x1) x1 = x;
      if (y < y0) y0 = y;
      if (y > y1) y1 = y;
    }
  }
  return [x0, y0, x1, y1];
}

function axes(poly) {
  const out = [];
  for (let i = 0; i < poly.length; i += 1) {
    const [x1, y1] = poly[i];
    const [x2, y2] = poly[(i + 1) % poly.length];
    const nx = y2 - y1;
    const ny = x1 - x2;
    const length = Math.hypot(nx, ny);
    if (length > 1e-9) out.push([nx / length, ny / length]);
  }
  return out;
}

// The smallest overlap of the two convex polygons' projections (negative when apart).
function penetration(a, b) {
  let least = Infinity;
  for (const [ax, ay] of [...axes(a), ...axes(b)]) {
    let amin = Infinity; let amax = -Infinity; let bmin = Infinity; let bmax = -Infinity;
    for (const [x, y] of a) { const v = x * ax + y * ay; if (v < amin) amin = v; if (v > amax) amax = v; }
    for (const [x, y] of b) { const v = x * ax + y * ay; if (v < bmin) bmin = v; if (v > bmax) bmax = v; }
    least = Math.min(least, Math.min(amax, bmax) - Math.max(amin, bmin));
    if (least < 0) return least;
  }
  return least;
}

function pointSegment([px, py], [ax, ay], [bx, by]) {
  const dx = bx - ax;
  const dy = by - ay;
  const length2 = dx * dx + dy * dy;
  const t = length2 === 0 ? 0 : Math.max(0, Math.min(1, ((px - ax) * dx + (py - ay) * dy) / length2));
  return Math.hypot(px - ax - t * dx, py - ay - t * dy);
}

function polyDistance(a, b) {
  if (penetration(a, b) > 0) return 0;
  let best = Infinity;
  for (const [p, q] of [[a, b], [b, a]]) {
    for (const point of p) {
      for (let i = 0; i < q.length; i += 1) best = Math.min(best, pointSegment(point, q[i], q[(i + 1) % q.length]));
    }
  }
  return best;
}

export function overlap(world, a, b) {
  return a.some((p) => b.some((q) => penetration(p, q) > world.overlap));
}

export function distance(a, b) {
  let best = Infinity;
  for (const p of a) for (const q of b) best = Math.min(best, polyDistance(p, q));
  return best;
}

export const touching = (world, a, b) => distance(a, b) <= world.touch;
export const onGround = (world, a) => bounds(a)[1] <= world.touch;

// upper rests on lower: they touch, and upper lowered by `sink` would overlap lower
export function restsOn(world, upper, lower) {
  if (!touching(world, upper, lower)) return false;
  const sunk = upper.map((part) => part.map(([x, y]) => [x, y - world.sink]));
  return overlap(world, sunk, lower);
}

export function inBoard(world, a) {
  const [x0, y0, x1, y1] = bounds(a);
  const tol = world.overlap;
  return x0 >= -tol && x1 <= world.w + tol && y0 >= -tol && y1 <= world.h + tol;
}

// How far `moving` can go straight down before it meets `still` (Infinity: never).
function dropGap(moving, still) {
  let best = Infinity;
  for (const [points, edges, sign] of [[moving, still, 1], [still, moving, -1]]) {
    for (const [px, py] of points) {
      for (let i = 0; i < edges.length; i += 1) {
        const [x1, y1] = edges[i];
        const [x2, y2] = edges[(i + 1) % edges.length];
        if (Math.abs(x2 - x1) < 1e-9 || !(Math.min(x1, x2) - 1e-9 <= px && px <= Math.max(x1, x2) + 1e-9)) continue;
        const ey = y1 + (y2 - y1) * (px - x1) / (x2 - x1);
        const gap = (py - ey) * sign;
        if (gap >= -1e-6) best = Math.min(best, Math.max(gap, 0));
      }
    }
  }
  return best;
}

// The y at which the block, held at x above everything and let go, comes to rest
// (geometry.drop); `others` are placed parts.
export function drop(world, block, x, angle, flip, others) {
  const top = others.length ? Math.max(...others.map((o) => bounds(o)[3])) : 0;
  const start = top + world.h;
  const parts = placed(world, { block, x, y: start, angle, flip });
  let gap = bounds(parts)[1];
  for (const other of others) for (const p of parts) for (const q of other) gap = Math.min(gap, dropGap(p, q));
  return Math.ceil((start - gap) * 100) / 100;
}

const swap = (poly) => poly.map(([x, y]) => [y, x]);
const mirror = (poly) => poly.map(([x, y]) => [-x, y]);

// How far the block at (x, y) can slide left (dir -1) or right (dir 1) before it meets one
// of `others` (Infinity: it meets nothing). geometry.slide_left's sweep, from where it is.
export function slideGap(world, p, others, dir) {
  const turn = (poly) => swap(dir < 0 ? poly : mirror(poly));
  const parts = placed(world, p).map(turn);
  let gap = Infinity;
  for (const other of others) for (const a of parts) for (const b of other) gap = Math.min(gap, dropGap(a, turn(b)));
  return gap;
}

export function footprint(world, block, angle, flip) {
  return bounds(placed(world, { block, x: 0, y: 0, angle, flip }));
}

// ------------------------------------------------------------------ the build check (build.py)

const colour = (world, block) => world.types[block].colour;

const keyOf = (p) => `${p.block},${p.x},${p.y},${p.angle},${p.flip}`;

// Why the build is not valid yet: [[code, [blocks]], ...] in the server's order; [] = valid.
// `held` lists the builder's blocks, `build` their placements. `memo` (a Map, optional)
// keeps the pairwise answers between calls about builds that share placements.
export function reasons(world, held, build, card, memo = null) {
  const out = [];
  const ids = build.map((p) => p.block);
  const missing = held.filter((b) => !ids.includes(b));
  if (missing.length) out.push(["unplaced", missing]);
  const parts = new Map(build.map((p) => [p.block, placed(world, p)]));
  const keys = new Map(build.map((p) => [p.block, keyOf(p)]));
  const pair = (name, b, o, compute) => {
    if (!memo) return compute();
    const key = `${name}|${keys.get(b)}|${keys.get(o)}`;
    if (!memo.has(key)) memo.set(key, compute());
    return memo.get(key);
  };
  const touchPair = (b, o) => (b < o ? pair("t", b, o, () => touching(world, parts.get(b), parts.get(o)))
    : pair("t", o, b, () => touching(world, parts.get(o), parts.get(b))));
  const touch = new Map(ids.map((b) => [b, new Set(ids.filter((o) => o !== b && touchPair(b, o)))]));
  const ground = new Set(ids.filter((b) => onGround(world, parts.get(b))));
  const rests = new Map(ids.map((b) => [b, ids.filter((o) => o !== b
    && pair("r", b, o, () => restsOn(world, parts.get(b), parts.get(o))))]));
  const standing = new Set(ground);
  for (let grew = true; grew;) {
    grew = false;
    for (const b of ids) {
      if (!standing.has(b) && rests.get(b).some((o) => standing.has(o))) { standing.add(b); grew = true; }
    }
  }
  add(out, "not_standing", ids.filter((b) => !standing.has(b)));
  const shares = new Map(ids.map((b) => [b, held.filter((o) => o !== b && colour(world, o) === colour(world, b))]));
  if (card === 2) add(out, "card2_touching", ids.filter((b) => touch.get(b).size));
  else if (held.length > 1) {
    const needs = ids.filter((b) => card !== 5 || shares.get(b).length);
    add(out, "not_touching", needs.filter((b) => !touch.get(b).size));
  }
  if (card === 1) add(out, "card1_ground", ids.filter((b) => !ground.has(b)));
  if (card === 5) add(out, "card5_colours", ids.filter((b) => [...touch.get(b)].some((o) => colour(world, o) !== colour(world, b))));
  if (card === 7 && ground.size > 1) add(out, "card7_ground", [...ground]);
  if (card === 8) {
    add(out, "card8_colours", ids.filter((b) => shares.get(b).length
      && ![...touch.get(b)].some((o) => colour(world, o) === colour(world, b))));
  }
  return out;
}

function add(out, code, blocks) {
  if (blocks.length) out.push([code, [...blocks].sort((a, b) => a - b)]);
}

// Why placement p cannot go on the board beside the rest of the build, or null (build.fits).
export function fits(world, build, p) {
  const parts = placed(world, p);
  if (!inBoard(world, parts)) return "out_of_board";
  for (const other of build) {
    if (other.block !== p.block && overlap(world, parts, placed(world, other))) return "overlap";
  }
  return null;
}
