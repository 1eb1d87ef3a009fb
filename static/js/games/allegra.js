// Allegra client: draws the server's view (every player's 3×4 grid in a strip where each
// shared column sits between the two neighbours who play it, the deck, the discard pile, the
// drawn card shown to all, the knock window, round scores) and offers exactly what
// legal_actions lists. It holds no rules: display positions and their slots come from the
// view; a click is turned into one of the listed actions or nothing.
import { handDock, redrawKeepingFocus } from "../ui/dock.js";
import { allegraBack, allegraFace } from "../ui/faces/allegra.js";
import { scoreChart } from "../ui/chart.js";
import { andList } from "../i18n.js";

// choices made on the page before an action is complete (the mode of step 2, step b's pick)
const local = { table: null, version: -1, mode: "keep", take: null, scroll: null, shown: null };
let ticking = null;

// card faces (../ui/faces/allegra.js): a band by value, each with its picture and symbol
function face(ctx, value, label, cls = "") {
  return allegraFace({ value, label, className: cls });
}

function back(ctx, label, cls = "") {
  return allegraBack({ label, className: cls });
}

const who = (ctx, seat) => ctx.seatName(seat);

function sameSlot(a, b) { return a[0] === b[0] && a[1] === b[1]; }

// the display position of a physical slot in a seat's display, or -1
function posIn(view, seat, slot) {
  return view.players[seat].display.findIndex((s) => sameSlot(s, slot));
}

function legalOf(message, type) { return message.legal_actions.filter((a) => a.type === type); }

// ------------------------------------------------------------------------ what a click does

// The action a click on slot (owner, index) sends now, if any: found among legal_actions.
function clickAction(message, slot) {
  const view = message.view;
  const me = message.seat;
  if (me === null || me === undefined) return null;
  const find = (type, seat, field = "pos", extra = {}) => {
    const pos = posIn(view, seat, slot);
    if (pos < 0) return null;
    return message.legal_actions.find((a) => a.type === type && a[field] === pos
      && Object.entries(extra).every(([k, v]) => a[k] === v)) || null;
  };
  switch (view.phase) {
    case "reveal": return find("reveal", me);
    case "place": return find(local.mode === "flip" ? "flip" : "keep", me);
    case "knock_place": return find("place", me);
    case "knock_take": {
      const knocker = view.knock && view.knock.accepted;
      if (knocker === null || knocker === undefined) return null;
      if (local.take === null) {
        const pos = posIn(view, knocker, slot);
        return message.legal_actions.some((a) => a.type === "exchange" && a.take === pos) ? { pick: pos } : null;
      }
      return find("exchange", me, "give", { take: local.take });
    }
    default: return null;
  }
}

// ------------------------------------------------------------------------ the strip of grids

function cellNode(ctx, message, owner, index, extra) {
  const { el, t } = ctx;
  const view = message.view;
  const cell = view.players[owner].grid[index];
  const row = Math.floor(index / 4) + 1;
  const col = (index % 4) + 1;
  const where = t("allegra.cell.where", { player: who(ctx, owner), row, col });
  const slot = [owner, index];
  const lines = view.lines.flat().map((p) => view.clearer !== null ? view.players[view.clearer].display[p] : null);
  const inLine = lines.some((s) => s && sameSlot(s, slot));
  let node;
  let label;
  if (cell === null) {
    label = t("allegra.cell.cleared", { where });
    node = el("span", { class: "al-gap", "aria-hidden": "true" });
  } else if (!cell.up) {
    label = t("allegra.cell.down", { where });
    node = back(ctx, label);
  } else {
    label = t("allegra.cell.up", { where, value: cell.value });
    node = face(ctx, cell.value, label);
  }
  const classes = ["al-cell", extra.cls, inLine ? "in-line" : ""];
  if (local.take !== null && view.knock && view.knock.accepted !== null
      && sameSlot(view.players[view.knock.accepted].display[local.take] || [-1, -1], slot)) classes.push("picked");
  const action = clickAction(message, slot);
  if (action) {
    // the repeated column at the strip's start is tappable too (it is the same card as the
    // one at the far end, where a phone's screen rarely is), but out of the tab order and
    // hidden from screen readers, who meet the card once
    return el("button", {
      class: classes.concat("al-target").join(" "), "aria-label": label, title: label,
      tabindex: extra.ghost ? "-1" : null,
      dataset: { focusKey: `${extra.ghost ? "ghost" : "cell"}-${owner}-${index}`, owner, slot: index },
      onclick: () => {
        if (action.pick !== undefined) { local.take = action.pick; ctx.rerender(); return; }
        local.take = null;
        ctx.send(action);
      },
    }, node);
  }
  return el("span", { class: classes.join(" "), dataset: { owner, slot: index } }, cell === null ? el("span", { class: "visually-hidden" }, label) : null, node);
}

function columnNode(ctx, message, owner, col, cls, ghost = false) {
  const { el } = ctx;
  const cells = [0, 1, 2].map((row) => cellNode(ctx, message, owner, row * 4 + col, { cls: "", ghost }));
  // the repeated column is faded unless a card of it may be tapped now ("live")
  const live = ghost && cells.some((node) => node.tagName === "BUTTON");
  return el("div", { class: `al-col ${cls}${live ? " live" : ""}`, "aria-hidden": ghost ? "true" : null }, cells);
}

function playerBlock(ctx, message, seat) {
  const { el, t } = ctx;
  const view = message.view;
  const p = view.players[seat];
  const n = view.seats;
  const me = message.seat;
  const acting = message.to_act.includes(seat);
  const right = (seat - 1 + n) % n; // whose display also holds this player's right column
  const mineDisplay = me !== null && me !== undefined;
  const cls = (col) => {
    const parts = [];
    if (mineDisplay && (seat === me || (seat === (me + 1) % n && col === 3))) parts.push("my-display");
    if (col === 3) parts.push("shared");
    return parts.join(" ");
  };
  return el("section", { class: `al-player${acting ? " acting" : ""}${seat === me ? " mine" : ""}`, dataset: { seat },
    "aria-label": t("allegra.player.grid", { player: who(ctx, seat) }) },
    // two lines of one height in every seat, so that the grids (and the shared columns
    // between them) stay level: the name (cut with an ellipsis, whole in its title) and
    // the points, then the badges
    el("header", { class: "al-player-head" },
      el("div", { class: "al-head-line" },
        el("strong", { class: "al-name", title: who(ctx, seat) }, who(ctx, seat)),
        el("span", { class: "muted al-head-total" }, t("allegra.player.total", { n: p.total }))),
      el("div", { class: "al-head-badges" },
        seat === me ? el("span", { class: "badge" }, t("allegra.you")) : null,
        view.trigger === seat ? el("span", { class: "badge warn" }, t("allegra.player.ended")) : null,
        p.done && view.trigger !== seat ? el("span", { class: "badge" }, t("allegra.player.done")) : null)),
    el("div", { class: "al-grid" }, [0, 1, 2, 3].map((col) => columnNode(ctx, message, seat, col, cls(col)))),
    el("p", { class: "al-shared-note muted" }, t("allegra.player.shares", { player: who(ctx, right) })));
}

function strip(ctx, message) {
  const { el, t } = ctx;
  const view = message.view;
  const n = view.seats;
  const me = message.seat ?? 0;
  // left to right: each grid's right column touches the next grid's left column, so seat
  // s's display of 15 is [s + 1's right column][s's own 12]; start with my left neighbour
  const order = [];
  for (let i = 0; i < n; i++) order.push((me + 1 - i + 2 * n) % n);
  const wrap = order[order.length - 1]; // its right column belongs to the first grid's owner's display
  return el("div", { class: "al-table", role: "group", tabindex: "0", "aria-label": t("allegra.table") },
    el("div", { class: "al-strip" },
      el("div", { class: "al-ghost", title: t("allegra.ghost", { player: who(ctx, wrap) }) },
        // a head of the players' height, so that this column is level with the grids
        el("div", { class: "al-player-head" }, el("span", { class: "al-ghost-name muted", "aria-hidden": "true" }, who(ctx, wrap))),
        columnNode(ctx, message, wrap, 3, "shared", true)),
      order.map((seat) => playerBlock(ctx, message, seat))));
}

// ------------------------------------------------------------------------ piles and the turn

function piles(ctx, message) {
  const { el, t } = ctx;
  const view = message.view;
  const take = message.legal_actions.find((a) => a.type === "take_discard");
  const draw = message.legal_actions.find((a) => a.type === "draw");
  const top = view.discard.top;
  const discardCard = top === null ? el("span", { class: "al-gap big" }) : face(ctx, top, t("allegra.discard_top", { value: top }), "big");
  const parts = [
    el("figure", { class: "al-pile" }, back(ctx, t("allegra.deck", { n: view.deck }), "big"),
      el("figcaption", { id: "al-deck" }, t("allegra.deck", { n: view.deck }))),
    el("figure", { class: "al-pile" }, discardCard, el("figcaption", {}, t("allegra.discard", { n: view.discard.size }))),
  ];
  if (view.hand !== null) {
    parts.push(el("figure", { class: "al-pile al-hand", id: "al-hand" }, face(ctx, view.hand, t("allegra.drawn", { player: who(ctx, view.current), value: view.hand }), "big"),
      el("figcaption", {}, t(view.source === "deck" ? "allegra.drawn_deck" : "allegra.drawn_discard", { player: who(ctx, view.current) }))));
  }
  if (view.outgoing !== null) {
    parts.push(el("figure", { class: "al-pile" }, face(ctx, view.outgoing, t("allegra.outgoing", { value: view.outgoing }), "big"),
      el("figcaption", {}, t("allegra.outgoing_caption"))));
  }
  if (view.knock && view.knock.held !== null) {
    parts.push(el("figure", { class: "al-pile" }, face(ctx, view.knock.held, t("allegra.held", { player: who(ctx, view.knock.accepted), value: view.knock.held }), "big"),
      el("figcaption", {}, t("allegra.held_caption", { player: who(ctx, view.knock.accepted) }))));
  } else if (view.knock && view.knock.holding) {
    // the knocker's card in hand: only the knocker knows it until it lies face up
    parts.push(el("figure", { class: "al-pile" }, back(ctx, t("allegra.held_hidden", { player: who(ctx, view.knock.accepted) }), "big"),
      el("figcaption", {}, t("allegra.held_caption", { player: who(ctx, view.knock.accepted) }))));
  }
  const buttons = [];
  if (draw) buttons.push(el("button", { dataset: { action: "draw", focusKey: "draw" }, onclick: () => ctx.send(draw) }, t("allegra.action.draw")));
  if (take) buttons.push(el("button", { class: "secondary", dataset: { action: "take_discard", focusKey: "take_discard" }, onclick: () => ctx.send(take) }, t("allegra.action.take_discard", { value: top })));
  return { parts: el("div", { class: "al-piles" }, parts), buttons };
}

function prompt(ctx, message) {
  const { t } = ctx;
  const view = message.view;
  const me = message.seat;
  const mine = message.to_act.includes(me);
  if (view.phase === "over") return t("allegra.phase.over");
  if (view.phase === "reveal") return mine ? t("allegra.prompt.reveal", { n: 2 - view.players[me].reveals }) : t("allegra.phase.reveal");
  if (view.phase === "knock") return knockPrompt(ctx, message);
  if (!mine && view.phase === "knock_take" && view.knock && view.knock.accepted === me && me !== null) {
    // the knocker waits to learn where the card in hand will go
    return t("allegra.wait.knock_take_mine", { player: who(ctx, view.current) });
  }
  if (!mine) {
    const acting = message.to_act.length ? message.to_act[0] : view.current;
    return t(`allegra.wait.${view.phase}`, { player: who(ctx, acting), knocker: view.knock && view.knock.accepted !== null ? who(ctx, view.knock.accepted) : "" });
  }
  if (view.phase === "knock_take") return local.take === null ? t("allegra.prompt.knock_take", { player: who(ctx, view.knock.accepted) }) : t("allegra.prompt.knock_give");
  if (view.phase === "place") return t(local.mode === "flip" ? "allegra.prompt.flip" : "allegra.prompt.keep", { value: view.hand });
  if (view.phase === "accept" && view.knock && view.knock.knocked.length) {
    // "n" picks the one-knocker wording ("give it to them"), never shown as a number
    const knockers = view.knock.knocked;
    return t("allegra.prompt.accept_who", { players: andList(knockers.map((s) => who(ctx, s))), value: view.hand, n: knockers.length });
  }
  return t(`allegra.prompt.${view.phase}`, { value: view.hand });
}

// What a knock means, under the prompt, for a player who has never played: the seat that
// may knock learns what it gives for the card, the seat that drew what it gets.
function hint(ctx, message) {
  const view = message.view;
  const me = message.seat;
  if (me === null || me === undefined || !message.to_act.includes(me)) return null;
  if (view.phase === "knock" && legalOf(message, "knock").length) return ctx.t("allegra.hint.knock", { player: who(ctx, view.current) });
  if (view.phase === "accept" && legalOf(message, "accept").length) return ctx.t("allegra.hint.accept");
  return null;
}

// The knock window, worded for each reader: a seat that may knock is asked a question
// against a timer; the seat that drew waits for answers; everyone else (spectators too)
// is told who may knock. Each line shows the seconds left.
function knockWording(ctx, message) {
  const { t } = ctx;
  const view = message.view;
  const me = message.seat;
  const params = { player: who(ctx, view.current), value: view.hand };
  if (me !== null && message.to_act.includes(me)) return { key: "allegra.knock.ask", params, mine: true };
  if (me !== null && me === view.current) return { key: "allegra.knock.drawer", params, mine: false };
  if (me !== null && view.knock && (view.knock.knocked.includes(me) || view.knock.passed.includes(me))) {
    return { key: view.knock.knocked.includes(me) ? "allegra.knock.knocked" : "allegra.knock.passed", params, mine: false };
  }
  return { key: "allegra.knock.others", params, mine: false };
}

function knockPrompt(ctx, message) {
  const { el, t } = ctx;
  const wording = knockWording(ctx, message);
  return [t(wording.key, wording.params), " ",
    el("span", { class: "al-countdown al-window", id: "al-countdown", "aria-hidden": "true" }, countdownText(ctx))];
}

// table.js words the banner with this while the knock window is open (never "Your turn!":
// it is nobody's turn); null leaves the banner to the table (spectators: "You are watching").
export function bannerText(message, ctx) {
  const view = message.view;
  if (!view || view.phase !== "knock" || message.seat === null) return null;
  const wording = knockWording(ctx, message);
  return { text: ctx.t(`${wording.key}_banner`, wording.params), mine: wording.mine };
}

function lineName(ctx, view, line) {
  const { t } = ctx;
  const slot = view.players[view.clearer].display[line[0]];
  const value = view.players[slot[0]].grid[slot[1]].value;
  const isColumn = line[1] - line[0] === 5;
  if (!isColumn) return t("allegra.action.clear_row", { value, row: Math.floor(line[0] / 5) + 1 });
  // a column lies wholly in one grid: named by its owner and its place there, as each
  // card's label does ("Beto, row 1, column 4"), not by its place in the display of 15
  const col = (slot[1] % 4) + 1;
  return slot[0] === view.clearer ? t("allegra.action.clear_column", { value, col })
    : t("allegra.action.clear_column_of", { value, col, player: who(ctx, slot[0]) });
}

function actionPanel(ctx, message) {
  const { el, t } = ctx;
  const view = message.view;
  const buttons = [];
  for (const action of message.legal_actions) {
    const send = () => { local.take = null; ctx.send(action); };
    if (action.type === "knock") {
      buttons.push(el("button", { class: "al-knock", dataset: { action: "knock", focusKey: "knock" }, onclick: send },
        t("allegra.action.knock"), " ", el("span", { class: "al-countdown", "aria-hidden": "true" }, countdownText(ctx))));
    } else if (action.type === "no_knock") {
      buttons.push(el("button", { class: "secondary", dataset: { action: "no_knock", focusKey: "no_knock" }, onclick: send }, t("allegra.action.no_knock")));
    } else if (action.type === "accept") {
      buttons.push(el("button", { class: "al-accept", dataset: { action: "accept", knocker: action.knocker, focusKey: `accept-${action.knocker}` }, onclick: send },
        t("allegra.action.accept", { player: who(ctx, action.knocker) })));
    } else if (action.type === "decline") {
      buttons.push(el("button", { class: "secondary", dataset: { action: "decline", focusKey: "decline" }, onclick: send }, t("allegra.action.decline")));
    } else if (action.type === "clear") {
      buttons.push(el("button", { class: "al-clear", dataset: { action: "clear", cells: action.cells.join(","), focusKey: `clear-${action.cells.join("-")}` }, onclick: send },
        lineName(ctx, view, action.cells)));
    } else if (action.type === "skip_clear") {
      buttons.push(el("button", { class: "secondary", dataset: { action: "skip_clear", focusKey: "skip_clear" }, onclick: send }, t("allegra.action.skip_clear")));
    }
  }
  if (view.phase === "place" && message.to_act.includes(message.seat)) {
    for (const mode of ["keep", "flip"]) {
      if (!legalOf(message, mode).length) continue;
      buttons.push(el("button", { class: local.mode === mode ? "al-mode on" : "al-mode secondary", "aria-pressed": local.mode === mode ? "true" : "false",
        dataset: { mode, focusKey: `mode-${mode}` }, onclick: () => { local.mode = mode; ctx.rerender(); } }, t(`allegra.mode.${mode}`)));
    }
  }
  if (view.phase === "knock_take" && local.take !== null && message.to_act.includes(message.seat)) {
    buttons.push(el("button", { class: "secondary", dataset: { focusKey: "untake" }, onclick: () => { local.take = null; ctx.rerender(); } }, t("allegra.action.untake")));
  }
  return buttons;
}

function countdownText(ctx) {
  const left = ctx.windowRemaining();
  return left === null ? "" : `${Math.ceil(left)} s`;
}

function tick(ctx) {
  if (ticking) return;
  ticking = setInterval(() => {
    for (const node of document.querySelectorAll(".al-countdown")) node.textContent = countdownText(ctx);
  }, 250);
}

// ------------------------------------------------------------------------ scores

function scores(ctx, message) {
  const { el, t } = ctx;
  const view = message.view;
  if (!view.results.length) return null;
  const n = view.seats;
  const seats = [...Array(n).keys()];
  // a name heads its column on one line, cut with an ellipsis (whole in its title)
  const head = el("tr", {}, el("th", {}, t("allegra.scores.round")),
    seats.map((s) => el("th", { title: who(ctx, s) }, el("span", { class: "al-col-name" }, who(ctx, s)))));
  // the -10 for a whole display cleared is marked in its cell (a star: the -10 is already in
  // the score, which may be all of it) and worded once under the table (a phone shows no
  // tooltip), as the doubling and halving are worded in theirs; a screen reader hears words
  const bonus = (r, s) => !!(r.bonus && r.bonus[s]);
  const rows = view.results.map((r) => el("tr", {}, el("th", {}, String(r.round)),
    seats.map((s) => el("td", { class: [r.trigger === s ? "al-trigger" : "", bonus(r, s) ? "al-bonus" : ""].join(" ").trim() || null },
      String(r.points[s]), r.penalty[s] ? el("small", {}, ` (${t(`allegra.scores.${r.penalty[s]}`, { n: r.base[s] })})`) : null,
      bonus(r, s) ? el("small", { class: "al-bonus-mark" }, el("span", { "aria-hidden": "true" }, " ★"),
        el("span", { class: "visually-hidden" }, ` ${t("allegra.scores.bonus")}`)) : null,
      r.trigger === s ? el("small", {}, ` ${t("allegra.scores.ended")}`) : null))));
  const total = el("tr", { class: "al-total" }, el("th", {}, t("allegra.scores.total")), seats.map((s) => el("td", {}, String(view.totals[s]))));
  const anyBonus = view.results.some((r) => seats.some((s) => bonus(r, s)));
  return el("section", { class: "card al-scores" }, el("h2", {}, t("allegra.scores.title")),
    el("div", { class: "al-scroll" }, el("table", { class: "al-score-table" }, el("thead", {}, head), el("tbody", {}, rows, total))),
    anyBonus ? el("p", { class: "al-legend muted", id: "al-bonus-legend" }, t("allegra.scores.bonus_legend")) : null,
    lastRound(ctx, view));
}

// the grids as they lay when the last round ended, every card turned up
function lastRound(ctx, view) {
  const { el, t } = ctx;
  const last = view.last_round;
  if (!last) return null;
  const n = last.grids.length;
  const cell = (v, shared) => el("span", { class: `al-mini-cell${shared ? " shared" : ""}` }, v === null ? "·" : String(v));
  // the display of 15 the caption adds up: the right column of the player whose display
  // shares it (the next seat) first, as on the board, then the player's own 3×4 grid
  const grids = last.grids.map((grid, seat) => el("figure", { class: "al-last-grid" },
    el("figcaption", {}, t("allegra.scores.display", { player: who(ctx, seat), n: last.cards[seat] })),
    el("div", { class: "al-mini" }, [0, 1, 2].flatMap((row) => [
      cell(last.grids[(seat + 1) % n][row * 4 + 3], true),
      ...grid.slice(row * 4, row * 4 + 4).map((v, col) => cell(v, col === 3))]))));
  // open at the end of the game (there is nothing else left to look at), with its marker
  return el("details", { class: "al-last", open: view.phase === "over", dataset: { focusKey: "last-round" } },
    el("summary", {}, t("allegra.scores.last", { round: last.round })), el("div", { class: "al-last-grids" }, grids));
}

function finalSection(ctx, message) {
  const { el, t } = ctx;
  const view = message.view;
  const outcome = view.outcome;
  if (!outcome) return null;
  const names = [...Array(view.seats).keys()].map((s) => who(ctx, s));
  const ranking = outcome.ranking.map((group) => el("li", {}, t("allegra.final.place", { players: andList(group.map((s) => names[s])), n: outcome.scores[group[0]] })));
  return el("section", { class: "card final al-final", role: "status" },
    el("h2", { class: "verdict" }, t(outcome.winners.length === 1 ? "allegra.final.winner" : "allegra.final.shared", { players: andList(outcome.winners.map((s) => names[s])), n: outcome.scores[outcome.winners[0]] })),
    el("ol", { class: "final-ranking al-ranking" }, ranking),
    scoreChart(ctx, { title: t("allegra.scores.chart"), names, rounds: view.results.map((r) => r.points) }));
}

// ------------------------------------------------------------------------ entry points

export function render(root, message, ctx) {
  const { el, t } = ctx;
  const view = message.view;
  if (!view) { root.replaceChildren(); return; }
  if (local.table !== message.table.id || message.version !== local.version) {
    if (local.table !== message.table.id || view.phase !== "knock_take") local.take = null;
    if (view.phase !== "place") local.mode = "keep";
    if (local.table !== message.table.id) local.scroll = null;
    local.table = message.table.id;
    local.version = message.version;
  }
  const rctx = { ...ctx, rerender: () => redrawKeepingFocus(root, () => render(root, message, ctx)) };
  tick(ctx);
  const { parts, buttons } = piles(rctx, message);
  const actions = [...buttons, ...actionPanel(rctx, message)];
  const mine = message.seat !== null && message.to_act.includes(message.seat);
  const round = view.rounds ? t("allegra.round", { round: view.round, total: view.rounds }) : t("allegra.round_target", { round: view.round, target: view.target_score });
  const status = el("section", { class: "card al-status" },
    el("span", { class: "stat", id: "al-round" }, round),
    view.phase !== "over" ? el("span", { class: "stat" }, t("allegra.dealer", { player: who(rctx, view.dealer) })) : null,
    view.trigger !== null && view.phase !== "over" ? el("span", { class: "stat warn" }, t("allegra.final_turns", { player: who(rctx, view.trigger) })) : null);
  const dock = handDock(rctx, { label: t("allegra.dock") },
    el("p", { class: `al-prompt${mine ? " mine" : ""}`, id: "al-prompt" }, prompt(rctx, message)),
    hint(rctx, message) ? el("p", { class: "al-hint muted", id: "al-hint" }, hint(rctx, message)) : null,
    parts,
    actions.length ? el("div", { class: "actions al-actions", role: "group" }, actions) : null);
  const table = strip(rctx, message);
  root.replaceChildren(...[
    finalSection(rctx, message), status, view.phase !== "over" ? dock : null,
    table, scores(rctx, message)].filter(Boolean));
  // the strip scrolls sideways on a phone: show your display first, then keep where you were
  const mineBlock = table.querySelector(".al-player.mine");
  if (local.scroll === null && mineBlock) local.scroll = Math.max(0, mineBlock.offsetLeft - table.offsetLeft - 64);
  table.scrollLeft = local.scroll || 0;
  // the display you must tap next comes into view once each time it changes (the knocker's
  // while you pick a card from it, yours when you give one back), so that a target never
  // sits off the strip's edge; scrolling away after that is yours to keep
  const want = tappedDisplay(message);
  const key = want === null ? null : `${message.table.id}:${view.round}:${view.phase}:${view.current}:${want}:${local.take}`;
  if (key !== local.shown) {
    local.shown = key;
    if (want !== null) local.scroll = bringIntoView(table, want);
  }
  table.addEventListener("scroll", () => { local.scroll = table.scrollLeft; });
}

// The seat whose display of 15 the player must tap in now, or null: the knocker's while the
// active player picks the card to take from it, the player's own for any other tap.
function tappedDisplay(message) {
  const view = message.view;
  const me = message.seat;
  if (me === null || me === undefined || !message.to_act.includes(me)) return null;
  if (view.phase === "knock_take" && local.take === null && view.knock && view.knock.accepted !== null) return view.knock.accepted;
  return ["reveal", "place", "knock_place", "knock_take"].includes(view.phase) ? me : null;
}

// Scroll the strip as little as needed to show seat's display of 15: its own grid and, just
// left of it, the right column of the next seat (the last column of the block before it, or
// the repeated column at the strip's start). Returns the new scroll position.
function bringIntoView(table, seat) {
  const block = table.querySelector(`.al-player[data-seat="${seat}"]`);
  if (!block) return table.scrollLeft;
  const cols = block.previousElementSibling ? block.previousElementSibling.querySelectorAll(".al-col") : [];
  const first = cols.length ? cols[cols.length - 1] : block;
  const box = table.getBoundingClientRect();
  const x = (node) => node.getBoundingClientRect().left - box.left + table.scrollLeft;
  const left = x(first) - 4;
  const right = x(block) + block.offsetWidth + 4;
  let to = table.scrollLeft;
  if (right > to + table.clientWidth) to = right - table.clientWidth;
  if (left < to) to = left;
  table.scrollLeft = Math.max(0, to);
  return table.scrollLeft;
}

// a seat's line of a round's scores says why its points are not its cards' sum: doubled or
// halved for ending the round without the lowest score, or -10 for a whole display cleared
function scoredKey(event, seat) {
  if (event.penalty && event.penalty[seat]) return `allegra.log.player_scored_${event.penalty[seat]}`;
  if (event.bonus && event.bonus[seat]) return "allegra.log.player_scored_bonus";
  return "allegra.log.player_scored";
}

// how each event reads in the log (table.js keeps the journal: ../journal.js)
export function eventLines(ctx, event) {
  const { t } = ctx;
  const p = (s) => who(ctx, s);
  switch (event.type) {
    case "revealed": return [event.owner === event.seat
      ? t("allegra.log.revealed_own", { player: p(event.seat), value: event.value })
      : t("allegra.log.revealed", { player: p(event.seat), value: event.value, owner: p(event.owner) })];
    case "drew": return [t("allegra.log.drew", { player: p(event.seat), value: event.value })];
    case "took_discard": return [t("allegra.log.took_discard", { player: p(event.seat), value: event.value })];
    case "knock_opened": return [t("allegra.log.knock_opened", { players: andList(event.seats.map(p)) })];
    case "knocked": return [t("allegra.log.knocked", { player: p(event.seat) })];
    case "no_knock": return [t("allegra.log.no_knock", { player: p(event.seat) })];
    case "knock_timeout": return event.seats.length ? [t("allegra.log.knock_timeout", { players: andList(event.seats.map(p)) })] : [];
    case "knock_closed": return [event.knockers.length ? t("allegra.log.knockers", { players: andList(event.knockers.map(p)) }) : t("allegra.log.nobody_knocked")];
    case "accepted": return [t("allegra.log.accepted", { player: p(event.seat), knocker: p(event.knocker) })];
    case "declined": return [t("allegra.log.declined", { player: p(event.seat) })];
    case "kept": return [t("allegra.log.kept", { player: p(event.seat), value: event.value, replaced: event.replaced })];
    case "flipped": return [t("allegra.log.flipped", { player: p(event.seat), discarded: event.discarded, value: event.value })];
    case "knock_placed": return [event.taken === undefined
      ? t("allegra.log.knock_placed_hidden", { player: p(event.seat), value: event.value })
      : t("allegra.log.knock_placed", { player: p(event.seat), value: event.value, taken: event.taken })];
    case "exchanged": return [t("allegra.log.exchanged", { player: p(event.seat), knocker: p(event.knocker), value: event.value, discarded: event.discarded, placed: event.placed })];
    case "knock_no_exchange": return [t("allegra.log.knock_no_exchange", { player: p(event.seat), value: event.value })];
    case "cleared": return [t("allegra.log.cleared", { player: p(event.seat), value: event.value })];
    case "skipped": return [t("allegra.log.skipped", { player: p(event.seat) })];
    case "round_ending": return [t("allegra.log.round_ending", { player: p(event.seat) })];
    case "reshuffled": return [t("allegra.log.reshuffled", { n: event.cards })];
    case "round_scored": return [t("allegra.log.round_scored", { round: event.round }),
      ...event.points.map((pts, s) => t(scoredKey(event, s), { player: p(s), n: pts, base: event.base[s], total: event.totals[s] }))];
    case "round_started": return [t("allegra.log.round_started", { round: event.round, player: p(event.first) })];
    case "game_over": return [t("allegra.log.game_over", { players: andList(event.winners.map(p)) })];
    default: return [];
  }
}

// table.js calls this on every state message; each version's events are added once.
