// "Continue on another device": a button that asks the server for a one-time link carrying
// your identity (POST /api/handoff), then shows it as a QR code to scan with the other
// device, and as a link to copy. The link works once, for a few minutes; this device stays
// signed in. Used by the lobby (mounted on #handoff) and the table page (room.js).
import { api } from "./api.js";
import { el, t } from "./i18n.js";
import { copyButton } from "./ui/copy.js";

export function handoffBox(next) {
  const panel = el("div", { class: "handoff-panel", id: "handoff-panel", hidden: true, role: "group", "aria-label": t("handoff.title") });
  let timer = null;
  const button = el("button", { type: "button", class: "secondary small", id: "handoff-button", "aria-expanded": "false",
    "aria-controls": "handoff-panel", onclick: async () => {
      if (!panel.hidden) { close(); return; }
      button.disabled = true;
      try { show(await api("POST", "/api/handoff", { next })); }
      catch (error) { panel.hidden = false; panel.replaceChildren(el("p", { class: "error", role: "alert" }, error.code === "rate_limited" ? t("handoff.too_many") : t("handoff.failed"))); }
      finally { button.disabled = false; }
    } }, t("handoff.button"));

  function close() {
    clearInterval(timer);
    panel.hidden = true;
    panel.replaceChildren();
    button.setAttribute("aria-expanded", "false");
  }

  function show(made) {
    const until = performance.now() + made.expires_in * 1000;
    const left = el("p", { class: "muted handoff-left", id: "handoff-left" });
    const tick = () => {
      const s = Math.max(0, Math.round((until - performance.now()) / 1000));
      left.textContent = s > 0 ? t("handoff.expires", { m: Math.floor(s / 60), s: String(s % 60).padStart(2, "0") }) : t("handoff.expired");
      if (s <= 0) clearInterval(timer);
    };
    const input = el("input", { id: "handoff-url", readonly: true, value: made.url, "aria-label": t("handoff.link") });
    panel.replaceChildren(
      el("p", {}, t("handoff.scan")),
      el("img", { class: "handoff-qr", id: "handoff-qr", src: made.qr, width: 220, height: 220, alt: t("handoff.qr_alt") }),
      el("div", { class: "row" }, input, copyButton(input, { class: "secondary small" })),
      left,
      el("p", { class: "muted" }, t("handoff.note")));
    panel.hidden = false;
    button.setAttribute("aria-expanded", "true");
    clearInterval(timer);
    tick();
    timer = setInterval(tick, 1000);
  }

  return el("div", { class: "handoff" }, button, panel);
}

// the lobby: <div id="handoff" data-next="/"></div>
const mount = document.getElementById("handoff");
if (mount) mount.replaceChildren(handoffBox(mount.dataset.next || "/"));
