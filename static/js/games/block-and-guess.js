// Block and Guess client: draws the server's view (clue card, construction card, the draft,
// every build live, guesses and results) and sends what the player does. It holds no rules
// of its own: the server checks every placement and says why a build is not valid yet (view
// reasons); to find spots the server will accept, the page runs a port of the server's
// geometry (block-and-guess/geometry.js, checked against it by the tests). Drags are relayed
// live as ephemeral updates (~10 a second) and stored only when dropped.
//   block-and-guess/bench.js   the builder's workbench (board, tray, tools, Submit)
//   block-and-guess/guess.js   the guess box (the build large, the answers compact)
//   block-and-guess/board.js   boards and blocks as SVG
import { andList } from "../i18n.js";
import { handDock } from "../ui/dock.js";
import { scoreChart } from "../ui/chart.js";
import { bench, redrawDrag } from "./block-and-guess/bench.js";
import { blockName, blockThumb, boardSvg, frame, liveFrame, showMoving } from "./block-and-guess/board.js";
import { P, button, isBuilding, myBuild, named, objectLabel, teamLabel, toGuess, ui, who, wrongGuesses, wrongNow } from "./block-and-guess/common.js";
import { guessBox, questionBox } from "./block-and-guess/guess.js";


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
    // once the game is over, only the round it ended in: the turn cue says it is over
    el("p", { class: "bg-round" }, el("strong", {}, roundText),
      view.phase !== "over" ? ` · ${t(`${P}.label.stage`, { stage: view.stage, phase: t(`${P}.phase.${view.phase}`) })}` : "",
      view.phase !== "over" ? ` · ${t(`${P}.label.first`, { player: who(ctx, view.first) })}` : ""),
    construction && view.phase !== "over" ? el("p", { class: "bg-construction" },
      el("strong", {}, `${t(`${P}.card.title`, { n: construction.card })}: `), t(`${P}.card.${construction.card}`)) : null,
    mode,
    lastRound(ctx, view),
    el("h2", {}, t(`${P}.label.scores`)),
    el("ul", { class: "bg-scores" }, view.points.map((points, team) =>
      el("li", { class: view.my_team === team ? "mine" : "" }, `${teamLabel(ctx, view, team)}: `,
        el("strong", {}, t(`${P}.label.points`, { n: points }))))));
}

// How the round before went, in the status card while the next one is in its first stage:
// its last guess starts the next round at once, and the guesser's page turns to it (to the
// draft, if they build next) without a word on whether they were right.
function lastRound(ctx, view) {
  const { el, t } = ctx;
  const last = view.results[view.results.length - 1];
  if (!last || view.phase === "over" || view.stage !== 1 || last.round !== view.round - 1) return null;
  return el("div", { class: "bg-last" }, el("h3", {}, t(`${P}.label.last_round`, { round: last.round })),
    el("ul", {}, last.builds.map((b) => el("li", {},
      `${t(`${P}.label.board_of`, { player: ctx.seatName(b.builder) })}: ${b.target}. ${named(b.name)} · `,
      el("strong", {}, t(`${P}.label.result.${b.result}`))))));
}

function clueSection(ctx, view, me) {
  const { el, t } = ctx;
  if (!view.clue || view.phase === "over") return null;
  const marks = new Map();
  const whose = new Map();
  for (const b of view.builds) {
    if (b.target === null) continue;
    const text = b.builder === me ? t(`${P}.label.your_target`) : t(`${P}.label.target_of`, { player: ctx.seatName(b.builder) });
    marks.set(b.target, [...(marks.get(b.target) || []), text]);
    whose.set(b.target, [...(whose.get(b.target) || []), b.builder]);
  }
  return el("section", { class: "card bg-clue" },
    el("h2", {}, t(`${P}.label.clue`)),
    el("ol", { class: "bg-objects" }, view.clue.objects.map((o) =>
      el("li", { class: marks.has(o.n) ? "target" : "", dataset: whose.has(o.n) ? { targetOf: whose.get(o.n).join(" ") } : {} }, named(o),
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
  // the picker is a builder, who knows what each build in play is to be (the view gives a
  // target to those who may know it): which block to give depends on it
  const targets = d.picker === me ? view.builds.filter((b) => b.in_play && b.target !== null).map((b) =>
    (b.builder === me ? t(`${P}.label.draft_you_build`, { object: objectLabel(view, b.target) })
      : t(`${P}.label.draft_builds`, { player: ctx.seatName(b.builder), object: objectLabel(view, b.target) }))) : [];
  const parts = [
    el("h2", {}, t(`${P}.label.pool`)),
    el("p", { class: "bg-prompt" }, prompt),
    targets.length ? el("p", { class: "bg-draft-targets" }, targets.join(" · ")) : null,
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

// What a build's card says under its title, one fact a line (how it went in words, with its
// points; the wrong guesses, "guess" or "guesses" as their count asks); nothing for what
// has not happened.
function buildStatus(ctx, view, build) {
  const { el, t } = ctx;
  const lines = [];
  if (build.target !== null && build.result) lines.push(t(`${P}.label.was_building`, { object: objectLabel(view, build.target) }));
  if (build.result) lines.push(t(`${P}.label.result.${build.result}`));
  else if (view.phase === "guess" && build.guess !== null) lines.push(t(`${P}.label.answered`, { object: objectLabel(view, build.guess) }));
  else if (build.submitted) lines.push(t(`${P}.label.submitted`));
  else if (view.phase === "build" && build.in_play) lines.push(t(`${P}.label.building`));
  const items = lines.map((line) => el("li", {}, line));
  if (build.wrong.length) items.push(el("li", { class: "bg-wrongs" }, wrongGuesses(ctx, view, build)));
  return items.length ? el("ul", { class: "bg-build-status" }, items) : null;
}

// Everyone's builds (the builder's own is on the workbench while they build): while being
// built, framed as the builder sees theirs (liveFrame: the same scale on every board);
// fitted to their blocks afterwards so that they read large.
function buildsSection(ctx, message) {
  const { el, t } = ctx;
  const view = message.view;
  const me = message.seat;
  const building = isBuilding(view, me);
  const order = [...view.builds].filter((b) => !(building && b.builder === me))
    .sort((a, b) => (b.builder === me) - (a.builder === me));
  if (!order.length) return null;
  return el("div", { class: "bg-builds" }, order.map((build) => {
    const title = build.builder === me ? t(`${P}.label.your_board`) : t(`${P}.label.board_of`, { player: ctx.seatName(build.builder) });
    const live = view.phase === "build" && build.in_play && !build.submitted;
    const board = boardSvg(ctx, view, build, { label: title, frame: live ? liveFrame(view, build) : frame(view, build, { fit: true }) });
    // what its builder is told is wrong now, not that blocks are still to place: that is building
    const wrong = live ? wrongNow(build) : [];
    return el("section", { class: "card bg-build", dataset: { builder: String(build.builder) } },
      el("h2", {}, title), buildStatus(ctx, view, build), board,
      wrong.length ? el("p", { class: "bg-building-note muted" }, wrong.map((r) => t(`${P}.reason.${r.code}`)).join(" · ")) : null);
  }));
}

function waitingNotes(ctx, message) {
  const { el, t } = ctx;
  const view = message.view;
  if (view.phase !== "guess") return null;
  const lines = view.builds.filter((b) => b.in_play && b.guess === null && !(message.seat !== null && b.guessers.includes(message.seat)))
    .map((b) => t(`${P}.label.waiting_guess`, { players: andList(b.guessers.map((s) => ctx.seatName(s))) })
      + (b.question ? ` · ${t(`${P}.label.asked`, { player: ctx.seatName(b.guessers[0]) })}` : ""));
  // with 3 players one guesser answers both builds: one line, not the same line twice
  const notes = [...new Set(lines)].map((line) => el("p", { class: "card bg-waiting" }, line));
  return notes.length ? el("div", {}, notes) : null;
}

function resultsSection(ctx, view) {
  const { el, t } = ctx;
  if (!view.results.length) return null;
  return el("section", { class: "card bg-results" },
    el("h2", {}, t(`${P}.label.results`)),
    el("ol", {}, view.results.map((r) => el("li", {},
      el("strong", {}, `${r.round > view.rounds ? t(`${P}.label.tiebreak`, { round: r.round }) : t(`${P}.label.round`, { round: r.round, total: view.rounds })} · ${t(`${P}.card.title`, { n: r.card })}`),
      // the build, then how it went on a line of its own
      el("ul", {}, r.builds.map((b) => el("li", {},
        el("span", {}, `${t(`${P}.label.board_of`, { player: ctx.seatName(b.builder) })}: ${b.target}. ${named(b.name)}`),
        el("span", { class: "bg-result" }, t(`${P}.label.result.${b.result}`)))))))));
}

function finalSection(ctx, message) {
  const { el, t } = ctx;
  const view = message.view;
  const top = Math.max(...view.points);
  const winners = view.points.map((p, team) => (p === top ? team : null)).filter((team) => team !== null);
  // "Winner: Cleo" alone (3 players), "Winners:" for a team or a tie: as many as the seats
  const seats = winners.reduce((n, team) => n + view.teams[team].length, 0);
  return el("section", { class: "card final bg-final", role: "status" },
    el("h2", { class: "verdict" }, t(`${P}.label.winners`, { n: seats, players: winners.map((team) => teamLabel(ctx, view, team)).join(" · ") })),
    scoreChart(ctx, { title: t(`${P}.label.chart`), names: view.points.map((_, team) => teamLabel(ctx, view, team)),
      rounds: view.results.map((r) => r.points) }));
}

// ------------------------------------------------------------------------ entry points

// The focus stays on the control it was on (the page redraws itself too: zoom, selection,
// which build to guess). After a tray block is placed its button is gone: the keyboard goes
// on to the next block, then to Submit, then to the board (where the arrow keys move the
// block just placed).
function keepKeyboardFlow(root, previousKey) {
  if (!previousKey) return;
  const again = root.querySelector(`[data-focus-key="${CSS.escape(previousKey)}"]`);
  if (again) {
    if (again !== document.activeElement) again.focus({ preventScroll: true });
    return;
  }
  if (!previousKey.startsWith("tray-")) return;
  const next = root.querySelector("#my-hand .bg-tray-block")
    || root.querySelector("#my-hand .bg-submit:not([disabled])") || root.querySelector("#my-hand .bg-board.mine");
  if (next) next.focus({ preventScroll: true });
}

export function render(root, message, ctx) {
  const view = message.view;
  if (!view) { root.replaceChildren(); return; }
  if (ui.table !== message.table.id) { ui.table = message.table.id; ui.selected = null; ui.guessing = null; ui.phaseKey = ""; }
  ui.root = root; ui.ctx = ctx; ui.last = message; ui.render = render;
  const me = message.seat;
  const mine = myBuild(view, me);
  const building = isBuilding(view, me);
  // a selection survives until the block is no longer ours to build with (it may be on its
  // way to the board: the server's answer to the drop has not arrived yet)
  if (ui.selected !== null && !(building && mine.held.includes(ui.selected))) ui.selected = null;
  const active = document.activeElement;
  const previousKey = active && root.contains(active) && active.dataset ? active.dataset.focusKey : undefined;
  const guessing = toGuess(view, me).length > 0;
  // what you must do now comes first: your pick, your workbench, your guess or your answer
  root.replaceChildren(...[
    view.phase === "over" ? finalSection(ctx, message) : null,
    view.draft && view.draft.picker === me ? draftSection(ctx, message) : null,
    building ? bench(ctx, message) : null,
    guessing ? guessBox(ctx, message) : null,
    questionBox(ctx, message),
    statusSection(ctx, message),
    guessing ? null : clueSection(ctx, view, me),
    view.draft && view.draft.picker !== me ? draftSection(ctx, message) : null,
    waitingNotes(ctx, message),
    buildsSection(ctx, message),
    guessing ? clueSection(ctx, view, me) : null,
    resultsSection(ctx, view),
    // at a live table only: a replay has no seats to fill
    ctx.replay ? null : ctx.el("p", { class: "muted bg-no-bots" }, ctx.t(`${P}.label.no_bots`)),
  ].filter(Boolean));
  keepKeyboardFlow(root, previousKey);
  redrawDrag(message);
  // a new phase of your own (building, guessing): its box is brought into view; while it
  // is in view it stays whole there as it grows (not when you have scrolled away from it)
  const phaseKey = `${view.round}-${view.stage}-${view.phase}-${building}-${guessing}`;
  const mineKey = mine ? JSON.stringify([mine.placed, mine.reasons]) : "";
  const dock = document.getElementById("my-hand");
  if (dock && (building || guessing)) {
    const box = dock.getBoundingClientRect();
    const partly = box.top >= 0 && box.top < window.innerHeight && box.bottom > window.innerHeight;
    const grew = partly && mineKey !== ui.mineKey; // after a move of yours, not someone else's
    if ((phaseKey !== ui.phaseKey || grew) && dock.scrollIntoView) dock.scrollIntoView({ block: "nearest" });
  }
  ui.phaseKey = phaseKey;
  ui.mineKey = mineKey;
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

// A builder's adjustments to their build (moving a block already on the board: a drag, an
// arrow key's nudge) fold into one line per run, "Ana adjusts their build: 5 moves (…)",
// updated in place as the run goes on (../journal.js); what changes the build's make-up
// (placing a block from the tray, removing one) and submitting keep lines of their own and
// end the run. Other builders' lines may come between; stages end with a submit.
export function logRun(event) {
  if (event.type === "moved") return { join: `adjust-${event.builder}` };
  if (event.type === "placed" || event.type === "removed" || event.type === "submitted") return { close: `adjust-${event.builder}` };
  return null;
}

export function runLine(ctx, events, message) {
  const first = events[0];
  if (events.length === 1) return eventLines(ctx, first, message)[0];
  const view = message && message.view;
  const blocks = [...new Set(events.map((e) => e.block))].map((b) => blockText(ctx, view, b));
  return ctx.t(`${P}.log.adjusted`, { player: ctx.seatName(first.builder), n: events.length, blocks: andList(blocks) });
}

// The banner for a guesser whose answer missed in the first stage, while the build goes on
// (its second draft and construction): they guess it again once it is built (RULES.md §6,
// phases 4 and 5), which nothing said; table.js words the banner otherwise ("your turn").
export function bannerText(message, ctx) {
  const view = message.view;
  const me = message.seat;
  if (!view || me === null || view.stage !== 2 || (view.phase !== "draft" && view.phase !== "build")) return null;
  const again = view.builds.filter((b) => b.in_play && b.builder !== me && b.guessers.includes(me));
  if (!again.length) return null;
  return { text: ctx.t(`${P}.label.guess_again`, { n: again.length, builders: andList(again.map((b) => ctx.seatName(b.builder))) }), mine: false };
}

// how each event reads in the log (table.js keeps the journal: ../journal.js)
export function eventLines(ctx, event, message) {
  const view = message && message.view;
  const { t } = ctx;
  const name = (s) => ctx.seatName(s);
  switch (event.type) {
    case "round_started": return [t(`${P}.log.round`, { round: event.round, builders: andList(event.builders.map(name)), card: event.card })];
    // what each builder is to build, told to the builders alone: the object in words (the
    // clue card of that round: a log drawn anew later has another card in its view)
    case "targets": return [t(`${P}.log.targets`, { targets: andList(Object.entries(event.targets).map(([s, n]) =>
      t(`${P}.log.target`, { player: name(Number(s)), object: event.names ? `${n}. ${named(event.names[s])}` : String(n) }))) })];
    case "drafted": return [event.to === event.seat
      ? t(`${P}.log.kept`, { player: name(event.seat), block: blockText(ctx, view, event.block) })
      : t(`${P}.log.drafted`, { player: name(event.seat), block: blockText(ctx, view, event.block), to: name(event.to) })];
    case "placed": case "moved": case "removed":
      return [t(`${P}.log.${event.type}`, { player: name(event.builder), block: blockText(ctx, view, event.block) })];
    case "submitted": return [t(`${P}.log.submitted`, { player: name(event.builder) })];
    case "building": return [t(`${P}.log.building`, { stage: event.stage })];
    case "guessing": return [t(`${P}.log.guessing`, { stage: event.stage })];
    case "proposed": return [t(`${P}.log.proposed`, { player: name(event.seat), object: named(event.name) })];
    case "guessed": return [t(`${P}.log.answered`, { player: name(event.seat), builder: name(event.build), object: named(event.name) })];
    case "judged": return [t(event.right ? `${P}.log.guessed_right` : `${P}.log.guessed_wrong`, {
      player: name(event.seat), builder: name(event.build), object: named(event.name), points: event.points })];
    case "revealed": return [t(`${P}.log.revealed`, { builder: name(event.build), object: `${event.target}. ${named(event.name)}` })];
    case "asked_front": return [t(`${P}.log.asked`, { player: name(event.seat), builder: name(event.build) })];
    case "marked_front": return [t(`${P}.log.marked`, { player: name(event.builder), side: t(`${P}.side.${event.side}`) })];
    case "second_stage": return [t(`${P}.log.second`, { builders: andList(event.builds.map(name)) })];
    case "round_scored": return [t(`${P}.log.scored`, { round: event.round })];
    case "game_over": return [t(`${P}.log.over`)];
    default: return [];
  }
}
