// A table's settings in words, shared by the lobby (the create form groups and folds them;
// the list of tables to join shows what a host changed) and the table page (the waiting
// room tells guests what the host chose). Options come from the game catalogue
// (/api/games): name, type, default, choices, and "platform" for the table's own ones.
import { el, t } from "./i18n.js";

// options that only mean something with another option's value (otherwise their default
// is sent and they are not shown)
export const SHOWN_WHEN = {
  turn_seconds: (values) => values.clock === "turn",
  bank_seconds: (values) => values.clock === "chess",
  increment_seconds: (values) => values.clock === "chess",
  knock_seconds: (values) => values.knock !== false,
};
// numbers where 0 means "off": not worth a line in a summary then
const OFF_AT_ZERO = new Set(["target_score", "turn_seconds"]);

// rarely changed: folded under "more settings" in the create form (who starts stays out:
// friends often settle that)
export const FOLDED = new Set(["absent_grace_seconds", "spectator_chat", "spectators_see_all", "bot_delay"]);

export function choiceLabel(option, choice) {
  const key = `option.${option.name}.${choice}`;
  if (window.I18N[key]) return t(key);
  if (option.name === "first_seat") return t("table.seat", { n: choice + 1 });
  return String(choice);
}

// the short name of an option when the catalogue has one (summaries), else its full one
export function optionLabel(option, short = false) {
  const key = `option.${option.name}.short`;
  return short && window.I18N[key] ? t(key) : t(`option.${option.name}`);
}

export function valueText(option, value) {
  if (option.type === "bool") return t(value ? "option.yes" : "option.no");
  if (option.choices) return choiceLabel(option, value);
  return String(value);
}

export const shown = (option, values) => !SHOWN_WHEN[option.name] || SHOWN_WHEN[option.name](values);

// The settings worth telling: the game's own options and the clock (with its seconds when
// it runs) always, the table's other options when changed; with changedOnly, only what the
// host changed from the default. Returns [{name, label, value, changed}].
export function settingsItems(options, values, { changedOnly = false } = {}) {
  const items = [];
  for (const option of options) {
    if (!(option.name in values) || !shown(option, values)) continue;
    const value = values[option.name];
    if (OFF_AT_ZERO.has(option.name) && !Number(value)) continue;
    const changed = value !== option.default;
    // the clock's own settings go with it (how long a chess clock runs is the point)
    const always = !option.platform || option.name === "clock" || option.name in SHOWN_WHEN;
    if (changedOnly ? !changed : !(always || changed)) continue;
    if (option.name === "first_seat" && !changed) continue;
    items.push({ name: option.name, label: optionLabel(option, true), value: valueText(option, value), changed });
  }
  return items;
}

export function settingsList(items, className = "settings-list") {
  return el("dl", { class: className }, items.map((item) => el("div", { class: `setting${item.changed ? " changed" : ""}`, dataset: { option: item.name } },
    el("dt", {}, item.label), el("dd", {}, item.value))));
}
