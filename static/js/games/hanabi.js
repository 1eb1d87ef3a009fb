// Hanabi client: draws the server's view and offers exactly the legal actions it lists.
// It holds no rules: what may be clued, played or discarded comes from legal_actions; how
// many copies each card has comes from the view. Cards are the shared faces of ../ui/cards.js
// (a symbol per colour); your hand sits in the shared dock (../ui/dock.js).
import { andList } from "../i18n.js";
import { svg } from "../svg.js";
import { symbolShape, symbolSvg } from "../ui/cards.js";
import { handDock } from "../ui/dock.js";
import { FILL, INK, hanabiFace, rainbowDefs } from "../ui/faces/hanabi.js";

const UNCLUED = "#5a6483"; // a card back nobody clued: slate, with a dashed frame
const HIGHLIGHT_MS = 5000;

// page state kept across renders: the newest clue's cards (highlighted for a moment)
const flash = { table: null, logLength: -1, ids: new Set(), until: 0, timer: null };

const colorName = (ctx, color) => ctx.t("color." + color);
// A colour's name in a caption under a card: the catalogue's caption form when it has one,
// with a soft hyphen where a word wider than a phone's card may break ("multi-" / "colour").
// Only captions carry it: the log, labels and buttons (what a player reads out or copies)
// have the plain word.
const colorCaption = (ctx, color) => {
  const key = `color.${color}.caption`;
  const text = ctx.t(key);
  return text === key ? colorName(ctx, color) : text;
};
const cardLabel = (ctx, color, rank) => `${colorName(ctx, color)} ${rank}`;

// a card's face: a firework in its colour (../ui/faces/hanabi.js)
export function cardFace(ctx, color, rank, { marks = [], className = "" } = {}) {
  return hanabiFace({ color, rank, label: cardLabel(ctx, color, rank), marks, className });
}

// The back of a card in a hand: its colour when a clue told it (with that colour's symbol,
// large), else a slate back with a dashed frame; the symbols of the colours it may still
// be along the top, and its number when known (else the numbers it may still be).
function cardBack(ctx, k, label) {
  const known = k.color;
  const node = svg("svg", { class: `ucard hcard back${known ? " known" : ""}`, viewBox: "0 0 60 84", role: "img", "aria-label": label },
    svg("rect", { x: 1, y: 1, width: 58, height: 82, rx: 7, fill: known ? FILL[known] : UNCLUED, stroke: "#fff", "stroke-width": 2 }));
  if (!known) {
    node.append(svg("rect", { x: 6, y: 6, width: 48, height: 72, rx: 5, fill: "none", stroke: "rgba(255,255,255,.6)", "stroke-width": 1.5, "stroke-dasharray": "4 3" }));
    const step = 48 / Math.max(1, k.possible_colors.length);
    k.possible_colors.forEach((c, i) => node.append(symbolShape(c, 6 + i * step + (step - 9) / 2, 8, 9,
      { fill: FILL[c] === FILL.multi ? "#fff" : FILL[c], stroke: "#fff" })));
  } else {
    node.append(symbolShape(known, 18, 8, 24, { fill: "#fff", stroke: "#1f2230" }));
  }
  const ink = known && INK[known] ? INK[known] : "#fff";
  node.append(svg("text", { x: 30, y: k.rank ? 66 : 62, "text-anchor": "middle", "font-size": k.rank ? 24 : 11, "font-weight": 700, fill: ink },
    k.rank ? String(k.rank) : k.possible_ranks.join(" ")));
  return node;
}

// Everything the clues told, as a sentence (the card's accessible name).
function knowledgeText(ctx, k) {
  const { t } = ctx;
  const parts = [];
  if (k.color) parts.push(`${t("hanabi.is")} ${colorName(ctx, k.color)}`);
  if (k.rank) parts.push(`${t("hanabi.is")} ${k.rank}`);
  if (!k.color) for (const c of k.not_colors) parts.push(`${t("hanabi.not")} ${colorName(ctx, c)}`);
  if (!k.rank) for (const r of k.not_ranks) parts.push(`${t("hanabi.not")} ${r}`);
  return parts.length ? parts.join(", ") : t("hanabi.unknown");
}

// The same, short enough for a caption under a card: a positive clue makes its negatives
// redundant, so they are left out; negatives are listed compactly ("≠ red, 3").
function knowledgeCaption(ctx, k) {
  const { t } = ctx;
  const known = [k.color ? colorCaption(ctx, k.color) : null, k.rank ? String(k.rank) : null].filter(Boolean);
  const not = [...(k.color ? [] : k.not_colors.map((c) => colorCaption(ctx, c))), ...(k.rank ? [] : k.not_ranks.map(String))];
  if (!known.length && !not.length) return t("hanabi.unknown");
  return [known.join(" "), not.length ? `≠ ${not.join(", ")}` : ""].filter(Boolean).join(" · ");
}

// copies of (colour, rank) not yet discarded, and whether that card is still needed
function copiesLeft(view, color, rank) {
  const total = view.copies[color][rank - 1];
  return total - view.discard.filter((c) => c.color === color && c.rank === rank).length;
}
// a card is still needed while its firework can yet reach it: not played yet, and every
// number between the firework and it has a copy left (once the three red 1s are discarded
// no red card can be played, and a red 3 is no card to save)
const stillNeeded = (view, color, rank) => {
  for (let r = view.fireworks[color] + 1; r < rank; r++) if (copiesLeft(view, color, r) === 0) return false;
  return view.fireworks[color] < rank;
};
const isLastCopy = (view, color, rank) => stillNeeded(view, color, rank) && copiesLeft(view, color, rank) === 1;

function lastCopyMark() {
  return svg("g", { class: "last-copy", "aria-hidden": "true" },
    svg("circle", { cx: 49, cy: 73, r: 8, fill: "#fff", stroke: "#9a3412", "stroke-width": 2 }),
    svg("text", { x: 49, y: 77.5, "text-anchor": "middle", "font-size": 13, "font-weight": 800, fill: "#9a3412" }, "!"));
}

function tokens(ctx, label, count, max, cls) {
  const { el } = ctx;
  return el("div", { class: `tokens ${cls}` },
    el("span", { class: "token-label" }, `${label} ${count}/${max}`),
    el("span", { class: "token-row", "aria-hidden": "true" }, Array.from({ length: max }, (_, i) => el("span", { class: `token${i < count ? " full" : ""}` }))));
}

// ------------------------------------------------------------------------ notes

const notesKey = (tableId) => `ludoteca.hanabi.notes.${tableId}`;
function loadNotes(tableId) {
  try { return JSON.parse(localStorage.getItem(notesKey(tableId)) || "{}"); } catch (error) { return {}; }
}
function saveNote(tableId, cardId, text) {
  const notes = loadNotes(tableId);
  if (text) notes[cardId] = text; else delete notes[cardId];
  try { localStorage.setItem(notesKey(tableId), JSON.stringify(notes)); } catch (error) { /* private mode: kept for this page only */ }
}

// ------------------------------------------------------------------------ hands

// The card each hand drew on its player's last play or discard (``drew``: ids are public):
// a hand is kept in draw order, so it is the hand's last card. None before a hand's first
// draw (the deal) and none once its last play or discard drew nothing (the deck ran out): a
// card drawn long before is not new. Everyone sees which slot got a new card, the drawer's
// own face-down one too.
export function newestIds(view) {
  const drew = new Map(); // seat -> what its last play or discard drew (null: nothing)
  for (const e of view.log) if (e.type === "play" || e.type === "discard") drew.set(e.seat, e.drew ?? null);
  const newest = new Set();
  view.hands.forEach((hand, seat) => {
    const id = drew.get(seat);
    if (id !== undefined && id !== null && hand.length && hand[hand.length - 1].id === id) newest.add(id);
  });
  return newest;
}

function slotFigure(ctx, view, card, index, { mine, notes, newest }) {
  const { el, t } = ctx;
  const k = card.knowledge;
  const faceUp = !!card.color;
  const last = faceUp && isLastCopy(view, card.color, card.rank);
  const label = faceUp ? `${cardLabel(ctx, card.color, card.rank)}${last ? ` (${t("hanabi.last_copy")})` : ""}. ${knowledgeText(ctx, k)}`
    : knowledgeText(ctx, k);
  const note = mine ? notes[card.id] : null;
  const fresh = newest.has(card.id);
  return el("figure", { class: `slot${flash.ids.has(card.id) ? " clued-now" : ""}${fresh ? " newest" : ""}`, dataset: { card: card.id, slot: index + 1 } },
    el("span", { class: "slot-number", "aria-hidden": "true" }, String(index + 1),
      fresh ? el("span", { class: "new-badge" }, t("hanabi.new_badge")) : null),
    faceUp ? cardFace(ctx, card.color, card.rank, { marks: last ? [lastCopyMark()] : [] }) : cardBack(ctx, k, `${t("hanabi.slot", { n: index + 1 })}: ${label}`),
    el("figcaption", {}, fresh ? el("span", { class: "visually-hidden" }, `${t("hanabi.just_drawn")}: `) : null,
      knowledgeCaption(ctx, k), note ? el("span", { class: "note" }, note) : null));
}

// A clue chosen by a touch, waiting for its confirmation (``clue-<seat>-<colour|number>``):
// a finger cannot point at a button without pressing it, so on a touch screen the first
// tap shows the clue's cards and a confirm button, and a second tap (or the confirm) sends
// it. A mouse click and the keyboard send at once: they saw the cards on hover and focus.
// (kept for the turn it was chosen in, at its table)
const chosen = { table: null, turn: -1, key: null };
let lastPointer = "";
const touching = () => lastPointer === "touch" || lastPointer === "pen";
const touchPress = (event) => event.detail !== 0 && touching();

function otherHand(ctx, message, seat) {
  const { el, t } = ctx;
  const view = message.view;
  const hand = view.hands[seat];
  const name = ctx.seatName(seat);
  const cards = el("div", { class: "cards" }, hand.map((c, i) => slotFigure(ctx, view, c, i, { mine: false, newest: ctx.newest })));
  const clues = []; // this hand's legal clues: [action, touches, class, focus key, label...]
  for (const color of view.colors) {
    const action = { type: "clue", target: seat, color };
    if (ctx.isLegal(action)) {
      clues.push([action, (c) => c.color === color, `color-${color}`, `clue-${seat}-${color}`,
        symbolSvg(color, 16, { fill: "#fff", stroke: "#1f2230" }), " ", colorName(ctx, color)]);
    }
  }
  for (const rank of [1, 2, 3, 4, 5]) {
    const action = { type: "clue", target: seat, rank };
    if (ctx.isLegal(action)) clues.push([action, (c) => c.rank === rank, "rank", `clue-${seat}-${rank}`, String(rank)]);
  }
  const picked = chosen.table === message.table.id && chosen.turn === view.turns_taken ? clues.find((clue) => clue[3] === chosen.key) : undefined;
  // Before you give a clue, the cards it would point at: pointing at a clue button (or
  // tabbing to it, or a first tap on it) outlines them, and its description lists their
  // slots. The faces are in plain view; a colour clue points at that colour only
  // (multicolour is its own colour). A clue chosen by a tap stays outlined till it is sent.
  const outline = (touches) => cards.querySelectorAll(".slot").forEach((slot, i) =>
    slot.classList.toggle("would-clue", !!touches && touches(hand[i])));
  // (a focus that follows a tap is no keyboard's: the button a cancel gives the focus back
  // to outlines nothing)
  const preview = (touches) => (on) => (event) => {
    if (on && event.type === "focus" && touching()) return;
    outline(on ? touches : picked && picked[1]);
  };
  if (picked) outline(picked[1]);
  const send = (action) => { chosen.key = null; ctx.send(action); };
  const choose = (key, focus) => { Object.assign(chosen, { table: message.table.id, turn: view.turns_taken, key }); editing.focus = focus; ctx.rerender(); };
  const clueButton = ([action, touches, cls, focusKey, ...label]) => {
    const show = preview(touches);
    const slots = hand.flatMap((c, i) => (touches(c) ? [i + 1] : []));
    const on = picked && picked[3] === focusKey;
    return el("button", { class: `clue ${cls}${on ? " chosen" : ""}`, dataset: { focusKey },
      onclick: (event) => (touchPress(event) && !on ? choose(focusKey, "clue-confirm") : send(action)),
      "aria-description": slotList(ctx, slots), "aria-pressed": picked ? String(!!on) : null,
      onmouseenter: show(true), onmouseleave: show(false), onfocus: show(true), onblur: show(false) }, ...label);
  };
  const clueButtons = clues.map(clueButton);
  const clueText = (action) => (action.color ? colorName(ctx, action.color) : t("hanabi.log.rank", { rank: action.rank }));
  const title = t("hanabi.hand_of", { name });
  return el("section", { class: `card hand${view.turn === seat ? " acting" : ""}`, "aria-label": title },
    el("h3", {}, title),
    cards,
    clueButtons.length ? el("div", { class: "clues", role: "group", "aria-label": t("hanabi.clue_to", { name }) },
      el("span", { class: "clue-label" }, t("hanabi.clue_to", { name })), clueButtons,
      picked ? el("div", { class: "clue-confirm" },
        el("button", { class: "confirm", dataset: { focusKey: "clue-confirm" }, onclick: () => send(picked[0]) },
          t("hanabi.clue_confirm", { clue: clueText(picked[0]), name })),
        el("button", { class: "secondary", dataset: { focusKey: "clue-cancel" }, onclick: () => choose(null, picked[3]) },
          t("hanabi.clue_cancel")),
        el("p", { class: "muted" }, t("hanabi.clue_confirm_hint"))) : null)
      // your turn without a clue token: say why the clue buttons are gone
      : view.turn === message.seat && !view.over && view.clues === 0
        ? el("p", { class: "clues muted no-clues" }, t("hanabi.no_clues_left")) : null);
}

function noteEditor(ctx, message, cardId, index) {
  const { el, t } = ctx;
  const tableId = message.table.id;
  const input = el("input", { id: "hanabi-note", maxlength: 40, value: loadNotes(tableId)[cardId] || "",
    "aria-label": t("hanabi.note_for", { n: index + 1 }), dataset: { focusKey: "note-input" } });
  const close = () => { editing.card = null; ctx.rerender(); };
  const save = () => { saveNote(tableId, cardId, input.value.trim()); editing.focus = `note-${cardId}`; close(); };
  input.addEventListener("keydown", (event) => {
    if (event.key === "Enter") { event.preventDefault(); save(); }
    if (event.key === "Escape") { event.preventDefault(); editing.focus = `note-${cardId}`; close(); }
  });
  return el("form", { class: "note-editor row", onsubmit: (event) => { event.preventDefault(); save(); } },
    el("label", { for: "hanabi-note" }, t("hanabi.note_for", { n: index + 1 })), input,
    el("button", { type: "submit", dataset: { focusKey: "note-save" } }, t("hanabi.note_save")));
}

// which of your cards has its note editor open (one at a time)
const editing = { card: null, focus: null };

function myHand(ctx, message) {
  const { el, t } = ctx;
  const seat = message.seat;
  const view = message.view;
  const notes = loadNotes(message.table.id);
  const mine = view.turn === seat;
  const hand = view.hands[seat];
  if (editing.card !== null && !hand.some((c) => c.id === editing.card)) editing.card = null;
  return handDock(ctx, { label: t("hanabi.your_hand") },
    el("h3", {}, view.over ? t("hanabi.your_hand_shown") : t("hanabi.your_hand")),
    el("div", { class: "cards" }, hand.map((c, i) => {
      const play = { type: "play", card: c.id };
      const discard = { type: "discard", card: c.id };
      const canPlay = ctx.isLegal(play);
      const canDiscard = ctx.isLegal(discard);
      // the card itself opens its note (a 44 px target without another button per card)
      return el("div", { class: "my-slot" },
        el("button", { class: "card-button note-button", onclick: () => { editing.card = c.id; editing.focus = "note-input"; ctx.rerender(); },
          dataset: { focusKey: `note-${c.id}`, slot: i + 1 }, "aria-expanded": editing.card === c.id ? "true" : "false" },
        slotFigure(ctx, view, c, i, { mine: true, notes, newest: ctx.newest }), el("span", { class: "visually-hidden" }, ` ${t("hanabi.note")}`)),
        // a replay shows the hand, not the buttons of a live table (nobody can press them)
        view.over || ctx.replay ? null : el("div", { class: "card-actions" },
          el("button", { class: "play", disabled: !canPlay, onclick: () => ctx.send(play), dataset: { focusKey: `play-${c.id}`, slot: i + 1 },
            "aria-keyshortcuts": "P" }, t("hanabi.play")),
          el("button", { class: "secondary discard", disabled: !canDiscard, onclick: () => ctx.send(discard), dataset: { focusKey: `discard-${c.id}`, slot: i + 1 },
            "aria-keyshortcuts": "D" }, t("hanabi.discard_action"))));
    })),
    editing.card !== null ? noteEditor(ctx, message, editing.card, hand.findIndex((c) => c.id === editing.card)) : null,
    !view.over && !ctx.replay ? el("p", { class: "shortcuts muted", id: "hanabi-shortcuts" }, t(mine ? "hanabi.shortcuts" : "hanabi.shortcuts_wait")) : null);
}

// ------------------------------------------------------------------------ the table

function fireworks(ctx, view) {
  const { el, t } = ctx;
  return el("section", { class: "card fireworks", "aria-labelledby": "hanabi-fireworks" },
    el("h3", { id: "hanabi-fireworks" }, t("hanabi.fireworks")),
    el("div", { class: "cards" }, view.colors.map((color) => {
      const height = view.fireworks[color];
      return el("figure", { class: "slot", dataset: { color } },
        height ? cardFace(ctx, color, height) :
          svg("svg", { class: "ucard hcard empty", viewBox: "0 0 60 84", role: "img", "aria-label": `${colorName(ctx, color)} 0` },
            svg("rect", { x: 2, y: 2, width: 56, height: 80, rx: 7, fill: "#fff", stroke: color === "multi" ? "#6b3fa0" : FILL[color], "stroke-width": 3, "stroke-dasharray": "6 4" }),
            symbolShape(color, 18, 30, 24, { fill: color === "multi" ? "#6b3fa0" : FILL[color], stroke: "#1f2230" })),
        el("figcaption", {}, `${colorCaption(ctx, color)} ${height}`));
    })));
}

// The discard pile, and which still-needed cards have only their last copy left (the
// warning reads "it" for one card, "them" for several). Exported for
// tests/browser/test_hanabi_captions_browser.py.
export function discards(ctx, view) {
  const { el, t } = ctx;
  const byColor = view.colors.map((color) => [color, view.discard.filter((c) => c.color === color).sort((a, b) => a.rank - b.rank)]);
  // cards whose only copy left is somewhere in the deck or a hand, and still needed (once
  // the game is over nobody can discard them any more: no warning)
  const warnings = [];
  if (!view.over) for (const color of view.colors) {
    for (let rank = 1; rank <= 5; rank++) {
      const discarded = view.discard.some((c) => c.color === color && c.rank === rank);
      if (discarded && isLastCopy(view, color, rank)) warnings.push(cardLabel(ctx, color, rank));
    }
  }
  return el("section", { class: "card discards", "aria-labelledby": "hanabi-discards" },
    el("h3", { id: "hanabi-discards" }, `${t("hanabi.discard")} (${view.discard.length})`),
    warnings.length ? el("p", { class: "last-copy-warning" }, el("strong", {}, "! "), t("hanabi.last_copies", { n: warnings.length, cards: warnings.join(", ") })) : null,
    view.discard.length ? el("div", { class: "discard-rows" }, byColor.filter(([, cards]) => cards.length).map(([color, cards]) =>
      el("div", { class: "discard-row" }, cards.map((c) => cardFace(ctx, c.color, c.rank, {
        marks: isLastCopy(view, c.color, c.rank) ? [lastCopyMark()] : [], className: "small" })))))
      : el("p", { class: "muted" }, t("hanabi.discard_empty")));
}

// The game's last word: its score (n, so that a score of 1 reads "1 punto"), the verdict
// and why it ended. Exported for tests/browser/test_plurals_browser.py.
export function finalBanner(ctx, view) {
  const { el, t } = ctx;
  return el("section", { class: "card final", role: "status" },
    el("h2", {}, t("hanabi.final", { n: view.score, max: view.max_score })),
    el("p", { class: "verdict" }, t(`hanabi.verdict.${view.verdict}`)),
    el("p", { class: "muted" }, t(`hanabi.reason.${view.over}`)));
}

// The round's moves so far, under the status (phone only: the laptop shows the log beside
// the board): on a phone the log sits below the whole board and the room's boxes, so the
// clue you were just given, or what your partner's misplay was, meant a long scroll down.
function latestMoves(ctx, view) {
  const { el, t } = ctx;
  const entries = view.log.slice(-view.seats);
  if (!entries.length) return null;
  return el("section", { class: "card latest-moves", "aria-labelledby": "hanabi-latest" },
    el("h3", { id: "hanabi-latest" }, t("hanabi.latest_moves")),
    el("ol", { start: view.log.length - entries.length + 1 }, entries.map((e) => el("li", {}, entryLine(ctx, e)))));
}

// The final round: how many turns are left and whose they are (in turn order, the drawer
// of the last card last), and whether you still have yours: "3 turns left" alone left a
// player to count seats to learn whether they would play again. Exported for
// tests/browser/test_hanabi_final_round_browser.py.
export function finalRoundText(ctx, view, me) {
  const { t } = ctx;
  const n = view.final_turns_left;
  const seats = Array.from({ length: n }, (_, i) => (view.turn + i) % view.seats);
  const text = t("hanabi.final_round", { n, names: andList(seats.map((s) => ctx.seatName(s))) });
  if (me === null || me === undefined) return text;
  if (view.turn === me) return `${text} ${t("hanabi.final_round_yours")}`;
  return seats.includes(me) ? text : `${text} ${t("hanabi.final_round_done")}`;
}

// The newest clue's cards glow for a few seconds (only a clue that arrives while you look).
function trackClue(message) {
  const log = message.view.log;
  if (flash.table !== message.table.id) Object.assign(flash, { table: message.table.id, logLength: log.length, ids: new Set() });
  if (log.length > flash.logLength) {
    const newest = log[log.length - 1];
    flash.ids = newest.type === "clue" && flash.logLength >= 0 ? new Set(newest.cards) : new Set();
    flash.until = performance.now() + HIGHLIGHT_MS;
  }
  flash.logLength = log.length;
  if (performance.now() > flash.until) flash.ids = new Set();
}

// Keyboard shortcuts: 1-5 go to your card in that slot, P plays it, D discards it, C goes to
// the first clue button, N writes a note. Never while typing in a field.
function onKey(event) {
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  const target = event.target;
  if (target && (target.tagName === "INPUT" || target.tagName === "TEXTAREA" || target.tagName === "SELECT")) return;
  const hand = document.getElementById("my-hand");
  if (!hand) return;
  const key = event.key.toLowerCase();
  const slotOf = () => (target && target.dataset ? target.dataset.slot : null) || null;
  let next = null;
  if (/^[1-6]$/.test(key)) next = hand.querySelectorAll(".my-slot")[Number(key) - 1]?.querySelector("button:not([disabled])");
  else if (key === "p" || key === "d") {
    const slot = slotOf();
    const button = slot && hand.querySelector(`button.${key === "p" ? "play" : "discard"}[data-slot="${slot}"]`);
    if (button && !button.disabled) { event.preventDefault(); button.click(); return; }
    next = slot ? null : hand.querySelector(".my-slot button:not([disabled])");
  } else if (key === "c") next = document.querySelector("#game .clues button");
  else if (key === "n") {
    const slot = slotOf();
    if (slot) next = hand.querySelectorAll(".my-slot")[Number(slot) - 1]?.querySelector(".note-button");
  }
  if (next) { event.preventDefault(); next.focus(); }
}
let keysBound = false;

export function render(root, message, ctx) {
  const { el, t } = ctx;
  const view = message.view;
  if (!view) { root.replaceChildren(); return; }
  if (!keysBound) {
    document.addEventListener("keydown", onKey);
    // what pressed the clue button last (the click that follows does not always say)
    document.addEventListener("pointerdown", (event) => { lastPointer = event.pointerType; }, true);
    document.addEventListener("keydown", () => { lastPointer = "keyboard"; }, true);
    keysBound = true;
  }
  trackClue(message);
  if (flash.ids.size) {
    clearTimeout(flash.timer);
    flash.timer = setTimeout(() => { flash.ids = new Set(); for (const n of root.querySelectorAll(".clued-now")) n.classList.remove("clued-now"); },
      Math.max(0, flash.until - performance.now()));
  }
  const rctx = { ...ctx, rerender: () => render(root, message, ctx), newest: newestIds(view) };
  const me = message.seat;
  const order = [];
  for (let i = 1; i <= view.seats; i++) order.push(((me ?? -1) + i + view.seats) % view.seats);
  const others = me === null ? order : order.filter((s) => s !== me);
  root.replaceChildren(rainbowDefs(), el("div", { class: "hanabi-board" }, ...[
    view.over ? finalBanner(rctx, view) : null,
    el("section", { class: "card status-bar" },
      tokens(rctx, t("hanabi.clues"), view.clues, view.max_clues, "blue"),
      tokens(rctx, t("hanabi.fuses"), view.fuses, view.max_fuses, "red"),
      el("span", { class: "stat" }, `${t("hanabi.deck")}: `, el("strong", { id: "deck-count" }, view.deck)),
      el("span", { class: "stat" }, `${t("hanabi.score")}: `, el("strong", { id: "score" }, view.score), `/${view.max_score}`),
      view.final_turns_left !== null && !view.over ? el("span", { class: "stat warn final-round" }, finalRoundText(rctx, view, me)) : null),
    latestMoves(rctx, view),
    fireworks(rctx, view),
    el("div", { class: "hands-grid" }, others.map((seat) => otherHand(rctx, message, seat))),
    discards(rctx, view),
    me !== null ? myHand(rctx, message) : null].filter(Boolean)));
  if (editing.focus) {
    const target = root.querySelector(editing.focus === "note-input" ? "#hanabi-note" : `[data-focus-key="${editing.focus}"]`);
    editing.focus = null;
    if (target) target.focus();
    // a clue's confirm just shown: above your hand, which a phone pins over the page's foot
    if (target && target.dataset.focusKey === "clue-confirm") showAboveDock(target.closest(".clue-confirm"));
  }
}

function showAboveDock(node) {
  const dock = document.getElementById("my-hand");
  const box = node.getBoundingClientRect();
  const dockTop = dock ? dock.getBoundingClientRect().top : window.innerHeight;
  // (a laptop's dock sits above the other hands: it covers nothing there)
  const limit = dockTop > box.top ? Math.min(dockTop, window.innerHeight) : window.innerHeight;
  if (box.bottom > limit) window.scrollBy({ top: box.bottom - limit + 8 });
}

function slotList(ctx, slots) {
  if (!slots || !slots.length) return ctx.t("hanabi.log.no_slot");
  const last = slots[slots.length - 1];
  const list = slots.length === 1 ? String(last) : `${slots.slice(0, -1).join(", ")} ${ctx.t("hanabi.log.and")} ${last}`;
  return ctx.t(slots.length === 1 ? "hanabi.log.slot" : "hanabi.log.slots", { slots: list });
}

// One log entry (or the event of the same shape a move sends) as the log reads it; a
// number clue says "number 2" ("Ana → Beto: 2, slot 1" read as two numbers side by side).
// Exported for tests/browser/test_hanabi_log_words_browser.py.
export function entryLine(ctx, e) {
  const { t } = ctx;
  const name = (s) => ctx.seatName(s);
  const card = (c) => cardLabel(ctx, c.color, c.rank);
  if (e.type === "clue") {
    return t("hanabi.log.clue", { giver: name(e.seat), target: name(e.target),
      clue: e.color ? t("color." + e.color) : t("hanabi.log.rank", { rank: e.rank }), slots: slotList(ctx, e.slots) });
  }
  // a play or discard says which slot the card left (entries from before they did: not)
  const moved = e.slot ? t("hanabi.log.card_from_slot", { card: card(e.card), n: e.slot }) : card(e.card);
  // a 5 completes its firework, and gives a clue token back when one was spent
  if (e.type === "play" && e.success && e.card.rank === 5) {
    return t(e.clue_regained ? "hanabi.log.play_five_clue" : "hanabi.log.play_five", { seat: name(e.seat), card: moved });
  }
  if (e.type === "play") return t(e.success ? "hanabi.log.play_ok" : "hanabi.log.play_bad", { seat: name(e.seat), card: moved });
  return t("hanabi.log.discard", { seat: name(e.seat), card: moved });
}

export function logLines(message, ctx) {
  if (!message.view) return [];
  return message.view.log.map((e) => entryLine(ctx, e));
}

// a replay's list of moves: the lines a step's events make (a move's event has its log
// entry's fields; the draw that follows is not a line of the log)
export function stepLines(ctx, events) {
  return events.filter((e) => e.type === "play" || e.type === "discard" || e.type === "clue")
    .map((e) => entryLine(ctx, e));
}
