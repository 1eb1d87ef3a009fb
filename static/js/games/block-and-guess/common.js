// What the parts of the Block and Guess page share: the catalogue prefix, the page's own
// state between renders (selection, zoom, a drag in progress), and small helpers.

import { andList } from "../../i18n.js";

export const P = "block-and-guess";

// page state between renders: the selected block, the builder's zoom, a drag in progress,
// the build being guessed (3 players: one guesser answers two builds, one at a time)
export const ui = {
  table: null, root: null, ctx: null, last: null, selected: null, drag: null,
  lastSent: 0, dragged: false, zoom: null, guessing: null, phaseKey: "", mineKey: "",
};

export const lang = () => (window.LANG === "en" ? "en" : "es");
export const named = (pair) => (pair ? pair[lang()] : "");

export function who(ctx, seat) {
  return seat === ctx.me ? `${ctx.seatName(seat)} (${ctx.t(`${P}.label.you`)})` : ctx.seatName(seat);
}

export function objectLabel(view, n) {
  const card = view.clue;
  return card ? `${n}. ${named(card.objects[n - 1])}` : String(n);
}

// "Wrong guess: 3. piano" / "Wrong guesses: 3. piano, 5. ladder"
export function wrongGuesses(ctx, view, build) {
  return ctx.t(`${P}.label.wrong_guesses`, { n: build.wrong.length, objects: build.wrong.map((n) => objectLabel(view, n)).join(", ") });
}

export function teamLabel(ctx, view, team) {
  const names = andList(view.teams[team].map((s) => ctx.seatName(s)));
  return view.solo ? names : `${ctx.t(`${P}.label.team`, { n: team + 1 })} (${names})`;
}

export function myBuild(view, me) {
  return view.builds.find((b) => b.builder === me) || null;
}

export function isBuilding(view, me) {
  const mine = myBuild(view, me);
  return !!(view.phase === "build" && mine && mine.in_play && !mine.submitted);
}

// What is wrong with a build now, as its builder's workbench says it and every other board
// repeats: while blocks wait to be placed, neither those blocks nor a block touching nothing
// yet nor colours kept apart (card 8) is a fault (the next blocks may mend them).
export function wrongNow(build) {
  const onBoard = new Set(build.placed.map((p) => p.block));
  const later = build.held.some((b) => !onBoard.has(b)) ? ["unplaced", "not_touching", "card8_colours"] : ["unplaced"];
  return build.reasons.filter((r) => !later.includes(r.code));
}

// the builds this seat must answer now
export function toGuess(view, me) {
  if (view.phase !== "guess" || me === null) return [];
  return view.builds.filter((b) => b.in_play && b.guess === null && b.guessers.includes(me));
}

// A button for an action the view may offer; disabled when it is not legal now.
// (a replay acts on nothing: there the choice is drawn as text, nothing to press)
export function button(ctx, action, key, label, attrs = {}) {
  if (ctx.replay) return ctx.el("span", { class: `${attrs.class || ""} bg-as-text`.trim() }, label);
  const legal = ctx.isLegal(action);
  return ctx.el("button", { type: "button", disabled: !legal, "data-focus-key": key, onclick: () => ctx.send(action), ...attrs }, label);
}

export const round2 = (v) => Math.round(v * 100) / 100;
export const clamp = (v, lo, hi) => Math.min(hi, Math.max(lo, v));
