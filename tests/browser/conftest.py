"""One Chromium per test worker, a fresh browser context per test.

Launching Chromium costs a second or two of a core; the suite used to launch one per test
file (or per test). Here a worker launches it once and keeps it for as long as it runs this
directory's files (``--dist loadfile`` hands a worker whole files, in collection order, so
the browser files come one after another). It is closed when the worker moves on to a file
elsewhere: Playwright's sync API marks the worker's thread as running its event loop for as
long as it lives, and the asyncio tests of the other directories need that thread free.

- ``chromium``: the worker's Browser (tests/support/browser.py: Debian's /usr/bin/chromium,
  its flags; missing Chromium fails under CI=true and skips elsewhere).
- ``browser``: the same Browser for one test; every context the test opened (directly or
  through a helper such as ``comfort.open_as``) is closed after it.
- ``new_context(**options)``: a fresh context with the test's own viewport, locale, time
  zone, ...: Playwright's ``Browser.new_context`` options, closed after the test.

In this directory, a coroutine runs through ``tests.browser.comfort.run`` (a thread of its
own), never ``asyncio.run`` on the test's thread, which Playwright holds.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from tests.support.browser import launch_chromium


@pytest.fixture(scope="package")
def chromium() -> Iterator[Any]:
    with launch_chromium() as browser:
        yield browser


@pytest.fixture
def browser(chromium: Any) -> Iterator[Any]:
    before = list(chromium.contexts)
    yield chromium
    for context in chromium.contexts:
        if context not in before:
            context.close()


@pytest.fixture
def new_context(browser: Any) -> Callable[..., Any]:
    def make(**options: Any) -> Any:
        return browser.new_context(**options)

    return make
