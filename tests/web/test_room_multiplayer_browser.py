"""The game room with more than two players in a real browser: Rolit's four seats (a
person in one, the engine in the others, by Best-Reply Search), its coloured discs
with their letters, the engine menu of the N-player searches, a finished game naming
its winner, Chinese Checkers' star; axe finds nothing serious at a desktop's and a
phone's size. Screenshots go to /tmp/plies-nroom/ (to look at). A real uvicorn server
on loopback and Debian's Chromium driven by Playwright (tests/web/conftest.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from axe_helpers import assert_accessible
from browser_helpers import CHROMIUM, guarded_page

sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="Chromium is not installed (apt-get install chromium)"
)
expect = sync_api.expect

SIZES = {"desktop": (1366, 768), "phone": (390, 844)}
SHOTS = Path("/tmp/plies-nroom")
#: A Rolit board with four squares left, Red to move: the engines end it in four moves.
NEAR_THE_END = "R" * 16 + "Y" * 16 + "G" * 16 + "B" * 12 + "----" + " R"


@pytest.fixture(params=list(SIZES))
def sized(request: Any, browser: Any, server: str) -> Any:
    """A page of each size, its name kept for the screenshots; no script error."""
    width, height = SIZES[request.param]
    page = guarded_page(browser, origin=server, width=width, height=height)
    page.size_name = request.param
    yield page
    assert page.errors == []
    assert page.outside == []
    page.context.close()


def shoot(page: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}-{page.size_name}.png"), full_page=True)


def test_a_person_plays_rolit_against_three_engines(sized: Any, server: str) -> None:
    page = sized
    page.goto(server + "/play?game=rolit&side0=human&depth=2")
    status = page.get_by_test_id("status")
    expect(status).to_have_text("Red to move.")
    expect(page.locator("#players select.side")).to_have_count(4)
    for seat, chosen in enumerate(["human", "engine", "engine", "engine"]):
        expect(page.get_by_test_id(f"side{seat}")).to_have_value(chosen)
    menu = page.eval_on_selector_all("#algorithm option", "os => os.map(o => o.value)")
    assert menu == ["", "paranoid", "maxn", "mcts"]
    expect(page.locator("#algorithm option").first).to_have_text("best reply (BRS)")
    expect(page.locator("#board .piece.p2")).to_have_text("G")
    assert_accessible(page, "rolit: the start")
    shoot(page, "rolit-start")
    page.locator("#board .cell.legal").first.click()
    expect(page.locator("#history li")).to_have_count(4)  # three engines answered
    expect(status).to_have_text("Red to move.")
    expect(page.get_by_test_id("engine-note")).to_contain_text("Blue played")
    assert_accessible(page, "rolit: after a round")
    shoot(page, "rolit-round")


def test_the_seat_is_chosen_in_the_page(sized: Any, server: str) -> None:
    page = sized
    page.goto(server + "/play?game=rolit&side0=engine&side1=engine&side2=human&depth=1")
    expect(page.get_by_test_id("status")).to_have_text("Green to move.")
    expect(page.locator("#history li")).to_have_count(2)
    href = page.locator("#share").get_attribute("href")
    assert "side2=human" in href and "side3=engine" in href


def test_engines_finish_a_rolit_game_and_the_room_names_the_winner(sized: Any, server: str) -> None:
    page = sized
    page.goto(f"{server}/play?game=rolit&side0=engine&depth=1&position={NEAR_THE_END}")
    status = page.get_by_test_id("status")
    expect(status).to_contain_text("Game over")
    expect(status).to_contain_text("wins")
    expect(page.locator("#history li")).to_have_count(4)
    assert_accessible(page, "rolit: the game over")
    shoot(page, "rolit-over")


def test_chinese_checkers_for_three_on_its_star(sized: Any, server: str) -> None:
    page = sized
    page.goto(server + "/play?game=chinese-checkers:players=3&side0=human&depth=2")
    expect(page.get_by_test_id("status")).to_have_text("Player 1 to move.")
    expect(page.locator("#players select.side")).to_have_count(3)
    expect(page.locator("#board .piece.p2")).to_have_count(6)
    page.fill("#move-text", "68-61")
    page.click("#play")
    expect(page.locator("#history li")).to_have_count(3)
    assert_accessible(page, "chinese checkers: after a round")
    shoot(page, "chinese-checkers")


def test_chinese_checkers_by_clicking_a_marble_then_a_hole(sized: Any, server: str) -> None:
    """A marble with several moves is picked up (its holes marked), put down, picked
    again, and a click on a marked hole plays that move."""
    page = sized
    page.goto(server + "/play?game=chinese-checkers:players=3&side0=human&depth=2")
    expect(page.get_by_test_id("status")).to_have_text("Player 1 to move.")
    marble = page.locator('#board button[aria-label^="hole 68,"]')
    expect(marble).to_have_class("cell movable")
    marble.click()
    expect(marble).to_have_class("cell selected")
    targets = page.locator("#board .cell.legal")
    assert targets.count() > 1
    expect(page.locator('#board .cell.legal[data-move="68-61"]')).to_have_count(1)
    marble.click()  # put down
    expect(page.locator("#board .cell.legal")).to_have_count(0)
    marble.click()
    page.locator('#board .cell.legal[data-move="68-61"]').click()
    expect(page.locator("#history li")).to_have_count(3)
    assert page.locator("#history li").first.text_content().strip().endswith("68-61")
