// Guessing while looking: the build being guessed, drawn large and fitted to its blocks,
// beside the answers on a laptop and above them on a phone, both in one screen. The answers
// are compact (two columns on a phone). A guesser with two builds to answer (3 players)
// answers one at a time and can switch between them.
import { svg } from "../../svg.js";
import { handDock } from "../../ui/dock.js";
import { boardSvg, frame } from "./board.js";
import { P, button, named, objectLabel, toGuess, ui, who, wrongGuesses } from "./common.js";

// "propose to my team": a speech bubble drawn here (an emoji may be missing from the font)
function bubble() {
  return svg("svg", { class: "bg-bubble", width: 22, height: 22, viewBox: "0 0 20 20", "aria-hidden": "true", focusable: "false" },
    svg("path", { d: "M3 3h14a2 2 0 0 1 2 2v7a2 2 0 0 1-2 2H9l-4 4v-4H3a2 2 0 0 1-2-2V5a2 2 0 0 1 2-2z", fill: "currentColor" }),
    svg("path", { d: "M5 7h10M5 10h7", stroke: "#fff", "stroke-width": 1.6, "stroke-linecap": "round" }));
}

export function guessBox(ctx, message) {
  const { el, t } = ctx;
  const view = message.view;
  const pending = toGuess(view, message.seat);
  if (!pending.length) return null;
  if (!pending.some((b) => b.builder === ui.guessing)) ui.guessing = pending[0].builder;
  const build = pending.find((b) => b.builder === ui.guessing);
  const several = build.guessers.length > 1;
  const title = t(`${P}.label.guess_for`, { player: ctx.seatName(build.builder) });
  const board = boardSvg(ctx, view, build, { label: title, frame: frame(view, build, { fit: true }) });
  board.id = `bg-guess-board-${build.builder}`;
  board.classList.add("bg-guess-board");
  const choices = [];
  for (let n = 1; n <= 7; n += 1) {
    if (build.wrong.includes(n)) continue;
    const name = named(view.clue.objects[n - 1]);
    choices.push(el("li", {},
      button(ctx, { type: "guess", build: build.builder, object: n }, `guess-${build.builder}-${n}`,
        [el("span", { class: "bg-n" }, String(n)), " ", name],
        { class: "bg-guess", "aria-label": t(`${P}.action.guess`, { object: `${n}. ${name}` }) }),
      several && !ctx.replay ? button(ctx, { type: "propose", build: build.builder, object: n }, `propose-${build.builder}-${n}`,
        bubble(), { class: "secondary bg-propose", "aria-label": `${t(`${P}.action.propose`)}: ${n}. ${name}`, title: t(`${P}.action.propose`) }) : null));
  }
  const proposals = build.proposals ? Object.entries(build.proposals) : [];
  const switcher = pending.length > 1 ? el("div", { class: "row bg-switch", role: "group", "aria-label": t(`${P}.label.builds_to_guess`) },
    pending.map((b) => el("button", {
      type: "button", class: `secondary${b.builder === build.builder ? " selected" : ""}`, "aria-pressed": b.builder === build.builder ? "true" : "false",
      "data-focus-key": `switch-${b.builder}`, onclick: () => { ui.guessing = b.builder; ui.render(ui.root, ui.last, ui.ctx); } },
    t(`${P}.label.board_of`, { player: ctx.seatName(b.builder) })))) : null;
  const dock = handDock(ctx, { label: title },
    el("h2", {}, title),
    switcher,
    el("div", { class: "bg-guess-grid" },
      el("div", { class: "bg-guess-stage" }, board,
        build.wrong.length ? el("p", { class: "bg-wrong muted" }, wrongGuesses(ctx, view, build)) : null),
      el("div", { class: "bg-choices" },
        several ? el("p", { class: "muted bg-agree" }, t(`${P}.label.agreement`)) : null,
        proposals.length ? el("div", { class: "bg-proposals" }, el("strong", {}, t(`${P}.label.proposals`)),
          el("ul", {}, proposals.map(([seat, n]) =>
            el("li", {}, t(`${P}.label.proposal`, { player: who(ctx, Number(seat)), object: objectLabel(view, n) }))))) : null,
        el("ol", { class: "bg-guess-list" }, choices),
        ctx.isLegal({ type: "ask_front", build: build.builder })
          ? button(ctx, { type: "ask_front", build: build.builder }, `ask-${build.builder}`, t(`${P}.action.ask_front`), { class: "secondary bg-ask" })
          : build.question ? el("p", { class: "muted" }, t(`${P}.label.asked`, { player: who(ctx, message.seat) })) : null)));
  dock.classList.add("bg-guessbox", "mine");
  return dock;
}

// The builder asked "which side is the front?": two buttons, with their own build to look at.
export function questionBox(ctx, message) {
  const { el, t } = ctx;
  const view = message.view;
  const build = view.builds.find((b) => b.builder === message.seat);
  if (view.phase !== "guess" || !build || !build.question) return null;
  // the build in the box, with the buttons: which side is its front is read off it (on a
  // phone the builds below were a long scroll away)
  const board = boardSvg(ctx, view, build, { label: t(`${P}.label.your_board`), frame: frame(view, build, { fit: true }) });
  board.id = `bg-front-board-${build.builder}`;
  const dock = handDock(ctx, { label: t(`${P}.label.question_dock`) },
    el("h2", {}, t(`${P}.label.question`)),
    el("div", { class: "bg-front-stage" }, board),
    ctx.replay ? null : el("div", { class: "row" },
      button(ctx, { type: "mark_front", side: "left" }, "front-left", `◀ ${t(`${P}.action.mark_left`)}`),
      button(ctx, { type: "mark_front", side: "right" }, "front-right", `${t(`${P}.action.mark_right`)} ▶`)));
  dock.classList.add("bg-question", "mine");
  return dock;
}
