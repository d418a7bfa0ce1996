"""The web lab in a real browser: a real uvicorn server on loopback and Debian's
Chromium driven by Playwright, with every request off this server blocked."""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest

from browser_helpers import CHROMIUM, guarded_page

sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="Chromium is not installed (apt-get install chromium)"
)


LABELLED = "A(B(D(2,3),E(5,9)),C(F(0,1),G(7,5)))"


def test_type_fix_run_and_step_to_the_end(page: Any, server: str) -> None:
    page.goto(server + "/")
    page.fill("#tree", "A(B(D(2,3),E(5,9)),C(F(0,1),G(7,5))")
    error = page.get_by_test_id("parse-error")
    sync_api.expect(error).to_contain_text("column 36")
    sync_api.expect(page.locator("#tree")).to_have_attribute("aria-invalid", "true")
    page.fill("#tree", LABELLED)
    sync_api.expect(error).to_have_text("")
    sync_api.expect(page.get_by_test_id("value")).to_have_text("3")
    sync_api.expect(page.get_by_test_id("pv")).to_contain_text("B → D → D2")
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


def test_an_expectation_is_shown_rounded(page: Any, server: str) -> None:
    """22/3 from a chance node reads 7.3333 in the header and the comparison table."""
    tree = '{"tree": {"children": [{"kind": "chance", "children": [3, 5, 14]}, 1]}}'
    page.goto(f"{server}/?tree={quote(tree)}&algorithm=expectiminimax")
    sync_api.expect(page.get_by_test_id("value")).to_have_text("7.3333")
    sync_api.expect(page.get_by_test_id("compare")).to_contain_text("7.3333")
    sync_api.expect(page.get_by_test_id("compare")).not_to_contain_text("7.33333")


def test_downloads_are_files(page: Any, server: str) -> None:
    page.goto(server + "/")
    sync_api.expect(page.get_by_test_id("value")).to_have_text("3")
    with page.expect_download() as info:
        page.click("#downloads button[data-format=mmd]")
    path = info.value.path()
    assert Path(path).read_text(encoding="utf-8").startswith("flowchart TD")


def test_fits_a_phone(browser: Any, server: str, tmp_path: Path) -> None:
    page = guarded_page(browser, origin=server, width=390, height=844)
    page.goto(server + "/")
    sync_api.expect(page.get_by_test_id("value")).to_have_text("3")
    page.screenshot(path=str(tmp_path / "phone.png"), full_page=True)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the page is {width} px wide at a 390 px viewport"
    page.context.close()


def test_practice_right_then_one_leaf_pruned_too_many(page: Any, server: str) -> None:
    from plies.lab import LabOptions, exercise, run
    from plies.trees import format_number

    tree = exercise(branching=2, depth=3, seed=7)
    result = run(tree, LabOptions())
    page.goto(server + "/practice?seed=7")
    sync_api.expect(page.get_by_test_id("drawing").locator("svg")).to_be_visible()
    page.fill("#answer-value", format_number(result.value))
    for node in range(1, len(tree)):
        if tree.kind[node] == "leaf":
            if result.status[node] == "pruned":
                page.click(f"#n{node}")  # clicking the leaf in the drawing marks it pruned
        elif result.status[node] != "pruned":
            value = result.values[node]
            assert value is not None
            page.fill(f'input[data-node="{node}"]', format_number(value))
    page.click("#check")
    sync_api.expect(page.get_by_test_id("verdict")).to_contain_text("All right")
    # Now prune one leaf the search evaluates: the feedback names it and says why.
    victim = tree.leaf_ids[result.evaluated[-1]]
    page.click(f"#n{victim}")
    page.click("#check")
    sync_api.expect(page.get_by_test_id("verdict")).not_to_contain_text("All right")
    sync_api.expect(page.get_by_test_id("feedback")).to_contain_text(
        f"{tree.name(victim)} is searched, not pruned"
    )
    assert "wrong" in (page.get_attribute(f"#n{victim}", "class") or "")


def test_a_tictactoe_position_as_a_tree(page: Any, server: str) -> None:
    page.goto(server + "/")
    page.click("#game-box summary")
    page.fill("#game", "tictactoe:5 1 9 2")
    page.fill("#game-depth", "2")
    page.click("#load-game")
    sync_api.expect(page.get_by_test_id("stats")).to_contain_text("of 20 leaves")
    sync_api.expect(page.get_by_test_id("pv")).to_contain_text("3 →")
    root_board = page.frame_locator("#stepper").locator("#n0 text.pic tspan")
    sync_api.expect(root_board).to_have_text(["oo.", ".x.", "..x"])


def test_the_visual_editor_keeps_the_text_in_sync(page: Any, server: str) -> None:
    page.goto(f"{server}/?tree={quote('[[1,2],[3,4]]')}")
    sync_api.expect(page.get_by_test_id("value")).to_have_text("3")
    page.click("#editor-box summary")
    drawing = page.get_by_test_id("editor-drawing")
    drawing.locator("#n2").click()  # preorder: the first leaf
    page.fill("#edit-value", "9")
    page.press("#edit-value", "Enter")
    sync_api.expect(page.locator("#tree")).to_have_value("[[9,2],[3,4]]")
    drawing.locator("#n1").click()
    page.click("#edit-add")
    sync_api.expect(page.locator("#tree")).to_have_value("[[9,2,0],[3,4]]")
    drawing.locator("#n5").click()  # the second MIN node, after the new leaf
    page.click("#edit-remove")
    sync_api.expect(page.locator("#tree")).to_have_value("[[9,2,0]]")
    sync_api.expect(page.get_by_test_id("value")).to_have_text("0")
    drawing.locator("#n0").click()
    page.fill("#edit-label", "A")
    page.press("#edit-label", "Enter")
    sync_api.expect(page.locator("#tree")).to_have_value("A((9,2,0))")


def test_practice_pruned_subtrees_by_their_edges_and_bounds(page: Any, server: str) -> None:
    from plies.lab import LabOptions, exercise, run
    from plies.trees import format_number

    tree = exercise(branching=3, depth=3, seed=3)
    result = run(tree, LabOptions())
    status, parent = result.status, tree.parent
    page.goto(server + "/practice?branching=3&depth=3&seed=3")
    sync_api.expect(page.get_by_test_id("drawing").locator("svg")).to_be_visible()
    page.check("#bounds")
    page.fill("#answer-value", format_number(result.value))
    roots = [
        n for n in range(1, len(tree)) if status[n] == "pruned" and status[parent[n]] != "pruned"
    ]
    assert any(tree.kind[n] != "leaf" for n in roots), "the exercise should prune a subtree"
    for node in roots:
        page.click(f"#e{node} line.hit", force=True)  # a vertical line has no width
    for node in range(len(tree)):
        if tree.kind[node] != "leaf" and status[node] != "pruned":
            if node:
                page.fill(f'input[data-node="{node}"]', format_number(result.values[node]))  # type: ignore[arg-type]
            page.fill(f'input[data-alpha="{node}"]', format_number(result.alpha_out[node]))  # type: ignore[arg-type]
            page.fill(f'input[data-beta="{node}"]', format_number(result.beta_out[node]))  # type: ignore[arg-type]
    page.click("#check")
    sync_api.expect(page.get_by_test_id("verdict")).to_contain_text("All right")
