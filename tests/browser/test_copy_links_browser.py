"""The "Copy" buttons beside the invite, the spectator link and the hand-off link copy their
link wherever the server is reached. The clipboard API exists only in a secure context: on
a server opened over plain http on the home network (http://192.168.1.20:8000) the buttons
only selected the text and said nothing. Now they copy the selected link the old way there
(``document.execCommand("copy")``), say "¡Copiado!", and if even that is refused say the
link is selected, to copy by hand; then they read "Copiar" again.

The test server is on 127.0.0.1, a secure context: the plain-http case is made by hiding
the clipboard API and ``isSecureContext`` before the page's scripts run."""

from __future__ import annotations

import pytest

from tests.browser.comfort import LAPTOP, PHONE, load_table, open_as
from tests.support.client import ApiClient

pytestmark = pytest.mark.browser

PLAIN_HTTP = """
Object.defineProperty(window, 'isSecureContext', { get: () => false });
Object.defineProperty(Navigator.prototype, 'clipboard', { get: () => undefined });
window.copiedTexts = [];
document.addEventListener('copy', () => {
  const box = document.activeElement;
  window.copiedTexts.push(box.value.slice(box.selectionStart, box.selectionEnd));
});
"""
REFUSED = "document.execCommand = () => false;"


def button_after(page, field: str):
    return page.locator(f"#{field} + button")


def test_the_invite_is_copied_over_https_and_over_plain_http(worker_server, browser) -> None:
    base = worker_server.url
    ana = ApiClient(base, "Ana")
    table = ana.create_table("ikebana", 2)
    invite = table["invite_url"]

    # a secure context: through the clipboard
    context = open_as(browser, base, ana, PHONE, "es")
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=base)
    page = context.new_page()
    load_table(page, base, table["id"])
    button = button_after(page, "invite-url")
    button.click()
    page.wait_for_function("() => document.querySelector('#invite-url + button').dataset.copied")
    assert button.inner_text() == "¡Copiado!"
    assert page.evaluate("() => navigator.clipboard.readText()") == invite
    # and it says "Copiar" again a moment later
    page.wait_for_function(
        "() => document.querySelector('#invite-url + button').textContent === 'Copiar'",
        timeout=5_000)
    context.close()

    # plain http: copied from the selected field, and said so
    context = open_as(browser, base, ana, PHONE, "es")
    context.add_init_script(PLAIN_HTTP)
    page = context.new_page()
    load_table(page, base, table["id"])
    button = button_after(page, "invite-url")
    button.click()
    page.wait_for_function("() => document.querySelector('#invite-url + button').dataset.copied")
    assert button.inner_text() == "¡Copiado!"
    assert page.evaluate("() => window.copiedTexts") == [invite]
    context.close()


def test_a_refused_copy_leaves_the_link_selected_and_says_so(worker_server, browser) -> None:
    base = worker_server.url
    ana = ApiClient(base, "Ana")
    table = ana.create_table("ikebana", 2)
    context = open_as(browser, base, ana, LAPTOP, "en")
    context.add_init_script(PLAIN_HTTP + REFUSED)
    page = context.new_page()
    load_table(page, base, table["id"])
    # the spectator link
    page.wait_for_selector("#watch-url")
    button = button_after(page, "watch-url")
    button.click()
    page.wait_for_function("() => document.querySelector('#watch-url + button').dataset.copied")
    assert button.inner_text() == "Copy it by hand"
    selected = page.evaluate("""() => {
      const box = document.getElementById('watch-url');
      return [document.activeElement === box, box.selectionStart, box.selectionEnd,
              box.value.length]; }""")
    assert selected[:3] == [True, 0, selected[3]] and selected[3] > 20
    context.close()


def test_the_handoff_link_is_copied_over_plain_http(worker_server, browser) -> None:
    base = worker_server.url
    ana = ApiClient(base, "Ana")
    table = ana.create_table("ikebana", 2)
    context = open_as(browser, base, ana, PHONE, "es")
    context.add_init_script(PLAIN_HTTP)
    page = context.new_page()
    load_table(page, base, table["id"])
    page.get_by_role("button", name="Seguir en otro dispositivo").first.click()
    page.wait_for_selector("#handoff-url")
    link = page.input_value("#handoff-url")
    button = button_after(page, "handoff-url")
    button.click()
    page.wait_for_function("() => document.querySelector('#handoff-url + button').dataset.copied")
    assert button.inner_text() == "¡Copiado!"
    assert page.evaluate("() => window.copiedTexts") == [link]
    context.close()
