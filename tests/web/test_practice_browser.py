"""The practice room in a real browser (a real uvicorn server on loopback, Debian's
Chromium): blanks are not "All right", a teacher's link pins every setting, the Seed
box drives New exercise, answers go on the tree itself (mouse, keyboard and touch), and
every node's name is drawn."""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, quote, urlparse

import pytest

from browser_helpers import CHROMIUM, guarded_page
from plies.lab import LabOptions, exercise, run
from plies.trees import Tree, TreeResult, format_number, format_tree

sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="Chromium is not installed (apt-get install chromium)"
)

#: The issue's exercise with nothing to prune: Check with nothing typed said "All right".
NOTHING_PRUNED = "A(B(C(-6,2),D(-6,-9)),E(F(4,-7),G(1,-2)))"
#: Where the screenshots go, to be looked at.
SHOTS = Path("/tmp/plies-practice")


def _drawn(page: Any) -> None:
    sync_api.expect(page.get_by_test_id("drawing").locator("svg")).to_be_visible()


def _query(page: Any) -> dict[str, list[str]]:
    return parse_qs(urlparse(page.url).query)


def test_check_with_nothing_typed_is_not_all_right(page: Any, server: str) -> None:
    page.goto(f"{server}/practice?tree={quote(NOTHING_PRUNED)}")
    _drawn(page)
    page.click("#check")
    verdict = page.get_by_test_id("verdict")
    sync_api.expect(verdict).to_contain_text("of 15 right")
    sync_api.expect(verdict).not_to_contain_text("All right")
    feedback = page.get_by_test_id("feedback")
    sync_api.expect(feedback).to_contain_text("the root's value is not answered")
    sync_api.expect(feedback).to_contain_text("B's value is not answered")


def test_the_link_carries_the_rule_ticked_after_loading(page: Any, server: str) -> None:
    page.goto(f"{server}/practice?branching=2&depth=4&seed=5&cutoffs=2&ties=1")
    _drawn(page)
    tree = page.locator("#share").get_attribute("href")
    assert "strict" not in _query(page)
    page.check("#strict")
    href = page.locator("#share").get_attribute("href")
    assert href != tree
    shared = parse_qs(urlparse(href).query)
    assert shared["strict"] == ["1"] and _query(page)["strict"] == ["1"]  # the URL too
    for name, value in (("branching", "2"), ("depth", "4"), ("seed", "5"), ("cutoffs", "2")):
        assert shared[name] == [value]
    assert shared["ties"] == ["1"]
    expected = exercise(branching=2, depth=4, seed=5, cutoffs=2, ties=True)
    assert shared["tree"] == [format_tree(expected)]
    # The link opens the same exercise, graded by the same rule.
    page.goto(server + href)
    _drawn(page)
    assert page.locator("#strict").is_checked()
    assert page.locator("#ties").is_checked()
    assert page.locator("#cutoffs").input_value() == "2"
    assert _query(page)["tree"] == [format_tree(expected)]


def test_the_seed_box_drives_new_exercise(page: Any, server: str) -> None:
    page.goto(server + "/practice")
    _drawn(page)
    page.fill("#seed", "42")
    page.click("#new")
    wanted = format_tree(exercise(seed=42))
    sync_api.expect(page).to_have_url(f"{server}/practice?" + _shared_query(42, wanted))
    page.fill("#seed", "")  # an empty box: a fresh seed, shown in the box
    page.click("#new")
    sync_api.expect(page.locator("#seed")).not_to_have_value("")
    sync_api.expect(page.locator("#seed")).not_to_have_value("42")
    fresh = int(page.locator("#seed").input_value())
    wanted = format_tree(exercise(seed=fresh))
    sync_api.expect(page).to_have_url(f"{server}/practice?" + _shared_query(fresh, wanted))
    page.click("#new")  # the box unchanged since: another fresh one
    sync_api.expect(page.locator("#seed")).not_to_have_value(str(fresh))


def _shared_query(seed: int, tree: str) -> str:
    from urllib.parse import urlencode

    return urlencode(
        {"branching": 2, "depth": 3, "values": "-9,9", "seed": seed, "cutoffs": 1, "tree": tree}
    )


def _answer_on_the_drawing(
    page: Any, tree: Tree, result: TreeResult, *, keyboard: bool = False, touch: bool = False
) -> None:
    """Type every value (and alpha and beta) by the nodes, mark pruned leaves on them."""
    for node in range(len(tree)):
        group = page.locator(f"#n{node}")
        if tree.kind[node] == "leaf":
            if result.status[node] == "pruned":
                group.tap() if touch else group.click()
            continue
        if result.status[node] == "pruned":
            continue
        if keyboard:
            group.focus()
            page.keyboard.press("Enter")
        elif touch:
            group.tap()
        else:
            group.click()
        sync_api.expect(page.locator("#node-editor")).to_be_visible()
        sync_api.expect(page.locator("#pop-value")).to_be_focused()
        page.keyboard.type(format_number(result.values[node]))  # type: ignore[arg-type]
        page.fill("#pop-alpha", format_number(result.alpha_out[node]))  # type: ignore[arg-type]
        page.fill("#pop-beta", format_number(result.beta_out[node]))  # type: ignore[arg-type]
        page.press("#pop-beta", "Enter")
        sync_api.expect(page.locator("#node-editor")).to_be_hidden()
        # What was typed shows on the drawing.
        value = format_number(result.values[node])  # type: ignore[arg-type]
        sync_api.expect(group.locator("text.v")).to_have_text(value)


@pytest.mark.parametrize("how", ["mouse", "keyboard"])
def test_answering_by_clicking_nodes_on_the_drawing(page: Any, server: str, how: str) -> None:
    tree = exercise(branching=3, depth=3, seed=3)
    result = run(tree, LabOptions())
    page.goto(server + "/practice?branching=3&depth=3&seed=3")
    _drawn(page)
    page.check("#bounds")
    _answer_on_the_drawing(page, tree, result, keyboard=how == "keyboard")
    # The form beside shows the same answer.
    assert page.locator("#answer-value").input_value() == format_number(result.value)
    page.click("#check")
    sync_api.expect(page.get_by_test_id("verdict")).to_contain_text("All right")
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"practice-1366-{how}.png"), full_page=True)


def test_answering_on_a_phone_by_touch(browser: Any, server: str) -> None:
    page = guarded_page(browser, origin=server, width=390, height=844, has_touch=True)
    tree = exercise(seed=7)
    result = run(tree, LabOptions())
    page.goto(server + "/practice?seed=7")
    _drawn(page)
    page.check("#bounds")
    page.locator("#n1").tap()
    box = page.locator("#node-editor").bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / "practice-390-editor.png"))
    page.keyboard.press("Escape")
    _answer_on_the_drawing(page, tree, result, touch=True)
    page.locator("#check").tap()
    sync_api.expect(page.get_by_test_id("verdict")).to_contain_text("All right")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the page is {width} px wide at a 390 px viewport"
    page.screenshot(path=str(SHOTS / "practice-390.png"), full_page=True)
    # The whole tree shows by default; "Actual size" draws it at its size, scrolling.
    pane = page.locator("#drawing").bounding_box()
    for node in range(len(tree)):
        shape = page.locator(f"#n{node} .shape").bounding_box()
        assert pane is not None and shape is not None
        assert pane["x"] <= shape["x"] and shape["x"] + shape["width"] <= pane["x"] + pane["width"]
    page.locator("#drawing-size").tap()
    sync_api.expect(page.locator("#drawing-size")).to_have_attribute("aria-pressed", "true")
    assert page.evaluate("document.getElementById('drawing').scrollWidth > 390")
    assert page.errors == [] and page.outside == []
    page.context.close()


def test_names_are_drawn_on_an_unlabelled_tree(page: Any, server: str) -> None:
    page.goto(f"{server}/practice?tree={quote('[[3,12,8],[2,4,6],[14,5,2]]')}")
    _drawn(page)
    names = page.locator("#drawing g.node text.t").all_text_contents()
    assert names == ["A", "B", "B1", "B2", "B3", "C", "C1", "C2", "C3", "D", "D1", "D2", "D3"]
    sync_api.expect(page.locator("#root-name")).to_have_text("A (MAX, the root)")
    sync_api.expect(page.locator("#answer-nodes")).to_contain_text("C2 pruned")
    page.fill("#answer-value", "3")
    page.click("#check")
    sync_api.expect(page.get_by_test_id("feedback")).to_contain_text("B's value is not answered")


def test_the_lab_names_nodes_as_drawn(page: Any, server: str) -> None:
    """The principal variation and the editor's title use the drawn names (the editor
    said "Node 5" and the narration "node 1" of the same node)."""
    page.goto(f"{server}/?tree={quote('[[1,2],[3,4]]')}")
    sync_api.expect(page.get_by_test_id("pv")).to_contain_text("C → C1")
    page.click("#editor-box summary")
    drawing = page.get_by_test_id("editor-drawing")
    drawing.locator("#n4").click()
    sync_api.expect(page.locator("#editor-title")).to_have_text("C")
    drawing.locator("#n5").click()
    sync_api.expect(page.locator("#editor-title")).to_have_text("C1 (a leaf)")
    drawing.locator("#n0").click()
    sync_api.expect(page.locator("#editor-title")).to_have_text("A (the root)")
