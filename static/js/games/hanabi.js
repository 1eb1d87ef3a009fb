// Hanabi client: draws the server's view and offers exactly the legal actions it lists.
// It holds no rules: what may be clued, played or discarded comes from legal_actions.
import { svg } from "../svg.js";

const FILL = { red: "#d62828", green: "#2a9d3f", black: "#2b2b2b", blue: "#1d5fd0", yellow: "#e0b400", multi: "url(#hanabi-rainbow)" };


// one shared gradient definition for multicolour cards
function defs() {
  const node = svg("svg", { width: 0, height: 0, "aria-hidden": "true" },
    svg("defs", {}, svg("linearGradient", { id: "hanabi-rainbow", x1: 0, y1: 0, x2: 1, y2: 1 },
      ...["#d62828", "#e0b400", "#2a9d3f", "#1d5fd0", "#7b2cbf"].map((c, i) =>
        svg("stop", { offset: `${i * 25}%`, "stop-color": c })))));
  // through the CSSOM, not a style="" attribute (the Content-Security-Policy refuses those)
  node.style.position = "absolute";
  return node;
}

export function cardFace(color, rank, label) {
  return svg("svg", { class: "hcard", viewBox: "0 0 60 84", role: "img", "aria-label": label },
    svg("rect", { x: 1, y: 1, width: 58, height: 82, rx: 7, fill: FILL[color] || "#888", stroke: "#fff", "stroke-width": 2 }),
    svg("circle", { cx: 30, cy: 42, r: 17, fill: "rgba(255,255,255,0.9)" }),
    svg("text", { x: 30, y: 50, "text-anchor": "middle", "font-size": 24, "font-weight": 700, fill: color === "yellow" ? "#7a5c00" : "#222" }, rank),
    svg("text", { x: 8, y: 17, "font-size": 13, "font-weight": 700, fill: "#fff" }, rank));
}

function cardBack(knowledge, label) {
  const colors = knowledge.possible_colors;
  const ranks = knowledge.possible_ranks;
  const fill = knowledge.color ? FILL[knowledge.color] : "#3a3f55";
  const node = svg("svg", { class: "hcard back", viewBox: "0 0 60 84", role: "img", "aria-label": label },
    svg("rect", { x: 1, y: 1, width: 58, height: 82, rx: 7, fill, stroke: "#fff", "stroke-width": 2, opacity: knowledge.color ? 0.85 : 1 }));
  // pips for the colours it may still be
  colors.forEach((c, i) => node.append(svg("circle", { cx: 9 + i * 8.5, cy: 10, r: 3.3, fill: FILL[c], stroke: "#fff", "stroke-width": 0.8 })));
  node.append(svg("text", { x: 30, y: 52, "text-anchor": "middle", "font-size": knowledge.rank ? 26 : 11, "font-weight": 700, fill: "#fff" },
    knowledge.rank ? knowledge.rank : ranks.join(" ")));
  return node;
}

function cardLabel(ctx, color, rank) {
  return `${ctx.t("color." + color)} ${rank}`;
}

function knowledgeText(ctx, k) {
  const parts = [];
  if (k.color) parts.push(`${ctx.t("hanabi.is")} ${ctx.t("color." + k.color)}`);
  if (k.rank) parts.push(`${ctx.t("hanabi.is")} ${k.rank}`);
  for (const c of k.not_colors) parts.push(`${ctx.t("hanabi.not")} ${ctx.t("color." + c)}`);
  for (const r of k.not_ranks) parts.push(`${ctx.t("hanabi.not")} ${r}`);
  return parts.length ? parts.join(", ") : ctx.t("hanabi.unknown");
}

function tokens(ctx, label, count, max, cls) {
  const { el } = ctx;
  return el("div", { class: `tokens ${cls}`, "aria-label": `${label}: ${count}/${max}` },
    el("span", { class: "token-label" }, `${label} ${count}/${max}`),
    el("span", { class: "token-row" }, Array.from({ length: max }, (_, i) => el("span", { class: `token${i < count ? " full" : ""}` }))));
}

function otherHand(ctx, message, seat) {
  const { el, t } = ctx;
  const view = message.view;
  const clueButtons = [];
  for (const color of view.colors) {
    const action = { type: "clue", target: seat, color };
    if (ctx.isLegal(action)) clueButtons.push(el("button", { class: `clue color-${color}`, onclick: () => ctx.send(action), title: t("color." + color) }, t("color." + color)));
  }
  for (const rank of [1, 2, 3, 4, 5]) {
    const action = { type: "clue", target: seat, rank };
    if (ctx.isLegal(action)) clueButtons.push(el("button", { class: "clue rank", onclick: () => ctx.send(action) }, String(rank)));
  }
  return el("section", { class: `card hand${view.turn === seat ? " acting" : ""}` },
    el("h3", {}, t("hanabi.hand_of", { name: ctx.seatName(seat) })),
    el("div", { class: "cards" }, view.hands[seat].map((c) => el("figure", { class: "slot", dataset: { card: c.id } },
      c.color ? cardFace(c.color, c.rank, cardLabel(ctx, c.color, c.rank)) : cardBack(c.knowledge, knowledgeText(ctx, c.knowledge)),
      el("figcaption", {}, knowledgeText(ctx, c.knowledge))))),
    clueButtons.length ? el("div", { class: "clues", role: "group", "aria-label": t("hanabi.clue_to", { name: ctx.seatName(seat) }) },
      el("span", { class: "muted" }, t("hanabi.clue_to", { name: ctx.seatName(seat) })), clueButtons) : null);
}

function myHand(ctx, message) {
  const { el, t } = ctx;
  const seat = message.seat;
  const view = message.view;
  return el("section", { class: `card hand mine${view.turn === seat ? " acting" : ""}` },
    el("h3", {}, t("hanabi.your_hand")),
    el("div", { class: "cards" }, view.hands[seat].map((c) => {
      const play = { type: "play", card: c.id };
      const discard = { type: "discard", card: c.id };
      return el("figure", { class: "slot", dataset: { card: c.id } },
        cardBack(c.knowledge, knowledgeText(ctx, c.knowledge)),
        el("figcaption", {}, knowledgeText(ctx, c.knowledge)),
        el("div", { class: "card-actions" },
          ctx.isLegal(play) ? el("button", { onclick: () => ctx.send(play), class: "play" }, t("hanabi.play")) : null,
          ctx.isLegal(discard) ? el("button", { onclick: () => ctx.send(discard), class: "secondary discard" }, t("hanabi.discard_action")) : null));
    })));
}

function fireworks(ctx, view) {
  const { el, t } = ctx;
  return el("section", { class: "card fireworks" },
    el("h3", {}, t("hanabi.fireworks")),
    el("div", { class: "cards" }, view.colors.map((color) => {
      const height = view.fireworks[color];
      return el("figure", { class: "slot", dataset: { color } },
        height ? cardFace(color, height, cardLabel(ctx, color, height)) :
          svg("svg", { class: "hcard empty", viewBox: "0 0 60 84", role: "img", "aria-label": `${t("color." + color)} 0` },
            svg("rect", { x: 2, y: 2, width: 56, height: 80, rx: 7, fill: "none", stroke: FILL[color] === "url(#hanabi-rainbow)" ? "#7b2cbf" : FILL[color], "stroke-width": 3, "stroke-dasharray": "6 4" })),
        el("figcaption", {}, `${t("color." + color)} ${height}`));
    })));
}

function discards(ctx, view) {
  const { el, t } = ctx;
  const byColor = view.colors.map((color) => [color, view.discard.filter((c) => c.color === color).sort((a, b) => a.rank - b.rank)]);
  return el("section", { class: "card discards" },
    el("h3", {}, `${t("hanabi.discard")} (${view.discard.length})`),
    view.discard.length ? el("div", { class: "discard-rows" }, byColor.filter(([, cards]) => cards.length).map(([color, cards]) =>
      el("div", { class: "discard-row" }, cards.map((c) => cardFace(c.color, c.rank, cardLabel(ctx, c.color, c.rank))))))
      : el("p", { class: "muted" }, t("hanabi.discard_empty")));
}

function finalBanner(ctx, view) {
  const { el, t } = ctx;
  return el("section", { class: "card final", role: "status" },
    el("h2", {}, t("hanabi.final", { score: view.score, max: view.max_score })),
    el("p", { class: "verdict" }, t(`hanabi.verdict.${view.verdict}`)),
    el("p", { class: "muted" }, t(`hanabi.reason.${view.over}`)));
}

export function render(root, message, ctx) {
  const { el, t } = ctx;
  const view = message.view;
  if (!view) { root.replaceChildren(); return; }
  const me = message.seat;
  const order = [];
  for (let i = 1; i <= view.seats; i++) order.push(((me ?? -1) + i + view.seats) % view.seats);
  const others = me === null ? order : order.filter((s) => s !== me);
  root.replaceChildren(...[
    defs(),
    view.over ? finalBanner(ctx, view) : null,
    el("section", { class: "card status-bar" },
      tokens(ctx, t("hanabi.clues"), view.clues, view.max_clues, "blue"),
      tokens(ctx, t("hanabi.fuses"), view.fuses, view.max_fuses, "red"),
      el("span", { class: "stat" }, `${t("hanabi.deck")}: `, el("strong", { id: "deck-count" }, view.deck)),
      el("span", { class: "stat" }, `${t("hanabi.score")}: `, el("strong", { id: "score" }, view.score), `/${view.max_score}`),
      view.final_turns_left !== null && !view.over ? el("span", { class: "stat warn" }, t("hanabi.final_round", { n: view.final_turns_left })) : null),
    fireworks(ctx, view),
    ...others.map((seat) => otherHand(ctx, message, seat)),
    me !== null ? myHand(ctx, message) : null,
    discards(ctx, view)].filter(Boolean));
}

export function logLines(message, ctx) {
  if (!message.view) return [];
  const { t } = ctx;
  const name = (s) => ctx.seatName(s);
  const card = (c) => `${t("color." + c.color)} ${c.rank}`;
  return message.view.log.map((e) => {
    if (e.type === "clue" && e.color) return t("hanabi.log.clue_color", { giver: name(e.seat), target: name(e.target), n: e.cards.length, color: t("colors." + e.color) });
    if (e.type === "clue") return t("hanabi.log.clue_rank", { giver: name(e.seat), target: name(e.target), n: e.cards.length, rank: e.rank });
    if (e.type === "play") return t(e.success ? "hanabi.log.play_ok" : "hanabi.log.play_bad", { seat: name(e.seat), card: card(e.card) });
    return t("hanabi.log.discard", { seat: name(e.seat), card: card(e.card) });
  });
}
