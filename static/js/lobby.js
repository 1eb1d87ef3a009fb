// The lobby: create a table from the catalogue's options (the common ones first, the rest
// folded), list your tables, and list the public ones live in two lists: tables with a free
// seat (join) and games in progress (watch).
import { api } from "./api.js";
import { andList, el, t } from "./i18n.js";
import { FOLDED, choiceLabel, optionField, optionsToSend, settingsItems, settingsList, showFields } from "./settings.js";

const gamesBlock = document.getElementById("games-data");
const games = gamesBlock ? JSON.parse(gamesBlock.textContent) : [];
const form = document.getElementById("create-table");

function currentGame() {
  return games.find((g) => g.id === form.game.value);
}

function showOptions() {
  const game = currentGame();
  const seats = document.getElementById("seats-select");
  seats.replaceChildren();
  for (let n = game.min_players; n <= game.max_players; n++) seats.append(el("option", { value: n }, n));
  const common = game.options.filter((o) => !FOLDED.has(o.name));
  const folded = game.options.filter((o) => FOLDED.has(o.name));
  document.getElementById("options").replaceChildren(el("legend", {}, t("lobby.options")), ...common.map((o) => optionField(o)));
  document.getElementById("options-folded").replaceChildren(...folded.map((o) => optionField(o)));
  document.getElementById("more-options").hidden = !folded.length;
  showFields(form, game.options);
  fitFirstSeat();
}

// who starts: the catalogue offers every seat of the game's largest table; this table
// offers its own (the server refuses a seat past its last). A choice still at the table
// stays chosen; one past it goes back to "at random".
function fitFirstSeat() {
  const select = form.elements.first_seat;
  const option = currentGame().options.find((o) => o.name === "first_seat");
  if (!select || !option) return;
  const seats = Number(form.seats.value);
  const kept = select.value;
  const fits = option.choices.filter((c) => c === "random" || c < seats);
  select.replaceChildren(...fits.map((c) => el("option", { value: String(c) }, choiceLabel(option, c))));
  select.value = fits.some((c) => String(c) === kept) ? kept : "random";
}

if (form) {
  form.game.addEventListener("change", showOptions);
  form.addEventListener("change", (event) => {
    if (event.target.name === "game") return;
    if (event.target.name === "seats") fitFirstSeat();
    showFields(form, currentGame().options);
  });
  showOptions();
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const game = currentGame();
    const options = optionsToSend(form, game.options);
    try {
      const table = await api("POST", "/api/tables", {
        game: game.id, seats: Number(form.seats.value), options, private: form.private.checked,
      });
      location.href = `/tables/${table.id}`;
    } catch (error) {
      // a translated reason when the catalogue has one for the code (too_many_tables...)
      const known = window.I18N[`error.${error.code}`];
      document.getElementById("create-error").textContent = known ? t(`error.${error.code}`) : t("error.generic", { message: error.message });
    }
  });
}

// ------------------------------------------------------------------------ the lists

const freeSeats = (table) => table.seats.filter((s) => !s.player).length;
const joinable = (table) => table.status === "waiting" && freeSeats(table) > 0;

// what the host changed from the rules as printed (for the tables you might join)
function changedSettings(table) {
  const game = games.find((g) => g.id === table.game);
  if (!game) return null;
  const items = settingsItems(game.options, table.options || {}, { changedOnly: true });
  return items.length ? settingsList(items, "settings-list compact") : null;
}

function tableItem(table, { mine = false, list = null } = {}) {
  const taken = table.seats.filter((s) => s.player).length;
  const names = andList(table.seats.filter((s) => s.player).map((s) => s.player.name));
  const game = t(`game.${table.game}`);
  const free = freeSeats(table);
  let action;
  if (mine) action = el("a", { href: `/tables/${table.id}`, class: "button" }, t("lobby.open_table", { game }));
  else if (list === "join") action = el("a", { href: table.invite_url || `/tables/${table.id}`, class: "button join" }, t("lobby.join", { game }));
  else action = el("a", { href: table.watch_url || `/tables/${table.id}`, class: "button secondary watch" }, t("lobby.watch", { game }));
  // the facts and what the host changed in one column, the button beside them (under them
  // on a phone): a table with changed settings lines up with the others
  return el("li", { class: `${mine && table.your_turn ? "your-turn" : ""}`, dataset: { table: table.id, status: table.status } },
    el("div", { class: "table-info" }, el("div", { class: "table-facts" },
      el("strong", {}, game), ` · ${taken}/${table.seat_count} · `,
      // a waiting table with no free seat waits for its host's start, not for players
      el("span", { class: `pill ${table.status}` }, t(table.status === "waiting" && !free ? "status.full" : `status.${table.status}`)), " ",
      list === "join" ? el("span", { class: "badge free" }, t(free === 1 ? "lobby.seats_free_one" : "lobby.seats_free", { n: free })) : null,
      mine && table.your_turn ? el("span", { class: "badge turn-badge" }, t("lobby.your_turn")) : null,
      mine && table.private ? el("span", { class: "badge" }, t("lobby.private_badge")) : null, " ",
      el("span", { class: "muted" }, names)),
    list === "join" ? changedSettings(table) : null),
    action);
}

function fill(list, tables, empty, kind) {
  if (!tables.length) list.replaceChildren(el("li", { class: "muted" }, t(empty)));
  else list.replaceChildren(...tables.map((table) => tableItem(table, { list: kind })));
}

async function refresh() {
  const joinList = document.getElementById("join-list");
  const watchList = document.getElementById("watch-list");
  const mineList = document.getElementById("my-tables");
  let mineIds = new Set();
  if (mineList) {
    try {
      const mine = await api("GET", "/api/players/me/tables");
      mineIds = new Set(mine.map((table) => table.id));
      if (!mine.length) mineList.replaceChildren(el("li", { class: "muted" }, t("lobby.no_my_tables")));
      else mineList.replaceChildren(...mine.map((table) => tableItem(table, { mine: true })));
    } catch (error) {
      mineList.replaceChildren(el("li", { class: "error", role: "alert" }, t("lobby.list_error")));
    }
  }
  try {
    // your own tables are listed above, not twice; the server leaves out abandoned games
    const tables = (await api("GET", "/api/tables")).filter((table) => !mineIds.has(table.id));
    fill(joinList, tables.filter(joinable), "lobby.no_join_tables", "join");
    fill(watchList, tables.filter((table) => !joinable(table)), "lobby.no_watch_tables", "watch");
  } catch (error) {
    // never "no tables" when we simply could not ask: say so, and try again shortly
    for (const list of [joinList, watchList]) list.replaceChildren(el("li", { class: "error", role: "alert" }, t("lobby.list_error")));
  }
}
refresh();
setInterval(refresh, 5000);

// Changing your name: the same rules as a new one; a name of spaces is answered here.
const rename = document.getElementById("rename");
if (rename) {
  rename.addEventListener("submit", async (event) => {
    event.preventDefault();
    const input = document.getElementById("new-name");
    const out = document.getElementById("rename-error");
    const name = input.value.trim();
    input.removeAttribute("aria-invalid");
    if (!name) {
      out.textContent = t("name.error.empty");
      input.setAttribute("aria-invalid", "true");
      input.focus();
      return;
    }
    try {
      const player = await api("PATCH", "/api/players/me", { name });
      out.textContent = "";
      document.getElementById("hello").textContent = t("name.hello", { name: player.name });
      document.getElementById("rename-box").open = false;
      refresh();
    } catch (error) {
      input.setAttribute("aria-invalid", "true");
      out.textContent = window.I18N[`error.${error.code}`] ? t(`error.${error.code}`) : t("error.generic", { message: error.message });
    }
  });
}
