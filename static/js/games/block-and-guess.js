// Block and Guess client: draws the server's view (clue card, construction card, the draft,
// every build live, guesses and results) and sends what the player does. It holds no rules:
// the server checks every placement and says why a build is not valid yet (view reasons);
// drags are relayed live as ephemeral updates (~10 a second) and stored only when dropped.
import { handDock } from "../ui/dock.js";
import { scoreChart } from "../ui/chart.js";
import { blockName, blockThumb, boardPoint, boardSvg, showMoving } from "./block-and-guess/board.js";

const P = "block-and-guess";
const STEP = 15;
const NUDGE = 5;
const SEND_EVERY_MS = 100;
// page state between renders: the selected block, a drag in progress, the last message
const ui = { table: null, root: null, ctx: null, last: null, selected: null, drag: null, lastSent: 0, dragged: false };

const lang = () => (window.LANG === "en" ? "en" : "es");
const named = (pair) => (pair ? pair[lang()] : "");
const who = (ctx, seat) => (seat === ctx.me ? `${ctx.seatName(seat)} (${ctx.t(`${P}.label.you`)})` : ctx.seatName(seat));

function objectLabel(view, n) {
  const card = view.clue;
  return card ? `${n}. ${named(card.objects[n - 1])}` : String(n);
}

function teamLabel(ctx, view, team) {
  const names = view.teams[team].map((s) => ctx.seatName(s)).join(", ");
  return view.solo ? names : `${ctx.t(`${P}.label.team`, { n: team + 1 })} (${names})`;
}

function myBuild(view, me) {
  return view.builds.find((b) => b.builder === me) || null;
}

function isBuilding(view, me) {
  const mine = myBuild(view, me);
  return !!(view.phase === "build" && mine && mine.in_play && !mine.submitted);
}

function button(ctx, action, key, label, attrs = {}) {
  const legal = ctx.isLegal(action);
  return ctx.el("button", { type: "button", disabled: !legal, "data-focus-key": key, onclick: () => ctx.send(action), ...attrs }, label);
}

// ------------------------------------------------------------------------ sections

function statusSection(ctx, message) {
  const { el, t } = ctx;
  const view = message.view;
  const roundText = view.tiebreak ? t(`${P}.label.tiebreak`, { round: view.round })
    : t(`${P}.label.round`, { round: view.round, total: view.rounds });
  const construction = view.construction;
  const mode = construction && construction.mode && isBuilding(view, message.seat)
    ? el("p", { class: "bg-mode" }, t(`${P}.label.mode.${construction.mode}`)) : null;
  return el("section", { class: "card bg-status" },
    el("p", { class: "bg-round" }, el("strong", {}, roundText), " · ",
      view.phase === "over" ? t(`${P}.phase.over`) : t(`${P}.label.stage`, { stage: view.stage, phase: t(`${P}.phase.${view.phase}`) }),
      view.phase !== "over" ? ` · ${t(`${P}.label.first`, { player: who(ctx, view.first) })}` : ""),
    construction && view.phase !== "over" ? el("p", { class: "bg-construction" },
      el("strong", {}, `${t(`${P}.card.title`, { n: construction.card })}: `), t(`${P}.card.${construction.card}`)) : null,
    mode,
    el("h2", {}, t(`${P}.label.scores`)),
    el("ul", { class: "bg-scores" }, view.points.map((points, team) =>
      el("li", { class: view.my_team === team ? "mine" : "" }, `${teamLabel(ctx, view, team)}: `,
        el("strong", {}, t(`${P}.label.points`, { n: points }))))));
}

function clueSection(ctx, view, me) {
  const { el, t } = ctx;
  if (!view.clue || view.phase === "over") return null;
  const marks = new Map();
  for (const b of view.builds) {
    if (b.target === null) continue;
    const text = b.builder === me ? t(`${P}.label.your_target`) : t(`${P}.label.target_of`, { player: ctx.seatName(b.builder) });
    marks.set(b.target, [...(marks.get(b.target) || []), text]);
  }
  return el("section", { class: "card bg-clue" },
    el("h2", {}, t(`${P}.label.clue`)),
    el("ol", { class: "bg-objects" }, view.clue.objects.map((o) =>
      el("li", { class: marks.has(o.n) ? "target" : "" }, named(o),
        marks.has(o.n) ? el("span", { class: "badge bg-target" }, marks.get(o.n).join(" · ")) : null))));
}

function draftSection(ctx, message) {
  const { el, t } = ctx;
  const view = message.view;
  const d = view.draft;
  if (!d) return null;
  const me = message.seat;
  const prompt = d.picker === me
    ? (d.to === me ? t(`${P}.label.draft_you_keep`) : t(`${P}.label.draft_you_give`, { player: ctx.seatName(d.to) }))
    : t(`${P}.label.draft_other`, { player: ctx.seatName(d.picker), to: ctx.seatName(d.to) });
  const parts = [
    el("h2", {}, t(`${P}.label.pool`)),
    el("p", { class: "bg-prompt" }, prompt),
    el("div", { class: "bg-pool" }, view.pool.map((b) => {
      const type = view.block_types[b];
      const label = blockName(ctx, type);
      return button(ctx, { type: "draft", block: b }, `draft-${b}`, [blockThumb(ctx, type, 48), el("span", {}, label)],
        { class: "bg-pool-block" });
    }))];
  // your pick: the pool is your hand for now, kept in view by the shared dock
  if (d.picker === me) {
    const dock = handDock(ctx, { label: t(`${P}.label.pool`) }, ...parts);
    dock.classList.add("bg-draft", "mine");
    return dock;
  }
  return el("section", { class: "card bg-draft" }, ...parts);
}

function reasonsList(ctx, view, build) {
  const { el, t } = ctx;
  if (build.valid) return el("p", { class: "bg-valid" }, t(`${P}.label.valid`));
  return el("div", { class: "bg-reasons" }, el("p", {}, t(`${P}.label.invalid`)),
    el("ul", {}, build.reasons.map((r) => el("li", {}, t(`${P}.reason.${r.code}`),
      r.blocks.length ? el("span", { class: "muted" }, ` (${r.blocks.map((b) => blockName(ctx, view.block_types[b])).join(", ")})`) : null))));
}

function buildStatus(ctx, view, build) {
  const { el, t } = ctx;
  const lines = [];
  if (build.result) lines.push(t(`${P}.label.result.${build.result}`));
  else if (build.submitted) lines.push(t(`${P}.label.submitted`));
  else if (view.phase === "build" && build.in_play) lines.push(t(`${P}.label.building`));
  if (build.wrong.length) lines.push(t(`${P}.label.wrong_before`, { objects: build.wrong.map((n) => objectLabel(view, n)).join(", ") }));
  if (build.target !== null && build.result) lines.push(objectLabel(view, build.target));
  return lines.length ? el("p", { class: "bg-build-status" }, lines.join(" · ")) : null;
}

function buildsSection(ctx, message) {
  const { el, t } = ctx;
  const view = message.view;
  const me = message.seat;
  const building = isBuilding(view, me);
  const mode = view.construction ? view.construction.mode : null;
  // your own build first (on a phone it is the one right above your tray)
  const order = [...view.builds].sort((a, b) => (b.builder === me) - (a.builder === me));
  return el("div", { class: "bg-builds" }, order.map((build) => {
    const mine = building && build.builder === me;
    const title = build.builder === me ? t(`${P}.label.your_board`) : t(`${P}.label.board_of`, { player: ctx.seatName(build.builder) });
    const board = boardSvg(ctx, view, build, {
      label: title, mine, mode: mine ? mode : null, hideBlocks: mine && mode === "hidden",
      selected: mine ? ui.selected : null });
    if (mine) board.addEventListener("pointerdown", (event) => {
      const node = event.target.closest("[data-block]");
      if (node) startDrag(event, Number(node.dataset.block), false);
    });
    return el("section", { class: `card bg-build${mine ? " mine" : ""}`, dataset: { builder: String(build.builder) } },
      el("h2", {}, title), buildStatus(ctx, view, build), board,
      view.phase !== "over" && build.in_play && !build.submitted && build.held.length ? reasonsList(ctx, view, build) : null);
  }));
}

function guessPanel(ctx, message, build) {
  const { el, t } = ctx;
  const view = message.view;
  const several = build.guessers.length > 1;
  const rows = [];
  for (let n = 1; n <= 7; n += 1) {
    if (build.wrong.includes(n)) continue;
    const name = objectLabel(view, n);
    rows.push(el("li", {},
      button(ctx, { type: "guess", build: build.builder, object: n }, `guess-${build.builder}-${n}`,
        t(`${P}.action.guess`, { object: name }), { class: "bg-guess" }),
      several ? button(ctx, { type: "propose", build: build.builder, object: n }, `propose-${build.builder}-${n}`,
        t(`${P}.action.propose`), { class: "secondary", "aria-label": `${t(`${P}.action.propose`)}: ${name}` }) : null));
  }
  const proposals = build.proposals ? Object.entries(build.proposals) : [];
  return el("section", { class: "card bg-guess-panel mine" },
    el("h2", {}, t(`${P}.label.guess_for`, { player: ctx.seatName(build.builder) })),
    several ? el("p", { class: "muted" }, t(`${P}.label.agreement`)) : null,
    proposals.length ? el("div", {}, el("h3", {}, t(`${P}.label.proposals`)),
      el("ul", {}, proposals.map(([seat, n]) => el("li", {}, t(`${P}.label.proposal`, { player: who(ctx, Number(seat)), object: objectLabel(view, n) }))))) : null,
    el("ul", { class: "bg-guess-list" }, rows),
    ctx.isLegal({ type: "ask_front", build: build.builder })
      ? button(ctx, { type: "ask_front", build: build.builder }, `ask-${build.builder}`, t(`${P}.action.ask_front`), { class: "secondary" }) : null);
}

function guessSection(ctx, message) {
  const { el, t } = ctx;
  const view = message.view;
  const me = message.seat;
  if (view.phase !== "guess") return null;
  const parts = [];
  for (const build of view.builds) {
    if (!build.in_play || build.guess !== null) continue;
    if (me !== null && build.guessers.includes(me)) parts.push(guessPanel(ctx, message, build));
    else if (build.builder === me && build.question) {
      parts.push(el("section", { class: "card bg-question mine" },
        el("h2", {}, t(`${P}.label.question`)),
        el("div", { class: "row" },
          button(ctx, { type: "mark_front", side: "left" }, "front-left", t(`${P}.action.mark_left`)),
          button(ctx, { type: "mark_front", side: "right" }, "front-right", t(`${P}.action.mark_right`)))));
    } else {
      parts.push(el("p", { class: "card bg-waiting" }, t(`${P}.label.waiting_guess`, { players: build.guessers.map((s) => ctx.seatName(s)).join(", ") }),
        build.question ? ` · ${t(`${P}.label.asked`, { player: ctx.seatName(build.guessers[0]) })}` : ""));
    }
  }
  if (!parts.length) return null;
  // what you must answer (a guess, the builder's question) sits in the dock
  const yours = parts.filter((p) => p.classList.contains("mine"));
  const rest = parts.filter((p) => !p.classList.contains("mine"));
  return el("div", { class: "bg-guessing" },
    yours.length ? handDock(ctx, { label: t(`${P}.label.question_dock`) }, ...yours) : null, rest);
}

function builderDock(ctx, message) {
  const { el, t } = ctx;
  const view = message.view;
  const mine = myBuild(view, message.seat);
  const placed = new Set(mine.placed.map((p) => p.block));
  const tray = mine.held.filter((b) => !placed.has(b));
  const mode = view.construction ? view.construction.mode : null;
  const mirrored = mode === "mirrored";
  const selected = mine.placed.find((p) => p.block === ui.selected) || null;
  const controls = [];
  if (selected) {
    const type = view.block_types[selected.block];
    const move = (dx, dy, dAngle = 0, flip = selected.flip) => ({ type: "place", block: selected.block,
      x: round(selected.x + dx), y: round(selected.y + dy), angle: (selected.angle + dAngle + 360) % 360, flip });
    const m = mirrored ? -1 : 1;
    controls.push(el("p", { class: "bg-selected" }, t(`${P}.label.selected`, { block: blockName(ctx, type) })));
    const buttons = [];
    if (view.board.rotation) {
      buttons.push(sendButton(ctx, move(0, 0, m * STEP), "rotate-left", `↺ ${t(`${P}.action.rotate_left`)}`));
      buttons.push(sendButton(ctx, move(0, 0, -m * STEP), "rotate-right", `↻ ${t(`${P}.action.rotate_right`)}`));
    }
    buttons.push(sendButton(ctx, move(0, 0, 0, !selected.flip), "flip", `⇋ ${t(`${P}.action.flip`)}`));
    buttons.push(sendButton(ctx, move(-m * NUDGE, 0), "nudge-left", `← ${t(`${P}.action.nudge_left`)}`));
    buttons.push(sendButton(ctx, move(m * NUDGE, 0), "nudge-right", `→ ${t(`${P}.action.nudge_right`)}`));
    buttons.push(sendButton(ctx, move(0, NUDGE), "nudge-up", `↑ ${t(`${P}.action.nudge_up`)}`));
    buttons.push(sendButton(ctx, move(0, -NUDGE), "nudge-down", `↓ ${t(`${P}.action.nudge_down`)}`));
    buttons.push(sendButton(ctx, { type: "remove", block: selected.block }, "remove", t(`${P}.action.remove`), "danger"));
    controls.push(el("div", { class: "row bg-controls" }, buttons));
  }
  return handDock(ctx, { label: t(`${P}.label.tray`) },
    el("h2", {}, t(`${P}.label.tray`)),
    tray.length ? el("p", { class: "muted" }, t(`${P}.label.tray_hint`)) : null,
    el("div", { class: "bg-tray" }, tray.map((b) => {
      const type = view.block_types[b];
      const label = blockName(ctx, type);
      return el("button", { type: "button", class: "bg-tray-block", "data-focus-key": `tray-${b}`, "data-block": String(b), "aria-label": label,
        onpointerdown: (event) => startDrag(event, b, true),
        onclick: () => { if (!ui.dragged) placeSuggested(ctx, message, b); } },
      blockThumb(ctx, type, 52), el("span", {}, label));
    })),
    el("div", { class: "bg-placed-list row" }, mine.placed.map((p) => el("button", {
      type: "button", class: `secondary${ui.selected === p.block ? " selected" : ""}`, "data-focus-key": `select-${p.block}`,
      "aria-pressed": ui.selected === p.block ? "true" : "false",
      onclick: () => { ui.selected = p.block; rerender(); } }, blockName(ctx, view.block_types[p.block])))),
    controls,
    el("div", { class: "row" }, button(ctx, { type: "submit" }, "submit", t(`${P}.action.submit`), { class: "bg-submit" })));
}

function sendButton(ctx, action, key, label, cls = "secondary") {
  return ctx.el("button", { type: "button", class: cls, "data-focus-key": key, onclick: () => ctx.send(action) }, label);
}

function resultsSection(ctx, view) {
  const { el, t } = ctx;
  if (!view.results.length) return null;
  return el("section", { class: "card bg-results" },
    el("h2", {}, t(`${P}.label.results`)),
    el("ol", {}, view.results.map((r) => el("li", {},
      el("strong", {}, `${r.round > view.rounds ? t(`${P}.label.tiebreak`, { round: r.round }) : t(`${P}.label.round`, { round: r.round, total: view.rounds })} · ${t(`${P}.card.title`, { n: r.card })}`),
      el("ul", {}, r.builds.map((b) => el("li", {},
        `${t(`${P}.label.board_of`, { player: ctx.seatName(b.builder) })}: ${b.target}. ${named(b.name)} — ${t(`${P}.label.result.${b.result}`)}`)))))));
}

function finalSection(ctx, message) {
  const { el, t } = ctx;
  const view = message.view;
  const top = Math.max(...view.points);
  const winners = view.points.map((p, team) => (p === top ? teamLabel(ctx, view, team) : null)).filter(Boolean);
  return el("section", { class: "card final bg-final", role: "status" },
    el("h2", {}, t(`${P}.phase.over`)),
    el("p", { class: "verdict" }, t(`${P}.label.winners`, { players: winners.join(" · ") })),
    scoreChart(ctx, { title: t(`${P}.label.chart`), names: view.points.map((_, team) => teamLabel(ctx, view, team)),
      rounds: view.results.map((r) => r.points) }));
}

// ------------------------------------------------------------------------ building

const round = (v) => Math.round(v * 100) / 100;

function placeSuggested(ctx, message, block) {
  const suggestion = message.legal_actions.find((a) => a.type === "place" && a.block === block);
  const view = message.view;
  const type = view.block_types[block];
  ctx.send(suggestion || { type: "place", block, x: round(view.board.w / 2), y: round(type.h / 2), angle: 0, flip: false });
  ui.selected = block;
}

function startDrag(event, block, fromTray) {
  const message = ui.last;
  if (!message || event.button > 0) return;
  const view = message.view;
  const mine = myBuild(view, message.seat);
  const board = document.getElementById(`bg-board-${message.seat}`);
  if (!board || !mine) return;
  const placed = mine.placed.find((p) => p.block === block);
  const at = boardPoint(board, event, view);
  // controls reversed (card 10): a block taken from the tray sits at the mirror image of the
  // pointer, so it lands on the board wherever the pointer is over it (starting from the
  // pointer itself sent it off the board's edge on a drag to the right)
  const mirrored = view.construction && view.construction.mode === "mirrored";
  const startX = !placed && mirrored ? view.board.w - at.x : at.x;
  ui.dragged = false;
  ui.drag = { block, fromTray, angle: placed ? placed.angle : 0, flip: placed ? placed.flip : false,
    x: placed ? placed.x : startX, y: placed ? placed.y : at.y, ox: placed ? placed.x : startX, oy: placed ? placed.y : at.y,
    sx: at.x, sy: at.y, cx: event.clientX, cy: event.clientY, moved: false, inside: !fromTray };
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
  const board = document.getElementById(`bg-board-${message.seat}`);
  if (!board) return;
  const at = boardPoint(board, event, view);
  const mirrored = view.construction && view.construction.mode === "mirrored";
  const dx = (at.x - d.sx) * (mirrored ? -1 : 1);
  d.x = clamp(d.fromTray && !mirrored ? at.x : d.ox + dx, 0, view.board.w);
  d.y = clamp(d.fromTray ? at.y : d.oy + (at.y - d.sy), 0, view.board.h);
  d.inside = at.x >= 0 && at.x <= view.board.w && at.y >= -20 && at.y <= view.board.h;
  const data = { block: d.block, x: round(d.x), y: round(d.y), angle: d.angle, flip: d.flip };
  showMoving(board, view, data, "bg-moving");
  const now = performance.now();
  if (now - ui.lastSent >= SEND_EVERY_MS && ui.ctx) {
    ui.lastSent = now;
    ui.ctx.sendEphemeral(data);
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
  if (d.inside && ui.ctx) {
    ui.ctx.send({ type: "place", block: d.block, x: round(d.x), y: round(d.y), angle: d.angle, flip: d.flip });
  } else if (!d.fromTray && ui.ctx) { // dropped off the board: the watchers see it go back
    ui.ctx.sendEphemeral({ block: d.block, x: round(d.ox), y: round(d.oy), angle: d.angle, flip: d.flip });
  }
  rerender();
}

const clamp = (v, lo, hi) => Math.min(hi, Math.max(lo, v));

function rerender() {
  if (ui.root && ui.last && ui.ctx) render(ui.root, ui.last, ui.ctx);
}

// ------------------------------------------------------------------------ entry points

export function render(root, message, ctx) {
  const view = message.view;
  if (!view) { root.replaceChildren(); return; }
  if (ui.table !== message.table.id) { ui.table = message.table.id; ui.selected = null; }
  ui.root = root; ui.ctx = ctx; ui.last = message;
  const me = message.seat;
  const mine = myBuild(view, me);
  // a selection survives until the block is no longer ours to build with (it may be on its
  // way to the board: the server's answer to the drop has not arrived yet)
  if (ui.selected !== null && !(isBuilding(view, me) && mine.held.includes(ui.selected))) ui.selected = null;
  root.replaceChildren(...[
    view.phase === "over" ? finalSection(ctx, message) : null,
    statusSection(ctx, message),
    clueSection(ctx, view, me),
    view.phase === "draft" ? draftSection(ctx, message) : null,
    guessSection(ctx, message),
    buildsSection(ctx, message),
    isBuilding(view, me) ? builderDock(ctx, message) : null,
    resultsSection(ctx, view),
    ctx.el("p", { class: "muted bg-no-bots" }, ctx.t(`${P}.label.no_bots`)),
  ].filter(Boolean));
  if (ui.drag && ui.drag.moved) {
    const board = document.getElementById(`bg-board-${me}`);
    if (board) showMoving(board, view, { block: ui.drag.block, x: ui.drag.x, y: ui.drag.y, angle: ui.drag.angle, flip: ui.drag.flip });
  }
}

// A builder's block being dragged, relayed by the table (not stored).
export function onEphemeral(message) {
  const last = ui.last;
  const event = message.event;
  if (!last || !last.view || !event || event.type !== "dragging") return;
  const board = document.getElementById(`bg-board-${event.builder}`);
  if (board) showMoving(board, last.view, event, "bg-live");
}

function blockText(ctx, view, block) {
  return view && view.block_types[block] ? blockName(ctx, view.block_types[block]) : `#${block}`;
}

// how each event reads in the log (table.js keeps the journal: ../journal.js)
export function eventLines(ctx, event, message) {
  const view = message && message.view;
  const { t } = ctx;
  const name = (s) => ctx.seatName(s);
  switch (event.type) {
    case "round_started": return [t(`${P}.log.round`, { round: event.round, builders: event.builders.map(name).join(", "), card: event.card })];
    case "targets": return [t(`${P}.log.targets`, { targets: Object.entries(event.targets).map(([s, n]) => `${name(Number(s))}: ${n}`).join(", ") })];
    case "drafted": return [event.to === event.seat
      ? t(`${P}.log.kept`, { player: name(event.seat), block: blockText(ctx, view, event.block) })
      : t(`${P}.log.drafted`, { player: name(event.seat), block: blockText(ctx, view, event.block), to: name(event.to) })];
    case "placed": case "moved": case "removed":
      return [t(`${P}.log.${event.type}`, { player: name(event.builder), block: blockText(ctx, view, event.block) })];
    case "submitted": return [t(`${P}.log.submitted`, { player: name(event.builder) })];
    case "building": return [t(`${P}.log.building`, { stage: event.stage })];
    case "guessing": return [t(`${P}.log.guessing`, { stage: event.stage })];
    case "proposed": return [t(`${P}.log.proposed`, { player: name(event.seat), object: named(event.name) })];
    case "guessed": return [t(event.right ? `${P}.log.guessed_right` : `${P}.log.guessed_wrong`, {
      player: name(event.seat), builder: name(event.build), object: named(event.name), points: event.points })];
    case "revealed": return [t(`${P}.log.revealed`, { builder: name(event.build), object: `${event.target}. ${named(event.name)}` })];
    case "asked_front": return [t(`${P}.log.asked`, { player: name(event.seat), builder: name(event.build) })];
    case "marked_front": return [t(`${P}.log.marked`, { player: name(event.builder), side: t(`${P}.side.${event.side}`) })];
    case "second_stage": return [t(`${P}.log.second`, { builders: event.builds.map(name).join(", ") })];
    case "round_scored": return [t(`${P}.log.scored`, { round: event.round })];
    case "game_over": return [t(`${P}.log.over`)];
    default: return [];
  }
}
