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

// while they are built and guessed, the builds are what the room reads: the layout that
// draws them largest wins (they widen with it), not the one with the largest type. While
// the blocks are handed out they are empty: everything grows alike.
export function fitTarget(message) {
  const view = message.view;
  return view && view.phase !== "draft" && view.builds.length ? ".bg-build .bg-board" : null;
}
