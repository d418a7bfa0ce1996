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
from plies.trees import alphabeta, parse
from plies.trees._format import narrate
from plies.trees._random import random_tree
from stepper_view import GEOMETRY, SIZES, assert_whole_tree_shows, textbook_trees

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


@pytest.fixture(scope="module")
def stepper_files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The downloaded stepper of AIMA Figure 5.2 and of a branching-3 depth-4 tree."""
    folder = tmp_path_factory.mktemp("steppers")
    files = {}
    for name, result in textbook_trees().items():
        files[name] = folder / f"{name}.html"
        files[name].write_text(draw.to_html(result), encoding="utf-8")
    return files


def _sized_page(browser: Any, size: str, *, touch: bool = False) -> Any:
    width, height = SIZES[size]
    return guarded_page(browser, origin=None, width=width, height=height, has_touch=touch)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("tree", ["aima", "b3d4"])
def test_the_whole_tree_fits_at_the_first_and_last_step(
    browser: Any, stepper_files: dict[str, Path], tree: str, size: str
) -> None:
    """Scaled to fit: every node inside the drawing's pane, the pane and the narration
    in the window, the narration beside (desktop) or below (phone) the drawing. AIMA's
    tree was 744 px in a 564 px pane; on a phone 140 px of it showed under the narration."""
    page = _sized_page(browser, size)
    try:
        page.goto(stepper_files[tree].as_uri())
        assert page.locator('meta[name="viewport"]').get_attribute("content") == (
            "width=device-width, initial-scale=1"
        )
        assert_whole_tree_shows(page.evaluate(GEOMETRY), f"{tree} at {size}, step 0")
        page.keyboard.press("End")
        view = page.evaluate(GEOMETRY)
        assert view["step"] > 0
        assert_whole_tree_shows(view, f"{tree} at {size}, last step")
        below = view["line"][1] >= view["pane"][3]
        beside = view["line"][0] >= view["pane"][2]
        assert below if size == "phone" else beside
        assert not page.errors
    finally:
        page.context.close()


#: A moment with no width (a frame resized, a page laid out hidden): the window's resize
#: event arrives while the drawing's pane is 0 px wide, then the width comes back.
NO_WIDTH_THEN_BACK = """async () => {
  const main = document.querySelector('main');
  main.style.width = '0px';
  window.dispatchEvent(new Event('resize'));
  await new Promise(done => requestAnimationFrame(done));
  main.style.width = '';
  await new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)));
}"""


@pytest.mark.parametrize("size", SIZES)
def test_a_moment_without_width_does_not_unscale_the_tree(
    browser: Any, stepper_files: dict[str, Path], size: str
) -> None:
    """In CI the lab's frame once drew the last step of the 81-leaf tree at full size in a
    372 px pane: laid out while the pane had no width, the scale was 0 and the viewBox
    NaN, and every later layout kept it. Now a pane without width waits for one."""
    page = _sized_page(browser, size)
    try:
        page.goto(stepper_files["b3d4"].as_uri())
        page.evaluate(NO_WIDTH_THEN_BACK)
        page.keyboard.press("End")
        assert_whole_tree_shows(page.evaluate(GEOMETRY), f"b3d4 at {size}, after no width")
        assert not page.errors
    finally:
        page.context.close()


ZOOM = "Number(document.getElementById('drawing').dataset.zoom)"
VIEW_X = "Number(document.querySelector('#drawing svg').getAttribute('viewBox').split(' ')[0])"


def _view_box(page: Any) -> list[float]:
    return [float(n) for n in page.get_attribute("#drawing svg", "viewBox").split()]


def _zoom(page: Any) -> float:
    return float(page.get_attribute("#drawing", "data-zoom"))


def test_zoom_with_keys_and_buttons_then_fit(page: Any, stepper_files: dict[str, Path]) -> None:
    """+ and - zoom about the centre, 0 and Fit show the whole tree again; the arrow
    keys go on stepping (they are not taken for zooming)."""
    page.goto(stepper_files["b3d4"].as_uri())
    assert _zoom(page) == 1 and page.is_disabled("#zoom-out") and page.is_disabled("#zoom-fit")
    page.keyboard.press("+")
    page.keyboard.press("+")
    assert _zoom(page) == pytest.approx(2.25)
    page.keyboard.press("-")
    assert _zoom(page) == pytest.approx(1.5)
    page.keyboard.press("ArrowRight")
    assert page.get_attribute("body", "data-step") == "1" and _zoom(page) == pytest.approx(1.5)
    page.keyboard.press("0")
    assert _zoom(page) == 1
    page.click("#zoom-in")
    assert _zoom(page) == pytest.approx(1.5)
    page.click("#zoom-fit")
    assert _zoom(page) == 1
    page.keyboard.press("-")  # never smaller than the whole tree
    assert _zoom(page) == 1


def test_zoomed_in_the_view_follows_the_current_node(
    page: Any, stepper_files: dict[str, Path]
) -> None:
    """Zoomed in on the left, stepping to the right half's nodes brings each into view."""
    page.goto(stepper_files["b3d4"].as_uri())
    for _ in range(5):
        page.click("#zoom-in")
    page.keyboard.press("End")
    page.keyboard.press("ArrowLeft")  # the last step with a current node
    current = page.locator("#drawing g.node.current").bounding_box()
    pane = page.locator("#drawing").bounding_box()
    assert current is not None and pane is not None
    assert (
        pane["x"] <= current["x"] and current["x"] + current["width"] <= pane["x"] + pane["width"]
    )
    assert (
        pane["y"] <= current["y"] and current["y"] + current["height"] <= pane["y"] + pane["height"]
    )


def test_wheel_and_drag_zoom_and_pan(page: Any, stepper_files: dict[str, Path]) -> None:
    """ctrl and the wheel zoom where the pointer is; a plain wheel leaves the drawing
    alone (the page scrolls) until the drawing is clicked; a drag moves a zoomed tree."""
    page.goto(stepper_files["b3d4"].as_uri())
    pane = page.locator("#drawing").bounding_box()
    assert pane is not None
    x, y = pane["x"] + pane["width"] * 0.25, pane["y"] + pane["height"] / 2
    page.mouse.move(x, y)
    page.mouse.wheel(0, -200)
    assert _zoom(page) == 1  # not clicked yet: the wheel scrolls the page
    page.keyboard.down("Control")
    page.mouse.wheel(0, -200)
    page.keyboard.up("Control")
    page.wait_for_function("Number(document.getElementById('drawing').dataset.zoom) > 1")
    zoomed = _zoom(page)
    left = _view_box(page)[0]
    page.mouse.click(x, y)  # focus: now the plain wheel zooms too
    page.mouse.wheel(0, -200)
    page.wait_for_function(f"Number(document.getElementById('drawing').dataset.zoom) > {zoomed}")
    # Zoomed at a point left of the centre: the view moved right, but not past that point.
    box = _view_box(page)
    assert left < box[0] < 6216 * 0.25
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x - 100, y, steps=5)
    page.mouse.up()
    assert _view_box(page)[0] > box[0]  # dragged left: more of the right shows


def test_pinch_and_two_finger_pan(browser: Any, stepper_files: dict[str, Path]) -> None:
    """Two fingers spreading apart zoom in on a touch screen; moving together they pan."""
    page = _sized_page(browser, "phone", touch=True)
    try:
        page.goto(stepper_files["b3d4"].as_uri())
        pane = page.locator("#drawing").bounding_box()
        assert pane is not None
        cdp = page.context.new_cdp_session(page)
        cx, cy = pane["x"] + pane["width"] / 2, pane["y"] + pane["height"] / 2

        def touch(kind: str, points: list[tuple[float, float]]) -> None:
            cdp.send(
                "Input.dispatchTouchEvent",
                {
                    "type": kind,
                    "touchPoints": [{"x": x, "y": y, "id": i} for i, (x, y) in enumerate(points)],
                },
            )

        touch("touchStart", [(cx - 20, cy), (cx + 20, cy)])
        for k in range(1, 11):
            touch("touchMove", [(cx - 20 - 8 * k, cy), (cx + 20 + 8 * k, cy)])
        # 40 px apart, then 200: five times larger (touch moves arrive at the next frame).
        page.wait_for_function(f"Math.abs({ZOOM} - 5) < 0.01", timeout=5000)
        before = _view_box(page)[0]
        for k in range(1, 6):
            touch("touchMove", [(cx - 100 - 10 * k, cy), (cx + 100 - 10 * k, cy)])
        touch("touchEnd", [])
        # Both fingers moved 50 px left: the view moved right, the zoom stayed.
        page.wait_for_function(f"{VIEW_X} > {before} && Math.abs({ZOOM} - 5) < 0.01", timeout=5000)
        assert not page.errors
    finally:
        page.context.close()


def test_space_presses_the_focused_button(page: Any, tmp_path: Path) -> None:
    """Space on a focused button is that button (it started auto-play: Space on Next
    played); elsewhere it plays and pauses. Arrow keys on the speed list change the
    speed and do not step; on the page they step."""
    _tree, result = textbook("aima-5-2")
    path = tmp_path / "keys.html"
    path.write_text(draw.to_html(result), encoding="utf-8")
    page.clock.install()
    page.goto(path.as_uri())
    page.focus("#next")
    page.keyboard.press(" ")
    page.keyboard.press(" ")
    page.clock.run_for(5000)
    assert page.get_attribute("body", "data-step") == "2"  # two presses of Next, no playing
    assert "Play" in page.inner_text("#play")
    page.focus("#speed")
    page.keyboard.press("ArrowDown")
    assert page.input_value("#speed") == "2"
    page.keyboard.press("ArrowRight")
    page.keyboard.press("End")
    assert page.get_attribute("body", "data-step") == "2"  # the list kept its keys
    assert page.input_value("#speed") == "4"  # End: the last choice
    page.focus("#drawing")
    page.keyboard.press("ArrowRight")
    assert page.get_attribute("body", "data-step") == "3"
    page.keyboard.press(" ")  # not on a control: play
    assert "Pause" in page.inner_text("#play")
    page.clock.run_for(225)  # one step at 4x
    assert page.get_attribute("body", "data-step") == "4"
    page.keyboard.press(" ")
    assert "Play" in page.inner_text("#play")


def test_labels_that_look_like_markup_step_to_the_end(page: Any, tmp_path: Path) -> None:
    """A label '<!--<script>' made the next '</script>' not close the step data's
    element: the page had no steps and a script error. Every '<' in the JSON is now
    escaped; the labels show as written."""
    labels = ["<!--<script>", "</script>", "]]>", "a&b", "x\u2028y"]
    children = ",".join(
        f'{{"label": "{label}", "value": {i}}}' for i, label in enumerate(labels[1:])
    )
    tree = parse(f'{{"tree": {{"label": "{labels[0]}", "children": [{children}]}}}}')
    path = tmp_path / "markup.html"
    path.write_text(draw.to_html(alphabeta(tree)), encoding="utf-8")
    page.goto(path.as_uri())
    page.keyboard.press("End")
    last = len(narrate(alphabeta(tree))) + 1
    assert _state(page)["step"] == last
    assert _state(page)["line"].startswith("Done: value 3")
    drawn = page.locator("#drawing text.t").all_text_contents()
    assert drawn[:4] == labels[:4]
