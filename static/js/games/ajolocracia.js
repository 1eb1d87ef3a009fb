// Ajolocracia client: draws the server's view of a simultaneous draft (your hand and pick,
// who has picked, every player's cards grouped by kind, the last reveal, live and final
// scores) and sends only actions listed in legal_actions. It holds no rules: what may be
// picked, picked twice ("¡Ajolocracia!") or taken back comes from the server.
import { svg } from "../svg.js";
import { handDock } from "../ui/dock.js";
import { scoreChart } from "../ui/chart.js";
import { andList } from "../i18n.js";

// the tableau groups of the view, in display order, and the score row each one feeds
const GROUPS = ["citizenship", "isopods_algae", "beetles_annelids", "institutions", "ambystoma", "environment", "ine", "values"];
const SCORED = ["citizenship", "isopods_algae", "beetles_annelids", "institutions", "ambystoma"];

// The local state of a choice not sent yet: with an INE in front, the selected card and,
// after "¡Ajolocracia!", the second one (nothing is sent until confirmed).
const ui = { turn: null, first: null, choosingSecond: false, second: null, focus: null };
let current = null; // the last render's arguments, to redraw after a local UI change

// ------------------------------------------------------------------ card art (inline SVG)


function face(cx, cy, r) {
  return svg("g", {},
    svg("circle", { cx, cy, r, fill: "#ffe3c4", stroke: "#3b2a4d", "stroke-width": 1.4 }),
    svg("circle", { cx: cx - r * 0.35, cy: cy - r * 0.2, r: r * 0.13, fill: "#3b2a4d" }),
    svg("circle", { cx: cx + r * 0.35, cy: cy - r * 0.2, r: r * 0.13, fill: "#3b2a4d" }),
    svg("path", { d: `M${cx - r * 0.45} ${cy + r * 0.25} Q${cx} ${cy + r * 0.7} ${cx + r * 0.45} ${cy + r * 0.25}`, fill: "none", stroke: "#3b2a4d", "stroke-width": 1.3, "stroke-linecap": "round" }));
}

function faces(n) {
  const spots = { 1: [[30, 42, 13]], 2: [[19, 42, 9.5], [41, 42, 9.5]], 3: [[30, 30, 9], [18.5, 51, 9], [41.5, 51, 9]] }[n];
  return spots.map(([x, y, r]) => face(x, y, r));
}

function axolotl(body, ink) {
  const gills = [-1, 1].flatMap((side) => [-5, 0, 5].map((dy) =>
    svg("path", { d: `M${30 + side * 10} ${28 + dy * 0.4} q${side * 6} ${dy - 2} ${side * 9} ${dy * 1.2}`, stroke: "#ff8fab", "stroke-width": 2.6, fill: "none", "stroke-linecap": "round" })));
  return [
    svg("path", { d: "M30 56 q-3 12 5 18 q-9 -3 -9 -18 z", fill: body, stroke: ink, "stroke-width": 1 }),
    svg("ellipse", { cx: 30, cy: 46, rx: 8, ry: 13, fill: body, stroke: ink, "stroke-width": 1 }),
    svg("path", { d: "M23 50 l-7 5 M37 50 l7 5 M24 40 l-7 -2 M36 40 l7 -2", stroke: body, "stroke-width": 3, "stroke-linecap": "round" }),
    ...gills,
    svg("ellipse", { cx: 30, cy: 29, rx: 11, ry: 8, fill: body, stroke: ink, "stroke-width": 1 }),
    svg("circle", { cx: 25.5, cy: 28, r: 1.6, fill: "#1b1b1b" }), svg("circle", { cx: 34.5, cy: 28, r: 1.6, fill: "#1b1b1b" }),
    svg("path", { d: "M26 32.5 q4 2.5 8 0", stroke: "#1b1b1b", "stroke-width": 1, fill: "none" }),
  ];
}

const GLYPHS = {
  citizenship_1: () => faces(1),
  citizenship_2: () => faces(2),
  citizenship_3: () => faces(3),
  isopods_algae: () => [
    svg("path", { d: "M16 76 q5 -9 0 -17 q-5 -8 1 -16 M24 76 q-4 -8 1 -15 q4 -7 0 -13 M45 76 q5 -9 0 -16", stroke: "#b7e4c7", "stroke-width": 3, fill: "none", "stroke-linecap": "round" }),
    svg("ellipse", { cx: 32, cy: 34, rx: 15, ry: 9, fill: "#d9e2ec", stroke: "#31424f", "stroke-width": 1.2 }),
    ...[24, 29, 34, 39].map((x) => svg("path", { d: `M${x} 26 v16`, stroke: "#31424f", "stroke-width": 1 })),
    svg("path", { d: "M17 31 q-5 -6 -9 -5 M17 37 q-5 4 -9 4", stroke: "#31424f", "stroke-width": 1.2, fill: "none" })],
  beetles_annelids: () => [
    svg("circle", { cx: 30, cy: 20, r: 5, fill: "#2b2118" }),
    svg("ellipse", { cx: 30, cy: 36, rx: 12, ry: 14, fill: "#2b2118", stroke: "#f4d9b3", "stroke-width": 1.2 }),
    svg("path", { d: "M30 23 v27 M18 31 l-6 -4 M18 39 l-7 0 M18 46 l-6 4 M42 31 l6 -4 M42 39 l7 0 M42 46 l6 4", stroke: "#f4d9b3", "stroke-width": 1.3 }),
    svg("path", { d: "M9 68 q6 -8 12 0 t12 0 t12 0 t8 -2", stroke: "#f28482", "stroke-width": 4.5, fill: "none", "stroke-linecap": "round" })],
  institution: () => [
    svg("polygon", { points: "10,32 30,18 50,32", fill: "#f1faee" }),
    ...[14, 23, 32, 41].map((x) => svg("rect", { x, y: 35, width: 5, height: 24, fill: "#f1faee" })),
    svg("rect", { x: 9, y: 60, width: 42, height: 5, fill: "#f1faee" }), svg("rect", { x: 6, y: 67, width: 48, height: 4, fill: "#a8dadc" })],
  mexicanum: () => axolotl("#ffc2d4", "#5a1030"),
  lermaense: () => axolotl("#3d4451", "#0d0f12"),
  rosaceum: () => axolotl("#fff0f3", "#8a3b47"),
  environment: () => [
    svg("rect", { x: 4, y: 48, width: 52, height: 30, rx: 3, fill: "#7fc8f8" }),
    svg("path", { d: "M6 56 q5 -4 10 0 t10 0 t10 0 t10 0 t8 0 M6 66 q5 -4 10 0 t10 0 t10 0 t10 0 t8 0", stroke: "#e3f2fd", "stroke-width": 1.6, fill: "none" }),
    ...[[14, 18], [22, 12], [44, 20]].map(([x, top]) => svg("g", {},
      svg("path", { d: `M${x} 50 V${top}`, stroke: "#c5e1a5", "stroke-width": 2 }),
      svg("ellipse", { cx: x, cy: top + 6, rx: 2.6, ry: 6, fill: "#6d4c41" })))],
  ine: () => [
    svg("rect", { x: 8, y: 28, width: 44, height: 30, rx: 3, fill: "#fff8e7", stroke: "#5c3d00", "stroke-width": 1.2 }),
    svg("rect", { x: 11, y: 33, width: 13, height: 17, rx: 2, fill: "#e0c48a" }), face(17.5, 40, 4.5),
    ...[35, 40, 45, 50].map((y) => svg("path", { d: `M27 ${y} h${y === 50 ? 14 : 21}`, stroke: "#8d6e3f", "stroke-width": 1.5 })),
    svg("text", { x: 30, y: 72, "text-anchor": "middle", "font-size": 12, "font-weight": 700, fill: "#3d2800" }, "INE")],
  value: () => [
    svg("path", { d: "M30 64 C10 50 12 28 30 38 C48 28 50 50 30 64 Z", fill: "#fff", stroke: "#ffd6d6", "stroke-width": 1 }),
    svg("path", { d: "M30 20 l2.4 5 5.4 0.6 -4 3.7 1.1 5.3 -4.9 -2.7 -4.9 2.7 1.1 -5.3 -4 -3.7 5.4 -0.6 z", fill: "#ffd166" })],
};

// colour, ink and corner mark of every kind (the corner shows faces or Ambystoma points)
const ART = {
  citizenship_1: { bg: "#6a4c93", corner: "1" }, citizenship_2: { bg: "#6a4c93", corner: "2" }, citizenship_3: { bg: "#6a4c93", corner: "3" },
  isopods_algae: { bg: "#2a9d8f" }, beetles_annelids: { bg: "#8d5524" }, institution: { bg: "#1d3557" },
  mexicanum: { bg: "#d6336c", corner: "3" }, lermaense: { bg: "#8d99ae", corner: "2" }, rosaceum: { bg: "#f4a3a8", corner: "1", ink: "#5a1a22" },
  environment: { bg: "#4f772d" }, ine: { bg: "#e9a23b", ink: "#3d2800" }, value: { bg: "#c1121f" },
};

export function kindName(t, kind) { return t(`ajolocracia.kind.${kind}`); }

export function cardSvg(kind, label, extraClass = "") {
  const art = ART[kind] || { bg: "#777" };
  const node = svg("svg", { class: `aj-card ${extraClass}`.trim(), viewBox: "0 0 60 84", role: "img", "aria-label": label, "data-kind": kind },
    svg("title", {}, label),
    svg("rect", { x: 1, y: 1, width: 58, height: 82, rx: 6, fill: art.bg, stroke: "#fff", "stroke-width": 2 }),
    (GLYPHS[kind] || (() => []))());
  if (art.corner) {
    node.append(svg("circle", { cx: 11, cy: 11, r: 7, fill: "rgba(255,255,255,0.92)" }),
      svg("text", { x: 11, y: 15, "text-anchor": "middle", "font-size": 11, "font-weight": 700, fill: art.ink || "#222" }, art.corner));
  }
  return node;
}

// ------------------------------------------------------------------ small helpers

const names = (ctx, seats) => andList(seats.map((s) => ctx.seatName(s)));
const seatOrder = (view, me) => Array.from({ length: view.seats }, (_, i) => ((me ?? 0) + i) % view.seats);

function findDouble(message, a, b) {
  return message.legal_actions.find((x) => x.type === "pick" && "second" in x
    && ((x.card === a && x.second === b) || (x.card === b && x.second === a))) || null;
}

function canAjolocracia(message, first) {
  return message.legal_actions.some((x) => x.type === "pick" && "second" in x && (x.card === first || x.second === first));
}

function syncUi(view) {
  const turn = `${view.round}-${view.turn}-${view.phase}`;
  const inHand = (id) => (view.hand || []).some((c) => c.id === id);
  if (ui.turn !== turn || (ui.first !== null && !inHand(ui.first))) {
    Object.assign(ui, { turn, first: null, choosingSecond: false, second: null });
  }
}

function redraw() { if (current) render(current.root, current.message, current.ctx); }

function miniCard(ctx, card, cls = "") {
  return cardSvg(card.kind, kindName(ctx.t, card.kind), `aj-mini ${cls}`);
}

// ------------------------------------------------------------------ sections

function statusBar(ctx, message) {
  const { el, t } = ctx;
  const view = message.view;
  const me = message.seat;
  const step = view.direction === "left" ? 1 : -1;
  const deadlines = message.deadlines || {};
  const left = me !== null && String(me) in deadlines ? deadlines[String(me)] : Math.max(-1, ...Object.values(deadlines));
  const picked = view.players.filter((p) => p.picked).length;
  return el("section", { class: "card aj-status", "aria-label": t("ajolocracia.round_of", { round: view.round, rounds: view.rounds }) },
    el("div", { class: "aj-status-row" },
      el("strong", { class: "aj-round" }, t("ajolocracia.round_of", { round: view.round, rounds: view.rounds })),
      view.phase === "pick" ? el("span", { class: "aj-turn" }, t("ajolocracia.turn", { n: view.turn })) : null,
      view.phase === "pick" && left >= 0 ? el("span", { class: "aj-clock", role: "timer" }, `${t("ajolocracia.time_to_pick")} `,
        el("strong", { class: "clock", dataset: { due: String(left) } }, t("table.time_left", { s: Math.ceil(left) }))) : null),
    view.phase === "pick" ? el("div", { class: "aj-status-row" },
      el("span", { class: `aj-direction ${view.direction}` }, el("span", { class: "aj-arrow", "aria-hidden": "true" }, view.direction === "left" ? "↻" : "↺"), " ",
        t(`ajolocracia.direction.${view.direction}`)),
      me !== null ? el("span", { class: "muted" }, t("ajolocracia.pass_to", {
        to: ctx.seatName((me + step + view.seats) % view.seats), from: ctx.seatName((me - step + view.seats) % view.seats) })) : null) : null,
    el("div", { class: "aj-status-row muted" },
      view.phase === "pick" ? el("span", { id: "aj-picked-count" }, t("ajolocracia.picked_count", { n: picked, total: view.seats })) : null,
      el("span", {}, t("ajolocracia.pile", { n: view.pile })),
      el("span", {}, t("ajolocracia.discard", { n: view.discard }))));
}

function whoPicked(ctx, message) {
  const { el, t } = ctx;
  const view = message.view;
  const me = message.seat;
  const picking = view.phase === "pick";
  return el("section", { class: "card aj-players", "aria-label": t("ajolocracia.picked_count", { n: view.players.filter((p) => p.picked).length, total: view.seats }) },
    el("ul", { class: "aj-player-list" }, seatOrder(view, me).map((seat) => {
      const p = view.players[seat];
      const state = !picking ? null : p.picked ? "picked" : "picking";
      return el("li", { class: `aj-player${state ? ` aj-${state}` : ""}${seat === me ? " aj-me" : ""}`, dataset: { seat: String(seat) } },
        el("span", { class: "aj-player-name" }, ctx.seatName(seat), seat === me ? ` ${t("table.you")}` : ""),
        state ? el("span", { class: "aj-pick-state" }, state === "picked" ? `✓ ${t("ajolocracia.has_picked")}` : t("ajolocracia.is_picking")) : null,
        el("span", { class: "aj-player-facts" },
          picking ? el("span", { class: "muted", title: t("ajolocracia.hand_size", { n: p.hand_size }) }, t("ajolocracia.chip.hand", { n: p.hand_size })) : null,
          el("span", { class: "muted", title: t("ajolocracia.values_count", { n: p.values }) }, t("ajolocracia.chip.values", { n: p.values })),
          el("span", { class: "aj-score", title: t("ajolocracia.score", { n: p.score }) }, t("ajolocracia.pts", { n: p.score })),
          p.can_pick_two && picking ? el("span", { class: "aj-ine-badge", title: t("ajolocracia.can_pick_two") }, t("ajolocracia.chip.ine")) : null));
    })));
}

// With an INE in front a tap only selects a card: the pick is sent once the player has said
// whether it is one card or two, so the table never resolves between the two choices.
function handCard(ctx, message, card, twoPossible) {
  const { el, t } = ctx;
  const pick = message.view.my_pick || [];
  const name = kindName(t, card.kind);
  const single = { type: "pick", card: card.id };
  const picked = pick.includes(card.id); // the server's pick
  const isFirst = ui.first === card.id; // chosen here, not sent yet
  const isSecond = ui.choosingSecond && ui.second === card.id;
  let disabled;
  let onclick;
  if (ui.choosingSecond) {
    disabled = isFirst || !findDouble(message, ui.first, card.id);
    onclick = () => { ui.second = card.id; redraw(); };
  } else if (twoPossible) {
    disabled = !ctx.isLegal(single);
    onclick = () => { Object.assign(ui, { first: card.id, second: null }); redraw(); };
  } else {
    disabled = !ctx.isLegal(single);
    onclick = () => { if (!(pick.length === 1 && pick[0] === card.id)) ctx.send(single); };
  }
  // the card's tag, short enough for the card ("Tu elección"; in a replay seen as another seat, "Elegida")
  let tag = picked ? t("ajolocracia.pick_tag") : null;
  if (ui.choosingSecond && isFirst) tag = t("ajolocracia.first_card");
  if (isSecond) tag = t("ajolocracia.second_card");
  const classes = ["aj-hand-card", picked && "aj-selected", isFirst && "aj-local", isSecond && "aj-second"].filter(Boolean).join(" ");
  // the button's name is its visible caption (and tag): the picture says it again, so it is hidden
  const picture = cardSvg(card.kind, name);
  picture.setAttribute("aria-hidden", "true");
  return el("button", { type: "button", class: classes, "aria-pressed": picked || isFirst || isSecond ? "true" : "false", disabled, onclick,
    dataset: { card: String(card.id), kind: card.kind, focus: `card-${card.id}` } },
  picture,
  el("span", { class: "aj-cap" }, name),
  tag ? el("span", { class: "aj-tag" }, tag) : null);
}

function handSection(ctx, message) {
  const { el, t } = ctx;
  const view = message.view;
  const pick = view.my_pick || [];
  const nameOf = (id) => kindName(t, view.hand.find((c) => c.id === id)?.kind);
  const twoPossible = message.legal_actions.some((x) => "second" in x);
  const button = (cls, focus, label, onclick, disabled = false) =>
    el("button", { type: "button", class: cls, disabled, dataset: { focus }, onclick }, label);
  const send = (action) => { Object.assign(ui, { first: null, choosingSecond: false, second: null }); ctx.send(action); };
  const buttons = [];
  let hint;
  if (ui.choosingSecond) {
    const double = ui.second !== null ? findDouble(message, ui.first, ui.second) : null;
    hint = [el("strong", { class: "aj-shout" }, t("ajolocracia.pick_second")), " ", t("ajolocracia.tap_second")];
    buttons.push(button("aj-confirm", "aj-confirm", t("ajolocracia.confirm_two"), () => send(double), !double),
      button("secondary aj-cancel", "aj-cancel", t("ajolocracia.cancel_two"), () => { Object.assign(ui, { choosingSecond: false, second: null, focus: "aj-ine" }); redraw(); }));
  } else if (ui.first !== null) {
    const single = { type: "pick", card: ui.first };
    hint = t("ajolocracia.selected_hint", { card: nameOf(ui.first) });
    if (!(pick.length === 1 && pick[0] === ui.first)) buttons.push(button("aj-pick-one", "aj-pick-one", t("ajolocracia.pick"), () => send(single), !ctx.isLegal(single)));
    if (canAjolocracia(message, ui.first)) buttons.push(button("aj-ine-button", "aj-ine", t("ajolocracia.ajolocracia"), () => { Object.assign(ui, { choosingSecond: true, second: null, focus: "second-card" }); redraw(); }));
  } else {
    hint = pick.length ? `${t("ajolocracia.your_pick")}: ${pick.map(nameOf).join(" + ")}. ${t("ajolocracia.waiting_reveal")}` : t("ajolocracia.tap_to_pick");
  }
  const unpick = { type: "unpick" };
  if (!ui.choosingSecond && ctx.isLegal(unpick)) buttons.push(button("secondary aj-unpick", "aj-unpick", t("ajolocracia.unpick"), () => send(unpick)));
  const dock = handDock(ctx, { label: t("ajolocracia.your_hand") },
    el("h3", {}, t("ajolocracia.your_hand"), " ", el("span", { class: "muted" }, t("ajolocracia.hand_size", { n: view.hand.length }))),
    el("p", { class: "aj-hint" }, pick.length === 2 && ui.first === null ? el("strong", { class: "aj-shout" }, `${t("ajolocracia.ajolocracia")} `) : null, hint),
    twoPossible && ui.first === null ? el("p", { class: "aj-ine-help muted" }, t("ajolocracia.ine_help")) : null,
    el("div", { class: "aj-hand-cards" }, view.hand.map((card) => handCard(ctx, message, card, twoPossible))),
    buttons.length ? el("div", { class: "aj-hand-actions row" }, buttons) : null);
  dock.classList.add("aj-hand", ...[pick.length && "aj-has-pick", ui.choosingSecond && "aj-choosing-second"].filter(Boolean));
  return dock;
}

function revealBlock(ctx, reveal, title) {
  const { el, t } = ctx;
  return el("section", { class: `card aj-reveal${reveal.automatic ? " aj-automatic" : ""}` },
    el("h3", {}, title),
    el("ul", { class: "aj-reveal-list" }, reveal.picks.map((p) => el("li", { class: "aj-reveal-item", dataset: { seat: String(p.seat) } },
      el("span", { class: "aj-reveal-name" }, ctx.seatName(p.seat)),
      p.ajolocracia ? el("span", { class: "aj-shout" }, t("ajolocracia.ajolocracia")) : null,
      el("span", { class: "aj-reveal-cards" }, p.cards.map((c) => el("span", { class: "aj-reveal-card", dataset: { card: String(c.id), kind: c.kind } },
        miniCard(ctx, c, "aj-revealed"),
        el("span", { class: "aj-cap" }, kindName(t, c.kind)),
        c.environment !== null && c.environment !== undefined ? el("span", { class: "aj-note" }, t("ajolocracia.on_environment")) : null))),
      p.returned_ine ? el("span", { class: "aj-note muted" }, t("ajolocracia.returned_ine")) : null))));
}

function lastReveals(ctx, view) {
  const { t } = ctx;
  const out = [];
  const reveal = view.last_reveal;
  const last = view.last_cards;
  if (reveal) {
    const title = `${reveal.round !== view.round || view.phase !== "pick" ? `${t("ajolocracia.table.round", { n: reveal.round })} · ` : ""}${t("ajolocracia.last_reveal", { turn: reveal.turn })}`;
    out.push(revealBlock(ctx, reveal, title));
  }
  if (last && (!reveal || last.round >= reveal.round)) out.push(revealBlock(ctx, last, t("ajolocracia.last_cards", { round: last.round })));
  return out;
}

function habitat(ctx, env) {
  return ctx.el("span", { class: `aj-habitat${env.ambystoma ? " aj-occupied" : ""}` },
    miniCard(ctx, env),
    env.ambystoma ? miniCard(ctx, env.ambystoma, "aj-resident") : null,
    env.ambystoma ? ctx.el("span", { class: "aj-times3", title: ctx.t("ajolocracia.on_environment") }, "×3") : null);
}

// An Ambystoma on an environment is shown, counted and scored in the Ambystomas' group (the
// view lists it with its environment); the environments' group holds only the free ones,
// which score nothing yet.
function group(ctx, player, key) {
  const { el, t } = ctx;
  const envs = player.tableau.environment || [];
  let cards = player.tableau[key] || [];
  let body = cards.map((c) => miniCard(ctx, c));
  let count = cards.length;
  if (key === "ambystoma") {
    const homes = envs.filter((env) => env.ambystoma);
    body = [...body, ...homes.map((env) => habitat(ctx, env))];
    count += homes.length;
  } else if (key === "environment") {
    cards = envs.filter((env) => !env.ambystoma);
    body = cards.map((env) => habitat(ctx, env));
    count = cards.length;
  }
  if (!count) return null;
  const label = t(key === "environment" ? "ajolocracia.category.free_environment" : `ajolocracia.category.${key}`);
  const points = SCORED.includes(key) ? player.running[key] : null;
  const detail = key === "citizenship" ? `${t("ajolocracia.kind.faces", { n: player.running.faces })} · ` : "";
  const note = { values: "ajolocracia.values_kept", environment: "ajolocracia.free_environment_note" }[key];
  return el("div", { class: `aj-group aj-group-${key}`, dataset: { group: key, count: String(count) } },
    el("div", { class: "aj-group-label" },
      el("span", {}, `${label} (${count})`),
      points !== null ? el("span", { class: "aj-points", title: t("ajolocracia.score", { n: points }) }, `${detail}${t("ajolocracia.pts", { n: points })}`) : null,
      note ? el("span", { class: "aj-points muted" }, t(note)) : null),
    el("div", { class: "aj-stack" }, body));
}

function tableau(ctx, message, seat) {
  const { el, t } = ctx;
  const player = message.view.players[seat];
  const groups = GROUPS.map((key) => group(ctx, player, key)).filter(Boolean);
  return el("section", { class: `card aj-tableau${seat === message.seat ? " aj-mine" : ""}`, dataset: { seat: String(seat) } },
    el("h3", {}, seat === message.seat ? t("ajolocracia.your_tableau") : t("ajolocracia.tableau_of", { player: ctx.seatName(seat) }),
      message.view.phase === "pick" ? el("span", { class: "aj-points" }, `${t("ajolocracia.table.running")}: ${t("ajolocracia.pts", { n: player.running.total })}`) : null),
    groups.length ? el("div", { class: "aj-groups" }, groups) : el("p", { class: "muted" }, t("ajolocracia.no_cards")));
}

// score tables: one row per player (you first), one column per category (its card as header)
const ICON = { citizenship: "citizenship_2", isopods_algae: "isopods_algae", beetles_annelids: "beetles_annelids", institutions: "institution", ambystoma: "mexicanum" };

// the header's card is its accessible name (role img, aria-label); its title is a tooltip only
function categoryHeader(ctx, key) {
  return cardSvg(ICON[key], ctx.t(`ajolocracia.category.${key}`), "aj-icon");
}

// What the columns' icons and short marks mean, in words beside each table: a phone shows
// no tooltip. A card key is hidden from screen readers (its words follow it, and the header
// cells have their own names); a short mark ("R1", "(n)") is read with its words.
function legendItem(ctx, key, text) {
  return ctx.el("li", {}, key, ctx.el("span", {}, text));
}

function iconLegend(ctx) {
  const { el, t } = ctx;
  const card = (key) => {
    const icon = cardSvg(ICON[key], t(`ajolocracia.category.${key}`), "aj-icon");
    icon.setAttribute("aria-hidden", "true");
    return icon;
  };
  return [...SCORED.map((key) => legendItem(ctx, card(key), t(`ajolocracia.category.${key}`))),
    legendItem(ctx, el("span", { class: "aj-legend-key" }, t("ajolocracia.legend.faces_key")), t("ajolocracia.legend.faces"))];
}

function scoreGrid(ctx, caption, headers, rows, cls, hideCaption = false, legend = null) {
  const { el, t } = ctx;
  const grid = el("div", { class: "aj-table-wrap" }, el("table", { class: `aj-scores ${cls}` },
    el("caption", { class: hideCaption ? "aj-sr" : null }, caption),
    el("thead", {}, el("tr", {}, el("th", { scope: "col" }, t("ajolocracia.table.player")),
      headers.map((h) => el("th", { scope: "col" }, h)))),
    el("tbody", {}, rows.map(([seat, cells]) => el("tr", { class: seat === ctx.me ? "aj-me-row" : "", dataset: { seat: String(seat) } },
      el("th", { scope: "row", title: ctx.seatName(seat) }, ctx.seatName(seat)), cells.map((c) => el("td", {}, c)))))));
  if (!legend) return grid;
  return el("div", { class: "aj-score-block" }, grid,
    el("ul", { class: "aj-legend", "aria-label": t("ajolocracia.legend", { table: caption }) }, legend));
}

function categoryCells(ctx, row) {
  const { el, t } = ctx;
  return SCORED.map((key) => (key === "citizenship"
    ? el("span", { title: t("ajolocracia.kind.faces", { n: row.faces }) }, String(row.citizenship), el("small", { class: "aj-faces" }, ` (${row.faces})`))
    : String(row[key])));
}

function runningTable(ctx, message) {
  const { el, t } = ctx;
  const view = message.view;
  const earlier = view.results.length > 0;
  const headers = [...SCORED.map((key) => categoryHeader(ctx, key)), t("ajolocracia.table.round_total"),
    earlier ? t("ajolocracia.table.total") : null].filter(Boolean);
  const rows = seatOrder(view, message.seat).map((seat) => {
    const p = view.players[seat];
    return [seat, [...categoryCells(ctx, p.running), el("strong", {}, String(p.running.total)),
      earlier ? el("span", { title: `${t("ajolocracia.table.earlier")}: ${p.score}` }, String(p.score + p.running.total)) : null].filter(Boolean)];
  });
  return el("section", { class: "card aj-running" }, scoreGrid(ctx, t("ajolocracia.table.running"), headers, rows, "aj-running-table", false, iconLegend(ctx)));
}

function resultsTable(ctx, message) {
  const { el, t } = ctx;
  const view = message.view;
  if (!view.results.length) return null;
  const bonus = view.values_bonus;
  const headers = [...view.results.map((r) => el("abbr", { title: t("ajolocracia.table.round", { n: r.round }) }, t("ajolocracia.table.round_short", { n: r.round }))),
    bonus ? t("ajolocracia.table.values_short") : null, t("ajolocracia.table.total")].filter(Boolean);
  const seats = seatOrder(view, message.seat);
  const rows = seats.map((seat) => [seat, [...view.results.map((r) => String(r.scores[seat].total)),
    bonus ? String(bonus.total[seat]) : null, el("strong", {}, String(view.players[seat].score))].filter(Boolean)]);
  const details = view.results.map((r) => el("details", { class: "aj-round-details" },
    el("summary", {}, `${t("ajolocracia.table.round", { n: r.round })} · ${t("ajolocracia.table.details")}`),
    scoreGrid(ctx, t("ajolocracia.table.round", { n: r.round }), [...SCORED.map((key) => categoryHeader(ctx, key)), t("ajolocracia.table.round_total")],
      seats.map((seat) => [seat, [...categoryCells(ctx, r.scores[seat]), el("strong", {}, String(r.scores[seat].total))]]), "aj-round-table", true,
      iconLegend(ctx))));
  if (bonus) {
    details.push(el("details", { class: "aj-round-details aj-values-details", open: true },
      el("summary", {}, t("ajolocracia.table.values_total")),
      scoreGrid(ctx, t("ajolocracia.table.values_total"),
        [t("ajolocracia.table.values_count"), t("ajolocracia.table.values_most"), t("ajolocracia.table.values_fewest"), t("ajolocracia.table.total")],
        seats.map((seat) => [seat, [String(bonus.counts[seat]), String(bonus.most[seat]), String(bonus.fewest[seat]), el("strong", {}, String(bonus.total[seat]))]]),
        "aj-values-table", true)));
  }
  const rounds = view.results.map((r) => legendItem(ctx, el("span", { class: "aj-legend-key" }, t("ajolocracia.table.round_short", { n: r.round })),
    t("ajolocracia.table.round", { n: r.round })));
  return el("section", { class: "card aj-results" }, scoreGrid(ctx, t("ajolocracia.table.results"), headers, rows, "aj-results-table", false, rounds), details);
}

function finalBanner(ctx, message) {
  const { el, t } = ctx;
  const view = message.view;
  const outcome = message.table.outcome;
  const scores = view.players.map((p) => p.score);
  const winners = outcome ? outcome.winners : scores.flatMap((s, i) => (s === Math.max(...scores) ? [i] : []));
  const top = Math.max(...scores);
  const tiebreak = scores.filter((s) => s === top).length > winners.length;
  // the scores round by round, and the values' bonus as the last step
  const bonus = view.values_bonus;
  const rounds = [...view.results.map((r) => r.scores.map((row) => row.total)), ...(bonus ? [bonus.total] : [])];
  const labels = [...view.results.map((r) => t("ajolocracia.table.round_short", { n: r.round })), ...(bonus ? [t("ajolocracia.table.values_short")] : [])];
  return el("section", { class: "card final aj-final", role: "status" },
    el("h2", { class: "verdict aj-winner" }, t(winners.length > 1 ? "ajolocracia.winners" : "ajolocracia.winner", { players: names(ctx, winners) })),
    tiebreak ? el("p", { class: "muted" }, t("ajolocracia.tiebreak")) : null,
    rounds.length ? scoreChart(ctx, { title: t("ajolocracia.chart"), names: view.players.map((_, seat) => ctx.seatName(seat)), rounds, labels }) : null);
}

// ------------------------------------------------------------------ entry points

export function render(root, message, ctx) {
  current = { root, message, ctx };
  const view = message.view;
  if (!view) { root.replaceChildren(); return; }
  syncUi(view);
  const focused = document.activeElement && root.contains(document.activeElement) ? document.activeElement.dataset.focus : null;
  const me = message.seat;
  const over = view.phase !== "pick";
  const parts = over
    ? [finalBanner(ctx, message), resultsTable(ctx, message), ...lastReveals(ctx, view)]
    : [statusBar(ctx, message), me !== null && view.hand ? handSection(ctx, message) : null, whoPicked(ctx, message),
      ...lastReveals(ctx, view), runningTable(ctx, message), resultsTable(ctx, message),
      ctx.el("div", { class: "aj-tableaux" }, seatOrder(view, me).map((seat) => tableau(ctx, message, seat)))];
  root.replaceChildren(...parts.filter(Boolean));
  // keep the keyboard where it was, or move it where a local step leads
  const target = ui.focus === "second-card" ? root.querySelector(".aj-hand-card:not([disabled])")
    : ui.focus || focused ? root.querySelector(`[data-focus="${ui.focus || focused}"]`) : null;
  ui.focus = null;
  target?.focus();
}

// how each event reads in the log (table.js keeps the journal: ../journal.js). A turn's
// reveal is one line that names every pick and where the hands go next (not one line per
// player and then "hands pass to the left"): the log reads as one step per turn.
export function eventLines(ctx, event) {
  const { t } = ctx;
  const who = (seat) => ctx.seatName(seat);
  const cardName = (c) => (c.environment !== null && c.environment !== undefined
    ? t("ajolocracia.log.card_on_environment", { card: kindName(t, c.kind) }) : kindName(t, c.kind));
  const part = (p) => {
    const cards = p.cards.map(cardName).join(" + ");
    const line = t(p.ajolocracia ? "ajolocracia.log.part_ajolocracia" : "ajolocracia.log.part", { player: who(p.seat), cards });
    return p.returned_ine ? t("ajolocracia.log.part_returned_ine", { part: line }) : line;
  };
  const parts = (picks) => picks.map(part).join("; ");
  const passed = (direction) => t(direction === "right" ? "ajolocracia.log.passed_right" : "ajolocracia.log.passed_left");
  switch (event.type) {
    case "picked": return [event.cards ? t("ajolocracia.log.picked_own", { cards: event.cards.map((c) => kindName(t, c.kind)).join(", ") }) : t("ajolocracia.log.picked", { player: who(event.seat) })];
    case "unpicked": return [t("ajolocracia.log.unpicked", { player: who(event.seat) })];
    case "revealed": return [t("ajolocracia.log.revealed", { turn: event.turn, picks: parts(event.picks),
      passed: event.direction ? passed(event.direction) : "" }).trim()];
    case "last_cards": return [t("ajolocracia.log.last_card", { picks: parts(event.picks) })];
    case "round_scored": return [t("ajolocracia.log.round_scored", { round: event.round }),
      ...event.scores.map((row, seat) => t("ajolocracia.log.round_score", { player: who(seat), n: row.total, round: event.round }))];
    case "round_started": return [t("ajolocracia.log.round_started", { round: event.round, n: event.hand_size })];
    case "game_over": {
      const signed = (n) => (n > 0 ? `+${n}` : n < 0 ? `−${-n}` : "0");
      const values = event.values ? event.values.counts.map((n, seat) =>
        t("ajolocracia.log.values_player", { player: who(seat), n, points: signed(event.values.total[seat]) })) : [];
      const scores = event.scores.map((n, seat) => t("ajolocracia.log.score_part", { player: who(seat), n })).join(", ");
      return [t("ajolocracia.log.values"), ...values, t("ajolocracia.log.game_over"),
        t("ajolocracia.log.final_scores", { scores }),
        t(event.winners.length > 1 ? "ajolocracia.winners" : "ajolocracia.winner", { players: names(ctx, event.winners) })];
    }
    default: return []; // "ajolocracia" and "passed" are said by the reveal's line
  }
}
