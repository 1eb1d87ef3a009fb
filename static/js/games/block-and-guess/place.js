// Where a block should go when the player taps instead of dragging, and where a dragged
// block snaps to: spots found with the same geometry as the server's check (geometry.js), so
// a spot chosen here is one the server accepts and one that keeps the build on its way to
// valid (it stands, it touches the build, it obeys the round's construction card). Pure: no DOM.
import { bounds, distance, drop, fits, footprint, placed, reasons, slideGap } from "./geometry.js";

const STEP = 2; // board units between the columns a block is dropped down
const GAP = 6; // board units: a gap between blocks that must not touch, visible on a phone
const round2 = (v) => Math.round(v * 100) / 100;

// What is wrong with a build, as "code:block" strings (the unplaced blocks aside: a build
// in progress lacks them by definition).
function problems(world, held, build, card, memo) {
  const out = new Set();
  for (const [code, blocks] of reasons(world, held, build, card, memo)) {
    if (code !== "unplaced") for (const b of blocks) out.add(`${code}:${b}`);
  }
  return out;
}

// Every spot the block can reach by being dropped from above somewhere, or by sliding
// sideways from there until it meets a block: each rests on something or touches something.
function candidates(world, block, angle, flip, otherParts, target) {
  const [fx0, , fx1] = footprint(world, block, angle, flip);
  const xs = [];
  for (let x = -fx0; x <= world.w - fx1 + 1e-9; x += STEP) xs.push(x);
  xs.push(Math.min(Math.max(target.x, -fx0), world.w - fx1));
  const seen = new Set();
  const out = [];
  const push = (x, y) => {
    const spot = { x: round2(x), y: round2(y) };
    const key = `${spot.x},${spot.y}`;
    if (!seen.has(key)) { seen.add(key); out.push(spot); }
  };
  for (const x of xs) {
    const y = drop(world, block, x, angle, flip, otherParts);
    push(x, y);
    if (!otherParts.length) continue;
    for (const dir of [-1, 1]) {
      const gap = slideGap(world, { block, x, y, angle, flip }, otherParts, dir);
      if (Number.isFinite(gap) && gap > 0) push(x + dir * gap, y);
    }
  }
  return out;
}

// The spot nearest `target` ({x, y}, the block's centre) for `block` turned `angle` and
// flipped `flip`, among those the server accepts, preferring those that leave the build with
// the fewest problems (none, when it can). `build` is the builder's placements (the block's
// own, if it is on the board, is ignored: it is the one moving). `onlyLeft`: card 3, the
// builder sees the left half only, so spots there come first. `lean` > 1 counts height
// differences more than sideways ones (tapping a tray block: rows before towers, which
// leaves every block's top free for what comes next). `turns` lists other orientations
// ([angle, flip]) to try when this one finds no spot without a problem (a plank stood on
// end fits where lying down it would touch a block it must not). `after`: the blocks still
// in the tray; a spot that leaves one of them no spot without a problem (a block it must
// touch, buried) comes after those that do not. Returns a placement or null.
export function nearestSpot(world, { build, block, angle, flip, card, target, onlyLeft = false, lean = 1, turns = [], after = [] }) {
  let best = null;
  for (const [a, f] of [[angle, flip], ...turns]) {
    const found = spotFor(world, { build, block, angle: a, flip: f, card, target, onlyLeft, lean, after, turns });
    // turned only to fix a problem (or to leave room), not just for a wider gap
    if (found && (best === null || found.problems < best.problems - 0.2)) best = found;
    if (best && best.problems < 0.5) break;
  }
  return best ? best.placement : null;
}

const LOOKAHEAD = 40; // spots checked for what they leave the tray's blocks, at most

function spotFor(world, { build, block, angle, flip, card, target, onlyLeft, lean, after = [], turns = [] }) {
  const others = build.filter((p) => p.block !== block);
  const otherParts = others.map((p) => placed(world, p));
  const held = [...others.map((p) => p.block), block];
  const spots = candidates(world, block, angle, flip, otherParts, target)
    .map((s) => ({ block, x: s.x, y: s.y, angle, flip }))
    .filter((p) => fits(world, others, p) === null);
  const outside = (p) => (onlyLeft && bounds(placed(world, p))[2] > world.w / 2 ? 1 : 0);
  const far = (p) => Math.hypot(p.x - target.x, (p.y - target.y) * lean);
  spots.sort((a, b) => outside(a) - outside(b) || far(a) - far(b));
  const memo = new Map();
  let looked = 0;
  const leavesRoom = (p) => {
    if (!after.length || looked >= LOOKAHEAD) return true;
    looked += 1;
    const next = [...others, p];
    return after.every((r) => {
      const found = spotFor(world, { build: next, block: r, angle: 0, flip: false, card, target, onlyLeft: false, lean });
      const clean = (t) => t && t.problems < 0.5;
      return clean(found) || turns.some(([a, f]) => clean(spotFor(world, { build: next, block: r, angle: a, flip: f, card, target, onlyLeft: false, lean })));
    });
  };
  // a block that must not touch (cards 2 and 5) is left a gap the eye can see
  const apart = card === 2 || card === 5;
  const crowded = (p) => {
    if (!apart) return false;
    const parts = placed(world, p);
    return otherParts.some((o) => { const d = distance(parts, o); return d > world.touch && d < GAP; });
  };
  let best = null;
  for (const p of spots) {
    let count = problems(world, held, [...others, p], card, memo).size;
    if (count === 0 && crowded(p)) count = 0.25;
    // a spot that buries what a tray block needs counts as half a problem (a crowded one, a
    // quarter)
    if (count === 0 && !leavesRoom(p)) count = 0.5;
    if (best === null || count < best.problems || (count === best.problems && outside(p) < outside(best.placement))) {
      best = { placement: p, problems: count };
    }
    // sorted by (outside, distance): the first spot with nothing wrong is the answer
    if (count === 0 && !outside(p)) break;
  }
  return best;
}

// Where a dragged block goes if it is within `reach` units of resting on something (or on
// the ground) or of touching a block beside it: the smallest such move the server accepts,
// or null (it stays where the pointer put it).
export function snap(world, { build, block, x, y, angle, flip, reach }) {
  const others = build.filter((p) => p.block !== block);
  const otherParts = others.map((p) => placed(world, p));
  const options = [];
  const rest = drop(world, block, x, angle, flip, otherParts);
  if (Math.abs(y - rest) <= reach) options.push({ x, y: rest });
  for (const dir of [-1, 1]) {
    const gap = slideGap(world, { block, x, y, angle, flip }, otherParts, dir);
    if (gap <= reach) options.push({ x: x + dir * gap, y });
  }
  const moves = options.map((o) => ({ block, x: round2(o.x), y: round2(o.y), angle, flip }))
    .filter((p) => fits(world, others, p) === null)
    .sort((a, b) => Math.hypot(a.x - x, a.y - y) - Math.hypot(b.x - x, b.y - y));
  return moves[0] || null;
}
