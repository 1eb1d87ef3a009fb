// Your own hand and its buttons, kept in view: pinned to the bottom of the screen on phones,
// a compact strip on laptops. It is the target of the page's "skip to your hand" link.
export function handDock(ctx, { label } = {}, ...children) {
  const { el, t } = ctx;
  return el("section", { class: "hand-dock", id: "my-hand", tabindex: "-1", "aria-label": label || t("ui.your_hand") }, ...children);
}
