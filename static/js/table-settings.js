// The table page's settings card: what the host chose (rounds, knock seconds, clock,
// variants...), so guests in the waiting room know what they sit down to. The data is the
// page's: the game's catalogue options and this table's values (a JSON block, not script).
import { t } from "./i18n.js";
import { settingsItems, settingsList } from "./settings.js";

const block = document.getElementById("table-settings-data");
const box = document.getElementById("table-settings-list");
if (block && box) {
  const { options, values } = JSON.parse(block.textContent);
  const items = settingsItems(options, values);
  box.replaceChildren(items.length ? settingsList(items) : t("table.settings_default"));
}
