// Alebrijes' card faces: each suit is its animal family, painted as a folk-art alebrije
// (dots and zigzags on the body): blue rodents (a mouse), green birds, pink felines (a
// jaguar), orange canines (a dog); the wild cards are a winged creature of every family's
// colour. The number sits in two corners, the suit's symbol in the third; an Ollin card has
// its mark in the fourth. Drawn here, no artwork copied.
import { svg } from "../../svg.js";
import { cardSvg } from "../cards.js";

// pale fills with an ink that meets WCAG AA on them (the corner numbers and the animal)
export const LOOK = {
  blue: { fill: "#d3e3ff", ink: "#1a4fa8" },
  green: { fill: "#d6f1d9", ink: "#1d6a2c" },
  pink: { fill: "#ffdcec", ink: "#a3245c" },
  orange: { fill: "#ffe3c7", ink: "#8f4400" },
  wild: { fill: "#ece0ff", ink: "#4a2d6e" },
};

const dots = (points, fill, r = 1.2) => points.map(([x, y]) => svg("circle", { cx: x, cy: y, r, fill }));
const zigzag = (x, y, teeth, w, h, stroke) => {
  let d = `M${x} ${y}`;
  for (let i = 0; i < teeth; i++) d += ` l${w / 2} ${-h} l${w / 2} ${h}`;
  return svg("path", { d, stroke, "stroke-width": 1.2, fill: "none", "stroke-linejoin": "round", "stroke-linecap": "round" });
};
const eye = (x, y, r, ink, slit = false) => [
  svg("circle", { cx: x, cy: y, r, fill: "#fff" }),
  slit ? svg("ellipse", { cx: x, cy: y, rx: r * 0.32, ry: r * 0.85, fill: "#1f2230" }) : svg("circle", { cx: x, cy: y + 0.3, r: r * 0.55, fill: "#1f2230" }),
];

// each animal fits in x 9..51, y 22..64 (the corners hold the number, symbol and Ollin)
const ANIMALS = {
  // a mouse's face: round ears, a face narrowing to the nose, whiskers
  blue: ({ ink, fill }) => [
    svg("circle", { cx: 17.5, cy: 31, r: 8.5, fill: ink }), svg("circle", { cx: 42.5, cy: 31, r: 8.5, fill: ink }),
    svg("circle", { cx: 17.5, cy: 31, r: 4.8, fill }), svg("circle", { cx: 42.5, cy: 31, r: 4.8, fill }),
    svg("path", { d: "M16 42 C16 31 23 28 30 28 C37 28 44 31 44 42 C44 51 36 57 30 61 C24 57 16 51 16 42 Z", fill: ink }),
    zigzag(21, 36, 6, 3, 2.6, fill),
    ...dots([[21, 46], [39, 46], [24, 51], [36, 51]], fill, 1.1),
    ...eye(25, 41.5, 3, ink), ...eye(35, 41.5, 3, ink),
    svg("circle", { cx: 30, cy: 58.5, r: 2.2, fill: "#ff8fab", stroke: "#1f2230", "stroke-width": 0.6 }),
    svg("path", { d: "M26 55 L11 52 M26 57 L11 58 M34 55 L49 52 M34 57 L49 58", stroke: ink, "stroke-width": 0.9, "stroke-linecap": "round" }),
  ],
  // a bird in profile: crest, beak, a patterned wing, a fan of tail feathers
  green: ({ ink, fill }) => [
    svg("path", { d: "M18 45 L8 36 L10 44 L7 48 L11 51 L9 56 Z", fill: ink }),
    svg("ellipse", { cx: 28, cy: 47, rx: 13, ry: 10.5, fill: ink }),
    svg("circle", { cx: 39, cy: 34, r: 8, fill: ink }),
    svg("path", { d: "M36 27 C35 22 38 21 39 24 C40 20 43 21 42 26", fill: ink }),
    svg("path", { d: "M46 31.5 L54 35 L46 37.5 Z", fill: "#f2a900", stroke: "#1f2230", "stroke-width": 0.6, "stroke-linejoin": "round" }),
    ...eye(41, 33, 2.7, ink),
    svg("path", { d: "M19 44 C24 38 32 40 35 45 C31 52 23 53 19 44 Z", fill, opacity: 0.9 }),
    zigzag(21, 46, 4, 3.2, 2.4, ink),
    ...dots([[25, 55], [30, 55.5], [35, 54], [33, 40]], fill, 1.1),
    svg("path", { d: "M25 57 V63 M23 63 H27 M31 57 V63 M29 63 H33", stroke: ink, "stroke-width": 1.4, "stroke-linecap": "round" }),
  ],
  // a jaguar's face: pointed ears, slit eyes, rosettes, whiskers
  pink: ({ ink, fill }) => [
    svg("path", { d: "M14 38 L16 22 L27 30 Z M46 38 L44 22 L33 30 Z", fill: ink, "stroke-linejoin": "round" }),
    svg("path", { d: "M17 33 L18 26 L23 30 Z M43 33 L42 26 L37 30 Z", fill }),
    svg("ellipse", { cx: 30, cy: 44, rx: 15, ry: 14, fill: ink }),
    ...[[21, 36], [39, 36], [30, 33], [19, 50], [41, 50]].map(([x, y]) => svg("circle", { cx: x, cy: y, r: 1.9, fill: "none", stroke: fill, "stroke-width": 1 })),
    ...eye(24.5, 42, 3.3, ink, true), ...eye(35.5, 42, 3.3, ink, true),
    svg("path", { d: "M27 48.5 H33 L30 52 Z", fill: "#ff8fab", stroke: "#1f2230", "stroke-width": 0.6, "stroke-linejoin": "round" }),
    svg("path", { d: "M30 52 C29 55 26 56 24.5 54.5 M30 52 C31 55 34 56 35.5 54.5", stroke: fill, "stroke-width": 1, fill: "none" }),
    svg("path", { d: "M24 51 L10 48 M24 53 L10 54 M36 51 L50 48 M36 53 L50 54", stroke: ink, "stroke-width": 0.9, "stroke-linecap": "round" }),
  ],
  // a dog's face: long floppy ears, a pale muzzle, nose and tongue
  orange: ({ ink, fill }) => [
    svg("ellipse", { cx: 16.5, cy: 41, rx: 5.5, ry: 12, fill: ink, transform: "rotate(14 16.5 41)" }),
    svg("ellipse", { cx: 43.5, cy: 41, rx: 5.5, ry: 12, fill: ink, transform: "rotate(-14 43.5 41)" }),
    ...dots([[15, 36], [17, 42], [16, 48], [45, 36], [43, 42], [44, 48]], fill, 1.1),
    svg("ellipse", { cx: 30, cy: 40, rx: 12, ry: 12.5, fill: ink }),
    zigzag(22, 33, 4, 4, 2.6, fill),
    svg("ellipse", { cx: 30, cy: 51, rx: 8.5, ry: 7, fill, stroke: ink, "stroke-width": 1 }),
    ...eye(25, 40, 2.8, ink), ...eye(35, 40, 2.8, ink),
    svg("ellipse", { cx: 30, cy: 48, rx: 3.4, ry: 2.4, fill: "#1f2230" }),
    svg("path", { d: "M30 50.5 V53 M26.5 53 C28 55 32 55 33.5 53", stroke: "#1f2230", "stroke-width": 0.9, fill: "none", "stroke-linecap": "round" }),
    svg("path", { d: "M28.5 54.6 C28.5 59 31.5 59 31.5 54.6 Z", fill: "#e5484d" }),
  ],
  // a winged creature striped in every family's colour, with horns and a curled tail
  wild: ({ ink }) => [
    svg("path", { d: "M24 40 C16 30 10 31 8 34 C13 36 14 40 13 44 C17 42 20 44 24 47 Z", fill: LOOK.blue.ink }),
    svg("path", { d: "M36 40 C44 30 50 31 52 34 C47 36 46 40 47 44 C43 42 40 44 36 47 Z", fill: LOOK.orange.ink }),
    svg("path", { d: "M31 58 C40 62 44 56 40 53 C38 51 35 53 37 55", stroke: LOOK.green.ink, "stroke-width": 2.4, fill: "none", "stroke-linecap": "round" }),
    svg("ellipse", { cx: 30, cy: 50, rx: 8.5, ry: 10, fill: LOOK.pink.ink }),
    ...[46, 50, 54].map((y) => svg("path", { d: `M23 ${y} Q30 ${y + 2.5} 37 ${y}`, stroke: "#ffd34d", "stroke-width": 1.1, fill: "none" })),
    svg("path", { d: "M24 29 C21 24 22 21 24 20 C24 24 26 26 27 28 Z M36 29 C39 24 38 21 36 20 C36 24 34 26 33 28 Z", fill: "#f2a900" }),
    svg("circle", { cx: 30, cy: 35, r: 8.5, fill: ink }),
    ...eye(26.8, 34, 2.5, ink), ...eye(33.2, 34, 2.5, ink),
    svg("path", { d: "M26 39 C28 41 32 41 34 39", stroke: "#ffd34d", "stroke-width": 1.1, fill: "none", "stroke-linecap": "round" }),
    ...dots([[30, 29], [13, 38], [47, 38]], "#fff", 1.1),
  ],
};

// the Ollin symbol: a ring with four rays, drawn in the card's lower-left corner
export function ollinMark() {
  return svg("g", { class: "ab-ollin", transform: "translate(3.5 63)", "aria-hidden": "true" },
    svg("circle", { cx: 9, cy: 9, r: 8.5, fill: "#1f2230" }),
    svg("path", { d: "M9 2v4M9 12v4M2 9h4M12 9h4", stroke: "#ffd34d", "stroke-width": 2.2, "stroke-linecap": "round" }),
    svg("circle", { cx: 9, cy: 9, r: 2.2, fill: "#ffd34d" }));
}

// A card of `suit` ("wild" for the multicolour ones) and `number`; ollin: it carries the mark.
export function alebrijeFace({ suit, number, ollin = false, label, className = "" }) {
  const look = LOOK[suit] || LOOK.wild;
  const key = ANIMALS[suit] ? suit : "wild";
  const art = svg("g", { class: "face-art animal", "aria-hidden": "true" }, ANIMALS[key](look));
  const card = cardSvg({ fill: look.fill, ink: look.ink, value: number, symbol: suit, label, art, centre: false,
    marks: ollin ? [ollinMark()] : [], className: `abcard ${className}`.trim() });
  card.dataset.art = key;
  return card;
}
