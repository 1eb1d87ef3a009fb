// The lobby's "recent finished games" (a section of its own, beside the lobby's tables):
// each with its players (linked to their history), how it ended, and its replay.
import { api } from "./api.js";
import { el, t } from "./i18n.js";

const list = document.getElementById("recent-matches");

function result(match) {
  const outcome = match.outcome || {};
  const details = outcome.details || {};
  const name = (seat) => {
    const s = match.seats.find((x) => x.seat === seat);
    return s ? s.player.name : t("table.seat", { n: seat + 1 });
  };
  if (details.end === "abandoned") return t("history.abandoned");
  if (!outcome.winners || !outcome.winners.length) return t("replay.no_winner");
  return t("replay.winners", { names: outcome.winners.map(name).join(", ") });
}

async function refresh() {
  if (!list) return;
  try {
    const matches = await api("GET", "/api/matches?limit=8");
    if (!matches.length) { list.replaceChildren(el("li", { class: "muted" }, t("lobby.no_recent"))); return; }
    list.replaceChildren(...matches.map((match) => el("li", { dataset: { match: match.id } },
      el("strong", {}, t(`game.${match.game}`)), " · ",
      el("span", {}, ...match.seats.flatMap((s, i) => [i ? ", " : "", el("a", { href: `/players/${s.player.id}` }, s.player.name)])),
      " · ", el("span", { class: "muted" }, result(match)), " ",
      el("a", { href: `/matches/${match.id}`, class: "button" }, t("history.replay")))));
  } catch (error) {
    list.replaceChildren(el("li", { class: "error", role: "alert" }, t("lobby.list_error")));
  }
}
refresh();
setInterval(refresh, 30000);
