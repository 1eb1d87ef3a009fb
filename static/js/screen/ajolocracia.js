// Ajolocracia on the table screen: the page's own spectator board (the tableaus, the last
// reveal, the running scores), enlarged by screen.css; who has picked in the seat list and
// the headline (the picks are secret until everyone has chosen).
import { render } from "../games/ajolocracia.js";

export function board(root, message, ctx) {
  render(root, message, ctx);
}

export function seatFacts(message, seat, ctx) {
  const player = message.view.players[seat];
  if (!player) return [];
  const facts = [ctx.t("screen.fact.cards", { n: player.hand_size }), ctx.t("screen.fact.points", { n: player.score })];
  if (message.view.phase === "pick" && player.picked) facts.push(ctx.t("screen.fact.picked"));
  return facts;
}

export function turnText(message, ctx) {
  const view = message.view;
  if (!view || view.phase !== "pick") return null;
  const picked = view.players.filter((p) => p.picked).length;
  return ctx.t("screen.picking", { n: picked, total: view.players.length });
}
