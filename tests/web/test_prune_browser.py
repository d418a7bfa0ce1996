"""The prune-and-search page (``/prune``) and the lab's complexity picture in a real
browser: a selection and a linear program run, typed and random from a seed, stepped
through with the buttons and the keys, each round's narration and drawing shown with
the measured a; a bad input is one line beside the last answer; the lab's chart is
filled in from the tree and drawn; axe finds nothing serious at a desktop's and a
phone's size. A real uvicorn server on loopback and Debian's Chromium driven by
Playwright (tests/web/conftest.py)."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

import pytest

from axe_helpers import format_violations, serious_violations
from browser_helpers import CHROMIUM, guarded_page

sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="Chromium is not installed (apt-get install chromium)"
)
expect = sync_api.expect

#: 31 distinct numbers whose median the median of medians finds in 3 rounds.
NUMBERS = (
    "50 98 54 6 34 66 63 52 39 62 46 75 28 65 18 37 85 13 80 33 69 78 19 40 82 10 43 61 88 89 56"
)
PROGRAM = "max 3x + 2y\nx + y <= 4\nx + 3y <= 6\nx >= 0\ny >= 0\n"


def _open(page: Any, server: str) -> None:
    page.goto(f"{server}/prune")
    expect(page.get_by_test_id("select-position")).to_have_text("Round 1 of 3")
    expect(page.get_by_test_id("lp-position")).to_contain_text("of")


def test_a_selection_runs_and_steps(page: Any, server: str) -> None:
    _open(page, server)
    position = page.get_by_test_id("select-position")
    narration = page.get_by_test_id("select-narration")
    page.fill("#select-text", NUMBERS)
    page.fill("#select-k", "5")
    page.click("#select-run")
    expect(page.get_by_test_id("select-summary")).to_have_text(
        "19: the 5th smallest of 31 (3 rounds, median of medians)"
    )
    expect(position).to_have_text("Round 1 of 3")
    expect(narration.locator("li").first).to_have_text(
        "Round 1: 31 numbers, the 5th smallest sought."
    )
    first = page.get_by_test_id("select-drawing").inner_html()
    assert first.startswith("<svg") and "31 numbers" in first
    expect(page.locator("#select-output [data-step=back]")).to_be_disabled()
    page.click("#select-output [data-step=next]")
    expect(position).to_have_text("Round 2 of 3")
    assert page.get_by_test_id("select-drawing").inner_html() != first
    page.get_by_test_id("select-drawing").focus()
    page.keyboard.press("End")
    expect(position).to_have_text("Answer (after 3 rounds)")
    expect(narration.locator("li").first).to_have_text("The 5th smallest is 19.")
    expect(page.locator("#select-output [data-step=next]")).to_be_disabled()
    page.keyboard.press("ArrowLeft")
    expect(position).to_have_text("Round 3 of 3")
    page.keyboard.press("Home")
    expect(position).to_have_text("Round 1 of 3")
    expect(page.get_by_test_id("select-recurrence")).to_contain_text(
        "T(n) = T(a n) + O(n) with measured a = "
    )
    # Random from the seed: the numbers drawn are shown, to read and edit.
    page.fill("#select-count", "200")
    page.fill("#select-seed", "7")
    page.fill("#select-k", "")
    page.click("#select-random")
    expect(page.get_by_test_id("select-summary")).to_contain_text("the 100th smallest of 200")
    assert len(page.input_value("#select-text").split()) == 200


def test_a_linear_program_runs_and_a_bad_one_is_one_line(page: Any, server: str) -> None:
    _open(page, server)
    page.fill("#lp-text", PROGRAM)
    page.click("#lp-run")
    summary = page.get_by_test_id("lp-summary")
    expect(summary).to_have_text("optimal: 12 at x = 4, y = 0 (1 round)")
    expect(page.get_by_test_id("lp-position")).to_have_text("Round 1 of 1")
    expect(page.get_by_test_id("lp-narration")).to_contain_text(
        "Test line x = 3 (the median crossing)"
    )
    expect(page.get_by_test_id("lp-drawing").locator("svg")).to_be_visible()
    page.click("#lp-output [data-step=end]")
    expect(page.get_by_test_id("lp-position")).to_have_text("Answer (after 1 round)")
    expect(page.get_by_test_id("lp-narration")).to_contain_text(
        "Optimal: max 3x + 2y = 12 at x = 4, y = 0."
    )
    page.fill("#lp-count", "40")
    page.fill("#lp-seed", "3")
    page.click("#lp-random")
    expect(summary).to_contain_text("rounds)")
    assert page.input_value("#lp-text").count("<=") == 40
    expect(page.get_by_test_id("lp-position")).to_contain_text("Round 1 of ")
    drawing = page.get_by_test_id("lp-drawing")
    expect(drawing.locator("svg")).to_be_visible()
    expect(page.get_by_test_id("lp-narration")).to_contain_text("Test line")
    page.click("#lp-output [data-step=next]")
    expect(page.get_by_test_id("lp-position")).to_contain_text("Round 2 of ")
    expect(page.get_by_test_id("lp-recurrence")).to_contain_text("measured a = ")
    page.fill("#lp-text", "max x + y\nx + y <= ")
    page.click("#lp-run")
    error = page.get_by_test_id("lp-error")
    expect(error).to_contain_text("column")
    assert "\n" not in error.inner_text()
    expect(page.locator("#lp-text")).to_have_attribute("aria-invalid", "true")
    expect(page.locator("#lp-output")).to_have_class("prune-output stale")
    expect(summary).to_contain_text("rounds)")  # the last answer stays, marked stale


def test_the_lab_draws_the_complexity_picture_of_its_tree(page: Any, server: str) -> None:
    tree = "[[[1,2],[3,4]],[[5,6],[7,8]]]"  # b = 2, height 3
    page.goto(f"{server}/?tree={quote(tree)}")
    expect(page.get_by_test_id("value")).not_to_have_text("")
    expect(page.locator("#complexity-b")).to_have_value("2")
    expect(page.locator("#complexity-depths")).to_have_value("1-3")
    expect(page.get_by_test_id("complexity-note")).to_contain_text("height 3")
    page.fill("#complexity-seeds", "4")
    page.click("#complexity-draw")
    chart = page.get_by_test_id("complexity-chart")
    expect(chart.locator("svg title").first).to_have_text("Minimax and alpha-beta, branching b = 2")
    page.fill("#complexity-b", "9")
    page.fill("#complexity-depths", "1-9")
    page.click("#complexity-draw")
    expect(page.get_by_test_id("complexity-error")).to_contain_text("over the cap of 100,000")


@pytest.mark.parametrize("size", [(1366, 768), (390, 844)], ids=["desktop", "phone"])
def test_axe_finds_nothing_serious(
    browser: Any, server: str, size: tuple[int, int], tmp_path: Any
) -> None:
    page = guarded_page(browser, origin=server, width=size[0], height=size[1])
    _open(page, server)
    page.click("#select-output [data-step=next]")
    found = serious_violations(page)
    page.goto(f"{server}/?tree={quote('[[1,2],[3,4]]')}")
    page.click("#complexity-draw")
    expect(page.get_by_test_id("complexity-chart").locator("svg")).to_be_visible()
    found += serious_violations(page)
    page.screenshot(path=str(tmp_path / "page.png"), full_page=True)
    assert not found, format_violations(found)
    assert page.errors == [] and page.outside == []
    page.context.close()
