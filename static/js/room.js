// Playing in one room, on the table page: the host's link to the table screen (a TV shows
// the board), "continue on another device", and the compact "my hand" layout for a phone
// whose board is on the screen (only what you alone see and what you can do, big targets).
// table.js calls render(message) after each state; the compact layout is a class on the
// page (#table-app.my-hand-only) that static/css/room.css turns into hidden public sections.
import { api } from "./api.js";
import { el, t } from "./i18n.js";
import { handoffBox } from "./handoff.js";

const COMPACT = "ludoteca.compact";

export function createRoom({ tableId, me, app }) {
  const box = document.getElementById("room");
  let screenUrl = null;
  let screenAsked = false;
  let handoff = null;

  // a phone that came through the screen's QR code starts compact (the board is on the TV)
  if (new URLSearchParams(location.search).get("room") === "1") {
    try { localStorage.setItem(COMPACT, "on"); } catch (error) { /* private mode: this page only */ }
  }
  const compactWanted = () => { try { return localStorage.getItem(COMPACT) === "on"; } catch (error) { return false; } };
  const toggle = document.getElementById("compact-toggle");

  function applyCompact(message) {
    const able = message.seat !== null && message.table.status === "playing";
    const on = able && compactWanted();
    app.classList.toggle("my-hand-only", on);
    if (toggle) {
      toggle.hidden = !able;
      toggle.setAttribute("aria-pressed", on ? "true" : "false");
      toggle.textContent = t(on ? "room.compact_off" : "room.compact_on");
    }
  }
  if (toggle) toggle.addEventListener("click", () => {
    const on = !compactWanted();
    try { localStorage.setItem(COMPACT, on ? "on" : "off"); } catch (error) { /* ignored */ }
    if (last) applyCompact(last);
    // the hand is the point of the compact layout: keep it in view
    const hand = document.getElementById("my-hand");
    if (on && hand && hand.scrollIntoView) hand.scrollIntoView({ block: "nearest" });
  });

  async function askScreen() {
    screenAsked = true;
    try { screenUrl = (await api("GET", `/api/tables/${tableId}/screen`)).url; }
    catch (error) { screenUrl = null; }
    draw();
  }

  let last = null;
  function draw() {
    if (!box || !last) return;
    const isHost = last.table.host.id === me;
    const parts = [el("h2", {}, t("room.title"))];
    if (isHost && screenUrl && last.table.status !== "finished") {
      parts.push(el("p", {}, el("a", { href: screenUrl, target: "_blank", rel: "noopener", id: "screen-link", class: "button" }, t("room.open_screen"))),
        el("p", { class: "muted" }, t("room.screen_help")));
    }
    if (me) {
      if (!handoff) handoff = handoffBox(`/tables/${tableId}`);
      parts.push(handoff);
    }
    // the hand-off box keeps its open panel across redraws: it is moved, not rebuilt
    box.replaceChildren(...parts);
    box.hidden = parts.length === 1;
  }

  return {
    render(message) {
      last = message;
      applyCompact(message);
      if (message.table.host.id === me && !screenAsked) askScreen();
      draw();
    },
  };
}
