"""Shared by the browser tests: Debian's Chromium, and a page that records its script
errors and every request it makes beyond what it may reach."""

from __future__ import annotations

import os
import shutil
from typing import Any

#: The Chromium to drive: $PLIES_CHROMIUM, else Debian's on the PATH.
CHROMIUM = os.environ.get("PLIES_CHROMIUM") or shutil.which("chromium")
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def guarded_page(
    browser: Any, *, origin: str | None, width: int, height: int, has_touch: bool = False
) -> Any:
    """A new page of ``width`` x ``height`` in a context of its own (with a touch
    screen if ``has_touch``). Requests to ``origin`` go through; any other http(s)
    request is aborted and kept in ``page.outside``, script errors in ``page.errors``."""
    context = browser.new_context(viewport={"width": width, "height": height}, has_touch=has_touch)
    outside: list[str] = []

    def route(r: Any) -> None:
        if origin is not None and r.request.url.startswith(origin):
            r.continue_()
        else:  # a page needs nothing but its own server (or itself)
            outside.append(r.request.url)
            r.abort()

    context.route("http*://**/*", route)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.errors = errors
    page.outside = outside
    return page
