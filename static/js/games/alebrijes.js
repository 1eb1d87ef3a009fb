// Alebrijes client: draws the server's view (your hand sorted by suit and value with the Ollin
// mark, the combination to beat and who played it, who has had their chance this trick, card
// counts, the deck, scores) and offers exactly what legal_actions lists. It holds no rules:
// the cards you select are turned into one of the listed actions (play, pass, exchange, Ollin
// discard) or nothing, and a button is only enabled when its action is listed.
import { handDock, redrawKeepingFocus } from "../ui/dock.js";
import { scoreChart } from "../ui/chart.js";
import { alebrijeFace } from "../ui/faces/alebrijes.js";
import { andList } from "../i18n.js";

const SUITS = ["blue", "green", "pink", "orange"];

// the cards you have selected (ids), kept across re-renders of the same table
const local = { table: null, selected: new Set() };

const who = (ctx, seat) => (seat === ctx.me ? ctx.t("alebrijes.you_name", { player: ctx.seatName(seat) }) : ctx.seatName(seat));

export function cardName(ctx, card) {
  const { t } = ctx;
  const base = card.suit === "wild" ? t("alebrijes.card.wild", { number: card.number })
    : t("alebrijes.card", { suit: t(`alebrijes.suit.${card.suit}`), number: card.number });
  return card.ollin ? t("alebrijes.card.ollin", { card: base }) : base;
}

function comboText(ctx, combo) {
  const { t } = ctx;
  const suit = t(`alebrijes.suit.${combo.suit}`);
  // one card reads as that card ("a single blue 2", "a single wild 2 as blue"), never as
  // "1 × blue 2, 1 of them wild"
  if (combo.count === 1) {
    const base = combo.wilds ? t("alebrijes.combo.wild_as", { number: combo.number, suit })
      : t("alebrijes.card", { suit, number: combo.number });
    return t("alebrijes.combo.single", { card: combo.ollin ? t("alebrijes.card.ollin", { card: base }) : base });
  }
  // only wild cards: they declare the suit
  if (combo.wilds === combo.count) return t("alebrijes.combo.all_wild", { count: combo.count, number: combo.number, suit });
  const text = t("alebrijes.combo", { count: combo.count, suit, number: combo.number });
  const wild = combo.wilds ? t("alebrijes.combo.wilds", { combo: text, n: combo.wilds }) : text;
  // the Ollin cards in it: why an Ollin choice follows (the log, the trick, the suggestions)
  return combo.ollin ? t("alebrijes.combo.ollin", { combo: wild, n: combo.ollin }) : wild;
}

// the cards an exchange or a pass swapped, in the swapper's own copy of the event only
function swapLine(ctx, event, key) {
  // in the hand's order: by suit (wild cards last), then number
  const rank = (c) => [...SUITS, "wild"].indexOf(c.suit) * 10 + c.number;
  const names = (cards) => andList([...cards].sort((a, b) => rank(a) - rank(b)).map((c) => cardName(ctx, c)));
  return ctx.t(key, { player: who(ctx, event.seat), discarded: names(event.discarded), drawn: names(event.drawn) });
}

// a card's face: its animal family (../ui/faces/alebrijes.js), the Ollin mark when it has one
function face(ctx, card, cls = "") {
  return alebrijeFace({ suit: card.suit, number: card.number, ollin: card.ollin, label: cardName(ctx, card), className: cls });
}

// ------------------------------------------------------------------------ selection → action

// Whether cards picked from your hand make a move in this phase: not at a one-card Ollin
// choice, which asks only whether the others draw
function handTakesPart(view) {
  return !(view.phase === "ollin" && view.ollin.size !== 2);
}

function selectedCards(view) {
  return view.hand.filter((c) => local.selected.has(c.id));
}

// The play the selected cards make, for each suit they could declare (wild cards only: any).
function selectedPlays(view) {
  const cards = selectedCards(view);
  if (!cards.length || cards.some((c) => c.number !== cards[0].number)) return [];
  const suited = cards.filter((c) => c.suit !== "wild");
  const suits = [...new Set(suited.map((c) => c.suit))];
  if (suits.length > 1) return [];
  const wilds = cards.length - suited.length;
  const ollin = suited.filter((c) => c.ollin).length;
  return (suits.length ? suits : SUITS).map((suit) => ({ type: "play", suit, number: cards[0].number, count: cards.length, wilds, ollin }));
}

function swapAction(type, view) {
  return { type, cards: selectedCards(view).map((c) => c.id).sort((a, b) => a - b) };
}

// ctx.isLegal compares fields with ===, so a list of card ids never matches: compare lists
// element by element here and send the listed action itself
function same(a, b) {
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => x === b[i]);
  return a === b;
}

function listed(message, action) {
  if (!action) return null;
  return message.legal_actions.find((a) => {
    const keys = new Set([...Object.keys(a), ...Object.keys(action)]);
    return [...keys].every((k) => same(a[k], action[k]));
  }) || null;
}

function actionButtons(ctx, message) {
  const { el, t } = ctx;
  const view = message.view;
  const send = (action) => () => { local.selected.clear(); ctx.send(action); };
  const button = (key, text, wanted, cls = "") => {
    const action = listed(message, wanted);
    return el("button", { class: cls, dataset: { focusKey: key, action: wanted ? wanted.type : "none" },
      disabled: !action, onclick: action ? send(action) : null }, text);
  };
  const count = local.selected.size;
  const out = [];
  if (view.phase === "exchange") {
    out.push(button("exchange", count ? t("alebrijes.action.exchange", { n: count }) : t("alebrijes.action.keep"), swapAction("exchange", view)));
  } else if (view.phase === "ollin") {
    const ollin = view.ollin;
    out.push(button("ollin-draw", t("alebrijes.action.ollin_draw"), { type: "ollin", effect: "draw" }));
    if (ollin.size === 2) {
      const cards = selectedCards(view);
      const discard = cards.length === 1 ? { type: "ollin", effect: "discard", card: cards[0].id } : null;
      out.push(button("ollin-discard", t("alebrijes.action.ollin_discard"), discard));
    }
    out.push(button("ollin-none", t("alebrijes.action.ollin_none"), { type: "ollin", effect: "none" }, "secondary"));
  } else if (view.phase === "trick") {
    const plays = selectedPlays(view).filter((a) => listed(message, a));
    if (cannotBeat(message)) {
      // nothing to play: no greyed-out "select cards to play", only the pass
    } else if (plays.length > 1) {
      for (const action of plays) {
        out.push(button(`play-${action.suit}`, t("alebrijes.action.play_as", { suit: t(`alebrijes.suit.${action.suit}`) }), action));
      }
    } else {
      out.push(button("play", count ? t("alebrijes.action.play", { n: count }) : t("alebrijes.action.play_none"), plays[0] || null));
    }
    if (view.best !== null) {
      out.push(button("pass", count ? t("alebrijes.action.pass_exchange", { n: count }) : t("alebrijes.action.pass"), swapAction("pass", view), "secondary"));
    }
  }
  return out;
}

// Whether you must answer a combination and nothing in your hand beats it (only passes listed)
function cannotBeat(message) {
  const view = message.view;
  return view.phase === "trick" && view.best !== null && !message.legal_actions.some((a) => a.type === "play");
}

// Why the chosen cards make no move (the button stays greyed out): the catalogue key, or null
function selectionHint(message) {
  const view = message.view;
  const count = local.selected.size;
  if (!count) return null;
  if (view.phase === "ollin") return view.ollin.size === 2 && count > 1 ? "alebrijes.hint.ollin_one_card" : null;
  // cards selected when nothing beats the table are for the pass's exchange
  if (view.phase === "exchange" || cannotBeat(message)) return count > 2 ? "alebrijes.hint.two_at_most" : null;
  if (view.phase !== "trick") return null;
  const shaped = selectedPlays(view);
  if (shaped.some((a) => listed(message, a))) return null;
  if (!shaped.length) return "alebrijes.hint.not_combination";
  return view.best !== null ? "alebrijes.hint.not_enough" : null;
}

function suggestions(ctx, message) {
  const { el, t } = ctx;
  const plays = message.legal_actions.filter((a) => a.type === "play");
  if (!plays.length) return null;
  return el("details", { class: "ab-suggest" },
    el("summary", { dataset: { focusKey: "suggest" } }, t("alebrijes.label.playable", { n: plays.length })),
    // no focus key on these: the list is drawn again closed, so a key would send the focus
    // to a hidden button of the next list (you won the trick and lead) and from there to
    // the page's body; without one it goes to your hand
    el("div", { class: "ab-suggest-list" }, plays.map((a) => el("button", {
      class: "secondary", onclick: () => { local.selected.clear(); ctx.send(a); },
    }, comboText(ctx, a)))));
}

function prompt(ctx, message) {
  const { t } = ctx;
  const view = message.view;
  const mine = message.seat !== null && view.current === message.seat;
  if (view.phase === "over") return t("alebrijes.phase.over");
  if (!mine) return t(view.phase === "ollin" ? "alebrijes.turn.ollin_other" : "alebrijes.turn.other", { player: who(ctx, view.current) });
  if (view.phase === "exchange") return t("alebrijes.prompt.exchange");
  if (view.phase === "ollin") {
    if (view.ollin.size === 1) return t("alebrijes.prompt.ollin_one");
    return t(view.ollin.can_draw ? "alebrijes.prompt.ollin_two" : "alebrijes.prompt.ollin_two_empty");
  }
  if (view.best === null) return t("alebrijes.prompt.lead");
  const combo = comboText(ctx, view.trick[view.best].combo);
  // a replay has no legal plays: it cannot tell that nothing in the hand beats the table
  if (!ctx.replay && cannotBeat(message)) return t("alebrijes.prompt.cannot_beat", { combo });
  // what beats it, as the server describes it (a newcomer does not know the suit chain)
  const how = view.beat_with;
  if (!how) return t("alebrijes.prompt.beat");
  const next = t("alebrijes.beat.next", { count: how.next.count, suit: t(`alebrijes.suit.${how.next.suit}`) });
  const ways = how.higher ? t("alebrijes.beat.or", { a: t("alebrijes.beat.higher", { count: how.higher.count,
    suit: t(`alebrijes.suit.${how.higher.suit}`), above: how.higher.above }), b: next }) : next;
  return t("alebrijes.prompt.beat_with", { combo, ways });
}

function dock(ctx, message) {
  const { el, t } = ctx;
  const view = message.view;
  const mine = message.seat !== null && view.current === message.seat;
  const picking = mine && !ctx.replay && handTakesPart(view); // a replay's cards are not for choosing
  const hand = el("ul", { class: "ab-hand", "aria-label": t("alebrijes.label.hand", { n: view.hand.length }) },
    view.hand.map((card) => {
      const on = local.selected.has(card.id);
      return el("li", {}, el("button", {
        class: `ab-card${on ? " selected" : ""}`, "aria-pressed": on ? "true" : "false", disabled: !picking,
        dataset: { focusKey: `card-${card.id}` },
        onclick: () => { if (on) local.selected.delete(card.id); else local.selected.add(card.id); ctx.rerender(); },
      }, face(ctx, card)));
    }));
  // a replay draws the hand, not a live table's buttons ("Elige cartas para jugar", greyed
  // out: nobody can press them there)
  const buttons = mine && !ctx.replay ? actionButtons(ctx, message) : [];
  const hint = mine && !ctx.replay ? selectionHint(message) : null;
  return handDock(ctx, { label: t("alebrijes.dock") },
    el("p", { class: `ab-prompt${mine ? " mine" : ""}`, id: "ab-prompt" }, prompt(ctx, message)),
    hand,
    buttons.length ? el("div", { class: "actions ab-actions", role: "group" }, buttons) : null,
    hint ? el("p", { class: "ab-hint", id: "ab-hint" }, t(hint)) : null,
    mine && view.phase === "trick" ? suggestions(ctx, message) : null);
}

// ------------------------------------------------------------------------ the table

function trickPanel(ctx, message) {
  const { el, t } = ctx;
  const view = message.view;
  const best = view.best === null ? null : view.trick[view.best];
  const moves = view.trick.map((m, i) => el("li", { class: `ab-move ${m.move}${i === view.best ? " best" : ""}` },
    m.move === "pass" ? t("alebrijes.move.pass", { player: who(ctx, m.seat) })
      : t(`alebrijes.move.${m.move}`, { player: who(ctx, m.seat), combo: comboText(ctx, m.combo) })));
  // no trick is led during the exchange: the panel says what happens, and who leads next
  const exchange = view.phase === "exchange";
  return el("section", { class: "card ab-trick", "aria-labelledby": "ab-trick-title" },
    el("h2", { id: "ab-trick-title" }, exchange ? t("alebrijes.label.exchange_title", { round: view.round })
      : t("alebrijes.label.trick", { player: who(ctx, view.leader) })),
    best ? el("div", { class: "ab-best" },
      el("p", { id: "ab-to-beat" }, t("alebrijes.label.to_beat", { combo: comboText(ctx, best.combo), player: who(ctx, best.seat) })),
      el("div", { class: "ab-cards" }, best.cards.map((c) => face(ctx, c, "small"))))
      : el("p", { id: "ab-to-beat", class: "muted" }, exchange ? t("alebrijes.label.exchanging", { player: who(ctx, view.leader) }) : t("alebrijes.label.no_combo", { player: who(ctx, view.leader) })),
    moves.length ? el("ol", { class: "ab-moves" }, moves) : null);
}

// One row per player. On a phone the "this trick" state is a line under the name (four
// narrow columns fit 320 px); once the game is over only the scores are left. Under the
// table, what the start token beside a name is for.
function playersPanel(ctx, message) {
  const { el, t } = ctx;
  const view = message.view;
  const over = view.phase === "over";
  const rows = view.players.map((p) => {
    let chance = t("alebrijes.chance.waiting");
    if (view.phase === "exchange") chance = p.exchanged ? t("alebrijes.chance.exchanged") : t("alebrijes.chance.to_exchange");
    else if (p.chance) chance = t(`alebrijes.chance.${p.chance}`);
    const current = !over && view.current === p.seat;
    return el("tr", { class: `${current ? "current" : ""}${p.seat === message.seat ? " me" : ""}`, dataset: { seat: p.seat } },
      el("th", { scope: "row" }, el("span", { class: "ab-name" }, current ? `▶ ${who(ctx, p.seat)}` : who(ctx, p.seat)),
        !over && p.seat === view.leader ? el("span", { class: "badge" }, t("alebrijes.label.token")) : null,
        over ? null : el("span", { class: "ab-chance-line" }, chance)),
      over ? null : el("td", { class: "ab-count" }, String(p.cards)),
      over ? null : el("td", { class: "ab-chance" }, chance),
      el("td", { class: "num" }, String(p.total)),
      el("td", { class: "num" }, String(p.rounds_won)));
  });
  const cols = over ? ["player", "total", "won"] : ["player", "cards", "chance", "total", "won"];
  return el("section", { class: "card ab-players" },
    el("table", { class: `ab-table${over ? " over" : ""}` },
      el("caption", {}, t("alebrijes.label.players")),
      // during the exchange that column tells who has exchanged, not how a trick goes
      el("thead", {}, el("tr", {}, cols.map((k) => el("th", { scope: "col", class: `ab-col-${k}` },
        k === "chance" && view.phase === "exchange" ? t("alebrijes.col.exchange") : t(`alebrijes.col.${k}`))))),
      el("tbody", {}, rows)),
    // the badge said in words, under the table (a phone has no tooltips)
    over ? null : el("p", { class: "muted ab-token-note", id: "ab-token-note" },
      el("span", { class: "badge" }, t("alebrijes.label.token")), " ", t("alebrijes.label.token_note")));
}

// the round, the deck and the discards; at the end of the game only the round is left
function statusBar(ctx, message) {
  const { el, t } = ctx;
  const view = message.view;
  const over = view.phase === "over";
  return el("section", { class: "card ab-status" },
    el("span", { class: "stat", id: "ab-round" }, t("alebrijes.label.round", { round: view.round, total: view.rounds_total })),
    over ? null : el("span", { class: "stat", id: "ab-deck" }, view.deck ? t("alebrijes.label.deck", { n: view.deck }) : t("alebrijes.label.deck_empty")),
    over ? null : el("span", { class: "stat" }, t("alebrijes.label.discards", { played: view.played.length, down: view.face_down })));
}

// The last round scored (at the end of the game: every round, so the totals can be checked):
// who went out, and for every other player the cards left, the highest of each suit that
// made their points, and their running total
function roundsPanel(ctx, message) {
  const { el, t } = ctx;
  const view = message.view;
  if (!view.rounds.length) return null;
  const shown = view.phase === "over" ? view.rounds : view.rounds.slice(-1);
  const breakdown = (p) => Object.entries(p.suits).map(([suit, n]) => t("alebrijes.label.suit_points", { suit: t(`alebrijes.suit_short.${suit}`), n })).join(" + ");
  return el("section", { class: "card ab-rounds" }, shown.map((round) => el("div", { class: "ab-round", dataset: { round: round.round } },
    el("h2", {}, t("alebrijes.label.last_round", { round: round.round, player: who(ctx, round.out) })),
    el("ul", {}, round.players.filter((p) => p.seat !== round.out).map((p) => el("li", {},
      el("span", { class: "ab-round-points" }, t("alebrijes.label.round_points_total", { player: who(ctx, p.seat), n: p.points, total: p.total })),
      el("span", { class: "ab-cards" }, p.hand.map((c) => face(ctx, c, "tiny"))),
      el("span", { class: "ab-breakdown" }, t("alebrijes.label.breakdown", { parts: breakdown(p) }))))))));
}

function finalSection(ctx, message) {
  const { el, t } = ctx;
  const view = message.view;
  const outcome = view.outcome;
  if (!outcome) return null;
  const names = view.players.map((p) => ctx.seatName(p.seat));
  return el("section", { class: "card final ab-final", role: "status" },
    el("h2", { class: "verdict" }, t(outcome.winners.length === 1 ? "alebrijes.final.winner" : "alebrijes.final.shared",
      { players: andList(outcome.winners.map((s) => names[s])), n: outcome.scores[outcome.winners[0]] })),
    el("ol", { class: "final-ranking" }, outcome.ranking.map((group) => el("li", {}, t("alebrijes.final.place", {
      players: andList(group.map((s) => names[s])),
      points: t("alebrijes.final.points", { n: outcome.scores[group[0]] }),
      rounds: t("alebrijes.final.rounds_won", { n: outcome.details.rounds_won[group[0]] }) })))),
    scoreChart(ctx, { title: t("alebrijes.label.chart"), names, rounds: outcome.details.rounds.map((r) => r.points) }));
}

// ------------------------------------------------------------------------ entry points

export function render(root, message, ctx) {
  const view = message.view;
  if (!view) { root.replaceChildren(); return; }
  if (local.table !== message.table.id) { local.table = message.table.id; local.selected = new Set(); }
  const ids = new Set(view.hand.map((c) => c.id));
  for (const id of [...local.selected]) if (!ids.has(id)) local.selected.delete(id);
  if (view.current !== message.seat || !handTakesPart(view)) local.selected.clear();
  const rctx = { ...ctx, rerender: () => redrawKeepingFocus(root, () => render(root, message, ctx)) };
  root.replaceChildren(...[
    finalSection(rctx, message), statusBar(rctx, message),
    view.phase !== "over" && message.seat !== null ? dock(rctx, message) : null,
    view.phase !== "over" ? trickPanel(rctx, message) : null,
    // a round just scored (the exchange that opens the next): how it ended comes first,
    // not under the players' table at the bottom of a phone's page
    ...(view.phase === "exchange" ? [roundsPanel(rctx, message), playersPanel(rctx, message)]
      : [playersPanel(rctx, message), roundsPanel(rctx, message)])].filter(Boolean));
}

// how each event reads in the log (table.js keeps the journal: ../journal.js)
export function eventLines(ctx, event) {
  const { t } = ctx;
  const p = event.seat !== undefined ? who(ctx, event.seat) : "";
  switch (event.type) {
    case "exchanged": if (event.count && event.drawn) return [swapLine(ctx, event, "alebrijes.log.exchanged_cards")];
      return [event.count ? t(event.count === 1 ? "alebrijes.log.exchanged_one" : "alebrijes.log.exchanged", { player: p, n: event.count }) : t("alebrijes.log.kept", { player: p })];
    case "passed": if (event.count && event.drawn) return [swapLine(ctx, event, "alebrijes.log.passed_exchange_cards")];
      return [event.count ? t(event.count === 1 ? "alebrijes.log.passed_exchange_one" : "alebrijes.log.passed_exchange", { player: p, n: event.count }) : t("alebrijes.log.passed", { player: p })];
    case "played": return [t(`alebrijes.log.${event.move}`, { player: p, combo: comboText(ctx, event.combo) })];
    // a discard names its card in the discarder's own copy of the event only
    case "ollin": return [event.card ? t("alebrijes.log.ollin_discard_card", { player: p, card: cardName(ctx, event.card) })
      : t(`alebrijes.log.ollin_${event.effect}`, { player: p })];
    case "drew": return event.card ? [t("alebrijes.log.drew_card", { player: p, card: cardName(ctx, event.card) })] : [t("alebrijes.log.drew", { player: p })];
    case "trick_started": return [t("alebrijes.log.trick_started", { player: who(ctx, event.leader) })];
    case "trick_won": return [t("alebrijes.log.trick_won", { player: p })];
    case "round_scored": return [t("alebrijes.log.round_scored", { round: event.round, player: who(ctx, event.out),
      points: event.players.filter((x) => x.seat !== event.out).map((x) => `${ctx.seatName(x.seat)} ${x.points}`).join(", ") })];
    // (round 1's starter is drawn or chosen: nobody has a total yet)
    case "round_started": return [t(event.round === 1 ? "alebrijes.log.first_round" : "alebrijes.log.round_started",
      { round: event.round, player: who(ctx, event.starter) })];
    case "game_over": return [t("alebrijes.phase.over")];
    default: return [];
  }
}
