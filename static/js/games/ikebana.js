// Ikebana client: draws the server's view (bouquets, discard piles, prestige, the drawn card,
// round results) and offers exactly the actions listed in legal_actions. It holds no rules:
// prices, payees and scores all come from the view; the log is built from the events.
import { svg } from "../svg.js";
import { handDock } from "../ui/dock.js";
import { scoreChart } from "../ui/chart.js";
import { ikebanaDefs, ikebanaFace } from "../ui/faces/ikebana.js";
import { andList } from "../i18n.js";

// the log, built from events as state messages arrive (the view carries no history)
// round breakdowns seen while the page is open (the view only carries the last one)
const seenRounds = { table: null, byRound: new Map() };


export function cardName(ctx, card) {
  const { t } = ctx;
  if (card.colour === "wild") return t("ikebana.card.wild", { number: card.number });
  return t("ikebana.card", { colour: t(`ikebana.colour.${card.colour}`), number: card.number });
}

// A card: a flower of its colour on a white face framed in that colour (../ui/faces/ikebana.js).
function cardSvg(ctx, card, cls = "") {
  return ikebanaFace({ colour: card.colour, number: card.number, label: cardName(ctx, card), className: cls });
}

function emptySlot(label, cls = "") {
  return svg("svg", { class: `ikcard empty ${cls}`.trim(), viewBox: "0 0 60 84", role: "img", "aria-label": label },
    svg("rect", { x: 3, y: 3, width: 54, height: 78, rx: 7, fill: "none", stroke: "#b8b09e", "stroke-width": 2, "stroke-dasharray": "5 4" }));
}

const name = (ctx, seat) => ctx.seatName(seat);
const nameMine = (ctx, seat) => (seat === ctx.me ? `${ctx.seatName(seat)} (${ctx.t("ikebana.label.you")})` : ctx.seatName(seat));

function comboText(ctx, combo) {
  const { t } = ctx;
  const kind = t(`ikebana.combo.${combo.kind}`);
  if (combo.kind.startsWith("straight")) return t("ikebana.combo.straight_points", { combo: kind, points: combo.points });
  return t("ikebana.combo.points", { combo: kind, number: combo.numbers[0], points: combo.points });
}

function formula(ctx, score) {
  const base = score.combinations.length ? score.combinations.map((c) => c.points).join(" + ") : "0";
  return ctx.t("ikebana.score.formula", { base, multiplier: score.multiplier, total: score.total });
}

// ------------------------------------------------------------------------ top: status

function statusBar(ctx, message) {
  const { el, t } = ctx;
  const view = message.view;
  const parts = [
    el("span", { class: "stat", id: "ik-round" }, t("ikebana.label.round", { round: view.round, total: view.rounds_total })),
  ];
  // the deck means nothing once the game is over
  if (view.phase !== "over") parts.push(el("span", { class: "stat", id: "ik-deck" }, view.deck ? t("ikebana.label.deck", { n: view.deck }) : t("ikebana.label.deck_empty")));
  if (view.phase !== "over") parts.push(el("span", { class: "stat" }, t("ikebana.label.starter", { player: name(ctx, view.starter) })));
  if (view.doubled_round && view.phase !== "over") parts.push(el("span", { class: "stat warn" }, t("ikebana.label.doubled_round")));
  return el("section", { class: "card ik-status", "aria-label": t("ikebana.name") }, parts);
}

// ------------------------------------------------------------------------ the turn panel

function actionButtons(ctx, message) {
  const { el, t } = ctx;
  const view = message.view;
  const buttons = [];
  for (const action of message.legal_actions) {
    const send = () => ctx.send(action);
    if (action.type === "draw") {
      buttons.push(el("button", { class: "ik-draw", dataset: { action: "draw", focusKey: "draw" }, onclick: send }, t("ikebana.action.draw")));
    } else if (action.type === "keep") {
      buttons.push(el("button", { class: "ik-keep", dataset: { action: "keep", focusKey: "keep" }, onclick: send }, t("ikebana.action.keep")));
    } else if (action.type === "reject") {
      const price = view.reject_price;
      buttons.push(el("button", { class: "secondary ik-reject", dataset: { action: "reject", focusKey: "reject", price: price.amount, to: price.to }, onclick: send },
        t("ikebana.action.reject", { n: price.amount, player: name(ctx, price.to) })));
    } else if (action.type === "buy") {
      const top = view.players[action.from].pile.top;
      buttons.push(el("button", { class: "ik-buy", dataset: { action: "buy", focusKey: `buy-${action.from}`, from: action.from, price: top.number }, onclick: send },
        t("ikebana.action.buy", { card: cardName(ctx, top), player: name(ctx, action.from), n: top.number })));
    }
  }
  return buttons;
}

// "draw or buy" only while a discard can be bought: with every pile empty or too dear the
// prompt says why Draw is the only button (a replay has no buttons: the phase's own words)
function prompt(ctx, message) {
  const phase = message.view.phase;
  if (phase === "choose" && !ctx.replay && !message.legal_actions.some((a) => a.type === "buy")) return "choose_draw";
  return phase;
}

function turnPanel(ctx, message) {
  const { el, t } = ctx;
  const view = message.view;
  const mine = view.current === message.seat;
  const price = view.reject_price;
  const lines = [];
  if (view.hand) {
    lines.push(el("div", { class: "ik-hand" },
      el("figure", { class: "slot big" }, cardSvg(ctx, view.hand, "big"),
        el("figcaption", {}, t("ikebana.label.hand"))),
      el("div", { class: "ik-hand-text" },
        el("p", { class: "ik-considering" }, mine ? cardName(ctx, view.hand) : t("ikebana.turn.considering", { player: name(ctx, view.current), card: cardName(ctx, view.hand) })),
        view.rejections ? el("p", { class: "muted" }, t("ikebana.label.rejections", { n: view.rejections })) : null,
        price ? el("p", { class: "ik-price", id: "ik-reject-price" }, t("ikebana.label.reject_price", { n: price.amount, player: name(ctx, price.to) })) : null,
        mine && price && !price.affordable ? el("p", { class: "warn" }, t("ikebana.label.reject_unaffordable")) : null)));
  } else if (price) {
    lines.push(el("p", { class: "ik-price muted", id: "ik-reject-price" }, t("ikebana.label.reject_price", { n: price.amount, player: name(ctx, price.to) })));
  }
  const buttons = mine ? actionButtons(ctx, message) : [];
  const parts = [
    el("h2", { id: "ik-turn" }, mine ? t("ikebana.turn.yours") : t("ikebana.turn.other", { player: name(ctx, view.current) })),
    mine ? el("p", { class: "ik-prompt" }, t(`ikebana.phase.${prompt(ctx, message)}`)) : null,
    lines,
    buttons.length ? el("div", { class: "actions ik-actions", role: "group", "aria-labelledby": "ik-turn" }, buttons) : null];
  // at your turn the drawn card and its buttons are your hand: the shared dock keeps them in view
  if (mine) {
    const dock = handDock(ctx, { label: t("ikebana.turn.yours") }, ...parts);
    dock.classList.add("ik-turn", "mine");
    return dock;
  }
  return el("section", { class: "card ik-turn", "aria-labelledby": "ik-turn" }, ...parts);
}

// ------------------------------------------------------------------------ players

function pileBlock(ctx, message, player) {
  const { el, t } = ctx;
  const view = message.view;
  const pile = player.pile;
  const caption = pile.size === 1 ? t("ikebana.label.pile_size_one")
    : pile.size ? t("ikebana.label.pile_size", { n: pile.size }) : t("ikebana.label.pile_empty");
  let note = null;
  // (a replay knows no legal buy: it would say so of every pile)
  const myChoice = !ctx.replay && message.seat !== null && view.current === message.seat && view.phase === "choose";
  if (myChoice && pile.top && player.seat !== message.seat && !ctx.isLegal({ type: "buy", from: player.seat })) {
    note = el("span", { class: "ik-note" }, t("ikebana.label.cannot_afford"));
  }
  return el("figure", { class: "slot ik-pile", dataset: { size: pile.size } },
    el("div", { class: "ik-pile-card" },
      pile.top ? cardSvg(ctx, pile.top) : emptySlot(caption),
      pile.size > 1 ? el("span", { class: "ik-pile-count", "aria-hidden": "true" }, `×${pile.size}`) : null),
    el("figcaption", {}, el("strong", {}, t("ikebana.label.pile")), el("br"), caption,
      // no price on your own pile: you may never buy from it (others see what they would pay)
      pile.top && view.phase !== "over" && player.seat !== message.seat ? el("span", { class: "ik-buy-price" }, el("br"), t("ikebana.label.buy_price", { n: pile.top.number })) : null,
      note ? el("br") : null, note));
}

function playerSection(ctx, message, player, size) {
  const { el, t } = ctx;
  const view = message.view;
  const acting = view.current === player.seat;
  const slots = [];
  for (let i = 0; i < size; i++) {
    const card = player.bouquet[i];
    slots.push(card ? cardSvg(ctx, card) : emptySlot(t("ikebana.label.bouquet")));
  }
  return el("section", { class: `card ik-player${acting ? " acting" : ""}${player.seat === message.seat ? " mine" : ""}`,
    dataset: { seat: player.seat }, "aria-label": t("ikebana.label.bouquet_of", { player: name(ctx, player.seat) }) },
    el("header", { class: "ik-player-head" },
      el("h3", {}, nameMine(ctx, player.seat)),
      el("span", { class: "pill ik-prestige", title: t("ikebana.label.prestige") }, t("ikebana.label.prestige_points", { n: player.prestige }))),
    el("div", { class: "ik-player-body" },
      el("div", { class: "ik-bouquet" },
        el("div", { class: "ik-bouquet-cards" }, slots),
        player.score ? el("p", { class: "ik-bouquet-score" }, t("ikebana.label.bouquet_score", { n: player.score.total }),
          " · ", t(`ikebana.bonus.${player.score.bonus}`),
          // the fourth round of the "final bouquet" variant: what it will really add
          player.points !== player.score.total ? [" · ", el("span", { class: "warn" }, t("ikebana.score.doubled", { points: player.points }))] : null) : null),
      pileBlock(ctx, message, player)));
}

// ------------------------------------------------------------------------ round results

// One row per player: the prestige everyone starts with, then each round's change (the
// bouquet's points plus the payments of rejections and purchases, which move prestige the
// moment they are made), then the total, so the total is the sum of the row. While a round is
// being played its column says so and holds the payments made so far; the bouquets are only
// scored at its end. The grey figure under a scored round is the prestige after it.
const signed = (n) => (n > 0 ? `+${n}` : n < 0 ? `−${-n}` : "0");

function summaryTable(ctx, message) {
  const { el, t } = ctx;
  const view = message.view;
  const live = view.phase !== "over" ? view.round : null; // the round being played, if any
  const head = (cls, long, short, extra) => el("th", { scope: "col", class: `num${cls}`, title: long },
    el("span", { class: "long" }, long), el("span", { class: "short", "aria-hidden": "true" }, short), extra);
  return [el("div", { class: "ik-scroll" }, el("table", { class: "ik-summary" },
    el("caption", {}, t("ikebana.table.title")),
    el("thead", {}, el("tr", {}, el("th", { scope: "col" }, t("ikebana.table.player")),
      el("th", { scope: "col", class: "num ik-start" }, t("ikebana.table.start")),
      view.rounds.map((r) => head("", t("ikebana.table.round_n", { n: r.round }), t("ikebana.table.round_short", { n: r.round }),
        r.doubled ? el("span", { class: "ik-doubled" }, " ×2") : null)),
      live ? head(" ik-live", t("ikebana.table.round_live", { n: live }), t("ikebana.table.round_live_short", { n: live }),
        view.doubled_round ? el("span", { class: "ik-doubled" }, " ×2") : null) : null,
      el("th", { scope: "col", class: "num" }, t("ikebana.table.total")))),
    el("tbody", {}, view.players.map((p) => {
      let before = view.starting_prestige;
      const cells = view.rounds.map((r) => {
        const change = r.prestige[p.seat] - before;
        const payments = change - r.points[p.seat];
        before = r.prestige[p.seat];
        return el("td", { class: "num ik-round-cell", dataset: { change },
          title: t("ikebana.table.cell_title", { bouquet: signed(r.points[p.seat]), payments: signed(payments), total: r.prestige[p.seat] }) },
          el("span", { class: `ik-gain${change < 0 ? " loss" : ""}` }, signed(change)), " ",
          el("span", { class: "ik-total" }, String(r.prestige[p.seat])));
      });
      const sofar = p.prestige - before;
      return el("tr", { dataset: { seat: p.seat } },
        // a long name is cut with an ellipsis on a phone (whole in the title), so that seven
        // columns fit 390 px
        el("th", { scope: "row", title: name(ctx, p.seat) }, el("span", { class: "ik-row-name" }, name(ctx, p.seat))),
        el("td", { class: "num ik-start", dataset: { change: view.starting_prestige } }, String(view.starting_prestige)),
        cells,
        live ? el("td", { class: "num ik-live", dataset: { change: sofar }, title: t("ikebana.table.live_title", { n: live }) },
          el("span", { class: `ik-gain${sofar < 0 ? " loss" : ""}` }, signed(sofar))) : null,
        el("td", { class: "num ik-current" }, el("strong", {}, String(p.prestige))));
    })))),
  el("p", { class: "ik-summary-note muted" }, live ? t("ikebana.table.note_live") : t("ikebana.table.note"))];
}

function bouquetCell(ctx, player) {
  const { el, t } = ctx;
  const used = new Set(player.score.combinations.flatMap((c) => c.cards));
  const wilds = new Map(player.score.wild_colours.map((w) => [w.card, w.colour]));
  return el("div", { class: "ik-mini-bouquet" }, player.bouquet.map((card, i) => el("figure", { class: `mini-slot${used.has(i) ? "" : " unused"}` },
    cardSvg(ctx, card, "mini"),
    wilds.has(i) ? el("figcaption", {}, t("ikebana.wild_as", { colour: t(`ikebana.colour.${wilds.get(i)}`) })) : null)));
}

// Each player's prestige when a scored round began (the start, then each earlier round's
// total), by round number: a round's breakdown adds its bouquet and its payments to it.
function prestigeBefore(view) {
  const before = new Map();
  let previous = view.players.map(() => view.starting_prestige);
  for (const r of view.rounds) { before.set(r.round, previous); previous = r.prestige; }
  return before;
}

// "before + bouquet (bouquet) ± payments (payments) = after": the whole change of the round,
// so that the prestige it ends on follows from what is written
function prestigeSum(ctx, player, before) {
  const payments = player.prestige - before - player.points;
  const term = (n) => (n < 0 ? `− ${-n}` : `+ ${n}`);
  return ctx.t("ikebana.table.prestige_sum", { before, bouquet: term(player.points),
    payments: term(payments), total: player.prestige });
}

function breakdownTable(ctx, result, before) {
  const { el, t } = ctx;
  const head = [t("ikebana.table.player"), t("ikebana.table.bouquet"), t("ikebana.table.combinations"),
    t("ikebana.table.bouquet_total"), t("ikebana.table.points")];
  return el("table", { class: "ik-breakdown", dataset: { round: result.round } },
    el("thead", {}, el("tr", {}, head.map((h) => el("th", { scope: "col" }, h)))),
    el("tbody", {}, result.players.map((p) => el("tr", { dataset: { seat: p.seat } },
      el("th", { scope: "row", "data-label": head[0] }, name(ctx, p.seat)),
      el("td", { "data-label": head[1] }, bouquetCell(ctx, p)),
      el("td", { "data-label": head[2] }, p.score.combinations.length
        ? el("ul", { class: "ik-combos" }, p.score.combinations.map((c) => el("li", {}, comboText(ctx, c))))
        : t("ikebana.combo.none")),
      el("td", { "data-label": head[3] }, el("div", {}, t(`ikebana.bonus.${p.score.bonus}`)),
        el("div", { class: "ik-formula" }, formula(ctx, p.score)),
        result.doubled ? el("div", { class: "warn" }, t("ikebana.score.doubled", { points: p.points })) : null),
      el("td", { "data-label": head[4], class: "ik-points" }, el("strong", {}, `+${p.points}`),
        el("div", { class: "ik-prestige-sum" }, prestigeSum(ctx, p, before[p.seat])))))));
}

function roundsSection(ctx, message) {
  const { el, t } = ctx;
  const view = message.view;
  if (!view.rounds.length) return null;
  if (seenRounds.table !== message.table.id) { seenRounds.table = message.table.id; seenRounds.byRound = new Map(); }
  if (view.last_round) seenRounds.byRound.set(view.last_round.round, view.last_round);
  const finalRounds = view.outcome && view.outcome.details && view.outcome.details.rounds;
  const results = finalRounds || [...seenRounds.byRound.values()].sort((a, b) => a.round - b.round);
  const newest = results.length ? results[results.length - 1].round : null;
  const before = prestigeBefore(view);
  return el("section", { class: "card ik-rounds", "aria-label": t("ikebana.table.title") },
    summaryTable(ctx, message),
    results.slice().reverse().map((r) => el("details", { class: "ik-round-detail", open: r.round === newest, dataset: { round: r.round } },
      el("summary", {}, t("ikebana.table.round_n", { n: r.round }), r.doubled ? ` · ${t("ikebana.table.doubled")}` : ""),
      el("div", { class: "ik-scroll" }, breakdownTable(ctx, r, before.get(r.round))))));
}

// ------------------------------------------------------------------------ the end

function finalSection(ctx, message) {
  const { el, t } = ctx;
  const outcome = message.view.outcome || message.table.outcome;
  if (!outcome) return null;
  const best = outcome.scores[outcome.winners[0]];
  const headline = outcome.winners.length === 1
    ? t("ikebana.outcome.winner", { player: name(ctx, outcome.winners[0]), n: best })
    : t("ikebana.outcome.shared", { players: andList(outcome.winners.map((s) => name(ctx, s))), n: best });
  let place = 1;
  const rows = [];
  for (const group of outcome.ranking) {
    for (const seat of group) {
      rows.push(el("li", { class: outcome.winners.includes(seat) ? "winner" : "", dataset: { seat } },
        el("span", { class: "ik-place" }, t("ikebana.outcome.place", { place })),
        el("span", { class: "ik-rank-name" }, nameMine(ctx, seat)),
        el("strong", { class: "ik-rank-score" }, t("ikebana.label.prestige_points", { n: outcome.scores[seat] }))));
    }
    place += group.length;
  }
  const rounds = message.view.rounds; // prestige after each round
  return el("section", { class: "card final ik-final", role: "status" },
    el("h2", { class: "verdict" }, headline),
    el("ol", { class: "ik-ranking" }, rows),
    rounds.length ? scoreChart(ctx, { title: t("ikebana.chart"), names: message.view.players.map((p) => name(ctx, p.seat)),
      rounds: rounds.map((r) => r.prestige), cumulative: false, fromZero: false,
      labels: rounds.map((r) => t("ikebana.table.round_short", { n: r.round })) }) : null);
}

// ------------------------------------------------------------------------ entry points

export function render(root, message, ctx) {
  const { el } = ctx;
  const view = message.view;
  if (!view) { root.replaceChildren(); return; }
  // after Draw the turn goes on with Keep/Reject: the keyboard moves on to them
  const hadFocus = root.contains(document.activeElement);
  const seats = view.players.length;
  const me = message.seat;
  const order = [];
  for (let i = 0; i < seats; i++) order.push(((me ?? 0) + i) % seats);
  const size = Math.max(5, ...view.players.map((p) => p.bouquet.length));
  root.replaceChildren(...[
    ikebanaDefs(),
    view.phase === "over" ? finalSection(ctx, message) : null,
    statusBar(ctx, message),
    view.phase !== "over" ? turnPanel(ctx, message) : null,
    el("div", { class: "ik-players" }, order.map((s) => playerSection(ctx, message, view.players[s], size))),
    roundsSection(ctx, message)].filter(Boolean));
  if (hadFocus && !root.contains(document.activeElement)) {
    const next = root.querySelector(".ik-actions button");
    if (next) next.focus();
  }

}

// how each event reads in the log (table.js keeps the journal: ../journal.js)
export function eventLines(ctx, event) {
  const { t } = ctx;
  const who = (s) => name(ctx, s);
  switch (event.type) {
    case "drew": return [t("ikebana.log.drew", { player: who(event.seat), card: cardName(ctx, event.card) })];
    case "kept": return [t("ikebana.log.kept", { player: who(event.seat), card: cardName(ctx, event.card) })];
    case "rejected": return [t("ikebana.log.rejected", { player: who(event.seat), card: cardName(ctx, event.card), n: event.price, other: who(event.to) })];
    case "bought": return [t("ikebana.log.bought", { player: who(event.seat), card: cardName(ctx, event.card), other: who(event.from), n: event.price })];
    case "reshuffled": return [t("ikebana.log.reshuffled", { n: event.cards })];
    case "round_scored": return [t("ikebana.log.round_scored", { round: event.round }),
      ...event.players.map((p) => t("ikebana.log.player_scored", { player: who(p.seat), points: p.points, total: p.prestige }))];
    case "round_started": return [t("ikebana.log.round_started", { round: event.round, player: who(event.starter) })];
    case "game_over": {
      const lines = [t("ikebana.log.game_over")];
      const best = event.scores[event.winners[0]];
      if (event.winners.length === 1) lines.push(t("ikebana.outcome.winner", { player: who(event.winners[0]), n: best }));
      else if (event.winners.length) lines.push(t("ikebana.outcome.shared", { players: andList(event.winners.map(who)), n: best }));
      return lines;
    }
    default: return [];
  }
}

// A replay's list of moves (../replay.js): a step's lines, its move's own first, so that a
// draw that had to rebuild the deck reads "Ana roba…", not the reshuffle before it.
const MOVES = new Set(["drew", "kept", "rejected", "bought"]);
export function stepLines(ctx, events) {
  const move = events.find((e) => MOVES.has(e.type));
  const ordered = move ? [move, ...events.filter((e) => e !== move)] : events;
  return ordered.flatMap((e) => eventLines(ctx, e));
}

// What the list shows on a line of its own under a move: after a rejection, the card its
// player drew next ("Ana roba 4 azul"), which the move's line does not say. Only from the
// step's events as the point of view got them (a drawn card is face up for everyone).
export function stepThen(ctx, events) {
  const at = events.findIndex((e) => e.type === "rejected");
  if (at < 0) return [];
  return events.slice(at + 1).filter((e) => e.type === "drew" && e.card).flatMap((e) => eventLines(ctx, e));
}

// table.js calls this on every state message; events are only appended once per version.
