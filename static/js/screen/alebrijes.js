// Alebrijes on the table screen: the page's own spectator board (the trick to beat, the
// discards, rounds), enlarged by screen.css; cards in hand and points in the seat list.
import { render } from "../games/alebrijes.js";

export function board(root, message, ctx) {
  render(root, message, ctx);
}

export function seatFacts(message, seat, ctx) {
  const player = message.view.players[seat];
  if (!player) return [];
  return [ctx.t("screen.fact.cards", { n: player.cards }), ctx.t("screen.fact.points", { n: player.total })];
}
