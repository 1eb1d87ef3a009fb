"""A chat line the server refuses stays in the box to be sent again: the box was emptied
as soon as the line left, so a line refused for coming too fast (five lines, then one
every two seconds) was lost, with only the error to say so. The box is now emptied when
the line comes back from the server; a refused line stays, the error shown."""

from __future__ import annotations

import pytest

from tests.browser.comfort import PHONE, load_table, open_as
from tests.support.browser import launch_chromium
from tests.support.client import ApiClient

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def browser():
    with launch_chromium() as chromium:
        yield chromium


def said(page, text: str) -> None:
    page.wait_for_function(
        "(w) => [...document.querySelectorAll('#chat li')]"
        ".some((li) => li.textContent.endsWith(w))",
        arg=text)


@pytest.mark.parametrize("lang", ["es", "en"])
def test_a_refused_chat_line_stays_in_the_box(shared_server, browser, lang: str) -> None:
    base = shared_server.url
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
                      || document.getElementById('error').textContent !== ''""", arg=text)
        if page.locator("#error").inner_text():
            refused = text
            break
        # taken: the box is empty again
        page.wait_for_function("() => document.getElementById('chat-input').value === ''")
    assert refused is not None, "no line was refused for coming too fast"
    error = page.locator("#error").inner_text()
    assert ("demasiado deprisa" if lang == "es" else "too fast") in error, error
    page.wait_for_timeout(300)
    assert page.input_value("#chat-input") == refused, "the refused line was lost"
    # a moment later it goes, and only then leaves the box
    page.wait_for_timeout(2500)
    page.press("#chat-input", "Enter")
    said(page, refused)
    page.wait_for_function("() => document.getElementById('chat-input').value === ''")
    assert page.locator("#chat li").filter(has_text=refused).count() == 1
    page.context.close()
