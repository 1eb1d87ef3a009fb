// Hanabi's card faces: a firework bursting behind the number, in the card's colour; the
// higher the number, the wider the burst (a 5 is the finale). Drawn here, no artwork copied.
import { svg } from "../../svg.js";
import { cardSvg } from "../cards.js";

// fills chosen so the corner value on them meets WCAG AA (yellow takes dark ink); the
// multicolour card is a rainbow (its gradient is defined once per page: rainbowDefs)
export const FILL = { red: "#c62828", green: "#1e7b34", black: "#1b1b1b", blue: "#1d5fd0", yellow: "#f2c94c", multi: "url(#hanabi-rainbow)" };
export const INK = { yellow: "#1f2230" };
const RAINBOW = ["#c62828", "#9a6b00", "#1e7b34", "#1d5fd0", "#6b3fa0"];

// the gradient of the multicolour cards, once per page (an invisible SVG holding it)
export function rainbowDefs() {
  const node = svg("svg", { width: 0, height: 0, "aria-hidden": "true", focusable: "false", class: "face-defs" },
    svg("defs", {}, svg("linearGradient", { id: "hanabi-rainbow", x1: 0, y1: 0, x2: 1, y2: 1 },
      ...RAINBOW.map((c, i) => svg("stop", { offset: `${i * 25}%`, "stop-color": c })))));
  // through the CSSOM, not a style="" attribute (the Content-Security-Policy refuses those)
  node.style.position = "absolute";
  return node;
}

// A shell bursting behind the number: rays of sparks, long and short by turns; below it
// smaller shells, more of them as the number grows, and a 5 (the finale) bursts twice.
const SHELLS = [[11, 73, 6], [49, 73, 6], [30, 77, 4.5]];

function burst(cx, cy, r1, r2, rays, ink, width) {
  const parts = [];
  for (let i = 0; i < rays; i++) {
    const angle = ((i + 0.5) * 360 / rays) * Math.PI / 180;
    const [dx, dy] = [Math.sin(angle), -Math.cos(angle)];
    const reach = i % 2 === 0 ? r2 : r1 + (r2 - r1) * 0.6;
    parts.push(svg("line", { x1: cx + dx * r1, y1: cy + dy * r1, x2: cx + dx * reach, y2: cy + dy * reach,
      stroke: ink, "stroke-width": width, "stroke-linecap": "round" }));
    parts.push(svg("circle", { cx: cx + dx * (reach + width * 1.6), cy: cy + dy * (reach + width * 1.6), r: width * 0.7, fill: ink }));
  }
  return parts;
}

export function fireworkArt(rank, ink) {
  const n = Math.max(1, Math.min(5, Number(rank) || 1));
  const parts = burst(30, 44, 17, 22.5, 16, ink, 1.7);
  if (n === 5) {
    for (let i = 0; i < 16; i++) {
      const angle = (i * 22.5) * Math.PI / 180;
      parts.push(svg("circle", { cx: 30 + Math.sin(angle) * 27.5, cy: 44 - Math.cos(angle) * 27.5, r: 0.9, fill: ink }));
    }
  }
  for (const [x, y, r] of SHELLS.slice(0, n - 1)) {
    parts.push(...burst(x, y, 1.2, r, 8, ink, 1.1));
  }
  return svg("g", { class: "face-art firework", "aria-hidden": "true", opacity: 0.85 }, parts);
}

export function hanabiFace({ color, rank, label, marks = [], className = "" }) {
  const ink = INK[color] || "#fff";
  return cardSvg({ fill: FILL[color] || "#888", paper: color === "multi" ? RAINBOW[0] : null, ink, value: rank,
    symbol: color, label, marks, art: fireworkArt(rank, ink), className: `hcard ${className}`.trim() });
}
