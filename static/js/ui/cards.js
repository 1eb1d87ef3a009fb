// Card faces every game draws with: the value in the centre and in a corner, and the
// colour's symbol in the other corner, so no card is told apart by colour alone. Each game
// adds a picture of its own (./faces/<game>.js: fireworks, flowers, animals...) through
// `art`, drawn between the background and the value.
import { svg } from "../svg.js";

// One symbol per colour or suit name, the same in every game.
export const SYMBOLS = {
  red: "circle", green: "triangle", blue: "square", yellow: "star", black: "diamond",
  white: "ring", multi: "asterisk", wild: "asterisk", pink: "heart", orange: "hexagon",
  purple: "cross", brown: "bar", grey: "ring", gray: "ring",
};

// Paths in a 20×20 box centred on (10, 10).
const PATHS = {
  circle: "M10 2a8 8 0 1 0 0.01 0z",
  ring: "M10 2a8 8 0 1 0 0.01 0zM10 6a4 4 0 1 1 -0.01 0z",
  triangle: "M10 1.5 19 18H1z",
  square: "M2.5 2.5h15v15h-15z",
  diamond: "M10 1 19 10 10 19 1 10z",
  star: "M10 1l2.6 6.1 6.6.6-5 4.4 1.5 6.5L10 15.2 4.3 18.6l1.5-6.5-5-4.4 6.6-.6z",
  heart: "M10 18 2.6 10.6A4.6 4.6 0 0 1 10 4.4a4.6 4.6 0 0 1 7.4 6.2z",
  hexagon: "M5.5 2h9l4.5 8-4.5 8h-9L1 10z",
  cross: "M7 1.5h6V7h5.5v6H13v5.5H7V13H1.5V7H7z",
  asterisk: "M8.6 1h2.8v6.1l5.3-3 1.4 2.4L12.8 10l5.3 3.5-1.4 2.4-5.3-3V19H8.6v-6.1l-5.3 3-1.4-2.4L7.2 10 1.9 6.5l1.4-2.4 5.3 3z",
  bar: "M2 7h16v6H2z",
};

// The symbol of a colour name (or a symbol name) as an SVG group at (x, y), size px wide.
export function symbolShape(name, x = 0, y = 0, size = 20, { fill = "#fff", stroke = "#1f2230" } = {}) {
  const shape = PATHS[SYMBOLS[name] || name] || PATHS.circle;
  return svg("g", { transform: `translate(${x} ${y}) scale(${size / 20})`, class: "symbol", "aria-hidden": "true" },
    svg("path", { d: shape, fill, stroke, "stroke-width": 1.6, "stroke-linejoin": "round", "fill-rule": "evenodd" }));
}

// A standalone symbol, e.g. for buttons, legends and fireworks.
export function symbolSvg(name, size = 16, colors = {}) {
  return svg("svg", { class: "symbol-icon", width: size, height: size, viewBox: "0 0 20 20", "aria-hidden": "true", focusable: "false" },
    symbolShape(name, 0, 0, 20, colors));
}

// A standard 60×84 card. fill: background colour; ink: the colour of the corner value
// (choose one with AA contrast against fill, or against `paper` when the fill is a
// pattern: the colour right behind the corner); value: what the card shows; symbol: colour
// or symbol name (omit for colourless cards); label: its accessible name; back: draw a
// back; art: the game's picture (nodes drawn over the background, under the value);
// centre: false leaves the centre to the picture (the value then also sits, upside down,
// in the lower corner, as on a printed card); marks: extra nodes (badges) drawn on top;
// className: extra classes. The card carries data-ink and data-paper so a test can check
// the corner's contrast.
export function cardSvg({ fill = "#fff", ink = "#1f2230", paper = null, value = "", symbol = null, label = "",
  back = false, art = null, centre = true, marks = [], className = "" } = {}) {
  const attrs = { class: `ucard${back ? " back" : ""}${className ? " " + className : ""}`, viewBox: "0 0 60 84", role: "img", "aria-label": label,
    "data-symbol": symbol && !back ? (SYMBOLS[symbol] || symbol) : null,
    "data-ink": back ? null : ink, "data-paper": back ? null : (paper || fill) };
  if (back) {
    return svg("svg", attrs,
      svg("rect", { x: 1, y: 1, width: 58, height: 82, rx: 7, fill: fill || "#3a3f55", stroke: "#fff", "stroke-width": 2 }),
      art || svg("rect", { x: 8, y: 8, width: 44, height: 68, rx: 5, fill: "none", stroke: "rgba(255,255,255,.55)", "stroke-width": 2, "stroke-dasharray": "4 3" }),
      marks);
  }
  const text = String(value);
  const small = text.length > 2;
  const disc = text.length > 2 ? 14 : text.length > 1 ? 18 : 22;
  return svg("svg", attrs,
    svg("rect", { x: 1, y: 1, width: 58, height: 82, rx: 7, fill, stroke: "#1f2230", "stroke-opacity": 0.35, "stroke-width": 1.5 }),
    art,
    // the first text of a card is always its value (read by tests and replays alike)
    centre ? [
      svg("circle", { cx: 30, cy: 44, r: 15, fill: "#fff", stroke: "#1f2230", "stroke-opacity": 0.35 }),
      svg("text", { x: 30, y: 44 + disc * 0.36, "text-anchor": "middle", "font-size": disc, "font-weight": 800, fill: "#1f2230" }, text),
      svg("text", { x: 5.5, y: 17, "font-size": 14, "font-weight": 800, fill: ink }, text),
    ] : [
      svg("text", { x: 5.5, y: 19, "font-size": small ? 13 : 17, "font-weight": 800, fill: ink }, text),
      svg("text", { x: 5.5, y: 19, "font-size": small ? 13 : 17, "font-weight": 800, fill: ink, transform: "rotate(180 30 42)", "aria-hidden": "true" }, text),
    ],
    symbol ? symbolShape(symbol, 39.5, 4, 16) : null,
    marks);
}
