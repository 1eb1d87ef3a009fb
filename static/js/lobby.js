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

async function refresh() {
  const list = document.getElementById("table-list");
  try {
    const tables = await api("GET", "/api/tables");
    if (!tables.length) { list.replaceChildren(el("li", { class: "muted" }, t("lobby.no_tables"))); return; }
    list.replaceChildren(...tables.map((table) => {
      const taken = table.seats.filter((s) => s.player).length;
      const names = table.seats.filter((s) => s.player).map((s) => s.player.name).join(", ");
      return el("li", {},
        el("strong", {}, t(`game.${table.game}`)), ` · ${taken}/${table.seat_count} · `,
        el("span", { class: `pill ${table.status}` }, t(`status.${table.status}`)), " ",
        el("span", { class: "muted" }, names), " ",
        el("a", { href: `/tables/${table.id}`, class: "button" }, t("lobby.open")));
    }));
  } catch (error) {
    // never "no tables" when we simply could not ask: say so, and try again shortly
    list.replaceChildren(el("li", { class: "error", role: "alert" }, t("lobby.list_error")));
  }
}
refresh();
setInterval(refresh, 5000);
