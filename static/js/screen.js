// The table screen: the public board for a TV, seen from across a room. It holds no seat and
// sends no move: it follows the table over the spectator socket (?screen=1, so a cooperative
// game's "all hands" view never reaches it) and draws what everyone may see, large: whose
// turn it is, the clocks and a knock's countdown, the board (./screen/<game>.js), the seats
// with their scores and card counts, the last moves, and the end with its chart. While the
// table waits, the invite is a QR code. It keeps the display awake (Screen Wake Lock) and
// reconnects by itself, also after a server restart.
import { el, t } from "./i18n.js";
import { createJournal } from "./journal.js";
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
  return t("screen.waiting_for", { names: waiting.map(seatName).join(", ") });
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

function logLines() {
  if (!client || !last.view) return [];
  try { return journal.lines(last, client, ctx).map(String); } catch (error) { return []; }
}

function renderLog() {
  const lines = logLines().slice(-LOG_LINES);
  $("screen-log").replaceChildren(...lines.map((line, i) => el("li", { class: i === lines.length - 1 ? "newest" : "" }, line)));
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
  renderLog();
  fitBoard();
}

// ------------------------------------------------------------------------ fit the board

// The board is the game page's own drawing, laid out at a laptop's width and then zoomed to
// fill the space the screen has for it, whatever its size (1280×720 or 1920×1080 alike):
// cards and type grow with the screen, nothing scrolls.
function boardRoot() {
  let root = $("screen-fit");
  if (!root) {
    root = el("div", { id: "screen-fit", class: "screen-fit" });
    $("screen-board").dataset.game = game;
    $("screen-board").replaceChildren(root);
  }
  return root;
}

const MAX_ZOOM = 3;
// the widths a board is tried at: the one that lets it grow the most wins (a wide board of
// short rows, or a narrow one that wraps into a taller picture)
const WIDTHS = [760, 960, 1200, 1500];

function fitBoard() {
  const frame = $("screen-board");
  const root = $("screen-fit");
  if (!root || frame.hidden) return;
  const style = getComputedStyle(frame);
  const padX = parseFloat(style.paddingLeft) + parseFloat(style.paddingRight);
  const padY = parseFloat(style.paddingTop) + parseFloat(style.paddingBottom);
  root.style.zoom = "1";
  const availW = frame.clientWidth - padX;
  const availH = frame.clientHeight - padY;
  const widths = board && board.layoutWidths ? board.layoutWidths(last) : WIDTHS;
  let best = { zoom: 0, width: widths[0], h: 1 };
  for (const width of widths) {
    root.style.width = `${width}px`;
    const w = Math.max(root.scrollWidth, width);
    const h = Math.max(1, root.scrollHeight);
    const zoom = Math.min(MAX_ZOOM, availW / w, availH / h);
    if (zoom > best.zoom + 0.01) best = { zoom, width, h };
  }
  root.style.width = `${best.width}px`;
  const zoom = Math.max(0.4, Math.floor(best.zoom * 100) / 100);
  root.style.zoom = String(zoom);
  app.dataset.zoom = String(zoom);
  // whether all of it shows (the tests check; a board too tall even at the smallest zoom
  // would be cut at the bottom)
  app.dataset.fits = best.h * zoom <= availH + 2 ? "true" : "false";
}
window.addEventListener("resize", () => fitBoard());

function onMessage(message) {
  if (message.type === "state") {
    last = message;
    receivedAt = performance.now();
    render();
  } else if (message.type === "ephemeral") {
    if (board && board.onEphemeral && last) board.onEphemeral(message, ctx);
  } else if (message.type === "closed") {
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
