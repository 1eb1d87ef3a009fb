"""Every user string is shown as text: two players named with markup and script play a few
Hanabi moves and chat in markup while a third page watches the lobby. The names and the
messages appear literally in the lobby list, the greeting, the seats, the hands, the chat and
the game log; no injected element exists, no script runs (``alert`` and a global flag are
watched), and the pages report no Content-Security-Policy violation at all."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser

HOST = "<img src=x onerror=alert('h')>"
GUEST = "\"'><svg onload=alert(1)>&amp;"
CHAT = [
    "<script>window.__pwned = 1</script>",
    "<img src=x onerror=\"window.__pwned=2\">",
    "</li></ol><b id=injected>bold</b>",
    "{{ 7*7 }} ${7*7} &lt;escaped&gt;",
]

# runs before any page script (Playwright's init scripts are not subject to the page's CSP)
WATCH = """
window.__alerts = [];
window.__csp = [];
window.alert = (m) => window.__alerts.push(String(m));
window.confirm = window.prompt = window.alert;
document.addEventListener("securitypolicyviolation",
  (e) => window.__csp.push(`${e.violatedDirective} ${e.blockedURI} ${e.sample}`));
"""

INJECTED = ("img[src='x'], svg[onload], [onerror], [onload], #injected, "
            "script:not([src]):not([type='application/json'])")


def watch(context, problems: list[str]):
    context.add_init_script(WATCH)
    page = context.new_page()
    page.on("pageerror", lambda exc: problems.append(f"pageerror {exc}"))
    page.on("console", lambda msg: problems.append(f"console {msg.text}")
            if "Content Security Policy" in msg.text or msg.type == "error" else None)
    page.on("dialog", lambda dialog: (problems.append(f"dialog {dialog.message}"),
                                      dialog.dismiss()))
    return page


def assert_inert(page, where: str) -> None:
    found = page.evaluate(f"""() => ({{
        injected: document.querySelectorAll({INJECTED!r}).length,
        alerts: window.__alerts, csp: window.__csp, pwned: window.__pwned || null,
        title: document.title }})""")
    assert found["injected"] == 0, (where, found)
    assert found["alerts"] == [] and found["csp"] == [] and found["pwned"] is None, (where,
                                                                                     found)
    assert "<" not in found["title"] or HOST in found["title"] or GUEST in found["title"]


def name_yourself(page, base: str, path: str, name: str) -> None:
    page.goto(base + path)
    page.fill("#name", name)
    page.click("form[action='/session'] button")


def take_a_turn(page) -> bool:
    if page.locator("#banner.mine").count() == 0:
        return False
    before = page.locator("#table-app").get_attribute("data-version")
    for selector in ("button.discard:not([disabled])", "button.clue",
                     "button.play:not([disabled])"):
        buttons = page.locator(f"#game {selector}")
        if buttons.count():
            buttons.first.click()
            break
    else:
        raise AssertionError("my turn but no action button")
    page.wait_for_function(
        "(before) => document.getElementById('table-app').dataset.version !== before",
        arg=before, timeout=10_000)
    return True


def test_markup_in_names_and_chat_is_shown_as_text(shared_server, browser) -> None:
    base = shared_server.url
    problems: list[str] = []
    host_ctx = browser.new_context(locale="en-US")
    guest_ctx = browser.new_context(locale="en-US")
    watcher_ctx = browser.new_context(locale="en-US")
    host, guest, watcher = (watch(c, problems) for c in (host_ctx, guest_ctx, watcher_ctx))

    name_yourself(host, base, "/", HOST)
    host.wait_for_selector(".hello")
    assert HOST in host.locator(".hello").inner_text()
    assert_inert(host, "greeting")
    host.select_option("#game-select", "hanabi")
    host.select_option("#seats-select", "2")
    host.click("#create-table button[type=submit]")
    host.wait_for_url("**/tables/*")
    host.wait_for_selector("#invite-url")
    invite = host.locator("#invite-url").input_value()

    # the lobby list (polled by a page of someone not seated) shows the host's name as text
    watcher.goto(base + "/")
    watcher.wait_for_function(
        "(name) => document.getElementById('table-list').innerText.includes(name)",
        arg=HOST, timeout=15_000)
    assert_inert(watcher, "lobby list")

    name_yourself(guest, base, invite.removeprefix(base), GUEST)
    # the invite link seats its visitor at once (no "Sit here" to click)
    guest.wait_for_selector("#seats .seat.mine")
    host.wait_for_selector("#start-button:not([disabled])")
    host.click("#start-button")
    for page in (host, guest):
        page.wait_for_selector(".fireworks")

    # a few moves, so that the log has lines with both names
    moves = 0
    while moves < 3:
        if take_a_turn(host) or take_a_turn(guest):
            moves += 1
        else:
            host.wait_for_timeout(100)

    for i, text in enumerate(CHAT):
        page = host if i % 2 == 0 else guest
        page.fill("#chat-input", text)
        page.click("#chat-form button")
    for page in (host, guest):
        page.wait_for_function(
            "(text) => document.getElementById('chat').innerText.includes(text)",
            arg=CHAT[-1], timeout=10_000)

    for page, where in ((host, "host table"), (guest, "guest table")):
        seats = page.locator("#seats").inner_text()
        assert HOST in seats and GUEST in seats, seats
        chat = page.locator("#chat").inner_text()
        for text in CHAT:
            assert text in chat, (text, chat)
        assert HOST in chat and GUEST in chat  # the senders' names
        log = page.locator("#log").inner_text()
        assert HOST in log or GUEST in log, log
        assert HOST in page.locator("#game").inner_text() or GUEST in page.locator(
            "#game").inner_text()  # "hand of <name>"
        assert_inert(page, where)

    # a reload replays the chat and the log from the server: still text
    guest.reload()
    guest.wait_for_selector(".fireworks")
    guest.wait_for_function(
        "(text) => document.getElementById('chat').innerText.includes(text)",
        arg=CHAT[0], timeout=10_000)
    assert_inert(guest, "guest after reload")
    watcher.reload()
    watcher.wait_for_function(
        "(name) => document.getElementById('table-list').innerText.includes(name)",
        arg=GUEST, timeout=15_000)
    assert_inert(watcher, "lobby after the start")

    assert not problems, problems
    for context in (host_ctx, guest_ctx, watcher_ctx):
        context.close()
