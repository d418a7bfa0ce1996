"""The game room's engine menu in a real browser: alpha-beta (PVS) by default with
depth or seconds, MCTS with iterations or seconds; the engine searches with the
choice, the teacher's link keeps it, an algorithm the address names joins the menu;
axe finds nothing serious at a desktop's and a phone's size. A real uvicorn server on
loopback and Debian's Chromium driven by Playwright (tests/web/conftest.py)."""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest

from axe_helpers import format_violations, serious_violations
from browser_helpers import CHROMIUM, guarded_page

sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="Chromium is not installed (apt-get install chromium)"
)
expect = sync_api.expect


def offered(page: Any) -> list[str]:
    """The strength's kinds the menu offers now."""
    return list(
        page.eval_on_selector_all(
            "#limit-kind option", "os => os.filter(o => !o.disabled && !o.hidden).map(o => o.value)"
        )
    )


def link_query(page: Any) -> dict[str, str]:
    href = page.locator("#share").get_attribute("href")
    return {k: v[0] for k, v in parse_qs(urlsplit(href).query).items()}


def test_the_menu_chooses_the_engine_s_search(page: Any, server: str) -> None:
    page.goto(server + "/play?game=tictactoe")
    expect(page.get_by_test_id("status")).to_have_text("X to move.")
    expect(page.get_by_test_id("algorithm")).to_have_value("")
    expect(page.locator("#algorithm option").first).to_have_text("alpha-beta (PVS)")
    assert offered(page) == ["depth", "seconds"]
    expect(page.get_by_test_id("limit-kind")).to_have_value("depth")
    page.select_option("#algorithm", "mcts")
    assert offered(page) == ["iterations", "seconds"]
    expect(page.get_by_test_id("limit-kind")).to_have_value("iterations")
    expect(page.get_by_test_id("strength")).to_have_value("1000")
    page.fill("#strength", "300")
    page.dispatch_event("#strength", "change")
    expect(page.locator("#share")).to_have_attribute("href", _has("iterations=300"))
    query = link_query(page)
    assert query["game"] == "tictactoe" and "depth" not in query and "seconds" not in query
    assert (query["algorithm"], query["iterations"]) == ("mcts", "300")
    with page.expect_request("**/api/play/think") as asked:
        page.fill("#move-text", "5")
        page.click("#play")
    body = json.loads(asked.value.post_data)
    assert (body["algorithm"], body["iterations"]) == ("mcts", 300)
    assert "depth" not in body and "seconds" not in body
    expect(page.get_by_test_id("engine-note")).to_contain_text("O played")
    assert len(page.locator("#history li").all()) == 2


def test_the_teacher_s_link_keeps_the_choice(page: Any, server: str) -> None:
    page.goto(server + "/play?game=connect4&algorithm=mcts&seconds=0.5&side1=human")
    expect(page.get_by_test_id("status")).to_contain_text("to move")
    expect(page.get_by_test_id("algorithm")).to_have_value("mcts")
    expect(page.get_by_test_id("limit-kind")).to_have_value("seconds")
    expect(page.get_by_test_id("strength")).to_have_value("0.5")
    query = link_query(page)
    assert (query["algorithm"], query["seconds"]) == ("mcts", "0.5")
    page.select_option("#algorithm", "")  # back to alpha-beta: seconds still apply
    assert offered(page) == ["depth", "seconds"]
    expect(page.get_by_test_id("limit-kind")).to_have_value("seconds")
    assert "algorithm" not in link_query(page)
    page.select_option("#limit-kind", "depth")
    expect(page.get_by_test_id("strength")).to_have_value("4")
    assert link_query(page)["depth"] == "4"
    page.goto(server + "/play?game=tictactoe&algorithm=mcts&depth=5")  # no depth for MCTS
    expect(page.get_by_test_id("limit-kind")).to_have_value("seconds")
    page.goto(server + "/play?game=nim&algorithm=mtdf&depth=3")  # another of the server's
    expect(page.get_by_test_id("algorithm")).to_have_value("mtdf")
    expect(page.get_by_test_id("strength")).to_have_value("3")


def _has(text: str) -> Any:
    import re

    return re.compile(re.escape(text))


@pytest.mark.parametrize("size", [(1366, 768), (390, 844)], ids=["desktop", "phone"])
def test_axe_finds_nothing_serious(
    browser: Any, server: str, size: tuple[int, int], tmp_path: Any
) -> None:
    page = guarded_page(browser, origin=server, width=size[0], height=size[1])
    page.goto(server + "/play?game=tictactoe&algorithm=mcts&iterations=500")
    expect(page.get_by_test_id("status")).to_have_text("X to move.")
    found = serious_violations(page)
    page.screenshot(path=str(tmp_path / "page.png"), full_page=True)
    assert not found, format_violations(found)
    assert page.errors == [] and page.outside == []
    page.context.close()
