// A game with no screen layout of its own: its page's renderer draws the spectator's board
// (no seat, no moves), which the screen's stylesheet enlarges.
let client = null;

export async function load(game) {
  try { client = await import(`../games/${game}.js`); } catch (error) { client = null; }
}

export function board(root, message, ctx) {
  if (client && client.render) client.render(root, message, ctx);
  else root.replaceChildren();
}
