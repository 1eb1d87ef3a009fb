// Ikebana's card faces: each colour is a flower of its own on a stem (red camellia, yellow
// chrysanthemum, blue balloon flower, green hydrangea, black tulip; the wild card holds a
// blossom of every colour), the number at the foot and the colour's symbol in the corner.
// Drawn here, no artwork copied.
import { svg } from "../../svg.js";
import { symbolShape } from "../cards.js";

export const PETAL = { red: "#d62839", green: "#2f9e48", black: "#2b2b2b", blue: "#1f63d6", yellow: "#f2c200" };
// the number's colour: AA against the card's paper (#fffdf7)
export const INK = { red: "#b3172b", green: "#1f7a36", black: "#222222", blue: "#1a54b8", yellow: "#7a5c00", wild: "#4a2d6e" };
const WILD = ["red", "yellow", "green", "blue", "black"];
const PAPER = "#fffdf7";
const LEAF = "#3f7d3a";

// the wild cards' rainbow frame, once per page
export function ikebanaDefs() {
  return svg("svg", { width: 0, height: 0, "aria-hidden": "true", focusable: "false", class: "ik-defs face-defs" },
    svg("defs", {}, svg("linearGradient", { id: "ikebana-rainbow", x1: 0, y1: 0, x2: 1, y2: 1 },
      ...WILD.map((c, i) => svg("stop", { offset: `${i * 25}%`, "stop-color": PETAL[c] })))));
}

const round = (n) => Math.round(n * 100) / 100;
const around = (count, fn) => Array.from({ length: count }, (_, i) => fn((i * 360) / count, i));

// every flower is drawn centred on (30, 28), at most 17 wide each side
const FLOWERS = {
  // five round overlapping petals and a ring of stamens
  red: () => [
    ...around(5, (a) => svg("circle", { cx: 30, cy: 20.5, r: 7.5, fill: PETAL.red, stroke: INK.red, "stroke-width": 0.8, transform: `rotate(${a} 30 28)` })),
    svg("circle", { cx: 30, cy: 28, r: 5, fill: "#ffe08a", stroke: "#b8860b", "stroke-width": 0.8 }),
    ...around(8, (a) => svg("circle", { cx: 30, cy: 24.6, r: 0.9, fill: "#b8860b", transform: `rotate(${a} 30 28)` })),
  ],
  // two rings of long narrow petals
  yellow: () => [
    ...around(18, (a) => svg("ellipse", { cx: 30, cy: 18, rx: 2.1, ry: 8, fill: PETAL.yellow, stroke: INK.yellow, "stroke-width": 0.6, transform: `rotate(${a} 30 28)` })),
    ...around(12, (a) => svg("ellipse", { cx: 30, cy: 22, rx: 1.9, ry: 5, fill: "#ffd84d", stroke: INK.yellow, "stroke-width": 0.5, transform: `rotate(${a + 15} 30 28)` })),
    svg("circle", { cx: 30, cy: 28, r: 3.2, fill: "#c98a00" }),
  ],
  // a five-pointed bell seen from above, its veins in white
  blue: () => [
    svg("path", { d: starPath(30, 28, 16, 8.5, 5), fill: PETAL.blue, stroke: INK.blue, "stroke-width": 0.8, "stroke-linejoin": "round" }),
    ...around(5, (a) => svg("path", { d: "M30 28V13.5", stroke: "#dfe9ff", "stroke-width": 0.9, transform: `rotate(${a} 30 28)` })),
    svg("circle", { cx: 30, cy: 28, r: 3, fill: "#f4f0ff", stroke: INK.blue, "stroke-width": 0.6 }),
  ],
  // a dome of small four-petal florets
  green: () => [[30, 28], [21, 24], [39, 24], [24, 34], [36, 34], [30, 18], [21.5, 15.5], [38.5, 15.5]]
    .map(([x, y], i) => svg("g", {},
      ...around(4, (a) => svg("circle", { cx: x, cy: y - 2.6, r: 2.8, fill: i % 2 ? "#5cb96e" : PETAL.green, stroke: INK.green, "stroke-width": 0.6, transform: `rotate(${a + 45} ${x} ${y})` })),
      svg("circle", { cx: x, cy: y, r: 1.1, fill: "#e6f5c8" }))),
  // a cup of three pointed petals
  black: () => [
    svg("path", { d: "M18 18 L24 24 L30 14 L36 24 L42 18 C44 32 38 40 30 40 C22 40 16 32 18 18 Z", fill: PETAL.black, stroke: "#000", "stroke-width": 0.8, "stroke-linejoin": "round" }),
    svg("path", { d: "M24 24 C24 32 27 38 30 40 M36 24 C36 32 33 38 30 40", stroke: "#6d6d6d", "stroke-width": 0.9, fill: "none" }),
    svg("path", { d: "M22 22 C21 27 22 31 24 34", stroke: "#8a8a8a", "stroke-width": 0.8, fill: "none" }),
  ],
  // one petal of every colour round a golden heart
  wild: () => [
    ...around(5, (a, i) => svg("ellipse", { cx: 30, cy: 19, rx: 6.5, ry: 9.5, fill: PETAL[WILD[i]], stroke: "#1f2230", "stroke-width": 0.6, transform: `rotate(${a} 30 28)` })),
    svg("circle", { cx: 30, cy: 28, r: 4.5, fill: "#fff3c4", stroke: "#c9a227", "stroke-width": 1 }),
  ],
};

function starPath(cx, cy, outer, inner, points) {
  const out = [];
  for (let i = 0; i < points * 2; i++) {
    const r = i % 2 === 0 ? outer : inner;
    const a = (i * Math.PI) / points;
    out.push(`${round(cx + r * Math.sin(a))} ${round(cy - r * Math.cos(a))}`);
  }
  return `M${out.join("L")}Z`;
}

// the stem, a leaf and the kenzan (the pin holder an ikebana stands in)
function stem(colour) {
  const tall = colour === "black" ? 40 : 44;
  return [
    svg("path", { d: `M30 ${tall} C30 50 31 54 30 58`, stroke: LEAF, "stroke-width": 2.2, fill: "none", "stroke-linecap": "round" }),
    svg("path", { d: "M30 53 C36 47 42 47 45 44 C42 51 37 54 30 55 Z", fill: "#5c9e4f", stroke: LEAF, "stroke-width": 0.7 }),
    svg("rect", { x: 22, y: 57.5, width: 16, height: 2.6, rx: 1.3, fill: "#8a8170" }),
  ];
}

// A card of `colour` ("wild" for the multicolour ones) and `number`; label: its accessible name.
export function ikebanaFace({ colour, number, label, className = "" }) {
  const wild = colour === "wild";
  const key = FLOWERS[colour] ? colour : "wild";
  return svg("svg", { class: `ikcard ${className}`.trim(), viewBox: "0 0 60 84", role: "img", "aria-label": label,
    "data-colour": colour, "data-number": number, "data-art": key, "data-ink": INK[colour] || "#222222", "data-paper": PAPER },
    svg("title", {}, label),
    svg("rect", { x: 2, y: 2, width: 56, height: 80, rx: 7, fill: PAPER,
      stroke: wild ? "url(#ikebana-rainbow)" : PETAL[colour], "stroke-width": 4 }),
    svg("g", { class: "face-art flower", "aria-hidden": "true" }, stem(colour), FLOWERS[key]()),
    // the colour's symbol in the corner: colour is never the only cue (bonuses count colours)
    symbolShape(colour, 3.5, 3.5, 14, { fill: wild ? "#6b3fa0" : PETAL[colour], stroke: "#1f2230" }),
    svg("text", { x: 30, y: 77, "text-anchor": "middle", "font-size": 19, "font-weight": 800,
      "font-family": "system-ui, sans-serif", fill: INK[colour] || "#222" }, number));
}
