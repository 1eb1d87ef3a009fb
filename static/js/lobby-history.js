// The lobby's "recent finished games" (a section of its own, beside the lobby's tables):
// each with its players (linked to their history), how it ended, and its replay.
import { api } from "./api.js";
import { andListNodes, el, t } from "./i18n.js";
import { outcomeText } from "./match-result.js";

const list = document.getElementById("recent-matches");

function result(match) {
  const outcome = match.outcome || {};
  const details = outcome.details || {};
  const name = (seat) => {
    const s = match.seats.find((x) => x.seat === seat);
    return s ? s.player.name : t("table.seat", { n: seat + 1 });
  };
  if (details.end === "abandoned") return t("history.abandoned");
  return outcomeText(outcome, name);
}

// One finished game: its facts as two lines of running text (the game and how it ended, then
// its players), its replay button beside them. Separators are part of the text, never items
// of their own, so a line breaks between words and never starts with a "·".
function matchItem(match) {
  const players = andListNodes(match.seats.map((s) => el("a", { href: `/players/${s.player.id}` }, s.player.name)));
  return el("li", { class: "recent-match", dataset: { match: match.id } },
    el("div", { class: "recent-facts" },
      el("p", { class: "recent-head" }, el("strong", {}, t(`game.${match.game}`)), " · ", el("span", { class: "muted recent-result" }, result(match))),
      el("p", { class: "recent-players" }, ...players)),
    el("a", { href: `/matches/${match.id}`, class: "button", "aria-label": `${t("history.replay")}: ${t(`game.${match.game}`)}` }, t("history.replay")));
}

async function refresh() {
  if (!list) return;
  try {
    const matches = await api("GET", "/api/matches?limit=8");
    if (!matches.length) { list.replaceChildren(el("li", { class: "muted" }, t("lobby.no_recent"))); return; }
    list.replaceChildren(...matches.map(matchItem));
  } catch (error) {
    list.replaceChildren(el("li", { class: "error", role: "alert" }, t("lobby.list_error")));
  }
}
refresh();
setInterval(refresh, 30000);
