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

// a yes or no, unless the catalogue says more for that value ("option.<name>.true": what
// the option being on means, e.g. how Hanabi's multicolour cards take clues)
export function valueText(option, value) {
  if (option.type === "bool") {
    const key = `option.${option.name}.${value ? "true" : "false"}`;
    return window.I18N[key] ? t(key) : t(value ? "option.yes" : "option.no");
  }
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

// ------------------------------------------------- a form of options (lobby, replay branch)

// one option as a form field (a checkbox, a choice or a number), prefilled with ``value``
// (the option's default when not given); the field carries data-option for showFields
export function optionField(option, value = option.default) {
  const label = t(`option.${option.name}`);
  let field;
  if (option.type === "bool") {
    field = el("label", { class: "check" },
      el("input", { type: "checkbox", name: option.name, checked: value }), " ", label);
  } else if (option.choices) {
    field = el("label", {}, label, " ",
      el("select", { name: option.name },
        option.choices.map((c) => el("option", { value: String(c), selected: c === value }, choiceLabel(option, c)))));
  } else {
    field = el("label", {}, label, " ",
      el("input", { type: "number", name: option.name, value,
        min: option.minimum, max: option.maximum, inputmode: "numeric" }));
  }
  field.dataset.option = option.name;
  return field;
}

// what ``form`` holds now for ``options``, as the values it would send
export function formValues(form, options) {
  const values = {};
  for (const option of options) {
    const input = form.elements[option.name];
    if (!input) continue;
    if (option.type === "bool") values[option.name] = input.checked;
    else if (option.choices) values[option.name] = option.choices.find((c) => String(c) === input.value);
    else values[option.name] = Number(input.value);
  }
  return values;
}

// fields that only mean something with another choice (the clock's seconds, the knock's)
// show only then; a per-turn clock starts from a minute rather than the refused 0
export function showFields(form, options) {
  const values = formValues(form, options);
  for (const option of options) {
    const field = form.querySelector(`[data-option="${option.name}"]`);
    if (field) field.hidden = !shown(option, values);
  }
  const turn = form.elements.turn_seconds;
  if (turn && values.clock === "turn" && Number(turn.value) <= 0) turn.value = "60";
}

// the options to send: a field hidden because it does not apply goes as its default
export function optionsToSend(form, options) {
  const values = formValues(form, options);
  const out = {};
  for (const option of options) {
    if (option.name in values) out[option.name] = shown(option, values) ? values[option.name] : option.default;
  }
  return out;
}
