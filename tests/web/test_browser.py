"""The web lab in a real browser: a real uvicorn server on loopback and Debian's
Chromium driven by Playwright, with every request off this server blocked."""

from __future__ import annotations

import os
import shutil
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest

uvicorn = pytest.importorskip("uvicorn")
sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
CHROMIUM = os.environ.get("PLIES_CHROMIUM") or shutil.which("chromium")
pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="Chromium is not installed (apt-get install chromium)"
)

from plies.web import create_app  # noqa: E402

ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
LABELLED = "A(B(D(2,3),E(5,9)),C(F(0,1),G(7,5)))"


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
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
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        yield browser
        browser.close()


def _page(browser: Any, server: str, width: int, height: int) -> Any:
    context = browser.new_context(viewport={"width": width, "height": height})
    outside: list[str] = []

    def route(r: Any) -> None:
        if r.request.url.startswith(server):
            r.continue_()
        else:  # the lab needs nothing but its own server
            outside.append(r.request.url)
            r.abort()

    context.route("**/*", route)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.errors = errors
    page.outside = outside
    return page


@pytest.fixture
def page(browser: Any, server: str, tmp_path: Path) -> Iterator[Any]:
    page = _page(browser, server, 1280, 800)
    yield page
    page.screenshot(path=str(tmp_path / "lab.png"), full_page=True)
    assert page.errors == []
    assert page.outside == []
    page.context.close()


def test_type_fix_run_and_step_to_the_end(page: Any, server: str) -> None:
    page.goto(server + "/")
    page.fill("#tree", "A(B(D(2,3),E(5,9)),C(F(0,1),G(7,5))")
    error = page.get_by_test_id("parse-error")
    sync_api.expect(error).to_contain_text("column 36")
    sync_api.expect(page.locator("#tree")).to_have_attribute("aria-invalid", "true")
    page.fill("#tree", LABELLED)
    sync_api.expect(error).to_have_text("")
    sync_api.expect(page.get_by_test_id("value")).to_have_text("3")
    sync_api.expect(page.get_by_test_id("pv")).to_contain_text("B → D → node 0.0.1")
    sync_api.expect(page.get_by_test_id("stats")).to_contain_text("evaluated 5 of 8 leaves")
    stepper = page.frame_locator("#stepper")
    stepper.locator("button", has_text="End").click()
    sync_api.expect(stepper.locator("#line")).to_contain_text("Done: value 3")
    sync_api.expect(page.get_by_test_id("compare")).to_contain_text("Knuth-Moore minimum")


def test_a_shared_link_shows_its_search_at_once(page: Any, server: str) -> None:
    page.goto(f"{server}/?tree={quote(LABELLED)}&root=min&strict=1&order=best")
    sync_api.expect(page.get_by_test_id("value")).to_have_text("5")
    assert page.locator("#root").input_value() == "min"
    assert page.locator("#strict").is_checked()
    assert page.locator("#order").input_value() == "best"


def test_options_change_the_search_and_the_link(page: Any, server: str) -> None:
    page.goto(server + "/")
    sync_api.expect(page.get_by_test_id("value")).to_have_text("3")
    page.select_option("#algorithm", "minimax")
    sync_api.expect(page.get_by_test_id("stats")).to_contain_text("evaluated 9 of 9 leaves")
    assert "algorithm=minimax" in page.locator("#share").get_attribute("href")


def test_downloads_are_files(page: Any, server: str) -> None:
    page.goto(server + "/")
    sync_api.expect(page.get_by_test_id("value")).to_have_text("3")
    with page.expect_download() as info:
        page.click("#downloads button[data-format=mmd]")
    path = info.value.path()
    assert Path(path).read_text(encoding="utf-8").startswith("flowchart TD")


def test_fits_a_phone(browser: Any, server: str, tmp_path: Path) -> None:
    page = _page(browser, server, 390, 844)
    page.goto(server + "/")
    sync_api.expect(page.get_by_test_id("value")).to_have_text("3")
    page.screenshot(path=str(tmp_path / "phone.png"), full_page=True)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the page is {width} px wide at a 390 px viewport"
    page.context.close()
