// Allegra on the table screen: the page's own spectator board (every display with the
// shared columns, the piles, the scores), enlarged by screen.css; points and face-down
// cards in the seat list, and the knock's countdown in the headline.
import { render } from "../games/allegra.js";

export function board(root, message, ctx) {
  render(root, message, ctx);
}

export function seatFacts(message, seat, ctx) {
  const player = message.view.players[seat];
  if (!player) return [];
  return [ctx.t("screen.fact.points", { n: player.total }), ctx.t("screen.fact.face_down", { n: player.face_down })];
}

export function windowLabel(message, ctx) {
  return message.view && message.view.phase === "knock" ? ctx.t("screen.knock") : ctx.t("screen.window");
}
