"""The game room's pieces dragged in a real browser (Chromium through Playwright, on a
real uvicorn server): with the mouse and with a finger (touch events sent through
Chromium's DevTools protocol, as a phone's screen sends them), the targets marked while
dragging, a refused drop with the game's reason, a promotion, a checkers capture; and
the move list numbered from a loaded position's own move number, as the PGN says.

One page, phone-sized and touch-enabled, serves the whole module."""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from typing import Any

import pytest

from browser_helpers import CHROMIUM, guarded_page

sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="Chromium is not installed (apt-get install chromium)"
)

from plies import lab  # noqa: E402
from plies.errors import IllegalMoveError  # noqa: E402

#: A position of the Ruy Lopez with Black to move at move 30 (seven quiet plies).
FEN_30 = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 7 30"


@pytest.fixture(scope="module")
def page(browser: Any, server: str) -> Iterator[Any]:
    page = guarded_page(browser, origin=server, width=390, height=844, has_touch=True)
    yield page
    page.context.close()


@pytest.fixture(autouse=True)
def no_errors(page: Any) -> Iterator[None]:
    """After each test: no script error, no request beyond the server."""
    yield
    assert page.errors == []
    assert page.outside == []


def _open(page: Any, server: str, query: str) -> None:
    page.goto(server + "/play?side0=human&side1=human&" + query)
    sync_api.expect(page.locator("#board .cell")).to_have_count(64)


def _square(page: Any, name: str) -> Any:
    return page.locator(f'#board .cell[data-square="{name}"]')


def _squares(page: Any, kind: str) -> set[str]:
    """The squares (names or numbers) of the board's cells of class ``kind``."""
    found = page.locator(f"#board .cell.{kind}")
    return set(found.evaluate_all("cells => cells.map(c => c.dataset.square)"))


def _centre(page: Any, name: str) -> tuple[float, float]:
    """The centre of square ``name`` (chess: e4; checkers: 1-32; a light checkers
    square: its ``row,column``)."""
    if "," in name:
        row, column = name.split(",")
        box = page.locator(f'#board .cell[data-row="{row}"][data-col="{column}"]').bounding_box()
    else:
        box = _square(page, name).bounding_box()
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def _moves(page: Any) -> list[str]:
    return [text.strip() for text in page.locator("#history li").all_text_contents()]


def _press_and_move(page: Any, start: str, to: tuple[float, float]) -> None:
    """The mouse pressed on square ``start`` and moved to the point ``to``, held."""
    page.mouse.move(*_centre(page, start))
    page.mouse.down()
    page.mouse.move(*to, steps=6)


def _drag(page: Any, start: str, end: str) -> None:
    _press_and_move(page, start, _centre(page, end))
    page.mouse.up()


def _reason(spec: str, position: str, moves: list[str], text: str) -> str:
    """The game's own message refusing move ``text``."""
    with pytest.raises(IllegalMoveError) as refused:
        lab.play_move(lab.open_room(spec, position, moves), text)
    return str(refused.value)


def test_a_pawn_dragged_from_e2_to_e4_with_the_mouse(page: Any, server: str) -> None:
    pytest.importorskip("chess")
    _open(page, server, "game=chess")
    _press_and_move(page, "e2", _centre(page, "e4"))
    # While dragging: the pawn lifted, a copy under the pointer, its squares marked.
    assert _squares(page, "legal") == {"e3", "e4"}
    assert _squares(page, "lifted") == {"e2"} and _squares(page, "drop") == {"e4"}
    ghost = page.locator("#board .drag-ghost").bounding_box()
    x, y = _centre(page, "e4")
    assert abs(ghost["x"] + ghost["width"] / 2 - x) < 2
    assert abs(ghost["y"] + ghost["height"] / 2 - y) < 2
    page.mouse.up()
    sync_api.expect(page.locator("#history li")).to_have_count(1)
    assert _moves(page) == ["e4"] and _squares(page, "last") == {"e2", "e4"}
    assert page.locator("#board .drag-ghost").count() == 0
    sync_api.expect(page.get_by_test_id("status")).to_have_text("Black to move.")
    sync_api.expect(page.get_by_test_id("error")).to_have_text("")


def test_a_refused_drop_says_why_and_a_piece_let_go_elsewhere_goes_back(
    page: Any, server: str
) -> None:
    pytest.importorskip("chess")
    _open(page, server, "game=chess&moves=e4")
    _drag(page, "e7", "e4")  # a pawn does not go three squares, nor onto a piece
    error = page.get_by_test_id("error")
    sync_api.expect(error).to_have_text(_reason("chess", "", ["e4"], "e7e4"))
    assert _moves(page) == ["e4"] and _squares(page, "selected") == set()
    assert _square(page, "e7").locator(".glyph.p1").count() == 1  # back where it was
    _drag(page, "g8", "g8")  # put down where it was: picked, as after a click
    assert _squares(page, "selected") == {"g8"} and _squares(page, "legal") == {"f6", "h6"}
    _square(page, "f6").click()  # and then a click plays it
    sync_api.expect(page.locator("#history li")).to_have_count(2)
    assert _moves(page) == ["e4", "Nf6"]
    sync_api.expect(error).to_have_text("")
    board = page.locator("#board").bounding_box()
    below = (board["x"] + board["width"] / 2, board["y"] + board["height"] + 40)
    _press_and_move(page, "d2", below)
    assert _squares(page, "drop") == set()  # off the board
    page.mouse.up()
    assert _squares(page, "selected") == set() and _moves(page) == ["e4", "Nf6"]
    assert _square(page, "d2").locator(".glyph.p0").count() == 1
    sync_api.expect(error).to_have_text("")
    _press_and_move(page, "d2", _centre(page, "d4"))
    page.keyboard.press("Escape")  # put back, though let go on a square it goes to
    assert _squares(page, "legal") == set()
    page.mouse.up()
    assert _squares(page, "selected") == set() and _moves(page) == ["e4", "Nf6"]
    sync_api.expect(error).to_have_text("")


def test_a_pawn_dragged_to_the_last_rank_asks_what_it_becomes(page: Any, server: str) -> None:
    pytest.importorskip("chess")
    import chess

    fen = "8/1P2k3/8/8/8/8/8/4K3 w - - 0 1"
    _open(page, server, "game=chess&position=" + fen)
    _drag(page, "b7", "b8")
    chooser = page.get_by_test_id("chooser")
    sync_api.expect(chooser).to_be_visible()
    assert page.locator("#chooser [data-promotion]").count() == 4
    assert _moves(page) == []
    page.click('#chooser [data-promotion="r"]')
    sync_api.expect(page.locator("#history li")).to_have_count(1)
    assert _moves(page) == [chess.Board(fen).san(chess.Move.from_uci("b7b8r"))]
    assert _square(page, "b8").locator(".glyph.p0").inner_text().startswith("\u265c")
    sync_api.expect(chooser).to_be_hidden()


def test_a_checkers_double_jump_dragged_and_a_man_that_must_capture(page: Any, server: str) -> None:
    position = "B:W14,22,30:B9,1"
    _open(page, server, "game=checkers&position=" + position)
    _drag(page, "1", "6")  # 9 must capture: the game says so
    sync_api.expect(page.get_by_test_id("error")).to_have_text(
        _reason("checkers", position, [], "1-6")
    )
    assert "a capture is compulsory" in page.get_by_test_id("error").inner_text()
    _drag(page, "1", "0,2")  # a light square: no square of the game
    sync_api.expect(page.get_by_test_id("error")).to_have_text(
        "The pieces move on the dark squares only."
    )
    _press_and_move(page, "9", _centre(page, "25"))
    assert (_squares(page, "legal"), _squares(page, "step")) == ({"25"}, {"18"})
    page.mouse.up()
    sync_api.expect(page.locator("#history li")).to_have_count(1)
    assert _moves(page) == ["9x18x25"]
    assert _square(page, "14").locator(".piece").count() == 0  # taken
    assert _square(page, "18").locator(".piece").count() == 0  # taken
    assert _square(page, "25").locator(".piece.p0").count() == 1
    sync_api.expect(page.get_by_test_id("error")).to_have_text("")
    # Two captures of 15 end on 31: the drop picks the piece, the way is clicked.
    _open(page, server, "game=checkers&position=B:W26,19,27,18,10,12:B15")
    _drag(page, "15", "31")
    sync_api.expect(page.get_by_test_id("error")).to_contain_text("Several captures end there")
    assert _squares(page, "selected") == {"15"} and _squares(page, "step") == {"22", "24"}
    _square(page, "24").click()
    sync_api.expect(page.locator("#history li")).to_have_count(1)
    assert _moves(page) == ["15x24x31"]


def test_a_piece_dragged_with_a_finger(page: Any, server: str) -> None:
    pytest.importorskip("chess")
    _open(page, server, "game=chess")
    cdp = page.context.new_cdp_session(page)

    def touch(kind: str, point: tuple[float, float] | None) -> None:
        points = [] if point is None else [{"x": point[0], "y": point[1]}]
        cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})

    (x, y), (x2, y2) = _centre(page, "g1"), _centre(page, "f3")
    touch("touchStart", (x, y))
    for step in range(1, 7):
        touch("touchMove", (x + (x2 - x) * step / 6, y + (y2 - y) * step / 6))
    assert _squares(page, "legal") == {"f3", "h3"} and _squares(page, "drop") == {"f3"}
    # The browser may hand the last move over at its next frame (late on a busy machine).
    page.wait_for_function(
        "y => document.querySelector('#board .drag-ghost').getBoundingClientRect().bottom < y",
        arg=y2,
    )
    ghost = page.locator("#board .drag-ghost").bounding_box()
    assert ghost["y"] + ghost["height"] < y2 < ghost["y"] + 2.5 * ghost["height"]  # in sight
    assert ghost["x"] < x2 < ghost["x"] + ghost["width"]
    touch("touchEnd", None)
    sync_api.expect(page.locator("#history li")).to_have_count(1)
    assert _moves(page) == ["Nf3"]
    assert page.evaluate("window.scrollY") == 0  # the finger moved the piece, not the page
    cdp.detach()


def _numbers(page: Any) -> list[str]:
    return page.locator("#history li").evaluate_all("items => items.map(i => i.dataset.number)")


def _pgn_numbers(export: str) -> list[str]:
    """The move numbers of a PGN or PDN's moves (``30...``, ``31.``), in order."""
    moves = export.split("\n\n", 1)[1]
    return re.findall(r"\b\d+\.(?:\.\.)?", moves)


def test_moves_are_numbered_from_the_fens_move_number(page: Any, server: str) -> None:
    pytest.importorskip("chess")
    import chess.pgn

    _open(page, server, f"game=chess&position={FEN_30}&moves=Nf6+Nc3+Bc5")
    sync_api.expect(page.locator("#history li")).to_have_count(3)
    assert _numbers(page) == ["30...", "31.", ""]
    assert page.locator("#history").get_attribute("data-first") == "30..."
    export = page.get_by_test_id("export").input_value()
    game = chess.pgn.read_game(io.StringIO(export))
    assert game is not None and not game.errors
    assert game.headers["FEN"] == FEN_30 and game.board().fullmove_number == 30
    assert [n for n in _numbers(page) if n] == _pgn_numbers(export) == ["30...", "31."]
    # A FEN followed by moves (as the room writes a position that repeated): counted on.
    tail = "g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8"
    _open(page, server, f"game=chess&position={FEN_30} moves {tail}&moves=Nf3")
    sync_api.expect(page.locator("#history li")).to_have_count(1)
    assert _numbers(page) == ["34."] == _pgn_numbers(page.get_by_test_id("export").input_value())
    assert page.locator("#history").get_attribute("data-first") is None


def test_checkers_moves_from_a_position_with_white_to_move(page: Any, server: str) -> None:
    position = "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"
    _open(page, server, f"game=checkers&position={position}&moves=23-19+11-15+22-18")
    sync_api.expect(page.locator("#history li")).to_have_count(3)
    assert _numbers(page) == ["1...", "2.", ""]
    export = page.get_by_test_id("export").input_value()
    assert _pgn_numbers(export) == ["1...", "2."]
    assert "1... 23-19 2. 11-15 22-18" in export


# -- what the screenshots at 1280 x 800 and 390 x 844 showed wrong ------------------------


def test_the_phones_five_buttons_share_a_line_and_statuses_are_sentences(
    page: Any, server: str
) -> None:
    page.goto(server + "/play?game=pig&side0=human&side1=human")
    sync_api.expect(page.get_by_test_id("status")).to_have_text("Player 1 to move.")
    tops = page.locator("#table .buttons button").evaluate_all(
        "buttons => buttons.map(b => b.getBoundingClientRect().top)"
    )
    assert len(tops) == 5 and len(set(tops)) == 1, tops
    assert page.locator("#panel h2").first.is_hidden()  # no empty "Engine" heading


def test_the_engine_panel_stays_beside_the_board_on_a_desktop(browser: Any, server: str) -> None:
    desk = guarded_page(browser, origin=server, width=1280, height=800)
    # The checkers help and a long refusal (a FEN in it) once pushed the panel below.
    desk.goto(server + "/play?side0=human&side1=human&game=checkers")
    sync_api.expect(desk.locator("#board .cell")).to_have_count(64)
    desk.fill("#move-text", "1-5")
    desk.click("#play")
    sync_api.expect(desk.get_by_test_id("error")).to_contain_text("illegal move 1-5")
    board = desk.locator("#board").bounding_box()
    error = desk.get_by_test_id("error").bounding_box()
    panel = desk.locator("#panel").bounding_box()
    assert panel["x"] >= board["x"] + board["width"] and panel["y"] < board["y"] + 50
    assert error["y"] > board["y"] + board["height"]  # under the board: the board stays
    assert desk.evaluate("document.documentElement.scrollWidth") <= 1280
    assert desk.errors == [] and desk.outside == []
    desk.context.close()
