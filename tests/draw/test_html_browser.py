"""The HTML stepper in a real headless Chromium (Debian's ``chromium``, driven by
Playwright): load the file from disk with the network blocked, step to the end and
check that the highlighted node, the narration and the pruned marks follow the search.
Screenshots go to the test's tmp_path (printed on failure)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from browser_helpers import ARGS, CHROMIUM, guarded_page
from draw.cases import textbook
from plies import draw
from plies.draw._html import to_html as html_page
from plies.trees import alphabeta
from plies.trees._format import narrate
from plies.trees._random import random_tree

sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="Chromium is not installed (apt-get install chromium)"
)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        yield browser
        browser.close()


@pytest.fixture
def page(browser: Any, tmp_path: Path) -> Iterator[Any]:
    page = guarded_page(browser, origin=None, width=1300, height=800)
    yield page
    page.context.close()
    assert not page.errors, page.errors
    assert not page.outside, f"the page tried the network: {page.outside}"


def _state(page: Any) -> dict[str, Any]:
    return page.evaluate(
        """() => ({
            step: Number(document.body.dataset.step),
            line: document.getElementById('line').textContent,
            current: [...document.querySelectorAll('g.node.current')].map(g => g.id),
            pruned: [...document.querySelectorAll('g.node.pruned')].map(g => g.id).sort(),
            prunedEdges: [...document.querySelectorAll('g.edge.pruned')].length,
            pv: [...document.querySelectorAll('g.node.pv')].map(g => g.id).sort(),
            path: [...document.querySelectorAll('#path li')].map(li => li.textContent),
            counter: document.getElementById('counter').textContent,
        })"""
    )


def test_stepping_through_the_labelled_tree(page: Any, tmp_path: Path) -> None:
    _tree, result = textbook("labelled")
    html = tmp_path / "search.html"
    draw.write(html, result)
    page.goto(html.as_uri())
    lines = narrate(result)
    start = _state(page)
    assert start["step"] == 0 and start["line"] == "Before the search"
    assert start["current"] == [] and start["pruned"] == []
    page.screenshot(path=str(tmp_path / "step-00.png"))
    seen = [start]
    while True:
        page.click("#next")
        state = _state(page)
        if state["step"] == seen[-1]["step"]:
            break
        seen.append(state)
    assert len(seen) == len(lines) + 2  # before, every step, done
    page.screenshot(path=str(tmp_path / "end.png"), full_page=True)
    for k, line in enumerate(lines, 1):
        assert seen[k]["line"] == line
        assert len(seen[k]["current"]) == 1  # exactly one node highlighted per step
    # Step 1 enters A (n0); step 12 is E's cut-off, pruning leaf 9 (n7).
    assert seen[1]["current"] == ["n0"]
    assert seen[1]["path"] == ["A MAX  α=-∞ β=∞"]
    assert seen[11]["pruned"] == [] and seen[12]["pruned"] == ["n7"]
    assert seen[12]["current"] == ["n5"]
    assert seen[12]["path"][-1] == "E MAX  α=5 β=3  v=5"
    # Step 24 is C's cut-off: G and its leaves join the pruned marks.
    assert seen[24]["pruned"] == ["n12", "n13", "n14", "n7"]
    assert seen[24]["prunedEdges"] == 4
    end = seen[-1]
    assert end["current"] == [] and end["line"].startswith("Done: value 3")
    assert end["pv"] == ["n0", "n1", "n2", "n4"]
    assert page.inner_text("#path-title") == "Principal variation"
    page.screenshot(path=str(tmp_path / "done.png"))
    # Back, start, end and the keyboard.
    page.click("#back")
    assert _state(page)["step"] == len(lines)
    page.click("#start")
    assert _state(page)["pruned"] == []
    page.keyboard.press("End")
    assert _state(page)["step"] == len(lines) + 1
    page.keyboard.press("ArrowLeft")
    assert _state(page)["line"] == lines[-1]


def test_play_runs_to_the_end(page: Any, tmp_path: Path) -> None:
    _tree, result = textbook("aima-5-2")
    html = tmp_path / "aima.html"
    html.write_text(html_page(result.tree, result, interval_ms=20), encoding="utf-8")
    page.goto(html.as_uri())
    page.click("#play")
    last = len(narrate(result)) + 1
    page.wait_for_function(f"document.body.dataset.step == {last}", timeout=10_000)
    assert _state(page)["counter"] == f"Step {last} of {last}"
    assert "Play" in page.inner_text("#play")


def test_before_page_has_no_search(page: Any, tmp_path: Path) -> None:
    tree, _result = textbook("labelled")
    html = tmp_path / "before.html"
    draw.write(html, tree)
    page.goto(html.as_uri())
    state = _state(page)
    assert state["pruned"] == [] and state["pv"] == [] and state["counter"] == "Step 0 of 0"
    page.screenshot(path=str(tmp_path / "before.png"))


def test_phone_width_shows_the_drawing(browser: Any, tmp_path: Path) -> None:
    """At 390 px the narration goes above the drawing and the drawing keeps the full
    width (side by side, the fixed-width narration squeezed it to nothing)."""
    _tree, result = textbook("labelled")
    html = tmp_path / "phone.html"
    draw.write(html, result)
    context = browser.new_context(viewport={"width": 390, "height": 844})
    try:
        page = context.new_page()
        page.goto(html.as_uri())
        box = page.locator("#drawing").bounding_box()
        line = page.locator("#line").bounding_box()
        page.screenshot(path=str(tmp_path / "phone.png"))
        assert box is not None and line is not None
        assert box["width"] > 350
        assert line["y"] < box["y"]  # the narration first
    finally:
        context.close()


def test_wide_tree_keeps_the_current_node_in_view(page: Any, tmp_path: Path) -> None:
    """100 leaves are 7,660 px wide: each step scrolls the drawing to its node (the
    root sat off screen, and so did every step of the right half)."""
    result = alphabeta(random_tree(branching=10, depth=2, seed=4))
    html = tmp_path / "wide.html"
    draw.write(html, result)
    page.goto(html.as_uri())
    for key in ("End", "ArrowLeft"):  # the last step: the root is done
        page.keyboard.press(key)
        current = _state(page)["current"] or ["n0"]
        node = page.locator(f"#{current[0]}").bounding_box()
        view = page.locator("#drawing").bounding_box()
        assert node is not None and view is not None
        assert view["x"] <= node["x"] and node["x"] + node["width"] <= view["x"] + view["width"]


def test_play_speed_and_narration_for_screen_readers(page: Any, tmp_path: Path) -> None:
    _tree, result = textbook("aima-5-2")
    path = tmp_path / "page.html"
    path.write_text(draw.to_html(result), encoding="utf-8")
    page.clock.install()  # the page's timers run on a fake clock: no waiting, no flakiness
    page.goto(path.as_uri())
    assert page.get_attribute("#line", "aria-live") == "polite"
    page.select_option("#speed", "4")
    page.click("#play")
    page.clock.run_for(900)  # one step at 1x; four at 4x
    assert page.get_attribute("body", "data-step") == "4"
    page.select_option("#speed", "0.5")
    page.clock.run_for(1800)  # one more step at half speed
    assert page.get_attribute("body", "data-step") == "5"
