// Block and Guess on the table screen: the page's own spectator board (the clue card, the
// builds as they grow, the guesses, the results), enlarged by screen.css so the guessers
// read the builds from the sofa; points in the seat list.
import { onEphemeral as liveBlocks, render } from "../games/block-and-guess.js";

export function board(root, message, ctx) {
  render(root, message, ctx);
}

export function onEphemeral(message, ctx) {
  liveBlocks(message, ctx);
}

export function seatFacts(message, seat, ctx) {
  const view = message.view;
  if (!view.scores) return [];
  return [ctx.t("screen.fact.points", { n: view.scores[seat] })];
}

// wide enough that the status and the clue card take one short row above the builds
export function layoutWidths() { return [1000, 1200]; }
