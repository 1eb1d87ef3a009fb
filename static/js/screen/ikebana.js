// Ikebana on the table screen: the page's own spectator board (the card being considered,
// bouquets, discard piles, rounds), enlarged by screen.css; prestige in the seat list (as
// "points", short enough for one line).
import { render } from "../games/ikebana.js";

export function board(root, message, ctx) {
  render(root, message, ctx);
}

export function seatFacts(message, seat, ctx) {
  const player = message.view.players[seat];
  if (!player) return [];
  return [ctx.t("screen.fact.points", { n: player.prestige })];
}
