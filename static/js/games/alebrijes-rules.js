// Alebrijes' rules page: draws the gallery's cards with the table's own faces, so a newcomer
// knows each suit's animal and symbol and what the Ollin mark looks like before playing (a
// module file: the Content-Security-Policy allows no inline script).
import { alebrijeFace } from "../ui/faces/alebrijes.js";

for (const item of document.querySelectorAll("#ab-gallery li")) {
  const { suit, number, ollin } = item.dataset;
  item.querySelector(".ab-art").replaceWith(alebrijeFace({ suit, number: Number(number), ollin: ollin === "yes",
    label: item.textContent.trim(), className: "gallery" }));
}
