// The table page: seats, presence, invite link, log and chat around a game renderer.
// The renderer for the table's game lives in ./games/<game>.js and exports
// render(root, message, ctx) and, optionally, eventLines(ctx, event, message) (how its
// events read in the log, whose journal this page keeps: ./journal.js) and
// onEphemeral(message, ctx). Shared parts every game uses are in ./ui/ (see its README):
// here the page keeps focus across re-renders, announces the log lines a move adds, and cues
// "your turn" beyond the page (tab title, icon, sound, hand scrolled into view).
import { api } from "./api.js";
import { andList, el, t } from "./i18n.js";
import { createJournal } from "./journal.js";
import { TableSocket } from "./socket.js";
import { endedEarly } from "./life-log.js";
import { createLife } from "./table-life.js";
import { createRoom } from "./room.js";
import { withCopy } from "./ui/copy.js";

const app = document.getElementById("table-app");
const tableId = app.dataset.table;
const invite = app.dataset.invite;
const me = app.dataset.me;
let last = null;
let inviteUrl = null;
let renderer = null;
const journal = createJournal(); // the log's lines, kept across state messages
let deadlineTimer = null;
let pending = null; // the last action sent, until the server answers it
let sent = null; // {version, at} of the last send: a second one at that version is a double tap
let windowAt = 0; // performance.now() when the open timed window's "remaining" was read
let lastAnnounced = "";
let announcedLines = 0; // the log's length when it was last announced
let wasMyTurn = false;
let confirmingDelete = false;
let autoJoined = false; // an invite link seats its visitor once, at once
let switching = false; // the hot seat is connecting again for another seat
// The chat line sent, which stays in the box until the server takes it (its line comes back):
// a line refused (too fast, chat closed) is still there to send again. {text, at}; at is -Infinity
// once refused (the box may send it again at once).
let chatSent = null;
const CHAT_REFUSALS = new Set(["chat_rate", "chat_closed", "spectator_chat_closed", "forbidden", "bad_message", "rate_limited"]);
// codes only a chat line earns; the others answer the chat line when no move is in flight
const CHAT_ONLY = new Set(["chat_rate", "chat_closed", "spectator_chat_closed"]);
const baseTitle = document.title;
// Other seats' choices never make ours stale unless they change what we may do (the server
// judges versions per seat); in simultaneous games an action refused as stale all the same
// (a neighbour turned up a card we could have chosen) is sent again if it is still legal.
const simultaneous = app.dataset.simultaneous === "true";
const hasBots = app.dataset.bots === "true";
const isBranch = app.dataset.branch === "true";

const $ = (id) => document.getElementById(id);
// replaceChildren, skipping the null/false placeholders of optional parts
const replace = (node, ...children) => node.replaceChildren(...children.flat().filter((c) => c !== null && c !== undefined && c !== false));

function showError(message) {
  $("error").textContent = message;
  clearTimeout(showError.timer);
  showError.timer = setTimeout(() => { $("error").textContent = ""; }, 6000);
}

function seatName(seat) {
  const s = last && last.table.seats[seat];
  return (s && s.player && s.player.name) || t("table.seat", { n: seat + 1 });
}

const ctx = {
  t, el, seatName,
  get me() { return last ? last.seat : null; },
  // One action in flight per table version: a second tap (a double tap, a key held down)
  // before the server answers is dropped instead of arriving stale.
  send(action) {
    if (!last) return false;
    if (sent && sent.version === last.version && performance.now() - sent.at < 8000) return false;
    $("error").textContent = "";
    pending = { action, retried: false };
    sent = { version: last.version, at: performance.now() };
    if (!socket.send({ type: "action", action, version: last.version })) {
      pending = null;
      sent = null;
      showError(t("table.reconnecting"));
      return false;
    }
    return true;
  },
  isLegal(action) {
    return !!last && last.legal_actions.some((a) => sameAction(a, action));
  },
  // a live, unstored update (a block being dragged); the server relays it, rate-limited
  sendEphemeral(data) {
    return socket.send({ type: "ephemeral", data });
  },
  // seconds left in the open timed window (e.g. a knock), by the server's clock at receipt
  windowRemaining() {
    if (!last || !last.window) return null;
    return Math.max(0, last.window.remaining - (performance.now() - windowAt) / 1000);
  },
};

// the table's life around the game: clocks, presence, votes, rematch, chat lines (table-life.js)
const life = createLife({ tableId, me, seatName, showError, errorText, renderer: () => renderer });
life.setCtx(ctx);
// the table screen link, "continue on another device", the compact layout (room.js)
const room = createRoom({ tableId, me, app });

export function sameAction(a, b) {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const k of keys) if (a[k] !== b[k]) return false;
  return true;
}

// The game's own client; if it does not load (a connection that dropped on the way, a page
// cached across an upgrade) the table says so once, above a plain view that can still be
// played, with a button to load the page again.
async function loadRenderer(game) {
  try { renderer = await import(`./games/${game}.js`); }
  catch (error) {
    console.error(error);
    renderer = await import("./games/generic.js");
    $("game").before(el("section", { class: "card load-failed", id: "load-failed", role: "alert" },
      el("p", {}, t("table.load_failed")),
      el("button", { type: "button", onclick: () => location.reload() }, t("table.reload"))));
  }
}

async function refreshInvite() {
  try {
    const table = await api("GET", `/api/tables/${tableId}`);
    inviteUrl = table.invite_url;
  } catch (error) { inviteUrl = null; }
  if (last) renderSeats();
}

async function seatAction(path, body) {
  try {
    await api("POST", `/api/tables/${tableId}/${path}`, body);
    if (path === "leave" && !last) location.href = "/";
    refreshInvite();
  } catch (error) { showError(errorText(error)); }
}

// Someone who came by the invite link and is not seated yet takes the first free seat
// straight away: the link is the invitation, asking again with "Sit here" is one step too many.
function maybeAutoJoin() {
  if (autoJoined || !invite || !last || last.seat !== null || last.table.status !== "waiting") return;
  if (!last.table.seats.some((s) => !s.player)) return;
  autoJoined = true;
  seatAction("join", { invite });
}

// The host seats a bot in a free seat (or gives their own seat to one and watches), before
// the start; the game's page says when a game has no bot (Block and Guess).
function botButton(seat, mine) {
  const bot = seat.player && seat.player.bot;
  if (seat.player && !bot && !mine) return null;
  const key = bot ? "table.remove_bot" : mine ? "table.bot_my_seat" : "table.add_bot";
  return el("button", { class: "secondary small", dataset: { focusKey: `bot-${seat.seat}` },
    onclick: async () => {
      try {
        if (bot) await api("DELETE", `/api/tables/${tableId}/bots/${seat.seat}`);
        else await api("POST", `/api/tables/${tableId}/bots`, { seat: seat.seat });
      } catch (error) { showError(errorText(error)); }
    } }, t(key));
}

function renderSeats() {
  const table = last.table;
  const mySeat = last.seat;
  const waiting = table.status === "waiting";
  const isHost = table.host.id === me;
  // a private table opened without its invite link: nobody can sit from here
  const locked = table.private && !invite && mySeat === null;
  const rows = table.seats.map((s) => {
    const mine = s.player && s.player.id === me;
    const turn = last.waiting_for.includes(s.seat);
    const due = last.deadlines && last.deadlines[String(s.seat)];
    return el("li", { class: `seat${turn ? " acting" : ""}${mine ? " mine" : ""}` },
      el("span", { class: `dot ${s.connected ? "on" : "off"}`, role: "img", title: t(s.connected ? "table.connected" : "table.disconnected"),
        "aria-label": t(s.connected ? "table.connected" : "table.disconnected") }),
      el("span", { class: "seat-name" }, s.player ? s.player.name : t("table.free")),
      mine ? el("span", { class: "muted" }, ` ${t("table.you")}`) : null,
      s.player && s.player.id === table.host.id ? el("span", { class: "badge" }, t("table.host")) : null,
      s.player && s.player.bot ? el("span", { class: "badge bot" }, t("table.bot")) : null,
      s.autopilot ? el("span", { class: "badge bot" }, t("table.bot_playing")) : null,
      turn && due !== undefined ? el("span", { class: "badge clock", dataset: { due: String(due) } }, t("table.time_left", { s: Math.ceil(due) })) : null,
      ...life.seatExtras(s),
      waiting && !s.player && mySeat === null && !locked
        ? el("button", { onclick: () => seatAction("join", { seat: s.seat, invite: invite || null }), dataset: { focusKey: `sit-${s.seat}` } }, t("table.take_seat")) : null,
      waiting && isHost && hasBots ? botButton(s, mine) : null);
  });
  const controls = [];
  if (waiting && mySeat !== null) controls.push(el("button", { class: "secondary", onclick: () => seatAction("leave") }, t("table.leave")));
  if (waiting && isHost) {
    const full = table.seats.every((s) => s.player);
    controls.push(el("button", { onclick: () => seatAction("start"), disabled: !full, id: "start-button" }, t("table.start")));
    // deleting asks first: the button turns into a question with "yes" and "no"
    if (!confirmingDelete) {
      controls.push(el("button", { class: "danger", id: "delete-button", dataset: { focusKey: "delete" },
        onclick: () => { confirmingDelete = true; renderSeats(); $("delete-no").focus(); } }, t("table.delete")));
    } else {
      controls.push(el("span", { class: "confirm", role: "group", "aria-labelledby": "delete-question" },
        el("strong", { id: "delete-question" }, t("table.delete_confirm")), " ",
        el("button", { class: "danger", id: "delete-yes", onclick: async () => {
          try { await api("DELETE", `/api/tables/${tableId}`); location.href = "/"; }
          catch (error) { showError(errorText(error)); }
        } }, t("table.delete_yes")), " ",
        el("button", { class: "secondary", id: "delete-no", onclick: () => { confirmingDelete = false; renderSeats(); $("delete-button").focus(); } },
          t("table.delete_no"))));
    }
  }
  const link = inviteUrl || (invite ? `${location.origin}/join/${invite}` : null);
  replace($("seats"),
    el("h2", {}, t("status." + table.status)),
    el("ul", { class: "seat-list" }, rows),
    life.watchersLine(),
    // a game without bots (Block and Guess) tells its host why no seat offers one
    waiting && isHost && !hasBots && table.seats.some((s) => !s.player)
      ? el("p", { class: "muted", id: "no-bots-note" }, t("table.no_bots")) : null,
    locked && waiting ? el("p", { class: "notice", id: "private-note" }, t("table.private_no_invite")) : null,
    // came by the invite after the start: watching, not seated (said on the name form too)
    invite && mySeat === null && table.status === "playing"
      ? el("p", { class: "notice", id: "invite-watching" }, t("table.invite_watching")) : null,
    controls.length ? el("div", { class: "row" }, controls) : null,
    link && table.status === "waiting" ? el("div", { class: "invite" },
      el("label", { for: "invite-url" }, t("table.invite")),
      el("div", { class: "row" },
        ...withCopy(el("input", { id: "invite-url", readonly: true, value: link }))),
      // the invite as a QR code (drawn by the server), to scan from a phone in the room
      el("img", { class: "invite-qr", id: "invite-qr", src: `/tables/${tableId}/invite-qr.svg`, alt: t("room.invite_qr"), width: 180, height: 180 })) : null);
}

// A game may word the moment itself: renderer.bannerText(message, ctx) -> {text, mine} or
// null (Allegra's knock window asks a yes/no question against a timer; it is nobody's turn).
function ownBanner() {
  return last.table.status === "playing" && renderer && renderer.bannerText ? renderer.bannerText(last, ctx) : null;
}

function renderBanner() {
  const table = last.table;
  const own = ownBanner();
  let text = "";
  if (own) text = own.text;
  else if (table.status === "waiting") {
    const full = table.seats.every((s) => s.player);
    const isHost = table.host.id === me;
    if (isHost) text = full ? t("table.ready_to_start") : t("table.need_players");
    else if (last.seat !== null) text = t(full ? "table.waiting_host" : "table.waiting_players", { host: table.host.name });
    else text = t(table.seats.some((s) => !s.player) ? "table.not_seated" : "table.full_watching");
  } else if (table.status === "playing") {
    if (last.seat === null) text = t("table.spectating");
    else if (last.waiting_for.includes(last.seat)) text = t("table.your_turn");
    else if (hotSeatDue() !== null) text = t("table.hot_seat.switch_to", { n: hotSeatDue() + 1 });
    else if (last.waiting_for.length === 1 && !simultaneous) text = t("table.turn_of", { name: seatName(last.waiting_for[0]) });
    else if (last.waiting_for.length >= 1) text = t("table.waiting_for", { names: andList(last.waiting_for.map(seatName)) });
  } else if (table.status === "finished") text = t("table.game_over");
  $("banner").textContent = text;
  $("banner").classList.toggle("mine", own ? own.mine : table.status === "playing" && last.waiting_for.includes(last.seat));
}

function renderLog() {
  const lines = life.mergeLog(journal.lines(last, renderer, ctx), last);
  const list = $("log");
  list.replaceChildren(...lines.map((line) => el("li", {}, line)));
  list.scrollTop = list.scrollHeight;
  // a screen reader hears every line a move added (a rejection and the draw after it, a
  // round's scores), not only the last one; the newest line alone when the log was drawn
  // anew (first load, reconnect). The board itself is not a live region. A log that only
  // updated a line in place (a run of small moves folded into one line: journal.js) says
  // nothing new: it is not read again at each move.
  const newest = lines.length ? String(lines[lines.length - 1]) : "";
  const updatedOnly = !last.history && announcedLines > 0 && lines.length === announcedLines;
  if (newest && newest !== lastAnnounced && !updatedOnly) {
    const grew = !last.history && announcedLines > 0 && lines.length > announcedLines;
    $("live").textContent = grew ? lines.slice(announcedLines).slice(-12).map(String).join(" ") : newest;
  }
  lastAnnounced = newest;
  announcedLines = lines.length;
}

// The hot seat of a branch: its host may take every free seat before the start, then plays
// one seat at a time (a connection per seat: the page shows only the selected seat's view,
// and connects again to switch), and may let the bots play any of their seats.
function renderHotSeat() {
  const box = $("hot-seat");
  const table = last.table;
  const isHost = table.host.id === me;
  const mine = table.seats.filter((s) => s.player && s.player.id === me && !s.autopilot).map((s) => s.seat);
  const waiting = table.status === "waiting";
  const playing = table.status === "playing";
  const canTake = waiting && isHost && table.seats.some((s) => !s.player);
  if (!isBranch || !isHost || (!canTake && mine.length < 2 && !(playing && mine.length))) {
    box.hidden = true;
    box.replaceChildren();
    return;
  }
  box.hidden = false;
  const name = (seat) => t("table.hot_seat.seat", { n: seat + 1 });
  const seatButtons = mine.length > 1 ? el("div", { class: "row hot-seat-seats", role: "group", "aria-labelledby": "hot-seat-as" },
    el("span", { id: "hot-seat-as" }, t("table.hot_seat.playing_as")),
    mine.map((seat) => {
      const due = playing && last.waiting_for.includes(seat);
      return el("button", { type: "button", class: seat === last.seat ? "" : "secondary",
        "aria-pressed": seat === last.seat ? "true" : "false", dataset: { seat, focusKey: `hot-seat-${seat}` },
        onclick: () => switchSeat(seat) }, due ? t("table.hot_seat.turn", { name: name(seat) }) : name(seat));
    })) : null;
  replace(box,
    el("h2", { id: "hot-seat-title" }, t("table.hot_seat.title")),
    canTake ? el("button", { type: "button", id: "hot-seat-take", class: "secondary",
      onclick: () => seatAction("hot-seat", {}) }, t("table.hot_seat.take_all")) : null,
    seatButtons,
    mine.length > 1 ? el("p", { class: "muted" }, t("table.hot_seat.note")) : null,
    playing && hasBots && mine.length ? el("div", { class: "row" },
      last.seat !== null && mine.includes(last.seat) && mine.length > 1 ? el("button", { type: "button", class: "secondary", id: "hot-seat-bot",
        onclick: () => seatAction("hot-seat/bots", { seat: last.seat }) }, t("table.hot_seat.bot_this")) : null,
      el("button", { type: "button", id: "hot-seat-bots",
        onclick: () => seatAction("hot-seat/bots", {}) }, t("table.hot_seat.bots_all"))) : null);
}

// the hot seat: another of the host's own seats is due (the page does not switch by itself)
function hotSeatDue() {
  if (!isBranch || !last || last.table.status !== "playing") return null;
  const due = last.table.seats.find((s) => s.player && s.player.id === me && !s.autopilot
    && s.seat !== last.seat && last.waiting_for.includes(s.seat));
  return due ? due.seat : null;
}

// the hot seat chosen last in this tab, kept over a reload (sessionStorage: this tab only)
const HOT_SEAT_KEY = `ludoteca.hot-seat.${tableId}`;
function savedHotSeat() {
  try { return sessionStorage.getItem(HOT_SEAT_KEY); } catch { return null; }
}
// after a reload the table connects for the host's first seat: back to the one chosen, if
// it is still theirs (asked once, on the first state)
let hotSeatRestored = false;
function restoreHotSeat() {
  if (hotSeatRestored || !isBranch || !last) return;
  hotSeatRestored = true;
  const stored = savedHotSeat();
  const saved = Number(stored);
  if (stored === null || !Number.isInteger(saved) || saved === last.seat) return;
  const mine = last.table.seats.some((s) => s.seat === saved && s.player && s.player.id === me);
  if (mine && last.seat !== null) switchSeat(saved);
}

function switchSeat(seat) {
  if (!last || seat === last.seat) return;
  try { sessionStorage.setItem(HOT_SEAT_KEY, String(seat)); } catch { /* private mode */ }
  pending = null;
  sent = null;
  // nothing of the seat left behind stays on the page while the other one's view comes
  $("game").replaceChildren();
  $("log").replaceChildren();
  switching = true;
  socket.switchSeat(seat);
}

// Focus stays where it was: the element with the same data-focus-key, else your hand.
function render() {
  app.dataset.version = String(last.version);
  const active = document.activeElement;
  const focusKey = active && active.dataset ? active.dataset.focusKey : undefined;
  const inGame = active && $("game").contains(active);
  renderSeats();
  renderHotSeat();
  renderBanner();
  if (renderer && (last.view || last.table.status !== "waiting")) renderer.render($("game"), last, ctx);
  else $("game").replaceChildren();
  renderEarlyEnd();
  renderLog();
  if (focusKey !== undefined || inGame) {
    // a control drawn again but disabled (Block and Guess's ✕ once its block is off the
    // board) cannot take the focus: it would fall to the page's body
    const same = focusKey !== undefined && document.querySelector(`[data-focus-key="${CSS.escape(focusKey)}"]`);
    const again = same && !same.matches(":disabled") ? same : null;
    // the control is gone (its move was made): your hand (not one of its buttons: a key
    // held down must not make a second move), else the board; Tab goes on from there
    // (unless the renderer already put it somewhere on the board)
    const lost = inGame && !document.body.contains(active) && !$("game").contains(document.activeElement);
    const hand = $("my-hand");
    const target = again || (lost ? hand || $("game") : null);
    if (target && target !== document.activeElement) target.focus({ preventScroll: true });
  }
  $("skip-hand").hidden = !$("my-hand");
  renderChatGate();
  cueTurn();
  life.render(last);
  room.render(last);
}

function renderChatGate() {
  const open = last.chat_allowed !== false;
  // the chat opening again ends a "closed" refusal; the line waits in the box to be sent
  if (open && $("chat-input").disabled) showChatError("");
  $("chat-input").disabled = !open;
  $("chat-form").querySelector("button").disabled = !open;
  $("chat-closed").hidden = open;
}

// "Your turn" beyond the page: the tab title and icon, a short sound if wanted, and the
// hand scrolled into view when the turn begins.
function cueTurn() {
  const mine = last.table.status === "playing" && last.seat !== null && last.waiting_for.includes(last.seat);
  const own = ownBanner();
  document.title = mine ? `● ${own ? own.text : t("table.your_turn")} · ${baseTitle}` : baseTitle;
  const icon = document.querySelector("link[rel=icon]");
  if (icon) icon.href = mine ? "/static/img/turn.svg" : "/static/img/logo.svg";
  if (mine && !wasMyTurn) {
    const hand = $("my-hand");
    if (hand && hand.scrollIntoView) hand.scrollIntoView({ block: "nearest", behavior: "smooth" });
    if (localStorage.getItem("ludoteca.sound") === "on") beep();
  }
  wasMyTurn = mine;
}

// The game is over: its result comes into view wherever the page was scrolled (a phone
// player was down at their hand). Every game draws its end summary as a ".final" section
// at the top of its board; a game ended by a resignation or a vote says so in the life
// panel. Only the page scrolls: the focus stays where render() kept it; and a player typing
// (a chat line) keeps the box they type in where it is.
// A game that ended early (a resignation, a vote, everyone gone) has no result of its own on
// its board, which stays as it stood, mid-turn ("Carla's turn"): a heading above it says how
// the game ended and that the board is the moment it stopped.
function renderEarlyEnd() {
  const text = last.table.status === "finished" ? endedEarly(last.table.outcome, seatName) : null;
  $("early-end").hidden = !text;
  if (text && $("early-end-title").textContent !== text) $("early-end-title").textContent = text;
}

function revealOutcome() {
  const typing = document.activeElement && document.activeElement.matches("textarea, input:not([type=checkbox]):not([type=radio]):not([readonly])");
  if (typing) return;
  const summary = $("game").querySelector(".final") || ($("early-end").hidden ? null : $("early-end"));
  if (!summary || !summary.scrollIntoView) return;
  const box = summary.getBoundingClientRect();
  if (box.top >= 0 && box.top < window.innerHeight / 3) return; // its head is in view already
  const still = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  summary.scrollIntoView({ block: "start", behavior: still ? "auto" : "smooth" });
}

function beep() {
  try {
    const audio = new (window.AudioContext || window.webkitAudioContext)();
    const tone = audio.createOscillator();
    const gain = audio.createGain();
    tone.frequency.value = 660;
    gain.gain.setValueAtTime(0.08, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.25);
    tone.connect(gain).connect(audio.destination);
    tone.start();
    tone.stop(audio.currentTime + 0.25);
  } catch (error) { /* no sound available: the title and icon still tell */ }
}

function renderSoundToggle() {
  const on = localStorage.getItem("ludoteca.sound") === "on";
  const button = $("sound-toggle");
  button.textContent = t(on ? "table.sound_on" : "table.sound_off");
  button.setAttribute("aria-pressed", on ? "true" : "false");
}

function tickClocks() {
  for (const badge of document.querySelectorAll(".clock")) {
    const left = Math.max(0, Number(badge.dataset.due) - 1);
    badge.dataset.due = String(left);
    badge.textContent = t("table.time_left", { s: Math.ceil(left) });
  }
}

function onMessage(message) {
  if (message.type === "state") {
    if (pending && pending.retried) pending = null;
    const seatChanged = !last || last.seat !== message.seat;
    // the game ended while this page watched it (not a page opened on a finished game)
    const ended = !!last && last.table.status === "playing" && message.table.status === "finished";
    if (switching && message.history) switching = false;
    last = message;
    life.onState(message);
    windowAt = performance.now();
    render();
    if (ended) revealOutcome();
    if (seatChanged) refreshInvite();
    maybeAutoJoin();
    restoreHotSeat();
  } else if (message.type === "error") {
    if (message.code === "stale_version" && simultaneous && pending && !pending.retried
        && ctx.isLegal(pending.action)) {
      pending.retried = true;
      socket.send({ type: "action", action: pending.action, version: last.version });
      return;
    }
    const chatRefused = chatSent && chatSent.at !== -Infinity
      && (CHAT_ONLY.has(message.code) || (CHAT_REFUSALS.has(message.code) && !moveInFlight()));
    if (chatSent && CHAT_REFUSALS.has(message.code)) chatSent.at = -Infinity; // kept in the box
    // the refused line's reason shows by the chat box that holds it (announced there)
    if (chatRefused) { showChatError(errorText(message)); return; }
    pending = null;
    sent = null;
    // a stale move comes with a fresh view: the new state says enough, no alarm needed
    if (message.code === "stale_version") return;
    showError(errorText(message));
  } else if (message.type === "chat") {
    chatTaken(message);
    const list = $("chat");
    const line = life.chatLine(message); // null for a line already shown (a reconnect replays them)
    if (line) list.append(line);
    list.scrollTop = list.scrollHeight;
  } else if (message.type === "ephemeral") {
    if (renderer && renderer.onEphemeral && last) renderer.onEphemeral(message, ctx);
  } else if (message.type === "closed") {
    $("banner").textContent = t("table.deleted");
    $("game").replaceChildren();
  }
}

// the catalogue's words for an error code when it has them (per game, then general),
// else the server's own message
function errorText(message) {
  for (const key of [`${app.dataset.game}.error.${message.code}`, `error.${message.code}`]) {
    if (window.I18N && window.I18N[key]) return t(key);
  }
  return t("error.generic", { message: message.message });
}

function onStatus(connected) {
  const pill = $("conn-status");
  pill.textContent = connected ? t("table.connected_ok") : t("table.reconnecting");
  pill.classList.toggle("ok", connected);
}

// our own line came back: the server took it, the box is emptied (unless it holds new words)
// and the reason it was refused before goes
function chatTaken(message) {
  if (!chatSent || message.kind === "system" || message.text !== chatSent.text || !last) return;
  if (message.kind === "player" ? message.seat !== last.seat : last.seat !== null) return;
  if ($("chat-input").value.trim() === chatSent.text) $("chat-input").value = "";
  chatSent = null;
  showChatError("");
}

function showChatError(text) {
  $("chat-error").textContent = text;
  if (text) $("chat-input").setAttribute("aria-invalid", "true");
  else $("chat-input").removeAttribute("aria-invalid");
}

// a move sent for the version on the page and not answered yet (its answer is a newer state)
function moveInFlight() {
  return !!(sent && last && sent.version === last.version && performance.now() - sent.at < 8000);
}

$("chat-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const text = $("chat-input").value.trim();
  if (!text) return;
  // a second Enter before the server answers sends the line once
  if (chatSent && chatSent.text === text && performance.now() - chatSent.at < 5000) return;
  if (socket.send({ type: "chat", text })) chatSent = { text, at: performance.now() };
});

// A press on a control that an update redraws before its release: the pressed button leaves
// the page and the browser sends no click, so a tap at that instant was lost (Allegra's
// Knock during the knock window, where each other player's answer redraws the page; any
// game's control when another player moves). The release over the control drawn again in
// its place (the same data-focus-key: the same move, still legal) acts as the click would
// have. A mouse and the space key only: a finger's tap is aimed when it ends and already
// lands on the new control.
let pressed = null;
const control = (node) => (node instanceof Element ? node.closest("button[data-focus-key]") : null);
function releaseOnRedrawn(was, now) {
  if (!was || was.node.isConnected) return; // not redrawn: the browser's own click follows
  if (now && $("game").contains(now) && now.dataset.focusKey === was.key && !now.disabled) now.click();
}
$("game").addEventListener("pointerdown", (event) => {
  const node = event.pointerType === "mouse" && event.button === 0 ? control(event.target) : null;
  pressed = node ? { key: node.dataset.focusKey, node } : null;
}, true);
$("game").addEventListener("pointerup", (event) => {
  const was = pressed;
  pressed = null;
  if (event.pointerType === "mouse" && event.button === 0) releaseOnRedrawn(was, control(event.target));
}, true);
$("game").addEventListener("keydown", (event) => {
  if (event.key !== " " || event.repeat) return;
  const node = control(event.target);
  pressed = node ? { key: node.dataset.focusKey, node } : null;
}, true);
// render() kept the focus on the control with the same key; its keyup reaches the
// document, not the board, if the focus fell elsewhere
$("game").addEventListener("keyup", (event) => {
  if (event.key !== " ") return;
  const was = pressed;
  pressed = null;
  releaseOnRedrawn(was, control(document.activeElement));
}, true);

// A key held down makes one move: Enter acts on every keydown, the repeats of a held key
// too, and after a move the focus may go on to the game's next step (Ikebana's Keep after
// Draw), which a held Enter would then press unseen. Its repeats act on nothing in the game
// (the hand dock is in it); typing (the chat, a Hanabi note) keeps its repeats.
const TYPING = "input:not([type=checkbox]):not([type=radio]):not([type=button]), textarea, [contenteditable]";
document.addEventListener("keydown", (event) => {
  if (event.repeat && (event.key === "Enter" || event.key === " ") && $("game").contains(event.target)
      && !event.target.matches(TYPING)) {
    event.preventDefault();
  }
}, true);

// a box emptied by hand holds no refused line any more: its reason goes with it
$("chat-input").addEventListener("input", () => { if (!$("chat-input").value.trim()) showChatError(""); });

$("sound-toggle").addEventListener("click", () => {
  const on = localStorage.getItem("ludoteca.sound") === "on";
  localStorage.setItem("ludoteca.sound", on ? "off" : "on");
  renderSoundToggle();
});
renderSoundToggle();

await loadRenderer(app.dataset.game);
const socket = new TableSocket(tableId, { invite, watch: app.dataset.watch, onMessage, onStatus });
deadlineTimer = setInterval(tickClocks, 1000);
