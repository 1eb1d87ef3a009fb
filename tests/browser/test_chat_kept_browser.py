"""A chat line the server refuses stays in the box to be sent again: the box was emptied
as soon as the line left, so a line refused for coming too fast (five lines, then one
every two seconds) was lost, with only the error to say so. The box is now emptied when
the line comes back from the server; a refused line stays, the error shown.

The error shows by the chat box, not by the banner at the top of the page: on a phone the
chat is at the bottom, a whole screen or more from the banner, and the player never saw
why their line stayed. It is an alert (announced), the box says it is described by it,
and it goes when the line is sent."""

from __future__ import annotations

import pytest

from tests.browser.comfort import PHONE, load_table, open_as
from tests.support.client import ApiClient

pytestmark = pytest.mark.browser


def said(page, text: str) -> None:
    page.wait_for_function(
        "(w) => [...document.querySelectorAll('#chat li')]"
        ".some((li) => li.textContent.endsWith(w))",
        arg=text)


def shown_errors(page) -> tuple[str, str]:
    """The chat box's error line (empty if the page has none) and the page's own."""
    by_chat, by_banner = page.evaluate(
        "() => ['chat-error', 'error'].map((id) => document.getElementById(id)?.textContent ?? '')")
    return by_chat, by_banner


@pytest.mark.parametrize("lang", ["es", "en"])
def test_a_refused_chat_line_stays_in_the_box(worker_server, browser, lang: str) -> None:
    base = worker_server.url
    ana = ApiClient(base, "Ana")
    table = ana.create_table("ikebana", 2)
    page = open_as(browser, base, ana, PHONE, lang).new_page()
    load_table(page, base, table["id"])
    refused = None
    for n in range(12):  # the chat's burst is five lines; the sixth comes too fast
        text = f"line {n}"
        page.fill("#chat-input", text)
        page.press("#chat-input", "Enter")
        page.wait_for_function(
            """(w) => [...document.querySelectorAll('#chat li')]
                        .some((li) => li.textContent.endsWith(w))
                      || [...document.querySelectorAll('#chat-error, #error')]
                           .some((e) => e.textContent !== '')""", arg=text)
        if any(shown_errors(page)):
            refused = text
            break
        # taken: the box is empty again
        page.wait_for_function("() => document.getElementById('chat-input').value === ''")
    assert refused is not None, "no line was refused for coming too fast"
    by_chat, by_banner = shown_errors(page)
    assert ("demasiado deprisa" if lang == "es" else "too fast") in by_chat, (by_chat, by_banner)
    assert by_banner == "", "the chat's error shows by the banner"
    page.wait_for_timeout(300)
    assert page.input_value("#chat-input") == refused, "the refused line was lost"
    # by the box: within a line or two of the input, and in view with it
    gap = page.evaluate("""() => {
      const e = document.getElementById('chat-error').getBoundingClientRect();
      const i = document.getElementById('chat-input').getBoundingClientRect();
      return Math.max(e.top - i.bottom, i.top - e.bottom); }""")
    assert gap < 48, f"the error is {gap} px from the chat box"
    page.locator("#chat-input").scroll_into_view_if_needed()
    assert page.locator("#chat-error").is_visible() and page.evaluate(
        "() => { const r = document.getElementById('chat-error').getBoundingClientRect();"
        " return r.top >= 0 && r.bottom <= innerHeight; }"), "the error is not in view with the box"
    assert page.get_attribute("#chat-error", "role") == "alert"
    assert "chat-error" in (page.get_attribute("#chat-input", "aria-describedby") or "")
    assert page.get_attribute("#chat-input", "aria-invalid") == "true"
    # a moment later it goes, and only then leaves the box
    page.wait_for_timeout(2500)
    page.press("#chat-input", "Enter")
    said(page, refused)
    page.wait_for_function("() => document.getElementById('chat-input').value === ''")
    assert page.locator("#chat li").filter(has_text=refused).count() == 1
    page.wait_for_function("() => document.getElementById('chat-error').textContent === ''")
    assert page.get_attribute("#chat-input", "aria-invalid") is None
    page.context.close()
