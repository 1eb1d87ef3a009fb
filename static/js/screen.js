// The table screen: the public board for a TV, seen from across a room. It holds no seat and
// sends no move: it follows the table over the spectator socket (?screen=1, so a cooperative
// game's "all hands" view never reaches it) and draws what everyone may see, large: whose
// turn it is, the clocks and a knock's countdown, the board (./screen/<game>.js), the seats
// with their scores and card counts, the last moves, and the end with its chart. While the
// table waits, the invite is a QR code. It keeps the display awake (Screen Wake Lock) and
// reconnects by itself, also after a server restart. The picture is the same on any screen,
// only larger on a larger one (1.5 times at 1920×1080 what it is at 1280×720, 3 times at
// 3840×2160): screen.css sizes the page in a unit of the viewport, and fitBoard zooms the
// board to fill its frame.
import { andList, el, t } from "./i18n.js";
import { createJournal } from "./journal.js";
import { endedEarly } from "./life-log.js";
import { TableSocket } from "./socket.js";

const app = document.getElementById("screen-app");
const tableId = app.dataset.table;
const game = app.dataset.game;
const cooperative = app.dataset.cooperative === "true";
const $ = (id) => document.getElementById(id);
const LOG_LINES = 6;

let last = null;
let receivedAt = 0; // performance.now() when `last` arrived: clocks count down from it
let board = null; // ./screen/<game>.js
let client = null; // ./games/<game>.js: how its events read, and its drawing functions
const journal = createJournal(); // the log's lines, kept across state messages (as table.js)

// The screen is a spectator that says so: the server then never sends it the all-hands view.
class ScreenSocket extends TableSocket {
  url() {
    const url = new URL(super.url());
    url.searchParams.set("screen", "1");
    return url.toString();
  }
}

function seatName(seat) {
  const s = last && last.table.seats[seat];
  return (s && s.player && s.player.name) || t("table.seat", { n: seat + 1 });
}

const elapsed = () => (performance.now() - receivedAt) / 1000;

// what the renderers get: the same shape as the table page's ctx, with no seat and no moves
const ctx = {
  t, el, seatName,
  me: null,
  screen: true,
  send: () => false,
  isLegal: () => false,
  sendEphemeral: () => false,
  windowRemaining() {
    if (!last || !last.window) return null;
    return Math.max(0, last.window.remaining - elapsed());
  },
  rerender: () => render(),
};

async function loadRenderers() {
  try { client = await import(`./games/${game}.js`); } catch (error) { client = null; }
  try { board = await import(`./screen/${game}.js`); } catch (error) { board = await import("./screen/generic.js"); }
  if (board.load) await board.load(game);
}

export function clockText(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  return s >= 60 ? `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}` : `${s}`;
}

// ------------------------------------------------------------------------ the headline

function turnText() {
  const table = last.table;
  if (table.status === "waiting") {
    const free = table.seats.filter((s) => !s.player).length;
    return free ? t("screen.waiting_players", { n: free }) : t("screen.waiting_start", { host: table.host.name || "" });
  }
  if (table.status === "finished") return t("table.game_over");
  if (table.status === "deleted") return t("table.deleted");
  const own = board && board.turnText ? board.turnText(last, ctx) : null;
  if (own) return own;
  const waiting = last.waiting_for;
  if (!waiting.length) return "";
  if (waiting.length === 1) return t("screen.turn_of", { name: seatName(waiting[0]) });
  return t("screen.waiting_for", { names: andList(waiting.map(seatName)) });
}

// The knock (or any timed window) counts down large; else the clock of whoever is on the move.
function renderTimer() {
  const node = $("screen-timer");
  if (!last || last.table.status !== "playing") { node.replaceChildren(); node.className = "screen-timer"; return; }
  const window = ctx.windowRemaining();
  if (window !== null) {
    const label = board && board.windowLabel ? board.windowLabel(last, ctx) : t("screen.window");
    node.className = `screen-timer window${window <= 3 ? " low" : ""}`;
    node.replaceChildren(el("span", { class: "screen-timer-label" }, label), el("strong", {}, clockText(window)));
    return;
  }
  const clock = last.clock;
  if (!clock || clock.mode === "none" || !clock.running || !clock.running.length) { node.replaceChildren(); node.className = "screen-timer"; return; }
  const seat = clock.running[0];
  const left = Math.max(0, Number(clock.remaining[String(seat)] ?? 0) - elapsed());
  node.className = `screen-timer${left <= 10 ? " low" : ""}`;
  node.replaceChildren(el("span", { class: "screen-timer-label" }, clock.running.length === 1 ? seatName(seat) : t("screen.time_left")),
    el("strong", {}, clockText(left)));
}

// ------------------------------------------------------------------------ seats

function seatsPanel() {
  const table = last.table;
  const playing = table.status === "playing";
  const outcome = table.outcome;
  const rows = table.seats.map((s) => {
    const acting = playing && last.waiting_for.includes(s.seat);
    // a cooperative game is won or lost together: no seat stands out
    const winner = !cooperative && outcome && outcome.winners && outcome.winners.includes(s.seat);
    const facts = board && board.seatFacts && last.view ? board.seatFacts(last, s.seat, ctx) : [];
    const clock = last.clock;
    const banked = clock && clock.mode === "chess" && playing ? clock.banks[s.seat] : null;
    return el("li", { class: `screen-seat${acting ? " acting" : ""}${winner ? " winner" : ""}${s.connected ? "" : " away"}`, dataset: { seat: s.seat } },
      el("span", { class: "screen-seat-mark", "aria-hidden": "true" }, acting ? "▶" : winner ? "★" : ""),
      el("span", { class: `dot ${s.connected ? "on" : "off"}`, role: "img", "aria-label": t(s.connected ? "table.connected" : "table.disconnected") }),
      el("span", { class: "screen-seat-name" }, s.player ? s.player.name : t("table.free")),
      s.player && s.player.bot ? el("span", { class: "badge bot" }, t("table.bot")) : null,
      banked !== null && banked !== undefined ? el("span", { class: "screen-bank" }, clockText(banked)) : null,
      facts.length ? el("span", { class: "screen-seat-facts" }, facts.join(" · ")) : null);
  });
  $("screen-seats").replaceChildren(el("h2", {}, t("screen.players")), el("ul", { class: "screen-seat-list" }, rows));
}

function waitingList() {
  $("screen-waiting").replaceChildren(...last.table.seats.map((s) =>
    el("li", { class: s.player ? "taken" : "free" }, s.player ? s.player.name : t("screen.free_seat"))));
}

// ------------------------------------------------------------------------ log

// The journal reads every state message as it comes (each brings its own events), even those
// whose drawing is skipped because a newer one came before the next frame.
let lines = [];
function readLog(message) {
  if (!client || !message.view) return [];
  try { return journal.lines(message, client, ctx).map(String); } catch (error) { return []; }
}
const logLines = () => lines;

function renderLog() {
  const shown = logLines().slice(-LOG_LINES);
  // before the first move the panel says so, rather than stand empty on the room's screen
  if (!shown.length) $("screen-log").replaceChildren(...(last.table.status === "finished" ? [] : [el("li", { class: "empty" }, t("screen.no_moves"))]));
  else $("screen-log").replaceChildren(...shown.map((line, i) => el("li", { class: i === shown.length - 1 ? "newest" : "" }, line)));
  trimLog();
}

// The newest line must show whole: when the panel has less room than the lines need (many
// seats above it, long lines), the oldest go.
function trimLog() {
  const list = $("screen-log");
  const panel = list.closest(".screen-events");
  while (list.children.length > 1 && panel.scrollHeight > panel.clientHeight + 1) list.firstElementChild.remove();
}

// ------------------------------------------------------------------------ the page

function render() {
  if (!last) return;
  const status = last.table.status;
  app.dataset.status = status;
  app.dataset.version = String(last.version);
  $("screen-join").hidden = status !== "waiting";
  $("screen-turn").textContent = turnText();
  $("screen-turn").classList.toggle("over", status === "finished");
  renderTimer();
  seatsPanel();
  if (status === "waiting") waitingList();
  if (last.view && board) board.board(boardRoot(), last, ctx);
  else boardRoot().replaceChildren();
  // a game ended early (a resignation, a vote) has no result of its own to show: the screen
  // shows how it ended where the result would be (a finished screen shows only that)
  const early = status === "finished" ? endedEarly(last.table.outcome, seatName) : null;
  const drawn = boardRoot().querySelector(":scope > .early-end");
  if (drawn) drawn.remove(); // (a board drawn in place keeps what it does not draw itself)
  if (early) boardRoot().prepend(el("section", { class: "card final early-end" }, el("h2", { class: "verdict" }, early)));
  renderLog();
  fitBoard();
}

// ------------------------------------------------------------------------ fit the board

// The board is the game page's own drawing, laid out in its own pixels (16 px type, as on a
// laptop) at a width chosen here and then zoomed to fill the space the screen has for it.
// The width that lets it grow the most wins: a wide board of short rows, or a narrow one
// that wraps into a taller picture. Which width wins depends only on the frame's shape, and
// the zoom on its size, so a 1920×1080 screen shows the 1280×720 picture 1.5 times larger
// and a 3840×2160 one 3 times: cards, words and all.
function boardRoot() {
  let root = $("screen-fit");
  if (!root) {
    root = el("div", { id: "screen-fit", class: "screen-fit" });
    $("screen-board").dataset.game = game;
    $("screen-board").replaceChildren(root);
  }
  return root;
}

// the screen's unit (screen.css --u): 1 at 1280×720, 1.5 at 1920×1080
const unit = () => Math.min(window.innerWidth / 1280, window.innerHeight / 720);
// a board with little on it (the end of a short game) is not blown up past this, per unit
const MAX_ZOOM = 2.6;
const MIN_ZOOM = 0.4;
// a board's 16 px type stays at least this large, per unit, when a game asks for its main
// drawing to grow (fitTarget) rather than its type: 14.4 px at 1280×720, so that its
// smallest words (0.85 rem) still read at 12 px
const READABLE = 0.9;
// the layout widths tried, in the board's pixels: a coarse sweep, then halvings around the best
const SWEEP = [560, 640, 720, 820, 940, 1080, 1240, 1420, 1640, 1900, 2200];
const REFINE = 4;
let lastFit = { shape: "", width: 0 }; // the last full search: what it was for, what it found

function fitBoard() {
  const frame = $("screen-board");
  const root = $("screen-fit");
  if (!root || frame.hidden || !frame.clientWidth) return;
  const style = getComputedStyle(frame);
  const availW = frame.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  const availH = frame.clientHeight - parseFloat(style.paddingTop) - parseFloat(style.paddingBottom);
  // (never under 1: on a phone-sized screen the board may be drawn as on the phone's page)
  const cap = Math.max(1, MAX_ZOOM * unit());
  // what should grow the most: by default everything alike (the largest zoom wins); a game
  // whose drawing widens with the layout (Block and Guess's builds) names it, and the width
  // that shows it largest wins, its type kept readable
  const target = board && board.fitTarget && last ? board.fitTarget(last) : null;
  root.style.zoom = "1";
  root.style.removeProperty("--chart-height");
  const tried = new Map();
  const attempt = (width) => {
    width = Math.round(width);
    if (!tried.has(width)) {
      root.style.width = `${width}px`;
      const w = Math.max(root.scrollWidth, width);
      const h = Math.max(1, root.scrollHeight);
      const zoom = Math.min(cap, availW / w, availH / h);
      const shown = target ? Math.max(1, ...[...root.querySelectorAll(target)].map((n) => n.getBoundingClientRect().width)) : 1;
      tried.set(width, { width, w, h, zoom, score: zoom * shown, readable: zoom >= READABLE * unit() });
    }
    return tried.get(width);
  };
  // The search costs a layout per width tried (tens of milliseconds for a long Ajolocracia
  // board): a move that leaves the frame and the board's parts as they were (a card turned,
  // a score or a countdown changed) keeps the width found before, its zoom measured anew.
  const shape = `${availW}x${availH}:${root.getElementsByTagName("*").length}:${target}`;
  let best = null;
  if (shape === lastFit.shape) {
    best = attempt(lastFit.width);
  } else {
    // within 0.5 % the narrower stays: a board that reaches the cap at several widths keeps
    // its most compact shape
    const better = (a, b) => (a.readable !== b.readable ? a.readable : a.score > b.score * 1.005);
    // a frame narrower than the narrowest layout (a phone) also tries the board at its own
    // width, unzoomed, as the game's page lays it out there
    const sweep = availW < SWEEP[0] ? [Math.floor(availW), ...SWEEP] : SWEEP;
    for (const width of sweep) { const r = attempt(width); if (!best || better(r, best)) best = r; }
    // between the best width and its neighbours the best may lie: halve the steps
    let step = Math.max(40, best.width * 0.07);
    for (let i = 0; i < REFINE; i += 1) {
      for (const width of [best.width - step, best.width + step]) {
        if (width < sweep[0] || width > SWEEP[SWEEP.length - 1]) continue;
        const r = attempt(width);
        if (better(r, best)) best = r;
      }
      step /= 2;
    }
    lastFit = { shape, width: best.width };
  }
  root.style.width = `${best.width}px`;
  let zoom = Math.max(MIN_ZOOM * unit(), Math.floor(best.zoom * 1000) / 1000);
  root.style.zoom = String(zoom);
  // Type is not laid out exactly in proportion at every zoom (glyphs snap to whole pixels):
  // a line can wrap once more than it did at zoom 1. What shows is measured, and the zoom
  // eased until it fits.
  let shown = root.getBoundingClientRect();
  for (let i = 0; i < 3 && (shown.height > availH + 1 || shown.width > availW + 1); i += 1) {
    zoom = Math.max(MIN_ZOOM * unit(), Math.floor(zoom * Math.min(availH / shown.height, availW / shown.width) * 995) / 1000);
    root.style.zoom = String(zoom);
    shown = root.getBoundingClientRect();
  }
  shown = fillWithChart(root, zoom, availW, availH) || shown;
  app.dataset.zoom = String(zoom);
  // whether all of it shows (the tests check; a board too tall even at the smallest zoom
  // would be cut at the bottom)
  app.dataset.fits = shown.height <= availH + 2 && shown.width <= availW + 2 ? "true" : "false";
}

// The end's summary chart takes the room the summary leaves in the frame at the zoom found:
// the frame's whole width, and the height left under the summary (no more than 3/4 of its
// width). Returns what shows then (null: no chart at the end).
function fillWithChart(root, zoom, availW, availH) {
  const chart = root.querySelector(".score-chart-svg");
  if (!chart || !last || last.table.status !== "finished") return null;
  root.style.width = `${Math.floor(availW / zoom)}px`;
  const spare = (availH - root.getBoundingClientRect().height) / zoom;
  const width = chart.getBoundingClientRect().width / zoom;
  const height = Math.min(CHART_HEIGHT + spare - 2, width * 0.75);
  if (height > CHART_HEIGHT) root.style.setProperty("--chart-height", `${Math.floor(height)}px`);
  return root.getBoundingClientRect();
}
const CHART_HEIGHT = 190; // ui/chart.js's own height, in the board's pixels

window.addEventListener("resize", () => { if (last) renderLog(); fitBoard(); });

// Drawing and fitting a board takes a few layouts: when messages come faster than frames (a
// quick burst of moves, or the backlog after a pause), only the newest is drawn.
let drawPending = false;
function drawSoon() {
  if (drawPending) return;
  drawPending = true;
  const draw = () => { if (drawPending) { drawPending = false; render(); } };
  requestAnimationFrame(draw);
  setTimeout(draw, 200); // a hidden page gets no animation frames
}

function onMessage(message) {
  if (message.type === "state") {
    last = message;
    receivedAt = performance.now();
    lines = readLog(message);
    drawSoon();
  } else if (message.type === "ephemeral") {
    if (board && board.onEphemeral && last) board.onEphemeral(message, ctx);
  } else if (message.type === "closed") {
    drawPending = false;
    app.dataset.status = "deleted";
    $("screen-turn").textContent = t("table.deleted");
    boardRoot().replaceChildren();
  }
}

function onStatus(connected) {
  const pill = $("screen-conn");
  pill.textContent = connected ? t("table.connected_ok") : t("table.reconnecting");
  pill.classList.toggle("ok", connected);
  app.dataset.connected = connected ? "true" : "false";
}

// ------------------------------------------------------------------------ never sleep

// The screen must not dim or lock mid-game. The lock is released when the page is hidden,
// so it is asked for again whenever the page shows.
let wakeLock = null;
async function keepAwake() {
  if (!("wakeLock" in navigator)) { app.dataset.wakeLock = "unavailable"; return; }
  if (document.visibilityState !== "visible" || (wakeLock && !wakeLock.released)) return;
  try {
    wakeLock = await navigator.wakeLock.request("screen");
    app.dataset.wakeLock = "held";
    wakeLock.addEventListener("release", () => { app.dataset.wakeLock = "released"; });
  } catch (error) {
    app.dataset.wakeLock = "refused";
  }
}
document.addEventListener("visibilitychange", keepAwake);
// some browsers grant it only after a gesture: the first tap or key on the screen asks again
document.addEventListener("pointerdown", keepAwake);
document.addEventListener("keydown", keepAwake);

await loadRenderers();
keepAwake();
new ScreenSocket(tableId, { watch: app.dataset.watch, onMessage, onStatus });
setInterval(() => { if (last) renderTimer(); }, 250);
