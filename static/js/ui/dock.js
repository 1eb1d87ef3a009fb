// Your own hand and its buttons, kept in view: pinned to the bottom of the screen on phones,
// a compact strip on laptops. It is the target of the page's "skip to your hand" link.
export function handDock(ctx, { label } = {}, ...children) {
  const { el, t } = ctx;
  return el("section", { class: "hand-dock", id: "my-hand", tabindex: "-1", "aria-label": label || t("ui.your_hand") }, ...children);
}

// A game's own redraw (a card chosen, a mode switched: nothing sent to the server) replaces
// the control the player just used; table.js only keeps the focus on a server update, so
// without this it fell to the page's body and Tab started over from the top of the page.
// The control with the same data-focus-key gets it back, else the hand dock.
export function redrawKeepingFocus(root, draw) {
  const active = document.activeElement;
  const inside = !!active && root.contains(active);
  const key = inside && active.dataset ? active.dataset.focusKey : undefined;
  draw();
  if (!inside || root.contains(active)) return;
  const same = key !== undefined && root.querySelector(`[data-focus-key="${CSS.escape(key)}"]`);
  const target = same && !same.matches(":disabled") ? same : document.getElementById("my-hand");
  if (target) target.focus({ preventScroll: true });
}
