// Ajolocracia's rules page: draws each card of the gallery with the table's own card art
// (a module file rather than an inline script: the Content-Security-Policy allows no inline
// script).
import { cardSvg } from "./ajolocracia.js";

for (const item of document.querySelectorAll("#aj-gallery li")) {
  item.querySelector(".aj-art").replaceWith(cardSvg(item.dataset.kind, item.textContent.trim()));
}
