// Fallback renderer for a game without its own client: the view as text and one button per
// legal action. It knows nothing of any game's rules.
export function render(root, message, ctx) {
  const { el } = ctx;
  root.replaceChildren(
    el("section", { class: "card" },
      el("pre", { class: "raw-view" }, JSON.stringify(message.view, null, 2)),
      el("div", { class: "actions" }, message.legal_actions.map((action) =>
        el("button", { onclick: () => ctx.send(action) }, JSON.stringify(action))))));
}

// every event as its type and data: the log of a game without its own client
export function eventLines(ctx, event) {
  return [`${event.type} ${JSON.stringify(event)}`];
}
