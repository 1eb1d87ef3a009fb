// Scores round by round as a line chart drawn with our own SVG (no library), plus the same
// figures as a table for screen readers. Lines differ by dash and marker, not only colour.
import { svg } from "../svg.js";
import { symbolShape } from "./cards.js";

const COLORS = ["#1d5fd0", "#b42318", "#2a7d3f", "#8a4b00", "#6b3fa0", "#0e7490", "#9d174d", "#3f3f46"];
const DASHES = ["", "6 3", "2 3", "8 3 2 3", "1 4", "10 4", "4 2 1 2", "3 6"];
const MARKS = ["circle", "square", "triangle", "diamond", "star", "hexagon", "cross", "heart"];
const HEIGHT = 190; // px, unless the page asks for more (--chart-height)

// rounds: one list of per-seat scores per round; cumulative: draw running totals (else each
// list is already the standing after that round); labels: the x-axis name of each round
// (default 1, 2, 3...); fromZero: start every line at 0 before the first round.
export function scoreChart(ctx, { title, names, rounds, cumulative = true, labels = null, fromZero = true }) {
  const { el, t } = ctx;
  const seats = names.length;
  const points = [Array(seats).fill(0)];
  for (const round of rounds) {
    const prev = points[points.length - 1];
    points.push(round.map((v, s) => (cumulative ? prev[s] : 0) + v));
  }
  const names0 = ["0", ...(labels || rounds.map((_, i) => String(i + 1)))];
  if (!fromZero) { points.shift(); names0.shift(); }
  const all = points.flat();
  let lo = Math.min(0, ...all);
  let hi = Math.max(0, ...all);
  if (lo === hi) hi = lo + 1;
  // drawn at the figure's own width (1 unit = 1 px, so the labels keep their size): first
  // at a phone's width, then again whenever the figure is laid out wider or narrower. 190 px
  // high, or the height a page gives it in the --chart-height property (the table screen,
  // to fill the room its end summary leaves)
  const draw = (W, H = HEIGHT) => {
    // P: air between the axis' labels and the first (and last) points, so a marker never
    // sits on the "0" of the scale beside it
    const L = 36, R = 12, T = 10, B = 26, P = 14;
    const x = (i) => L + P + (i * (W - L - R - 2 * P)) / Math.max(1, points.length - 1);
    const y = (v) => T + ((hi - v) * (H - T - B)) / (hi - lo);
    const grid = [];
    // whole points are never split into halves on the scale ("0.5", "1.5" for a game at 2)
    const whole = all.every(Number.isInteger);
    const step = whole ? Math.max(1, niceStep((hi - lo) / 4)) : niceStep((hi - lo) / 4);
    for (let v = Math.ceil(lo / step) * step; v <= hi + 1e-9; v += step) {
      grid.push(svg("line", { x1: L, x2: W - R, y1: y(v), y2: y(v), stroke: v === 0 ? "#888" : "#ddd" }),
        svg("text", { x: L - 4, y: y(v) + 4, "text-anchor": "end", "font-size": 11, fill: "#444" }, String(Math.round(v * 10) / 10)));
    }
    for (let i = 0; i < points.length; i += 1) {
      // a long last label ("Values") ends at the edge instead of running past it
      const edge = i === points.length - 1 && String(names0[i]).length > 2;
      grid.push(svg("text", { x: edge ? W - 2 : x(i), y: H - 8, "text-anchor": edge ? "end" : "middle", "font-size": 11, fill: "#444" }, names0[i]));
    }
    const lines = names.map((_, s) => svg("g", {},
      svg("polyline", { points: points.map((p, i) => `${x(i)},${y(p[s])}`).join(" "), fill: "none",
        stroke: COLORS[s % COLORS.length], "stroke-width": 2.2, "stroke-dasharray": DASHES[s % DASHES.length] || null }),
      points.map((p, i) => symbolShape(MARKS[s % MARKS.length], x(i) - 5, y(p[s]) - 5, 10,
        { fill: COLORS[s % COLORS.length], stroke: "#fff" }))));
    return svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "score-chart-svg", role: "img", "aria-label": title, "data-width": W, "data-height": H }, grid, lines);
  };
  let chart = draw(320);
  const legend = el("ul", { class: "chart-legend" }, names.map((name, s) =>
    el("li", {}, svg("svg", { width: 28, height: 12, viewBox: "0 0 28 12", "aria-hidden": "true" },
      svg("line", { x1: 0, x2: 28, y1: 6, y2: 6, stroke: COLORS[s % COLORS.length], "stroke-width": 2.2, "stroke-dasharray": DASHES[s % DASHES.length] || null }),
      symbolShape(MARKS[s % MARKS.length], 9, 1, 10, { fill: COLORS[s % COLORS.length], stroke: "#fff" })), ` ${name}`)));
  // (a table ignores a 1 px width: the hidden wrapper is what keeps it off the layout)
  const table = el("div", { class: "visually-hidden" }, el("table", {},
    el("caption", {}, title),
    el("tr", {}, el("th", {}, t("ui.round")), names.map((n) => el("th", {}, n))),
    points.map((p, i) => (fromZero && i === 0 ? null : el("tr", {}, el("th", {}, names0[i]), p.map((v) => el("td", {}, String(v))))))));
  const figure = el("figure", { class: "score-chart" }, el("figcaption", {}, title), chart, legend, table);
  if (window.ResizeObserver) {
    const watch = new ResizeObserver(() => {
      if (!figure.isConnected) { watch.disconnect(); return; }
      const W = Math.round(Math.max(240, Math.min(1100, figure.clientWidth)));
      const wanted = parseFloat(getComputedStyle(figure).getPropertyValue("--chart-height"));
      const H = Math.round(wanted > HEIGHT ? wanted : HEIGHT);
      if (W && (Math.abs(W - Number(chart.dataset.width)) > 1 || Math.abs(H - Number(chart.dataset.height)) > 1)) {
        const next = draw(W, H);
        chart.replaceWith(next);
        chart = next;
      }
    });
    watch.observe(figure);
  }
  return figure;
}

function niceStep(raw) {
  const mag = 10 ** Math.floor(Math.log10(Math.max(raw, 1e-9)));
  for (const m of [1, 2, 5, 10]) if (m * mag >= raw) return m * mag;
  return 10 * mag;
}
