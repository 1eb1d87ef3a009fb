// Block and Guess boards: a side view of one build (ground line at the bottom) drawn as SVG in
// board units with y up, and the blocks as polygons from the view's block_types. Colour is
// never the only cue: each block carries its colour's symbol and an accessible name.
import { svg } from "../../svg.js";
import { symbolShape } from "../../ui/cards.js";

export const FILL = { natural: "#d8b184", red: "#d64545", blue: "#3d6fd6", yellow: "#f0c93a", green: "#3f9d5a" };
const SYMBOL = { natural: "bar", red: "red", blue: "blue", yellow: "yellow", green: "green" };
const GROUND = 14; // board units shown under the ground line

export function blockName(ctx, type) {
  return ctx.t("block-and-guess.block.named", {
    shape: ctx.t(`block-and-guess.block.${type.key}`), colour: ctx.t(`block-and-guess.colour.${type.colour}`) });
}

export function placementTransform(p) {
  return `translate(${p.x} ${p.y}) rotate(${p.angle}) scale(${p.flip ? -1 : 1} 1)`;
}

// One block at a placement (or at the origin): its convex parts and its colour's symbol.
export function blockShape(type, p, attrs = {}) {
  const size = Math.min(16, type.w * 0.5, type.h * 0.5);
  return svg("g", { transform: p ? placementTransform(p) : null, class: "bg-block", ...attrs },
    type.parts.map((part) => svg("polygon", {
      points: part.map(([x, y]) => `${x},${y}`).join(" "),
      fill: FILL[type.colour], stroke: "#2b2118", "stroke-width": 1.5, "stroke-linejoin": "round" })),
    svg("g", { transform: "scale(1 -1)" }, symbolShape(SYMBOL[type.colour], -size / 2, -size / 2, size, { fill: "#fff", stroke: "#1f2230" })));
}

// A small stand-alone picture of a block (draft pool, tray).
export function blockThumb(ctx, type, size = 56) {
  const m = Math.max(type.w, type.h) / 2 + 4;
  return svg("svg", { class: "bg-thumb", width: size, height: size, viewBox: `${-m} ${-m} ${2 * m} ${2 * m}`, "aria-hidden": "true", focusable: "false" },
    svg("g", { transform: "scale(1 -1)" }, blockShape(type, null)));
}

// The board of one build. options: {label, mine, mode, front, hideBlocks, selected}
export function boardSvg(ctx, view, build, options = {}) {
  const { w, h } = view.board;
  const types = view.block_types;
  const inner = svg("g", { transform: `translate(0 ${h}) scale(1 -1)`, class: "bg-world" },
    svg("rect", { x: 0, y: 0, width: w, height: h, class: "bg-sky" }),
    svg("line", { x1: 0, x2: w, y1: 0, y2: 0, class: "bg-ground-line" }),
    options.hideBlocks ? null : build.placed.map((p) => blockShape(types[p.block], p, {
      "data-block": String(p.block), class: `bg-block${options.selected === p.block ? " selected" : ""}${options.mine ? " draggable" : ""}`,
      role: "img", "aria-label": blockName(ctx, types[p.block]) })),
    options.mode === "half" ? svg("rect", { x: w / 2, y: 0, width: w / 2, height: h, class: "bg-veil" }) : null);
  const ground = svg("rect", { x: 0, y: h, width: w, height: GROUND, class: "bg-ground" });
  const groundLabel = svg("text", { x: 6, y: h + GROUND - 3, class: "bg-ground-text" }, ctx.t("block-and-guess.label.ground"));
  const front = build.front ? svg("text", {
    x: build.front === "left" ? 8 : w - 8, y: 24, "text-anchor": build.front === "left" ? "start" : "end", class: "bg-front" },
  `${build.front === "left" ? "◀ " : ""}${ctx.t("block-and-guess.label.front", { side: ctx.t(`block-and-guess.side.${build.front}`) })}${build.front === "right" ? " ▶" : ""}`) : null;
  return svg("svg", { class: `bg-board${options.mine ? " mine" : ""}`, id: `bg-board-${build.builder}`, viewBox: `0 0 ${w} ${h + GROUND}`,
    role: "group", "aria-label": options.label || "", "data-builder": String(build.builder) },
  inner, ground, groundLabel, front);
}

// Board coordinates (y up) of a pointer event over a board svg.
export function boardPoint(board, event, view) {
  const point = board.createSVGPoint();
  point.x = event.clientX;
  point.y = event.clientY;
  const local = point.matrixTransform(board.getScreenCTM().inverse());
  return { x: local.x, y: view.board.h - local.y };
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
