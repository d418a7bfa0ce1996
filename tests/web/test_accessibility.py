"""axe-core over every page of the web lab and the states a user brings it to, at a
desktop's and a phone's size: no violation of impact serious or critical (WCAG 2.1 A
and AA, and axe's best practices). A real uvicorn server on loopback and Debian's
Chromium driven by Playwright; axe-core from npm (see tests/axe_helpers.py)."""

from __future__ import annotations

import html
from collections.abc import Callable, Iterator
from typing import Any
from urllib.parse import quote, urlencode

import pytest

from axe_helpers import format_violations, serious_violations
from browser_helpers import CHROMIUM, guarded_page
from plies.games import GAMES

sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="Chromium is not installed (apt-get install chromium)"
)

#: The two screens every page is checked at.
SIZES = {"desktop": (1366, 768), "phone": (390, 844)}

AIMA = "[[3,12,8],[2,4,6],[14,5,2]]"


@pytest.fixture(params=list(SIZES), ids=list(SIZES))
def size(request: pytest.FixtureRequest) -> tuple[int, int]:
    """The viewport, as (width, height)."""
    width, height = SIZES[request.param]
    return width, height


@pytest.fixture
def page(browser: Any, server: str, size: tuple[int, int]) -> Iterator[Any]:
    """A page of the viewport's size that may reach only the test server."""
    width, height = size
    page = guarded_page(browser, origin=server, width=width, height=height)
    yield page
    assert page.errors == []
    assert page.outside == []
    page.context.close()


class Report:
    """axe's findings over several states of one page, asserted at once at the end
    (so that one run lists them all)."""

    def __init__(self) -> None:
        self.found: list[str] = []

    def check(self, where: Any, state: str) -> None:
        """Run axe in ``where`` (a page or frame) and keep what it finds, under ``state``."""
        violations = serious_violations(where)
        if violations:
            self.found.append(f"{state}:\n{format_violations(violations)}")

    def assert_clean(self) -> None:
        """Fail with every finding kept."""
        assert not self.found, "axe-core found:\n" + "\n".join(self.found)


#: A page with two faults axe must find: a prohibited aria-label and grey on white.
_FAULTY = (
    '<!doctype html><html lang="en"><title>t</title><main>'
    '<div id="named" aria-label="a name"></div>'
    '<p id="pale" style="color: #aaa">pale text</p></main></html>'
)


def test_axe_finds_serious_faults_in_a_page_and_in_a_frame(page: Any) -> None:
    page.set_content(_FAULTY)
    found = {v["id"]: v for v in serious_violations(page)}
    assert set(found) == {"aria-prohibited-attr", "color-contrast"}
    assert found["aria-prohibited-attr"]["nodes"][0]["target"] == ["#named"]
    report = format_violations(list(found.values()))
    assert "color-contrast (serious)" in report and "#pale: Fix any of the following" in report
    page.set_content(f'<iframe title="faulty" srcdoc="{html.escape(_FAULTY)}"></iframe>')
    frame = page.frames[1]
    frame.wait_for_selector("#pale")
    assert {v["id"] for v in serious_violations(frame)} == set(found)


# -- the lab (/) and its stepper ---------------------------------------------------------


def _searched(page: Any) -> None:
    sync_api.expect(page.get_by_test_id("value")).not_to_have_text("")


def _lab_initial(page: Any, server: str) -> Any:
    page.goto(f"{server}/?tree={quote(AIMA)}")
    _searched(page)
    return page


def _lab_after_a_search(page: Any, server: str) -> Any:
    _lab_initial(page, server)
    page.select_option("#algorithm", "minimax")  # searched at once: every leaf now
    sync_api.expect(page.get_by_test_id("stats")).to_contain_text("9 of 9 leaves")
    return page


def _lab_boxes_open(page: Any, server: str) -> Any:
    _lab_initial(page, server)
    page.click("#game-box summary")
    page.click("#editor-box summary")
    page.locator("#editor-drawing g[role=button]").first.click()
    sync_api.expect(page.locator("#editor")).to_be_visible()
    return page


def _lab_after_an_error(page: Any, server: str) -> Any:
    _lab_initial(page, server)
    page.fill("#tree", "[[3,12,8],[2,4,")
    page.click("#run")
    sync_api.expect(page.get_by_test_id("parse-error")).not_to_have_text("")
    return page


def _stepper_frame(page: Any, server: str) -> Any:
    _lab_initial(page, server)
    # The frame's page is written after the search answers: wait for its drawing, not
    # only for a document (the empty one before it would be checked instead).
    page.frame_locator("#stepper").locator("#drawing svg").wait_for()
    frame = page.locator("#stepper").element_handle().content_frame()
    frame.wait_for_load_state()
    return frame


def _stepper_at_the_end_zoomed_in(page: Any, server: str) -> Any:
    frame = _stepper_frame(page, server)
    frame.click("#end")
    frame.click("#zoom-in")
    sync_api.expect(frame.locator("#zoom-fit")).to_be_enabled()
    return frame


def _stepper_downloaded(page: Any, server: str) -> Any:
    response = page.request.post(f"{server}/api/render", data={"tree": AIMA, "format": "html"})
    assert response.ok, response.text()
    page.set_content(response.text())
    return page


@pytest.mark.parametrize(
    "state",
    [
        pytest.param(_lab_initial, id="lab"),
        pytest.param(_lab_after_a_search, id="lab-after-a-search"),
        pytest.param(_lab_boxes_open, id="lab-game-box-and-editor"),
        pytest.param(_lab_after_an_error, id="lab-after-an-error"),
        pytest.param(_stepper_frame, id="stepper-in-the-lab"),
        pytest.param(_stepper_at_the_end_zoomed_in, id="stepper-end-zoomed"),
        pytest.param(_stepper_downloaded, id="stepper-downloaded"),
    ],
)
def test_the_lab_and_its_stepper(page: Any, server: str, state: Callable[[Any, str], Any]) -> None:
    report = Report()
    report.check(state(page, server), state.__name__)
    report.assert_clean()


# -- the practice room (/practice) --------------------------------------------------------


def _practice_initial(page: Any, server: str) -> Any:
    page.goto(f"{server}/practice?branching=2&depth=3&seed=3")
    sync_api.expect(page.locator("#drawing svg")).to_be_visible()
    return page


def _practice_checked(page: Any, server: str) -> Any:
    _practice_initial(page, server)
    page.fill("#answer-value", "5")
    page.click("#check")
    sync_api.expect(page.locator("#feedback li").first).to_be_visible()
    return page


def _practice_with_bounds(page: Any, server: str) -> Any:
    _practice_initial(page, server)
    page.check("#bounds")
    page.locator("#drawing g.node[role=button]").first.click()
    sync_api.expect(page.locator("#pop-alpha")).to_be_visible()
    return page


@pytest.mark.parametrize(
    "state",
    [
        pytest.param(_practice_initial, id="practice"),
        pytest.param(_practice_checked, id="practice-after-check"),
        pytest.param(_practice_with_bounds, id="practice-alpha-beta"),
    ],
)
def test_the_practice_room(page: Any, server: str, state: Callable[[Any, str], Any]) -> None:
    report = Report()
    report.check(state(page, server), state.__name__)
    report.assert_clean()


# -- the API reference (/api) -------------------------------------------------------------


def test_the_api_reference(page: Any, server: str) -> None:
    page.goto(f"{server}/api")
    sync_api.expect(page.locator("h1").first).to_be_visible()
    report = Report()
    report.check(page, "/api")
    report.assert_clean()


# -- the game room (/play), every built-in game -------------------------------------------

#: Per built-in game: where a game starts (the link's query), a move a person types
#: there, and the query of a finished game.
PLAYS: dict[str, tuple[dict[str, str], str, dict[str, str]]] = {
    "tictactoe": ({}, "5", {"moves": "1 4 2 5 3"}),
    "mnk": ({}, "5", {"moves": "1 4 2 5 3"}),
    "nim": ({}, "1:3", {"position": "1,1", "moves": "1:1 2:1"}),
    "connect4": ({}, "4", {"moves": "4 3 4 3 4 3 4"}),
    "othello": ({}, "f5", {"position": "X" * 64 + " O"}),
    "checkers": ({}, "11-15", {"position": "B:W18:B14", "moves": "14x23"}),
    "pig": (
        {"position": "scores 3,4 total 5 player 1"},
        "hold",
        {"position": "scores 19,7 total 5 player 1", "moves": "hold"},
    ),
    "chess": ({}, "e4", {"moves": "f3 e5 g4 Qh4#"}),
    "rolit": ({}, "f4", {"position": "R" * 40 + "Y" * 24 + " G"}),
    "chinese-checkers": (
        {},
        "70-64",
        {
            "position": "1/11/111/........../........./......../......./222222../........./"
            "........../.../../. 2 41"
        },
    ),
}


def _room(server: str, game: str, query: dict[str, str]) -> str:
    """The link to ``game`` played by two people (the engine only for hints)."""
    return f"{server}/play?" + urlencode(
        {"game": game, "side0": "human", "side1": "human", "depth": "2", **query}
    )


def _walk_the_room(page: Any, server: str, game: str, report: Report) -> None:
    """A game's states checked by axe: its start, after a move, the engine's hint with
    its analysis, a refused move with the position box open, a finished game."""
    start, move, finished = PLAYS[game]
    status = page.get_by_test_id("status")
    page.goto(_room(server, game, start))
    sync_api.expect(status).to_contain_text("to move")
    report.check(page, f"{game}: the start")
    page.fill("#move-text", move)
    page.click("#play")
    sync_api.expect(page.locator("#history li")).to_have_count(1)
    report.check(page, f"{game}: after {move}")
    page.click("#hint")
    sync_api.expect(page.get_by_test_id("engine-note")).to_contain_text("Hint:")
    sync_api.expect(page.locator("#analysis tbody tr").first).to_be_visible()
    report.check(page, f"{game}: the engine's hint and analysis")
    page.click("#position-box summary")
    page.fill("#move-text", "zz9")
    page.click("#play")
    sync_api.expect(page.get_by_test_id("error")).not_to_have_text("")
    report.check(page, f"{game}: a move refused, the position box open")
    page.goto(_room(server, game, finished))
    sync_api.expect(status).to_contain_text("Game over")
    report.check(page, f"{game}: the game over")


def test_every_game_in_the_room_names_its_games() -> None:
    assert set(PLAYS) == {entry.name for entry in GAMES}


@pytest.mark.parametrize("game", list(PLAYS))
def test_the_game_room(page: Any, server: str, game: str) -> None:
    if game == "chess":
        pytest.importorskip("chess")
    report = Report()
    _walk_the_room(page, server, game, report)
    report.assert_clean()


def test_the_promotion_chooser(page: Any, server: str) -> None:
    pytest.importorskip("chess")
    page.goto(_room(server, "chess", {"position": "8/P6k/8/8/8/8/8/K7 w - - 0 1"}))
    page.locator('#board .cell[data-square="a7"]').click()
    page.locator('#board .cell[data-square="a8"]').click()
    sync_api.expect(page.get_by_test_id("chooser")).to_be_visible()
    report = Report()
    report.check(page, "chess: the promotion chooser")
    report.assert_clean()
