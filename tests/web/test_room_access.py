"""The game room by keyboard and for screen readers: every board cell a name of its own
that holds its visible text, the board one stop for Tab with the arrow keys inside it,
the focus kept where it was as the board is drawn anew, a scrolling text reachable,
greyed buttons still readable. A real uvicorn server and Debian's Chromium."""

from __future__ import annotations

import re
from typing import Any

import pytest

from axe_helpers import format_violations, serious_violations
from browser_helpers import CHROMIUM, guarded_page

sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="Chromium is not installed (apt-get install chromium)"
)


def _cells(page: Any) -> list[tuple[str, str]]:
    """Each board button's accessible name (its aria-label) and visible text."""
    found: list[tuple[str, str]] = page.evaluate(
        """Array.from(document.querySelectorAll('#board button.cell'))
             .map((cell) => [cell.getAttribute('aria-label') || '', cell.innerText])"""
    )
    return found


def _focused(page: Any) -> str | None:
    """The accessible name of the focused element."""
    name: str | None = page.evaluate("document.activeElement.getAttribute('aria-label')")
    return name


@pytest.mark.parametrize(
    ("link", "count"),
    [
        ("game=connect4", 42),
        ("game=tictactoe&moves=5+1", 9),
        ("game=mnk:m=4,n=4,k=3", 16),
        ("game=othello", 64),
        ("game=checkers&moves=11-15+23-19", 32),
        ("game=chess&moves=e4+e5+Qh5", 64),
    ],
)
def test_every_cell_has_a_name_of_its_own_with_its_visible_text(
    page: Any, server: str, link: str, count: int
) -> None:
    if "chess" in link and "checkers" not in link:
        pytest.importorskip("chess")
    page.goto(f"{server}/play?{link}&side0=human&side1=human")
    sync_api.expect(page.locator("#board button.cell")).to_have_count(count)
    cells = _cells(page)
    names = [name for name, _ in cells]
    assert all(names) and len(set(names)) == count, names
    for name, text in cells:  # WCAG 2.5.3: the words and numbers shown are in the name
        shown = re.sub(r"[^\w]", "", text)
        assert shown in re.sub(r"[^\w]", "", name), (name, text)


def test_connect_four_cells_say_column_row_and_move(page: Any, server: str) -> None:
    page.goto(f"{server}/play?game=connect4&moves=4&side0=human&side1=human")
    bottom = page.locator('#board .cell[data-row="5"][data-col="3"]')
    sync_api.expect(bottom).to_have_attribute(
        "aria-label", "column 4, row 1 from the bottom, X (red), play 4"
    )
    above = page.locator('#board .cell[data-row="4"][data-col="3"]')
    sync_api.expect(above).to_have_attribute(
        "aria-label", "column 4, row 2 from the bottom, empty, play 4"
    )


def test_checkers_light_squares_are_not_buttons(page: Any, server: str) -> None:
    page.goto(f"{server}/play?game=checkers&side0=human&side1=human")
    sync_api.expect(page.locator("#board .cell")).to_have_count(64)
    sync_api.expect(page.locator("#board button.cell")).to_have_count(32)
    light = page.locator("#board div.cell").first
    assert light.get_attribute("aria-hidden") == "true"
    sync_api.expect(page.locator('#board .cell[data-square="9"]')).to_have_attribute(
        "aria-label", "9, black man"
    )


def test_tictactoe_by_keyboard_alone(page: Any, server: str) -> None:
    page.goto(f"{server}/play?game=tictactoe&side0=human&side1=human")
    sync_api.expect(page.get_by_test_id("status")).to_have_text("X to move.")
    page.focus("#flip")
    page.keyboard.press("Tab")  # one stop for the whole board: its first playable cell
    assert _focused(page) == "row 1, column 1, empty, play 1"
    assert page.locator("#board [tabindex='0']").count() == 1
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowRight")
    assert _focused(page) == "row 2, column 2, empty, play 5"
    page.keyboard.press("Enter")
    sync_api.expect(page.locator("#history li")).to_have_count(1)
    # The board was drawn anew: the keys are still on the cell played.
    assert _focused(page) == "row 2, column 2, X"
    page.keyboard.press("ArrowRight")
    page.keyboard.press(" ")
    sync_api.expect(page.locator("#history li")).to_have_text(["5", "6"])
    assert _focused(page) == "row 2, column 3, O"
    page.keyboard.press("ArrowRight")  # the edge: the focus stays
    assert _focused(page) == "row 2, column 3, O"
    page.keyboard.press("Shift+Tab")  # out of the board, back to the buttons above it
    assert page.evaluate("document.activeElement.id") == "flip"


def test_chess_by_keyboard_with_a_promotion(page: Any, server: str) -> None:
    pytest.importorskip("chess")
    page.goto(f"{server}/play?game=chess&side0=human&side1=human")
    sync_api.expect(page.locator("#board .cell.movable")).to_have_count(10)
    page.focus("#flip")
    page.keyboard.press("Tab")
    assert _focused(page) == "a2, white pawn"
    for key in ["ArrowRight"] * 4:
        page.keyboard.press(key)
    page.keyboard.press("Enter")  # the e-pawn picked up
    assert _focused(page) == "e2, white pawn, selected"
    page.keyboard.press("ArrowUp")
    page.keyboard.press("ArrowUp")
    assert _focused(page) == "e4, empty, move here"
    page.keyboard.press("Enter")
    sync_api.expect(page.locator("#history li")).to_have_text(["e4"])
    assert _focused(page) == "e4, white pawn"
    # A flipped board: the arrows go as the squares are shown.
    page.goto(
        f"{server}/play?game=chess&side0=human&side1=human&position=8/P6k/8/8/8/8/8/K7+w+-+-+0+1"
    )
    page.click("#flip")
    page.locator('#board .cell[data-square="a7"]').focus()
    page.keyboard.press("Enter")
    page.keyboard.press("ArrowDown")  # on a flipped board, down is towards rank 8
    assert _focused(page) == "a8, empty, move here"
    page.keyboard.press("Enter")
    sync_api.expect(page.get_by_test_id("chooser")).to_be_visible()
    assert _focused(page) == "queen (a8=Q)"
    page.keyboard.press("Tab")
    page.keyboard.press("Enter")  # the rook
    sync_api.expect(page.locator("#history li")).to_have_text(["a8=R"])
    assert (_focused(page) or "").startswith("a8, white rook")  # back on the board


def test_a_long_position_text_scrolls_by_keyboard(browser: Any, server: str) -> None:
    page = guarded_page(browser, origin=server, width=390, height=844)
    page.goto(f"{server}/play?game=nim&position=3,60&side0=human&side1=human")
    text = page.get_by_test_id("board-text")
    sync_api.expect(text).to_contain_text("heap 2: 60")
    violations = serious_violations(page)
    assert not violations, format_violations(violations)
    assert text.get_attribute("tabindex") == "0"
    text.focus()
    page.keyboard.press("ArrowRight")
    page.wait_for_function("document.getElementById('board-text').scrollLeft > 0")
    page.set_viewport_size({"width": 1366, "height": 768})  # wide enough: no stop for Tab
    page.wait_for_function("!document.getElementById('board-text').hasAttribute('tabindex')")
    assert page.errors == []
    page.context.close()


#: The WCAG contrast ratio of an element's text on its own background, in the page.
_CONTRAST = """(id) => {
  const element = document.getElementById(id);
  const style = getComputedStyle(element);
  const channels = (colour) => colour.match(/[\\d.]+/g).slice(0, 3).map(Number);
  const luminance = (colour) => {
    const [r, g, b] = channels(colour).map((v) => {
      v /= 255;
      return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const [hi, lo] = [luminance(style.color), luminance(style.backgroundColor)].sort((a, b) => b - a);
  return {ratio: (hi + 0.05) / (lo + 0.05), opacity: Number(style.opacity)};
}"""


def test_greyed_buttons_stay_readable(page: Any, server: str) -> None:
    # axe leaves disabled controls out; Undo and Stop greyed still say what they do.
    page.goto(f"{server}/play?game=tictactoe&side0=human&side1=human")
    sync_api.expect(page.locator("#undo")).to_be_disabled()
    for button in ("undo", "stop"):
        seen = page.evaluate(_CONTRAST, button)
        assert seen["opacity"] == 1 and seen["ratio"] >= 4.5, (button, seen)


@pytest.mark.parametrize("touch", [False, True], ids=["mouse", "touch"])
def test_the_keys_are_told_where_there_is_a_keyboard(
    browser: Any, server: str, touch: bool
) -> None:
    page = guarded_page(browser, origin=server, width=390, height=844, has_touch=touch)
    page.goto(f"{server}/play?game=connect4&side1=human")
    keys = page.locator("#board-help .keys-help")
    sync_api.expect(keys).to_have_text("Keys: Tab to the board, arrows between cells, Enter plays.")
    assert keys.is_visible() is not touch
    page.context.close()


def test_flip_and_keys_before_the_first_state_are_harmless(page: Any, server: str) -> None:
    """Flip and an arrow key while the room's first state is still on its way (it
    came late in a busy test run: "Cannot read properties of null")."""
    held: list[Any] = []

    def hold(route: Any) -> None:
        if held and held[0] is None:  # let go: requests pass
            route.continue_()
        else:
            held.append(route)

    page.route("**/api/play/state", hold)
    page.goto(f"{server}/play?game=chess")
    page.wait_for_timeout(200)
    page.click("#flip")
    page.keyboard.press("ArrowUp")
    assert held, "the first state was not asked for"
    waiting = list(held)
    held[:] = [None]
    for route in waiting:
        route.continue_()
    sync_api.expect(page.locator("#board button.cell")).to_have_count(64)
