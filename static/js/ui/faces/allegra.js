// Allegra's card faces: the value in a disc and in the corner, on a band of four by value,
// each with a picture that says how it scores in a game where less is better: cold for
// -1 and 0 (a snowflake), mild for 1 to 4 (leaves), warm for 5 to 8 (a sun), hot for 9 to
// 11 (a flame). Each band keeps its colour's symbol in the corner. Drawn here, no artwork
// copied.
import { svg } from "../../svg.js";
import { cardSvg } from "../cards.js";

const BANDS = [
  { max: 0, name: "cold", fill: "#cfe3ff", symbol: "blue", art: "#2c62b8" },
  { max: 4, name: "mild", fill: "#d4f0d8", symbol: "green", art: "#2f8f46" },
  { max: 8, name: "warm", fill: "#fff0b8", symbol: "yellow", art: "#d99a00" },
  { max: Infinity, name: "hot", fill: "#ffd6d1", symbol: "red", art: "#d8432f" },
];

export function band(value) {
  return BANDS.find((b) => value <= b.max);
}

const around = (count, fn, offset = 0) => Array.from({ length: count }, (_, i) => fn(offset + (i * 360) / count));

// every picture is centred on the value's disc (30, 44; radius 15)
const ART = {
  cold: (c) => around(6, (a) => svg("g", { transform: `rotate(${a} 30 44)` },
    svg("path", { d: "M30 29 V17 M30 22 L25.5 18 M30 22 L34.5 18 M30 26 L27 23.5 M30 26 L33 23.5", stroke: c, "stroke-width": 2, "stroke-linecap": "round", fill: "none" }))),
  mild: (c) => around(4, (a) => svg("g", { transform: `rotate(${a} 30 44)` },
    svg("path", { d: "M30 30 C23 25 23 17 30 13 C37 17 37 25 30 30 Z", fill: c }),
    svg("path", { d: "M30 28 V16", stroke: "#d4f0d8", "stroke-width": 1, "stroke-linecap": "round" })), 45),
  warm: (c) => [svg("circle", { cx: 30, cy: 44, r: 19, fill: c, opacity: 0.55 }),
    ...around(12, (a) => svg("path", { d: "M27.5 26 L30 17.5 L32.5 26 Z", fill: c, transform: `rotate(${a} 30 44)` }))],
  hot: (c) => [svg("path", { d: "M30 71 C16 70 11 57 15 45 C17 39 19 36 18 29 C23 33 24 37 24 40 C25 33 28 24 34 18 C33 26 38 31 41 36 C42 33 42 31 41 28 C47 34 50 43 48 52 C46 64 39 70 30 71 Z", fill: c }),
    svg("path", { d: "M30 66 C23 65 21 59 23 54 C25 58 27 59 28 59 C27 54 30 50 33 48 C33 52 37 55 37 59 C37 63 34 66 30 66 Z", fill: "#ffb199" })],
};

export function allegraFace({ value, label, className = "" }) {
  const b = band(value);
  const card = cardSvg({ fill: b.fill, ink: "#1f2230", value, symbol: b.symbol, label, className: `alcard ${className}`.trim(),
    art: svg("g", { class: "face-art band", "aria-hidden": "true" }, ART[b.name](b.art)) });
  card.dataset.art = b.name;
  return card;
}

// the back: the knock that gives the game its twist, a rap and its echoes in a ring
export function allegraBack({ label, className = "" }) {
  const echo = (r) => svg("path", { d: `M${30 - r} ${42 - r * 0.7} A${r} ${r} 0 0 0 ${30 - r} ${42 + r * 0.7} M${30 + r} ${42 - r * 0.7} A${r} ${r} 0 0 1 ${30 + r} ${42 + r * 0.7}`,
    stroke: "#f4a261", "stroke-width": 1.6, fill: "none", "stroke-linecap": "round" });
  return cardSvg({ back: true, fill: "#3a3f55", label, className: `alcard ${className}`.trim(),
    art: svg("g", { "aria-hidden": "true" },
      svg("rect", { x: 6, y: 6, width: 48, height: 72, rx: 5, fill: "none", stroke: "rgba(255,255,255,.5)", "stroke-width": 1.5 }),
      svg("circle", { cx: 30, cy: 42, r: 4, fill: "#f4a261" }),
      echo(9), echo(15),
      svg("path", { d: "M12 14 h36 M12 70 h36", stroke: "rgba(255,255,255,.35)", "stroke-width": 1.2, "stroke-dasharray": "2 3" })) });
}
