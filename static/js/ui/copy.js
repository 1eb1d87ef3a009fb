// A "Copy" button beside a read-only link (the invite, the spectator link, the hand-off).
// The clipboard API exists only in a secure context: a server reached over plain http on
// the home network (http://192.168.1.20:8000, how most self-hosters start) has none, and the
// button did nothing there but select the text. Then the selected text is copied the old
// way; if the browser refuses that too, the button says the link is selected, to copy by
// hand. Either way the button says what happened, and is "Copy" again a moment later.
import { t } from "../i18n.js";

const SAID_FOR_MS = 2500;

async function copied(input) {
  if (window.isSecureContext && navigator.clipboard) {
    try {
      await navigator.clipboard.writeText(input.value);
      return true;
    } catch (error) { /* refused (no permission): the old way below */ }
  }
  input.focus();
  input.select();
  input.setSelectionRange(0, input.value.length);
  try {
    return document.execCommand("copy");
  } catch (error) {
    return false;
  }
}

export function copyButton(input, attrs = {}) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = attrs.class || "secondary";
  button.textContent = t("table.copy");
  let timer = null;
  button.addEventListener("click", async () => {
    const ok = await copied(input);
    button.textContent = t(ok ? "table.copied" : "table.copy_selected");
    button.dataset.copied = ok ? "yes" : "no";
    if (!ok) input.select();
    clearTimeout(timer);
    timer = setTimeout(() => { button.textContent = t("table.copy"); delete button.dataset.copied; }, SAID_FOR_MS);
  });
  return button;
}

// [input, its button]: to spread into a row
export const withCopy = (input) => [input, copyButton(input)];
