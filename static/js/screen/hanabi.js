// Hanabi on the table screen: the page's own spectator board (fireworks, tokens, the hands
// as the clues describe them, discards), enlarged by screen.css. Nothing per seat is public
// beyond the hands' clue marks, so the seat list shows no figures.
import { render } from "../games/hanabi.js";

export function board(root, message, ctx) {
  render(root, message, ctx);
}

export function seatFacts() { return []; }
