// The replay page (/matches/{id}): a finished game step by step, drawn by the game's own
// renderer (static/js/games/<game>.js) from the view the server computes for each step by
// replaying the log; from any seat's point of view, as a spectator, or with everything
// revealed. Buttons, keys (← → Home End), a slider and a clickable list of moves, which is
// also the game's log: under each move, every other line it made (a table's log would repeat
// the list line for line, so the replay has no log of its own).
import { api } from "./api.js";
import { el, t } from "./i18n.js";
import { endedEarly } from "./life-log.js";
import { outcomeText } from "./match-result.js";
import { optionField, optionsToSend, showFields } from "./settings.js";

const app = document.getElementById("replay-app");
const matchId = app.dataset.match;
const game = app.dataset.game;
const match = JSON.parse(document.getElementById("replay-data").textContent);
const $ = (id) => document.getElementById(id);

let renderer = null;
let genericRenderer = false; // a game with no client of its own: its lines are raw events
let point = "spectator";
let replay = null; // {steps, chat, outcome} for the current point of view
let step = 0;
let loading = 0; // the newest request, so a slow answer never overwrites a newer step
const views = new Map(); // `${point}:${step}` -> view

const names = new Map(match.seats.map((s) => [s.seat, s.player.name]));
const seatName = (seat) => names.get(seat) || t("table.seat", { n: seat + 1 });
const numericPoint = () => (point === "spectator" || point === "all" ? null : Number(point));

// The seats of whoever is looking at the page (none when nobody, or somebody who did not
// play): a game speaks to the seat whose view it draws, "(tú)", "Tu mano", "Pasas tu mano
// a…", true at a table, but a replay seen as Ana is seen by anyone. There the mark says it is
// the point of view and the words speak of Ana by name, in the third person ("Mano de Ana",
// "Ana pasa su mano a…"), unless the viewer is that player. Keys a game speaks to its seat
// with, and how each reads of the seat: a key of the game's own (`<game>.seen.…`) or a third
// person one it already has, given the seat's name (a guard test finds every catalogue value
// "tú"/"(tú)" in this list; tests/browser/test_replay_viewpoint_browser.py reads each game's
// replay both ways).
const viewer = app.dataset.viewer || "";
// a private match opened by its link (?key=): every call of the page carries the key
const linkKey = app.dataset.key ? `&key=${encodeURIComponent(app.dataset.key)}` : "";
const viewerSeats = new Set(match.seats.filter((s) => viewer && s.player && s.player.id === viewer).map((s) => s.seat));
// `key` with the seat of the point of view as `param` (most keys' {player})
const named = (key, param = "player") => (params) => t(key, { ...params, [param]: seatName(numericPoint()) });
const SEEN_AS = {
  "table.you": () => t("replay.seen_mark"),
  "ikebana.label.you": () => t("replay.seen_word"),
  "block-and-guess.label.you": () => t("replay.seen_word"),
  "allegra.you": () => t("replay.seen_word"),
  "alebrijes.you_name": (params) => t("replay.seen_name", params),
  "ajolocracia.log.picked_own": named("replay.seen_picked"),
  "hanabi.your_hand": named("hanabi.seen.hand"),
  "hanabi.your_hand_shown": named("hanabi.seen.hand_shown"),
  "hanabi.final_round_yours": named("hanabi.seen.final_round_yours"),
  "hanabi.final_round_done": named("hanabi.seen.final_round_done"),
  "ikebana.turn.yours": named("ikebana.turn.other"),
  "ikebana.phase.choose": named("ikebana.seen.phase.choose"),
  "ikebana.phase.consider": named("ikebana.seen.phase.consider"),
  "ikebana.label.reject_unaffordable": named("ikebana.seen.reject_unaffordable"),
  "ajolocracia.your_hand": named("ajolocracia.seen.hand"),
  "ajolocracia.your_tableau": named("ajolocracia.tableau_of"),
  "ajolocracia.your_pick": named("ajolocracia.seen.pick"),
  "ajolocracia.pick_tag": named("ajolocracia.seen.pick_tag"),
  "ajolocracia.pass_to": named("ajolocracia.seen.pass_to"),
  "ajolocracia.tap_to_pick": named("ajolocracia.seen.to_pick"),
  "ajolocracia.waiting_reveal": named("ajolocracia.seen.waiting_reveal"),
  "alebrijes.dock": named("alebrijes.seen.dock"),
  "alebrijes.label.hand": named("alebrijes.seen.hand"), // and its "_one" form, by n
  "alebrijes.prompt.exchange": named("alebrijes.seen.prompt.exchange"),
  "alebrijes.prompt.ollin_one": named("alebrijes.seen.prompt.ollin_one"),
  "alebrijes.prompt.ollin_two": named("alebrijes.seen.prompt.ollin_two"),
  "alebrijes.prompt.ollin_two_empty": named("alebrijes.seen.prompt.ollin_two_empty"),
  "alebrijes.prompt.lead": named("alebrijes.seen.prompt.lead"),
  "alebrijes.prompt.beat": named("alebrijes.seen.prompt.beat"),
  "alebrijes.prompt.beat_with": named("alebrijes.seen.prompt.beat_with"),
  "allegra.dock": named("allegra.seen.dock"),
  "allegra.knock.drawer": named("allegra.knock.others"),
  "allegra.knock.knocked": named("allegra.seen.knocked", "name"),
  "allegra.knock.passed": named("allegra.seen.passed", "name"),
  "allegra.wait.knock_take_mine": named("allegra.wait.knock_take", "knocker"),
  "block-and-guess.label.your_board": named("block-and-guess.label.board_of"),
  "block-and-guess.label.you_build": named("block-and-guess.label.draft_builds"),
  "block-and-guess.label.draft_you_build": named("block-and-guess.label.draft_builds"),
  "block-and-guess.label.draft_you_keep": named("block-and-guess.seen.draft_keep"),
  "block-and-guess.label.draft_you_give": (params) => named("block-and-guess.label.draft_other")({ ...params, to: params.player }),
  "block-and-guess.label.your_target": named("block-and-guess.label.target_of"),
  "block-and-guess.label.tray": named("block-and-guess.seen.tray"),
  "block-and-guess.label.valid": named("block-and-guess.seen.valid"),
  "block-and-guess.label.mode.half": named("block-and-guess.seen.mode.half"),
  "block-and-guess.label.mode.hidden": named("block-and-guess.seen.mode.hidden"),
  "block-and-guess.label.question": named("block-and-guess.seen.question"),
  "block-and-guess.label.question_dock": named("block-and-guess.seen.question_dock"),
  "block-and-guess.label.guess_for": named("block-and-guess.seen.guess_for", "name"),
  "block-and-guess.label.agreement": named("block-and-guess.seen.agreement"),
};
const seenAsOther = () => numericPoint() !== null && !viewerSeats.has(numericPoint());
const tReplay = (key, params) => (key in SEEN_AS && seenAsOther() ? SEEN_AS[key](params || {}) : t(key, params));

const ctx = {
  t: tReplay, el, seatName, replay: true,
  get me() { return numericPoint(); },
  send() {}, isLegal: () => false, sendEphemeral: () => false, windowRemaining: () => null,
};

function showError(error) {
  $("error").textContent = t("error.generic", { message: error.message || String(error) });
}

function actionLabel(entry) {
  const type = entry.action && entry.action.type;
  const key = `replay.action.${type}`;
  const what = window.I18N[key] ? t(key) : String(type);
  const who = entry.seat >= 0 ? seatName(entry.seat) : t("replay.platform");
  return t("replay.step_line", { n: entry.step, name: who, action: what });
}

// the log's lines for ``events`` (a game's stepLines, else its eventLines)
function linesOf(events, shown) {
  if (renderer && renderer.stepLines) return renderer.stepLines(ctx, events);
  if (renderer && renderer.eventLines && !genericRenderer) return events.flatMap((event) => renderer.eventLines(ctx, event, shown));
  return [];
}

// a step in the list of moves: the first line the log makes of it, as this point of view
// may know it (a game's stepLines, else its eventLines), then the step's other lines, each
// on a line of its own under it (a round's scores, the end of the game); the action's name
// when the game's log says nothing of it. ``shown``: a state of the game (what a game's
// lines name from its view, e.g. Block and Guess's block types). ``then``: of those other
// lines, what the move set off that reads "Luego, …" (a game's stepThen, from the same
// events: Ikebana's draw after a rejection)
function stepLabel(entry, shown) {
  const events = entry.events || [];
  const lines = linesOf(events, shown);
  const then = renderer && renderer.stepThen && !genericRenderer ? renderer.stepThen(ctx, events) : [];
  if (!lines.length) return { text: actionLabel(entry), more: then.map((line) => ({ line, then: true })) };
  const more = lines.slice(1).map((line) => ({ line, then: then.includes(line) }));
  for (const line of then) if (!lines.includes(line)) more.push({ line, then: true });
  return { text: t("replay.step_text", { n: entry.step, text: lines[0] }), more };
}

// the log up to step ``upTo``: what it opened with at the deal (round 1's start), then each step
function history(upTo) {
  const opening = replay.opening && replay.opening.length ? [{ version: 0, events: replay.opening, source: "start", by: null }] : [];
  return [...opening, ...replay.steps.slice(0, upTo).map((s) => ({ version: s.version, events: s.events, source: s.source, by: s.seat }))];
}

function message(view) {
  const last = replay.steps.length;
  const finished = step === last;
  const version = step > 0 ? replay.steps[step - 1].version : (replay.steps.length ? replay.steps[0].version - 1 : 1);
  return {
    type: "state", version,
    table: {
      id: `replay-${matchId}-${point}`, game, status: finished ? "finished" : "playing",
      seat_count: match.seats.length, options: match.options, version,
      host: { id: "", name: "" },
      seats: match.seats.map((s) => ({ seat: s.seat, connected: true, player: s.player })),
      outcome: finished ? replay.outcome : null,
    },
    seat: numericPoint(), view, legal_actions: [], to_act: [], waiting_for: [], events: [],
    deadlines: {}, clock: null, window: null, chat_allowed: false, history: history(step),
  };
}

async function viewAt(n) {
  const key = `${point}:${n}`;
  if (!views.has(key)) {
    const data = await api("GET", `/api/matches/${matchId}/views/${n}?seat=${encodeURIComponent(point)}${linkKey}`);
    views.set(key, data.view);
  }
  return views.get(key);
}

function revealedPanel(view) {
  const box = $("revealed");
  const revealed = view && view.revealed;
  box.hidden = !revealed;
  if (!revealed) return;
  const label = (card) => {
    if (card.kind && renderer.kindName) return renderer.kindName(t, card.kind);
    if (renderer.cardName) return renderer.cardName(ctx, card);
    const { id, ...rest } = card;
    return JSON.stringify(rest);
  };
  const parts = [];
  for (const [key, perSeat] of Object.entries(revealed)) {
    parts.push(el("h3", {}, window.I18N[`replay.revealed.${key}`] ? t(`replay.revealed.${key}`) : key));
    parts.push(el("ul", { class: "revealed-hands" }, perSeat.map((cards, seat) =>
      el("li", { dataset: { seat } }, el("strong", {}, `${seatName(seat)}: `), cards.length ? cards.map(label).join(", ") : "—"))));
  }
  $("revealed-body").replaceChildren(...parts);
}

function renderControls() {
  const last = replay.steps.length;
  $("replay-step").textContent = t("replay.step_of", { n: step, total: last });
  const slider = $("replay-slider");
  slider.max = String(last);
  slider.value = String(step);
  slider.setAttribute("aria-valuetext", t("replay.step_of", { n: step, total: last }));
  $("replay-first").disabled = $("replay-prev").disabled = step === 0;
  $("replay-next").disabled = $("replay-last").disabled = step === last;
  renderBranch();
  for (const button of document.querySelectorAll("#replay-actions button")) {
    const current = Number(button.dataset.step) === step;
    if (current) button.setAttribute("aria-current", "step"); else button.removeAttribute("aria-current");
  }
  // the current move in view inside the list, without scrolling the page away from the board
  const list = $("replay-actions");
  const currentItem = list.querySelector(`button[data-step="${step}"]`);
  if (currentItem) list.scrollTop = Math.max(0, currentItem.offsetTop - list.clientHeight / 2);
}

// "play on from here": a new table in the position of the step shown (the server re-deals
// what nobody could know then); at the last step the game is over, nothing to play on
function renderBranch() {
  const over = step === replay.steps.length && !(replay.outcome && replay.outcome.details && replay.outcome.details.end);
  for (const id of ["branch-play", "branch-sandbox"]) if ($(id)) $(id).disabled = over;
  if ($("branch-over")) $("branch-over").hidden = !over;
}

// the new table's own settings (clock, bot pace, spectators...), prefilled with the match's
const branchForm = $("branch-form");
const branchData = $("branch-data") ? JSON.parse($("branch-data").textContent) : { options: [], values: {} };
if (branchForm) {
  $("branch-options").replaceChildren(...branchData.options.map((option) =>
    optionField(option, option.name in branchData.values ? branchData.values[option.name] : option.default)));
  showFields(branchForm, branchData.options);
  branchForm.addEventListener("change", () => showFields(branchForm, branchData.options));
  branchForm.addEventListener("submit", (event) => event.preventDefault());
}

async function branchHere(sandbox) {
  const body = { step, sandbox };
  if (!sandbox && numericPoint() !== null) body.seat = numericPoint();
  if (branchForm) {
    body.options = optionsToSend(branchForm, branchData.options);
    body.private = branchForm.elements.private.checked;
  }
  try {
    const table = await api("POST", `/api/matches/${matchId}/branch${linkKey.replace("&", "?")}`, body);
    location.href = `/tables/${table.id}`;
  } catch (error) {
    const key = `error.${error.code}`;
    if (window.I18N && window.I18N[key]) $("error").textContent = t(key);
    else showError(error);
  }
}

async function go(n) {
  if (!replay) return;
  step = Math.max(0, Math.min(replay.steps.length, n));
  const asked = ++loading;
  renderControls();
  try {
    const view = await viewAt(step);
    if (asked !== loading) return;
    const msg = message(view);
    renderer.render($("game"), msg, ctx);
    $("game").dataset.step = String(step);
    revealedPanel(view);
    $("error").textContent = "";
    if (step < replay.steps.length) viewAt(step + 1).catch(() => {}); // the next step, ahead
  } catch (error) { showError(error); }
}

function renderActions(shown) {
  // the deal, with the lines the log opened with under it
  const opening = linesOf(replay.opening || [], shown);
  const start = el("li", {}, el("button", { type: "button", dataset: { step: 0 }, onclick: () => go(0) },
    el("span", { class: "replay-move" }, t("replay.setup")), opening.map((line) => el("span", { class: "replay-more" }, line))));
  $("replay-actions").replaceChildren(start, ...replay.steps.map((entry) => {
    const label = stepLabel(entry, shown);
    return el("li", {}, el("button", { type: "button", dataset: { step: entry.step }, onclick: () => go(entry.step) },
      el("span", { class: "replay-move" }, label.text),
      entry.source !== "player" ? el("span", { class: "replay-auto" }, t(`replay.source.${entry.source}`)) : null,
      label.more.map((m) => (m.then ? el("span", { class: "replay-then" }, t("replay.step_then", { text: m.line }))
        : el("span", { class: "replay-more" }, m.line)))));
  }));
}

function renderChat() {
  $("chat").replaceChildren(...replay.chat.map((line) => {
    if (line.kind === "system") {
      const params = { ...(line.params || {}) };
      if (params.proposal) params.proposal = t(`vote.proposal.${params.proposal}`);
      if (params.reason) params.reason = t(`life.reason.${params.reason}`);
      return el("li", { class: "chat-system" }, t(`chat.system.${line.code}`, params));
    }
    const who = line.kind === "spectator" ? `${line.name} (${t("life.spectator")})` : line.name;
    return el("li", {}, el("strong", {}, `${who}: `), line.text);
  }));
}

function renderResult() {
  const outcome = replay.outcome || {};
  $("replay-result").textContent = endedEarly(outcome, seatName) || outcomeText(outcome, seatName);
}

// the replay as ``point`` sees it, at the step the page is on when it arrives (a step chosen
// while it loads is kept); an answer for a point chosen before the last one is dropped
let loads = 0;
async function load() {
  const asked = ++loads;
  let data;
  try {
    data = await api("GET", `/api/matches/${matchId}/replay?seat=${encodeURIComponent(point)}${linkKey}`);
  } catch (error) { if (asked === loads) showError(error); return; }
  if (asked !== loads) return;
  replay = data;
  let shown = null; // the view of the step on show, for the names the list's lines use
  try { shown = { view: await viewAt(Math.min(step, data.steps.length)) }; } catch (error) { /* go() says why */ }
  if (asked !== loads) return;
  renderActions(shown);
  $("replay-actions").dataset.point = point;
  renderChat();
  renderResult();
  await go(step);
}

try { renderer = await import(`./games/${game}.js`); }
catch (error) { renderer = await import("./games/generic.js"); genericRenderer = true; }

if ($("branch-play")) {
  $("branch-play").addEventListener("click", () => branchHere(false));
  $("branch-sandbox").addEventListener("click", () => branchHere(true));
}
$("replay-seat").addEventListener("change", (event) => { point = event.target.value; load(); });
$("replay-first").addEventListener("click", () => go(0));
$("replay-prev").addEventListener("click", () => go(step - 1));
$("replay-next").addEventListener("click", () => go(step + 1));
$("replay-last").addEventListener("click", () => go(replay ? replay.steps.length : 0));
$("replay-slider").addEventListener("input", (event) => go(Number(event.target.value)));
document.addEventListener("keydown", (event) => {
  const target = event.target;
  if (target && (target.tagName === "INPUT" || target.tagName === "SELECT" || target.tagName === "TEXTAREA")) return;
  if (event.altKey || event.ctrlKey || event.metaKey) return;
  const moves = { ArrowLeft: step - 1, ArrowRight: step + 1, Home: 0, End: replay ? replay.steps.length : 0 };
  if (event.key in moves) { event.preventDefault(); go(moves[event.key]); }
});
// /matches/<id>?step=N opens at that step (a branch's page links to where it came from)
const asked = Number(new URLSearchParams(location.search).get("step"));
if (Number.isInteger(asked) && asked > 0) step = asked;
await load();
