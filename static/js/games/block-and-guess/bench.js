// The builder's workbench: their own board first (full width on a phone, zoomed in on the
// build), then a compact tray strip, the buttons for the chosen block and Submit, all in one
// screen. A tap on a tray block puts it at the nearest spot the server will accept that
// touches the build (place.js, with the server's own geometry); a tap on the board takes the
// chosen block to the nearest such spot; a drag snaps into contact; the keyboard moves in
// fine and coarse steps. The reason a build is not valid is written at the block it concerns.
import { handDock } from "../../ui/dock.js";
import { DEFAULT_ZOOM, blockName, blockThumb, boardPoint, boardSvg, frameCentre, liveFrame, showMoving, shownBelow } from "./board.js";
import { P, clamp, isBuilding, myBuild, objectLabel, round2, ui, wrongNow } from "./common.js";
import { footprint, worldOf } from "./geometry.js";
import { nearestSpot, snap } from "./place.js";

const STEP = 15; // degrees per turn (the view's angle_step)
const NUDGE = 5; // board units per arrow button
const FINE = 1; // board units per arrow key
const COARSE = 10; // ... with Shift
const SNAP = 8; // board units within which a dragged block snaps into contact
const SEND_EVERY_MS = 100;
const ZOOMS = [1, 1.5, 2, 3, 4]; // DEFAULT_ZOOM (board.js) among them
const COLOURS = ["natural", "red", "blue", "yellow", "green"];

const placements = (build) => build.placed.map((p) => ({ ...p }));
const modeOf = (view) => (view.construction ? view.construction.mode : null);


// The tray in a helpful order: blocks whose colour is already on the board first (under
// cards 5 and 8 they must join it), then by colour, so that tapping the first block each
// time builds colour by colour.
function trayOrder(view, build) {
  const types = view.block_types;
  const onBoard = new Set(build.placed.map((p) => types[p.block].colour));
  const placedIds = new Set(build.placed.map((p) => p.block));
  return build.held.filter((b) => !placedIds.has(b)).sort((a, b) => (onBoard.has(types[b].colour) - onBoard.has(types[a].colour))
    || COLOURS.indexOf(types[a].colour) - COLOURS.indexOf(types[b].colour) || a - b);
}

// Where a tray block goes when tapped: beside the build, near blocks of its colour when the
// card is about colours; the first block in the middle of what the builder can see.
function trayTarget(view, build, block) {
  const types = view.block_types;
  const card = view.construction && view.construction.card;
  const mates = build.placed.filter((p) => types[p.block].colour === types[block].colour);
  if ((card === 5 || card === 8) && mates.length) {
    return { x: mates.reduce((s, p) => s + p.x, 0) / mates.length, y: mates.reduce((s, p) => s + p.y, 0) / mates.length };
  }
  if (build.placed.length) {
    const xs = build.placed.map((p) => p.x);
    return { x: (Math.min(...xs) + Math.max(...xs)) / 2, y: 0 };
  }
  return { x: modeOf(view) === "half" ? view.board.w / 4 : view.board.w / 2, y: 0 };
}

function spotFor(view, build, block, { target, angle = 0, flip = false, lean = 1, turn = false }) {
  const card = view.construction ? view.construction.card : null;
  const tray = trayOrder(view, build).filter((b) => b !== block);
  return nearestSpot(worldOf(view), {
    build: placements(build), block, angle, flip, card, target, lean,
    onlyLeft: modeOf(view) === "half",
    turns: turn && view.board.rotation ? [[90, false]] : [],
    after: card === 5 || card === 8 ? tray : [] });
}

function placeFromTray(ctx, message, block) {
  const view = message.view;
  const build = myBuild(view, message.seat);
  const spot = spotFor(view, build, block, { target: trayTarget(view, build, block), lean: 2, turn: true });
  const fallback = message.legal_actions.find((a) => a.type === "place" && a.block === block);
  const action = spot ? { type: "place", ...spot } : fallback;
  if (action && ctx.send(action)) ui.selected = block;
}

// The chosen block to the nearest good spot around `target` (a tap, or where it is now),
// turned and flipped as given.
function moveSelected(ctx, message, target, change = {}) {
  const view = message.view;
  const build = myBuild(view, message.seat);
  const current = build.placed.find((p) => p.block === ui.selected);
  if (!current) return;
  const angle = change.angle ?? current.angle;
  const flip = change.flip ?? current.flip;
  const spot = spotFor(view, build, current.block, { target, angle, flip });
  ctx.send(spot ? { type: "place", ...spot } : { type: "place", block: current.block, x: round2(target.x), y: round2(target.y), angle, flip });
}

function nudge(ctx, message, dx, dy) {
  const build = myBuild(message.view, message.seat);
  const p = build.placed.find((q) => q.block === ui.selected);
  if (!p) return;
  const { w, h } = message.view.board;
  ctx.send({ type: "place", block: p.block, x: round2(clamp(p.x + dx, 0, w)), y: round2(clamp(p.y + dy, 0, h)), angle: p.angle, flip: p.flip });
}

function turn(ctx, message, degrees) {
  const p = myBuild(message.view, message.seat).placed.find((q) => q.block === ui.selected);
  if (p) moveSelected(ctx, message, { x: p.x, y: p.y }, { angle: (p.angle + degrees + 360) % 360 });
}

function flip(ctx, message) {
  const p = myBuild(message.view, message.seat).placed.find((q) => q.block === ui.selected);
  if (p) moveSelected(ctx, message, { x: p.x, y: p.y }, { flip: !p.flip });
}

function settle(ctx, message) {
  const p = myBuild(message.view, message.seat).placed.find((q) => q.block === ui.selected);
  if (p) moveSelected(ctx, message, { x: p.x, y: p.y });
}

function selectNext(message) {
  const ids = myBuild(message.view, message.seat).placed.map((p) => p.block);
  if (!ids.length) return;
  ui.selected = ids[(ids.indexOf(ui.selected) + 1) % ids.length];
  rerender();
}

// ------------------------------------------------------------------ the workbench

export function bench(ctx, message) {
  const { el, t } = ctx;
  const view = message.view;
  const me = message.seat;
  const mine = myBuild(view, me);
  const mode = modeOf(view);
  const mirrored = mode === "mirrored";
  const m = mirrored ? -1 : 1;
  if (ui.zoom === null) ui.zoom = DEFAULT_ZOOM;
  if (ui.selected === null && mine.placed.length) ui.selected = mine.placed[mine.placed.length - 1].block;
  const selected = mine.placed.find((p) => p.block === ui.selected) || null;
  const tray = trayOrder(view, mine);
  // the notes at the blocks: what is wrong now (while blocks wait in the tray, a block that
  // touches nothing yet is not wrong: the next ones will touch it)
  const wrong = wrongNow(mine);
  const problems = new Map();
  for (const r of wrong) {
    for (const b of r.blocks) problems.set(b, [...(problems.get(b) || []), t(`${P}.reason_short.${r.code}`)]);
  }
  // eyes closed (card 11): the frame does not follow the build either
  const box = liveFrame(view, mode === "hidden" ? { ...mine, placed: [] } : mine, ui.zoom);
  const board = boardSvg(ctx, view, mine, {
    label: t(`${P}.label.your_board`), mine: true, mode, hideBlocks: mode === "hidden",
    selected: ui.selected, frame: box, problems: mode === "hidden" ? new Map() : problems,
    focusable: true, describedBy: ctx.replay ? null : "bg-keys" });
  // a replay shows the build as it was: nothing on it moves
  if (!ctx.replay) {
    board.addEventListener("pointerdown", (event) => onBoardDown(event));
    board.addEventListener("touchstart", (event) => { if (event.target.closest("[data-block]")) event.preventDefault(); }, { passive: false });
    board.addEventListener("keydown", (event) => onKey(event, ctx, message, m));
  }
  const zoomButton = (dir, label, key) => el("button", {
    type: "button", class: "secondary bg-zoom-button", "data-focus-key": key, "aria-label": t(`${P}.action.${key}`),
    disabled: dir > 0 ? ui.zoom >= ZOOMS[ZOOMS.length - 1] : ui.zoom <= ZOOMS[0],
    onclick: () => { ui.zoom = ZOOMS[clamp(ZOOMS.indexOf(ui.zoom) + dir, 0, ZOOMS.length - 1)]; rerender(); } }, label);
  const target = mine.target !== null ? objectLabel(view, mine.target) : "";
  const tool = (key, label, onclick, attrs = {}) => el("button", {
    type: "button", class: `secondary bg-tool${attrs.cls ? ` ${attrs.cls}` : ""}`, "data-focus-key": key, disabled: !selected,
    "aria-label": attrs.aria || null, title: attrs.aria || null, onclick }, label);
  const tools = [
    view.board.rotation ? tool("rotate-left", "↺", () => turn(ctx, message, m * STEP), { aria: t(`${P}.action.rotate_left`) }) : null,
    view.board.rotation ? tool("rotate-right", "↻", () => turn(ctx, message, -m * STEP), { aria: t(`${P}.action.rotate_right`) }) : null,
    tool("flip", "⇋", () => flip(ctx, message), { aria: t(`${P}.action.flip`) }),
    tool("settle", "⤓", () => settle(ctx, message), { aria: t(`${P}.action.settle`) }),
    tool("remove", "✕", () => ctx.send({ type: "remove", block: selected.block }), { aria: t(`${P}.action.remove`), cls: "bg-remove" }),
    tool("nudge-left", "←", () => nudge(ctx, message, -m * NUDGE, 0), { aria: t(`${P}.action.nudge_left`) }),
    tool("nudge-up", "↑", () => nudge(ctx, message, 0, NUDGE), { aria: t(`${P}.action.nudge_up`) }),
    tool("nudge-down", "↓", () => nudge(ctx, message, 0, -NUDGE), { aria: t(`${P}.action.nudge_down`) }),
    tool("nudge-right", "→", () => nudge(ctx, message, m * NUDGE, 0), { aria: t(`${P}.action.nudge_right`) }),
  ];
  // what is wrong now, in words too (the tray shows what is left to place)
  const status = mine.valid ? el("p", { class: "bg-valid" }, `✓ ${t(`${P}.label.valid`)}`)
    : !wrong.length ? null : el("ul", { class: "bg-reasons", "aria-label": t(`${P}.label.invalid`) }, wrong.map((r) => el("li", {}, t(`${P}.reason.${r.code}`),
      r.blocks.length ? el("span", { class: "muted" }, ` (${r.blocks.map((b) => blockName(ctx, view.block_types[b])).join(", ")})`) : null)));
  const card = view.construction;
  const dock = handDock(ctx, { label: t(`${P}.label.your_board`) },
    el("div", { class: "bg-bench-head" },
      el("h2", {}, t(`${P}.label.your_board`), target ? el("span", { class: "bg-you-build" }, ` · ${t(`${P}.label.you_build`, { object: target })}`) : null),
      card ? el("p", { class: "bg-bench-card" }, el("strong", {}, `${t(`${P}.card.title`, { n: card.card })}: `), t(`${P}.card.${card.card}`)) : null),
    el("div", { class: "bg-bench-grid" },
      el("div", { class: "bg-stage" }, board,
        el("div", { class: "bg-zoom" }, zoomButton(-1, "−", "zoom_out"), zoomButton(1, "+", "zoom_in"))),
      el("div", { class: "bg-side" },
        tray.length ? el("div", { class: "bg-tray", role: "group", "aria-label": t(`${P}.label.tray`) }, tray.map((b) => {
          const type = view.block_types[b];
          const label = blockName(ctx, type);
          if (ctx.replay) return el("span", { class: "bg-tray-block bg-as-text", role: "img", "aria-label": label, title: label }, blockThumb(ctx, type, 40));
          return el("button", { type: "button", class: "bg-tray-block", "data-focus-key": `tray-${b}`, "data-block": String(b),
            "aria-label": `${t(`${P}.action.place`)}: ${label}`, title: label,
            onpointerdown: (event) => startDrag(event, b, true),
            onclick: () => { if (!ui.dragged) placeFromTray(ctx, message, b); } },
          blockThumb(ctx, type, 40));
        })) : null,
        // a replay shows the build, not how to touch it: no hints, keys, tools nor Submit
        ctx.replay ? null : el("p", { class: "bg-hint muted" }, tray.length ? t(`${P}.label.tray_hint`) : t(`${P}.label.board_hint`)),
        ctx.replay ? null : el("p", { class: "bg-keys muted", id: "bg-keys" }, t(`${P}.label.keys`)),
        ctx.replay ? null : el("div", { class: "bg-tools", role: "group", "aria-label": selected ? t(`${P}.label.selected`, { block: blockName(ctx, view.block_types[selected.block]) }) : t(`${P}.label.none_selected`) }, tools),
        status,
        ctx.replay ? null : el("button", { type: "button", class: "bg-submit", "data-focus-key": "submit", disabled: !ctx.isLegal({ type: "submit" }),
          onclick: () => ctx.send({ type: "submit" }) }, t(`${P}.action.submit`)))));
  dock.classList.add("bg-bench");
  return dock;
}

// ------------------------------------------------------------------ keyboard

function onKey(event, ctx, message, m) {
  const k = event.key;
  const step = event.shiftKey ? COARSE : FINE;
  const moves = { ArrowLeft: [-m * step, 0], ArrowRight: [m * step, 0], ArrowUp: [0, step], ArrowDown: [0, -step] };
  if (moves[k]) nudge(ctx, message, ...moves[k]);
  else if (k === "r" || k === "R") { if (message.view.board.rotation) turn(ctx, message, (event.shiftKey ? 1 : -1) * m * STEP); }
  else if (k === "f" || k === "F") flip(ctx, message);
  else if (k === "Enter") settle(ctx, message);
  else if (k === " ") selectNext(message);
  else if ((k === "Delete" || k === "Backspace") && ui.selected !== null) ctx.send({ type: "remove", block: ui.selected });
  else return;
  event.preventDefault();
}

// ------------------------------------------------------------------ pointer: taps and drags

function boardOf(message) {
  return document.getElementById(`bg-board-${message.seat}`);
}

function onBoardDown(event) {
  const node = event.target.closest("[data-block]");
  const block = node && !node.classList.contains("bg-live") ? Number(node.dataset.block) : null;
  if (block !== null) { startDrag(event, block, false); return; }
  // an empty spot: a tap takes the chosen block there (a move of the finger is a scroll)
  const start = { x: event.clientX, y: event.clientY };
  const up = (e) => {
    window.removeEventListener("pointerup", up);
    window.removeEventListener("pointercancel", cancel);
    if (Math.hypot(e.clientX - start.x, e.clientY - start.y) > 8) return;
    const message = ui.last;
    const board = message && boardOf(message);
    if (!board || ui.selected === null || !isBuilding(message.view, message.seat)) return;
    const at = boardPoint(board, e, message.view);
    const mirrored = modeOf(message.view) === "mirrored";
    const target = mirrored ? { x: 2 * frameCentre(board, message.view).x - at.x, y: at.y } : at;
    moveSelected(ui.ctx, message, target);
  };
  const cancel = () => { window.removeEventListener("pointerup", up); window.removeEventListener("pointercancel", cancel); };
  window.addEventListener("pointerup", up);
  window.addEventListener("pointercancel", cancel);
}

export function startDrag(event, block, fromTray) {
  const message = ui.last;
  if (!message || event.button > 0) return;
  const view = message.view;
  const mine = myBuild(view, message.seat);
  const board = boardOf(message);
  if (!board || !mine) return;
  const placed = mine.placed.find((p) => p.block === block);
  const at = boardPoint(board, event, view);
  // controls reversed (card 10): a block taken from the tray starts at the mirror image of
  // the pointer in what the board shows, so it lands on the board wherever the pointer is
  const mirrored = modeOf(view) === "mirrored";
  const startX = !placed && mirrored ? 2 * frameCentre(board, view).x - at.x : at.x;
  ui.dragged = false;
  ui.drag = { block, fromTray, angle: placed ? placed.angle : 0, flip: placed ? placed.flip : false,
    x: placed ? placed.x : startX, y: placed ? placed.y : at.y, ox: placed ? placed.x : startX, oy: placed ? placed.y : at.y,
    sx: at.x, sy: at.y, cx: event.clientX, cy: event.clientY, moved: false, inside: !fromTray, shown: null };
  window.addEventListener("pointermove", onMove);
  window.addEventListener("pointerup", onUp);
  window.addEventListener("pointercancel", onCancel);
  if (!fromTray) event.preventDefault();
}

function onMove(event) {
  const d = ui.drag;
  const message = ui.last;
  if (!d || !message) return;
  if (!d.moved && Math.hypot(event.clientX - d.cx, event.clientY - d.cy) < 5) return;
  d.moved = true;
  const view = message.view;
  const board = boardOf(message);
  if (!board) return;
  const at = boardPoint(board, event, view);
  const mirrored = modeOf(view) === "mirrored";
  const dx = (at.x - d.sx) * (mirrored ? -1 : 1);
  d.x = clamp(d.fromTray && !mirrored ? at.x : d.ox + dx, 0, view.board.w);
  // never sunk into the table: at the lowest its foot is on the ground line (it snaps there
  // below), where a centre on the line, let go over the strip, stuck out of the board
  const foot = -footprint(worldOf(view), d.block, d.angle, d.flip)[1];
  d.y = clamp(d.fromTray ? at.y : d.oy + (at.y - d.sy), foot, view.board.h);
  // a block let go over the ground strip (or a little under the board) goes on the table
  d.inside = at.x >= 0 && at.x <= view.board.w && at.y >= -Math.max(20, shownBelow(board, view)) && at.y <= view.board.h;
  // within a few units of contact, the block snaps: what you see is what the server gets
  const build = myBuild(view, message.seat);
  const snapped = snap(worldOf(view), { build: placements(build), block: d.block, x: d.x, y: d.y, angle: d.angle, flip: d.flip, reach: SNAP });
  d.shown = snapped || { block: d.block, x: round2(d.x), y: round2(d.y), angle: d.angle, flip: d.flip };
  showMoving(board, view, d.shown, "bg-moving");
  const now = performance.now();
  if (now - ui.lastSent >= SEND_EVERY_MS && ui.ctx) {
    ui.lastSent = now;
    ui.ctx.sendEphemeral(d.shown);
  }
}

function endDrag() {
  window.removeEventListener("pointermove", onMove);
  window.removeEventListener("pointerup", onUp);
  window.removeEventListener("pointercancel", onCancel);
  const d = ui.drag;
  ui.drag = null;
  return d;
}

function onCancel() { endDrag(); rerender(); }

function onUp() {
  const d = endDrag();
  if (!d) return;
  if (!d.moved) {
    if (!d.fromTray) { ui.selected = d.block; rerender(); }
    return;
  }
  ui.dragged = true;
  setTimeout(() => { ui.dragged = false; }, 0);
  ui.selected = d.block;
  if (d.inside && ui.ctx && d.shown) {
    ui.ctx.send({ type: "place", ...d.shown });
  } else if (!d.fromTray && ui.ctx) { // dropped off the board: the watchers see it go back
    ui.ctx.sendEphemeral({ block: d.block, x: round2(d.ox), y: round2(d.oy), angle: d.angle, flip: d.flip });
  }
  rerender();
}

// a drag in progress survives re-renders (other players' moves arrive meanwhile)
export function redrawDrag(message) {
  if (!ui.drag || !ui.drag.moved || !ui.drag.shown) return;
  const board = boardOf(message);
  if (board) showMoving(board, message.view, ui.drag.shown);
}

export function rerender() {
  if (ui.root && ui.last && ui.ctx && ui.render) ui.render(ui.root, ui.last, ui.ctx);
}
