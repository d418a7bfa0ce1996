"""Fixtures of the browser tests: a real uvicorn server on loopback, and Debian's
Chromium driven by Playwright (both started once per test module)."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
import uvicorn

from browser_helpers import ARGS, CHROMIUM, guarded_page
from plies.web import create_app


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    """The web app on a real uvicorn server; its base URL."""
    config = uvicorn.Config(create_app(), host="127.0.0.1", port=0, log_level="warning")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.05)
    port = server.servers[0].sockets[0].getsockname()[1]
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(timeout=10)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Headless Chromium through Playwright."""
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
    if CHROMIUM is None:
        pytest.skip("Chromium is not installed (apt-get install chromium)")
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        yield browser
        browser.close()


@pytest.fixture
def page(browser: Any, server: str, tmp_path: Any) -> Iterator[Any]:
    """A 1366 x 768 page that may reach only the test server; after the test, a
    screenshot in its tmp_path and no script error or request elsewhere."""
    page = guarded_page(browser, origin=server, width=1366, height=768)
    yield page
    page.screenshot(path=str(tmp_path / "page.png"), full_page=True)
    assert page.errors == []
    assert page.outside == []
    page.context.close()
