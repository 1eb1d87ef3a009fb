// Block and Guess boards: a side view of one build (ground line at the bottom) drawn as SVG in
// board units with y up, and the blocks as polygons from the view's block_types. Colour is
// never the only cue: each block carries its colour's symbol and an accessible name.
// A board shows a frame of the world: the builder's own zoomed in on the build (blocks big
// enough for a finger), a watched or guessed build fitted to its blocks (drawn large).
import { svg } from "../../svg.js";
import { symbolShape } from "../../ui/cards.js";
import { bounds, placed, worldOf } from "./geometry.js";

export const FILL = { natural: "#d8b184", red: "#d64545", blue: "#3d6fd6", yellow: "#f0c93a", green: "#3f9d5a" };
const SYMBOL = { natural: "bar", red: "red", blue: "blue", yellow: "yellow", green: "green" };
// the table under the ground line: a fixed share of what a board shows (of its width), so
// that on every board, zoomed in or not, the strip and its word are as tall on screen (its
// word 12 px or more on the narrowest board of a 390 px phone, 340 px wide)
const GROUND = 1 / 19;
const GROUND_TEXT = 0.7; // the word's size, in strip heights
// ... and at most the page's body text on screen (CSS px): a large board (the builder's, on a
// laptop) would make it 20 px or more. Set once the board is laid out, and again whenever
// its size changes (a phone turned, a window resized).
const GROUND_TEXT_MAX = 16;
const sizer = window.ResizeObserver ? new ResizeObserver((entries) => {
  for (const { target } of entries) {
    if (target.isConnected) capGroundLabel(target);
    else sizer.unobserve(target); // a board drawn over
  }
}) : null;

function capGroundLabel(board) {
  const label = board.querySelector(".bg-ground-text");
  const ctm = board.getScreenCTM();
  if (!label || !ctm || !ctm.a) return; // not laid out (a closed <details>)
  const size = Math.min(Number(label.dataset.size), GROUND_TEXT_MAX / ctm.a);
  if (Number(label.getAttribute("font-size")) !== size) label.setAttribute("font-size", size);
}
const MARGIN = 24; // board units kept around a build in a fitted frame
const HIT = 16; // screen pixels of extra grab area around the builder's blocks, at any zoom
// a build being made is shown twice as close as the whole board: a long plank is a finger
// wide on a phone; the frame widens by itself to keep the whole build in view
export const DEFAULT_ZOOM = 2;

export function blockName(ctx, type) {
  return ctx.t("block-and-guess.block.named", {
    shape: ctx.t(`block-and-guess.block.${type.key}`), colour: ctx.t(`block-and-guess.colour.${type.colour}`) });
}

export function placementTransform(p) {
  return `translate(${p.x} ${p.y}) rotate(${p.angle}) scale(${p.flip ? -1 : 1} 1)`;
}

// One block at a placement (or at the origin): its convex parts and its colour's symbol;
// `hit` adds an invisible wide outline that a finger can catch.
export function blockShape(type, p, attrs = {}, hit = false) {
  const size = Math.min(16, type.w * 0.5, type.h * 0.5);
  const points = (part) => part.map(([x, y]) => `${x},${y}`).join(" ");
  return svg("g", { transform: p ? placementTransform(p) : null, class: "bg-block", ...attrs },
    hit ? type.parts.map((part) => svg("polygon", { points: points(part), class: "bg-hit", "stroke-width": HIT * 2 })) : null,
    type.parts.map((part) => svg("polygon", {
      points: points(part), fill: FILL[type.colour], stroke: "#2b2118", "stroke-width": 1.5, "stroke-linejoin": "round", class: "bg-face" })),
    svg("g", { transform: "scale(1 -1)" }, symbolShape(SYMBOL[type.colour], -size / 2, -size / 2, size, { fill: "#fff", stroke: "#1f2230" })));
}

// A small stand-alone picture of a block (draft pool, tray).
export function blockThumb(ctx, type, size = 56) {
  const m = Math.max(type.w, type.h) / 2 + 4;
  return svg("svg", { class: "bg-thumb", width: size, height: size, viewBox: `${-m} ${-m} ${2 * m} ${2 * m}`, "aria-hidden": "true", focusable: "false" },
    svg("g", { transform: "scale(1 -1)" }, blockShape(type, null)));
}

// The part of the world a board shows, in SVG units (y down, the ground line at y = h):
// {x, y, w, h}, the ground strip (GROUND of w) at its foot. `zoom` (the builder's own
// board): that many times closer than the whole board, centred on the build, zoomed out as
// far as needed to keep all of it in view. `fit` (anyone else's board): the build's blocks
// with a margin, tall enough for its top with a margin, and at least W / 3.2 wide (a few
// small blocks are not blown up past 3.2 times the whole board's scale). Every frame has
// the whole board's proportions.
export function frame(view, build, { zoom = 1, fit = false, centre = null } = {}) {
  const W = view.board.w;
  const H = view.board.h;
  const world = worldOf(view);
  const boxes = build.placed.map((p) => bounds(placed(world, p)));
  const full = { x: 0, y: 0, w: W, h: H + GROUND * W };
  if (!boxes.length && (fit || zoom <= 1)) return full;
  const x0 = Math.min(...boxes.map((b) => b[0]), Infinity);
  const x1 = Math.max(...boxes.map((b) => b[2]), -Infinity);
  const top = Math.max(...boxes.map((b) => b[3]), 0);
  // a frame w wide shows w * H / W of sky over its ground strip
  const tall = (top + MARGIN) * W / H;
  let w;
  if (fit) w = Math.max(x1 - x0 + 2 * MARGIN, tall, W / 3.2);
  else w = Math.max(W / zoom, boxes.length ? x1 - x0 + 2 * MARGIN : 0, boxes.length ? tall : 0);
  if (w >= W) return full;
  const cx = boxes.length ? (x0 + x1) / 2 : (centre ?? W / 2);
  const x = Math.min(Math.max(cx - w / 2, 0), W - w);
  return { x, y: H - w * H / W, w, h: w * H / W + GROUND * w };
}

// A build being made, framed as its builder first sees it (DEFAULT_ZOOM, or the builder's
// own zoom on their workbench): every other player's board shows the same part of the
// world, so the blocks are drawn there at the builder's scale, not as specks on the whole
// board. Under card 3 an empty board is centred on the half the builder can see.
export function liveFrame(view, build, zoom = DEFAULT_ZOOM) {
  const half = view.construction && view.construction.mode === "half";
  return frame(view, build, { zoom, centre: half ? view.board.w / 4 : null });
}

// The board of one build. options: {label, mine, mode, hideBlocks, selected, frame,
// problems: Map block -> [short reason], focusable}
export function boardSvg(ctx, view, build, options = {}) {
  const { w, h } = view.board;
  const types = view.block_types;
  const box = options.frame || { x: 0, y: 0, w, h: h + GROUND * w };
  const depth = box.y + box.h - h; // the ground strip's height in this frame
  const problems = options.problems || new Map();
  const blocks = options.hideBlocks ? [] : build.placed;
  const inner = svg("g", { transform: `translate(0 ${h}) scale(1 -1)`, class: "bg-world" },
    svg("rect", { x: 0, y: 0, width: w, height: h, class: "bg-sky" }),
    svg("line", { x1: 0, x2: w, y1: 0, y2: 0, class: "bg-ground-line" }),
    blocks.map((p) => blockShape(types[p.block], p, {
      "data-block": String(p.block),
      class: `bg-block${options.selected === p.block ? " selected" : ""}${options.mine ? " draggable" : ""}${problems.has(p.block) ? " bg-problem" : ""}`,
      role: "img", "aria-label": blockName(ctx, types[p.block]) + (problems.has(p.block) ? `: ${problems.get(p.block).join(", ")}` : "") }, options.mine)),
    options.mode === "half" ? svg("rect", { x: w / 2, y: 0, width: w / 2, height: h, class: "bg-veil" }) : null);
  const ground = svg("rect", { x: 0, y: h, width: w, height: depth, class: "bg-ground" });
  const text = Math.max(9, box.w / 32); // board units: readable at every zoom
  // the strip's word, in the middle of its height (below the ground line: under no block)
  const groundLabel = svg("text", {
    x: box.x + depth * 0.4, y: h + depth / 2, "dominant-baseline": "central", class: "bg-ground-text",
    "font-size": depth * GROUND_TEXT, "data-size": depth * GROUND_TEXT }, ctx.t("block-and-guess.label.ground"));
  const front = build.front ? svg("text", {
    x: build.front === "left" ? box.x + 8 : box.x + box.w - 8, y: box.y + text * 1.6, "font-size": text * 1.3,
    "text-anchor": build.front === "left" ? "start" : "end", class: "bg-front" },
  `${build.front === "left" ? "◀ " : ""}${ctx.t("block-and-guess.label.front", { side: ctx.t(`block-and-guess.side.${build.front}`) })}${build.front === "right" ? " ▶" : ""}`) : null;
  // the reason a build is not valid, written just above the block it concerns (notes that
  // would overlap are stacked upwards, the lowest block's nearest to it)
  const notes = [];
  const wanted = blocks.filter((p) => problems.has(p.block)).map((p) => {
    const [bx0, , bx1, by1] = bounds(placed(worldOf(view), p));
    const words = problems.get(p.block)[0];
    const width = words.length * text * 0.58;
    return { block: p.block, words, width, x: Math.min(Math.max((bx0 + bx1) / 2, box.x + width / 2 + 2), box.x + box.w - width / 2 - 2), y: h - by1 - text * 0.45 };
  }).sort((a, b) => b.y - a.y);
  for (const note of wanted) {
    while (notes.some((o) => Math.abs(o.x - note.x) < (o.width + note.width) / 2 && Math.abs(o.y - note.y) < text * 1.1)) note.y -= text * 1.15;
    notes.push(note);
  }
  const noteNodes = notes.map((n) => svg("text", {
    x: n.x, y: Math.max(n.y, box.y + text * 1.1), "text-anchor": "middle", "font-size": text, class: "bg-note", "data-note": String(n.block), "aria-hidden": "true" },
  n.words));
  const board = svg("svg", {
    class: `bg-board${options.mine ? " mine" : ""}`, id: `bg-board-${build.builder}`,
    viewBox: `${box.x} ${box.y} ${box.w} ${box.h}`, preserveAspectRatio: "xMidYMax meet",
    role: options.focusable ? "application" : "group", "aria-label": options.label || "", "data-builder": String(build.builder),
    tabindex: options.focusable ? "0" : null, "data-focus-key": options.focusable ? "board" : null,
    "aria-describedby": options.describedBy || null },
  inner, ground, groundLabel, front, noteNodes);
  if (sizer) sizer.observe(board);
  return board;
}

// Board coordinates (y up) of a pointer event over a board svg.
export function boardPoint(board, event, view) {
  const point = board.createSVGPoint();
  point.x = event.clientX;
  point.y = event.clientY;
  const local = point.matrixTransform(board.getScreenCTM().inverse());
  return { x: local.x, y: view.board.h - local.y };
}

// The middle of what a board shows, in board coordinates (the mirror line of card 10).
export function frameCentre(board, view) {
  const box = board.viewBox.baseVal;
  return { x: box.x + box.width / 2, y: view.board.h - (box.y + box.height / 2) };
}

// How far below the ground line a board shows (its ground strip), in board units.
export function shownBelow(board, view) {
  const box = board.viewBox.baseVal;
  return box.y + box.height - view.board.h;
}

// Draw (or move) a block that is not part of the stored build: a live drag.
export function showMoving(board, view, data, cls = "bg-moving") {
  const world = board.querySelector(".bg-world");
  if (!world) return;
  let node = world.querySelector(`[data-block="${data.block}"]`);
  if (!node) {
    node = blockShape(view.block_types[data.block], data, { "data-block": String(data.block), class: `bg-block ${cls}` });
    world.append(node);
  }
  node.setAttribute("transform", placementTransform(data));
}
