// The lobby: create a table from the catalogue's options, list public tables live.
import { api } from "./api.js";
import { el, t } from "./i18n.js";

const gamesBlock = document.getElementById("games-data");
const games = gamesBlock ? JSON.parse(gamesBlock.textContent) : [];
const form = document.getElementById("create-table");

function choiceLabel(option, choice) {
  const key = `option.${option.name}.${choice}`;
  if (window.I18N[key]) return t(key);
  if (option.name === "first_seat") return t("table.seat", { n: choice + 1 });
  return String(choice);
}

function optionInput(option) {
  const label = t(`option.${option.name}`);
  if (option.type === "bool") {
    return el("label", { class: "check" },
      el("input", { type: "checkbox", name: option.name, checked: option.default }), " ", label);
  }
  if (option.choices) {
    return el("label", {}, label, " ",
      el("select", { name: option.name },
        option.choices.map((c) => el("option", { value: String(c), selected: c === option.default }, choiceLabel(option, c)))));
  }
  return el("label", {}, label, " ",
    el("input", { type: "number", name: option.name, value: option.default,
      min: option.minimum, max: option.maximum, inputmode: "numeric" }));
}

function showOptions() {
  const game = games.find((g) => g.id === form.game.value);
  const seats = document.getElementById("seats-select");
  seats.replaceChildren();
  for (let n = game.min_players; n <= game.max_players; n++) seats.append(el("option", { value: n }, n));
  const box = document.getElementById("options");
  box.replaceChildren(el("legend", {}, t("lobby.options")), ...game.options.map(optionInput));
}

if (form) {
  form.game.addEventListener("change", showOptions);
  showOptions();
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const game = games.find((g) => g.id === form.game.value);
    const options = {};
    for (const option of game.options) {
      const input = form.elements[option.name];
      if (option.type === "bool") options[option.name] = input.checked;
      else if (option.choices) options[option.name] = option.choices.find((c) => String(c) === input.value);
      else options[option.name] = Number(input.value);
    }
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

function tableItem(table, mine) {
  const taken = table.seats.filter((s) => s.player).length;
  const names = table.seats.filter((s) => s.player).map((s) => s.player.name).join(", ");
  return el("li", { class: mine && table.your_turn ? "your-turn" : "" },
    el("strong", {}, t(`game.${table.game}`)), ` · ${taken}/${table.seat_count} · `,
    el("span", { class: `pill ${table.status}` }, t(`status.${table.status}`)), " ",
    mine && table.your_turn ? el("span", { class: "badge turn-badge" }, t("lobby.your_turn")) : null,
    mine && table.private ? el("span", { class: "badge" }, t("lobby.private_badge")) : null, " ",
    el("span", { class: "muted" }, names), " ",
    el("a", { href: `/tables/${table.id}`, class: "button" }, t("lobby.open_table", { game: t(`game.${table.game}`) })));
}

async function refresh() {
  const list = document.getElementById("table-list");
  const mineList = document.getElementById("my-tables");
  let mineIds = new Set();
  if (mineList) {
    try {
      const mine = await api("GET", "/api/players/me/tables");
      mineIds = new Set(mine.map((table) => table.id));
      if (!mine.length) mineList.replaceChildren(el("li", { class: "muted" }, t("lobby.no_my_tables")));
      else mineList.replaceChildren(...mine.map((table) => tableItem(table, true)));
    } catch (error) {
      mineList.replaceChildren(el("li", { class: "error", role: "alert" }, t("lobby.list_error")));
    }
  }
  try {
    // your own tables are listed above, not twice
    const tables = (await api("GET", "/api/tables")).filter((table) => !mineIds.has(table.id));
    if (!tables.length) { list.replaceChildren(el("li", { class: "muted" }, t("lobby.no_tables"))); return; }
    list.replaceChildren(...tables.map((table) => tableItem(table, false)));
  } catch (error) {
    // never "no tables" when we simply could not ask: say so, and try again shortly
    list.replaceChildren(el("li", { class: "error", role: "alert" }, t("lobby.list_error")));
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
