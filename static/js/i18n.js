// Strings come from the server's catalogue for the page's language: a JSON block in the page
// (<script type="application/json" id="i18n">, data and not script, so the Content-Security-
// Policy needs no inline script), kept as window.I18N for every module that imports this one.
const catalogueBlock = document.getElementById("i18n");
window.I18N = catalogueBlock ? JSON.parse(catalogueBlock.textContent) : {};
window.LANG = document.documentElement.lang || "es";

// A count of one takes the key's "_one" form when the catalogue has it ("1 card", not
// "1 cards"); the count is the parameter n. (app/i18n translate() does the same.)
// In English a number said with a vowel sound takes "an": "turns up an 8", "takes an 11"
// (Allegra's cards run from -1 to 11; "a {value}" is how its strings say a card).
export function t(key, params = {}) {
  const one = params.n === 1 && window.I18N && window.I18N[`${key}_one`];
  const text = one || (window.I18N && window.I18N[key]) || key;
  const said = text.replace(/\{(\w+)\}/g, (_, name) => (name in params ? String(params[name]) : `{${name}}`));
  return window.LANG === "en" ? said.replace(AN_NUMBER, "$1n ") : said;
}
// "a" before 8, 11, 18, 80-89 and 800-899 said whole (not 110, not 1,800)
const AN_NUMBER = /\b([Aa]) (?=(?:8\d{0,2}|11|18)(?![\d,]))/g;

// Names (or any words) as the page's language lists them: "Ana y Beto", "Ana, Beto y Cleo";
// "Ana and Beto", "Ana, Beto, and Cleo" (Intl.ListFormat; a bare ", " where it is missing).
let listFormat = null;
export function andList(items) {
  const words = items.map(String);
  try {
    listFormat = listFormat || new Intl.ListFormat(window.LANG, { style: "long", type: "conjunction" });
    return listFormat.format(words);
  } catch {
    return words.join(", ");
  }
}

// The same list of nodes (links to players...): the language's words between them
// (formatToParts gives the joints; the items are put back in their places).
export function andListNodes(nodes) {
  try {
    listFormat = listFormat || new Intl.ListFormat(window.LANG, { style: "long", type: "conjunction" });
    const names = nodes.map((node) => node.textContent);
    let next = 0;
    return listFormat.formatToParts(names).map((part) => (part.type === "element" ? nodes[next++] : part.value));
  } catch {
    return nodes.flatMap((node, i) => (i ? [", ", node] : [node]));
  }
}

// Build an element: el("button", {class: "x", onclick: f}, "text", child...)
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (key === "class") node.className = value;
    else if (key === "dataset") Object.assign(node.dataset, value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}
