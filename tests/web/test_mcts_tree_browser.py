"""The tree lab's Monte-Carlo tree search in a real browser: chosen in the algorithm
menu (or by the link), it steps through the iterations with the buttons and the keys,
and every node's visits and mean value on the drawing, the selection's UCB scores and
the root moves' table are the API document's; a bad input is one line; axe finds
nothing serious at a desktop's and a phone's size. A real uvicorn server on loopback
and Debian's Chromium driven by Playwright (tests/web/conftest.py)."""

from __future__ import annotations

import math
from typing import Any

import pytest

from axe_helpers import format_violations, serious_violations
from browser_helpers import CHROMIUM, guarded_page

sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="Chromium is not installed (apt-get install chromium)"
)
expect = sync_api.expect

AIMA = "[[3,12,8],[2,4,6],[14,5,2]]"
#: The lab's link to 40 iterations of seed 3 on its example tree.
LINK = "/?algorithm=mcts&iterations=40&seed=3"


def shown(value: float) -> str:
    """A mean as the page shows it (JavaScript's String(Math.round(x * 100) / 100))."""
    rounded = math.floor(value * 100 + 0.5) / 100
    return str(int(rounded)) if rounded == int(rounded) else repr(rounded)


def api_document(page: Any, server: str, **body: Any) -> dict[str, Any]:
    response = page.request.post(f"{server}/api/mcts-tree", data=body)
    assert response.ok, response.text()
    return dict(response.json())


def after(doc: dict[str, Any], k: int) -> tuple[list[int], list[float | None]]:
    """Every node's visits and mean value after the first ``k`` iterations."""
    visits: list[int] = [0] * len(doc["nodes"])
    means: list[float | None] = [None] * len(doc["nodes"])
    for step in doc["steps"][:k]:
        for node, entry in zip(step["ids"]["path"], step["backup"], strict=True):
            visits[node], means[node] = entry["visits"], entry["value"]
    return visits, means


def drawn_numbers(page: Any) -> list[tuple[str, str]]:
    """Each node's visits (under it) and mean or value (inside it), as drawn."""
    return [
        tuple(row)
        for row in page.eval_on_selector_all(
            "#mcts-drawing g.node",
            "gs => gs.map(g => [g.querySelector('text.ab').textContent,"
            " g.querySelector('text.v').textContent])",
        )
    ]


def expected_numbers(doc: dict[str, Any], k: int) -> list[tuple[str, str]]:
    visits, means = after(doc, k)
    rows = []
    for node, n, mean in zip(doc["nodes"], visits, means, strict=True):
        inside = (
            str(node["value"]) if node["kind"] == "leaf" else "" if mean is None else shown(mean)
        )
        rows.append((f"n {n}" if n else "", inside))
    return rows


def test_stepping_shows_the_api_s_numbers(page: Any, server: str) -> None:
    page.goto(server + LINK)
    position = page.get_by_test_id("mcts-position")
    expect(position).to_have_text("Iteration 40 of 40")
    doc = api_document(page, server, tree=AIMA, iterations=40, seed=3)
    assert drawn_numbers(page) == expected_numbers(doc, 40)
    expect(page.locator("#summary")).to_be_hidden()  # the exact searches' parts
    expect(page.locator("#order")).to_be_hidden()
    page.click("#mcts [data-step=start]")
    expect(position).to_have_text("Before the first iteration")
    assert drawn_numbers(page) == expected_numbers(doc, 0)
    expect(page.locator("#mcts [data-step=back]")).to_be_disabled()
    for k in range(1, 4):
        page.click("#mcts [data-step=next]")
        expect(position).to_have_text(f"Iteration {k} of 40")
        assert drawn_numbers(page) == expected_numbers(doc, k)
    page.get_by_test_id("mcts-drawing").focus()
    for k in range(4, 8):  # the keys step on
        page.keyboard.press("ArrowRight")
        expect(position).to_have_text(f"Iteration {k} of 40")
        assert drawn_numbers(page) == expected_numbers(doc, k)
    page.keyboard.press("ArrowLeft")
    expect(position).to_have_text("Iteration 6 of 40")
    assert drawn_numbers(page) == expected_numbers(doc, 6)
    page.keyboard.press("End")
    expect(position).to_have_text("Iteration 40 of 40")
    page.keyboard.press("Home")
    expect(position).to_have_text("Before the first iteration")


def test_each_phase_of_an_iteration_is_shown(page: Any, server: str) -> None:
    page.goto(server + LINK)
    expect(page.get_by_test_id("mcts-position")).to_have_text("Iteration 40 of 40")
    doc = api_document(page, server, tree=AIMA, iterations=40, seed=3)
    k = next(s["iteration"] for s in doc["steps"] if s["selection"][0]["how"] == "ucb")
    step = doc["steps"][k - 1]
    page.click("#mcts [data-step=start]")
    for _ in range(k):
        page.click("#mcts [data-step=next]")
    phases = page.get_by_test_id("mcts-phases")
    choice = step["selection"][0]
    scores = [f"{name} {score:.3f}" for name, score in zip("BCD", choice["ucb"], strict=True)]
    expect(phases.locator(".ucb").first).to_have_text("".join(scores))
    chosen = scores["BCD".index(choice["child"])]
    expect(phases.locator(".chosen").first).to_have_text(chosen)
    expect(phases).to_contain_text("highest UCB for MAX")
    expect(phases).to_contain_text(f"{step['value']} added on the path: A n {k}")
    path = step["ids"]["path"]
    for i in range(len(doc["nodes"])):
        node = page.locator(f"#mcts-drawing #n{i}")
        if i in path:
            expect(node).to_have_class(_has("pv"))
        else:
            expect(node).not_to_have_class(_has("pv"))
    leaf = page.locator(f"#mcts-drawing #n{step['ids']['leaf']}")
    expect(leaf).to_have_class(_has("reached"))


def _has(name: str) -> Any:
    import re

    return re.compile(rf"(^|\s){name}(\s|$)")


def test_the_root_moves_table_converges_to_the_minimax_move(page: Any, server: str) -> None:
    page.goto(f"{server}/")
    expect(page.get_by_test_id("value")).to_have_text("3")
    page.select_option("#algorithm", "mcts")
    page.fill("#iterations", "800")
    page.fill("#seed", "1")
    page.click("#run")
    # The seeded run's result (a run begun while typing, before the seed, may show first).
    expect(page.get_by_test_id("mcts-summary")).to_contain_text("800 iterations, seed 1,")
    expect(page.get_by_test_id("mcts-position")).to_have_text("Iteration 200 of 200 (of 800 run)")
    doc = api_document(page, server, tree=AIMA, iterations=800, seed=1)
    rows = page.locator("#mcts-moves tbody tr")
    expect(rows).to_have_count(3)
    for row, child in zip(rows.all(), doc["children"], strict=True):
        cells = row.locator("td").all_inner_texts()
        assert cells[0].splitlines()[0] == child["name"]
        assert cells[1] == str(child["visits"])
        assert cells[4] == str(child["minimax_value"])
    expect(rows.first.locator("td").first).to_contain_text("most visited")
    expect(rows.first.locator("td").first).to_contain_text("minimax's move")
    expect(page.get_by_test_id("mcts-convergence")).to_contain_text(
        "Converges to the minimax move B: after 800 iterations the most visited move is B"
    )
    href = page.locator("#share").get_attribute("href")
    assert "algorithm=mcts" in href and "iterations=800" in href and "seed=1" in href
    page.fill("#iterations", "0")
    page.dispatch_event("#iterations", "change")
    error = page.get_by_test_id("parse-error")
    expect(error).to_have_text("iterations must be between 1 and 100000, not 0")
    expect(page.get_by_test_id("mcts")).to_have_class(_has("stale"))
    page.select_option("#algorithm", "alphabeta")
    expect(page.get_by_test_id("mcts")).to_be_hidden()
    expect(page.locator("#summary")).to_be_visible()
    expect(error).to_have_text("")


@pytest.mark.parametrize("size", [(1366, 768), (390, 844)], ids=["desktop", "phone"])
def test_axe_finds_nothing_serious(
    browser: Any, server: str, size: tuple[int, int], tmp_path: Any
) -> None:
    page = guarded_page(browser, origin=server, width=size[0], height=size[1])
    page.goto(server + LINK)
    expect(page.get_by_test_id("mcts-position")).to_have_text("Iteration 40 of 40")
    page.click("#mcts [data-step=start]")
    page.click("#mcts [data-step=next]")
    found = serious_violations(page)
    page.screenshot(path=str(tmp_path / "page.png"), full_page=True)
    assert not found, format_violations(found)
    assert page.errors == [] and page.outside == []
    page.context.close()
