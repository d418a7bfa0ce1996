"""The lab in a real browser at a desktop's and a phone's size: the stepper's frame
shows the whole tree and its narration with nothing to scroll inside it, results of an
earlier search are marked out of date beside an error, and an error shows where the
user clicked (a download's beside the downloads, not under the tree box)."""

from __future__ import annotations

import contextlib
import time
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest

from browser_helpers import CHROMIUM, guarded_page
from plies.trees import format_tree
from stepper_view import GEOMETRY, SIZES, assert_whole_tree_shows, inside, textbook_trees

sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="Chromium is not installed (apt-get install chromium)"
)

expect = sync_api.expect

#: The stepper's page is in its frame.
LOADED = """() => {
  const doc = document.getElementById('stepper').contentDocument;
  return doc !== null && doc.readyState === 'complete' && doc.getElementById('drawing') !== null;
}"""

#: The lab has sized the frame to its page (a resize observer does it, a frame later).
SIZED = """() => {
  const frame = document.getElementById('stepper');
  return Math.abs(frame.clientHeight - frame.contentDocument.documentElement.scrollHeight) <= 2;
}"""


def _settle(page: Any) -> None:
    """Wait for the stepper's page, then (for up to 5 s) for its frame's height."""
    page.wait_for_function(LOADED)
    with contextlib.suppress(sync_api.TimeoutError):  # the checks that follow say what is wrong
        page.wait_for_function(SIZED, timeout=5000)


#: The stepper's page has moved past its first step.
STEPPED = """() => {
  const doc = document.getElementById('stepper').contentDocument;
  return doc !== null && Number(doc.body.dataset.step) > 0;
}"""

#: Two frames: the stepper lays out the new step, then the lab's resize observer resizes
#: the frame (measured at once, a click's new narration could still be in the old frame).
TWO_FRAMES = "() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))"


def _settle_step(page: Any) -> None:
    """Wait for the stepper to leave step 0, for it to lay out, and for its frame's height."""
    page.wait_for_function(STEPPED)
    page.evaluate(TWO_FRAMES)
    _settle(page)


def _fitted(stepper: Any, seconds: float = 5.0) -> dict[str, Any]:
    """The stepper's geometry once every node lies in the drawing pane, or after
    ``seconds`` (a loaded machine lays the new step out late; the checks that follow say
    what is wrong if it never fits)."""
    deadline = time.monotonic() + seconds
    while True:
        view: dict[str, Any] = stepper.evaluate(GEOMETRY)
        if time.monotonic() > deadline or all(
            inside(box, view["pane"]) for _, box in view["nodes"]
        ):
            return view
        time.sleep(0.1)


def _stepper(page: Any) -> Any:
    frame = page.locator("#stepper").element_handle().content_frame()
    assert frame is not None
    return frame


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("tree", ["aima", "b3d4"])
def test_the_stepper_frame_shows_the_whole_tree(
    browser: Any, server: str, tmp_path: Path, tree: str, size: str
) -> None:
    """At 1366x768 AIMA's tree was cut off in a 564 px pane; on a phone a fixed 640 px
    frame showed 140 px of it under the narration. Now every node lies inside the
    drawing pane at the first and the last step, the narration beside or below it, and
    nothing scrolls inside the frame."""
    width, height = SIZES[size]
    page = guarded_page(browser, origin=server, width=width, height=height)
    try:
        text = format_tree(textbook_trees()[tree].tree)
        page.goto(f"{server}/?tree={quote(text)}")
        _settle(page)
        stepper = _stepper(page)
        assert_whole_tree_shows(stepper.evaluate(GEOMETRY), f"{tree} at {size}, step 0")
        page.screenshot(path=str(tmp_path / f"lab-{size}-{tree}-0.png"), full_page=True)
        stepper.click("#end")
        _settle_step(page)
        view = _fitted(stepper)
        assert view["step"] > 0
        assert_whole_tree_shows(view, f"{tree} at {size}, last step")
        frame_height = page.evaluate("document.getElementById('stepper').clientHeight")
        assert view["scroll"][1] <= frame_height + 1, "the frame scrolls inside"
        if size == "desktop":  # the drawing in the window as the lab opens, too
            pane = page.locator("#stepper").bounding_box()
            assert pane is not None and pane["y"] + view["pane"][3] <= height
        page.screenshot(path=str(tmp_path / f"lab-{size}-{tree}-end.png"), full_page=True)
        assert page.errors == []
    finally:
        page.context.close()


RESULTS = ["summary", "stepper", "compare"]


def _stale(page: Any) -> dict[str, bool]:
    return dict(
        page.evaluate(
            """(ids) => Object.fromEntries(ids.map(id => {
             const el = document.getElementById(id);
             return [id, el.classList.contains('stale') && el.getAttribute('aria-busy') === 'true'];
           }))""",
            RESULTS,
        )
    )


@pytest.mark.parametrize(
    "broken",
    [
        "[[3,12,8],[2,4,6],[14,5",  # half typed
        '{"tree": {"kind": "max", "children": [{"kind": "chance", "children": [1, 2]}, 3]}}',
    ],
    ids=["half-typed", "chance-with-alphabeta"],
)
def test_results_beside_an_error_are_marked_out_of_date(
    page: Any, server: str, broken: str
) -> None:
    """The old value, stats, stepper and table stayed on screen beside the error as if
    current. Now they are marked out of date (a note, hatched, aria-busy) until a search
    succeeds again."""
    page.goto(server + "/?algorithm=alphabeta")
    expect(page.get_by_test_id("value")).to_have_text("3")
    _settle(page)
    note = page.get_by_test_id("stale-note")
    expect(note).to_be_hidden()
    page.fill("#tree", broken)
    expect(page.get_by_test_id("parse-error")).not_to_have_text("")
    expect(note).to_be_visible()
    expect(note).to_contain_text("Out of date")
    assert _stale(page) == dict.fromkeys(RESULTS, True)
    expect(page.locator("#summary")).to_have_css("border-top-style", "dashed")
    page.fill("#tree", "[[1,2],[3,4]]")
    expect(page.get_by_test_id("value")).to_have_text("3")
    expect(note).to_be_hidden()
    page.wait_for_function(
        "() => ['summary', 'stepper', 'compare'].every(id => "
        "!document.getElementById(id).classList.contains('stale') && "
        "!document.getElementById(id).hasAttribute('aria-busy'))"
    )
    expect(page.get_by_test_id("compare")).to_contain_text("of 4")


def test_a_failed_download_says_so_beside_the_downloads(page: Any, server: str) -> None:
    """A tree too large to draw searches fine, but its download fails: the message
    appeared under the tree box and marked the tree invalid. Now it shows beside the
    download buttons and the tree stays valid."""
    leaves = ",".join(["[1,2]"] * 1024)  # 3,073 nodes: more than the drawings' 2,000
    page.goto(server + "/")
    expect(page.get_by_test_id("value")).to_have_text("3")
    page.fill("#tree", f"[{leaves}]")
    expect(page.get_by_test_id("stats")).to_contain_text("of 2048 leaves")
    page.click("#downloads button[data-format=svg]")
    error = page.get_by_test_id("download-error")
    expect(error).to_contain_text("SVG: the tree has 3,073 nodes")
    expect(page.get_by_test_id("parse-error")).to_have_text("")
    assert page.get_attribute("#tree", "aria-invalid") is None
    box, downloads = error.bounding_box(), page.locator("#downloads").bounding_box()
    assert box is not None and downloads is not None
    assert 0 <= box["y"] - (downloads["y"] + downloads["height"]) < 40  # right under them
    page.fill("#tree", "[[1,2],[3,4]]")
    expect(page.get_by_test_id("value")).to_have_text("3")
    with page.expect_download():
        page.click("#downloads button[data-format=svg]")
    expect(error).to_have_text("")


def test_a_bad_game_position_says_so_in_the_game_box(page: Any, server: str) -> None:
    page.goto(server + "/")
    expect(page.get_by_test_id("value")).to_have_text("3")
    page.click("#game-box summary")
    page.fill("#game", "tictactoe:10")
    page.click("#load-game")
    expect(page.get_by_test_id("game-error")).not_to_have_text("")
    expect(page.get_by_test_id("parse-error")).to_have_text("")
    assert page.get_attribute("#tree", "aria-invalid") is None
    assert _stale(page) == dict.fromkeys(RESULTS, False)


def test_a_bad_edit_says_so_in_the_editor(page: Any, server: str) -> None:
    """A value the tree cannot hold, typed in the drawing editor: the message shows in
    the editor (it went under the tree box and marked the unchanged text invalid)."""
    page.goto(f"{server}/?tree={quote('[[1,2],[3,4]]')}")
    expect(page.get_by_test_id("value")).to_have_text("3")
    page.click("#editor-box summary")
    page.get_by_test_id("editor-drawing").locator("#n2").click()
    page.fill("#edit-value", "twelve")
    page.press("#edit-value", "Enter")
    expect(page.get_by_test_id("editor-error")).not_to_have_text("")
    expect(page.get_by_test_id("parse-error")).to_have_text("")
    assert page.get_attribute("#tree", "aria-invalid") is None
    expect(page.locator("#tree")).to_have_value("[[1,2],[3,4]]")
    page.fill("#edit-value", "9")
    page.press("#edit-value", "Enter")
    expect(page.locator("#tree")).to_have_value("[[9,2],[3,4]]")
    expect(page.get_by_test_id("editor-error")).to_have_text("")
