"""The game room in a real browser: a real uvicorn server on loopback and Debian's
Chromium driven by Playwright, with every request off this server blocked."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from browser_helpers import CHROMIUM, guarded_page

sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="Chromium is not installed (apt-get install chromium)"
)

from plies import lab  # noqa: E402

#: The status once the engine has answered: the person's turn, or the game over.
PERSON_TO_MOVE = re.compile(r"^(X to move\.|Game over: .*)$")


@pytest.fixture
def page(browser: Any, server: str, tmp_path: Path) -> Iterator[Any]:
    page = guarded_page(browser, origin=server, width=1280, height=800)
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=server)
    yield page
    page.screenshot(path=str(tmp_path / "room.png"), full_page=True)
    assert page.errors == []
    assert page.outside == []
    page.context.close()


def _moves(page: Any) -> list[str]:
    return [text.strip() for text in page.locator("#history li").all_text_contents()]


def _wait_for_person(page: Any, plies: int) -> None:
    """Until the engine has answered: ``plies`` moves played and X (the person) to
    move, or the game over."""
    page.wait_for_function(
        "n => document.querySelectorAll('#history li').length >= n"
        " || document.getElementById('status').textContent.startsWith('Game over')",
        arg=plies,
    )
    sync_api.expect(page.get_by_test_id("status")).to_have_text(PERSON_TO_MOVE)


def test_a_whole_game_of_tictactoe_against_the_engine(page: Any, server: str) -> None:
    page.goto(server + "/play?game=tictactoe&side0=human&side1=engine&depth=9")
    status = page.get_by_test_id("status")
    sync_api.expect(status).to_have_text("X to move.")
    played = 0
    while not status.inner_text().startswith("Game over"):
        assert played < 5, "X cannot move more than five times"
        page.locator("#board .cell.legal").first.click()  # the first empty cell
        played += 1
        _wait_for_person(page, 2 * played)
    moves = _moves(page)
    assert len(moves) in (2 * played - 1, 2 * played)
    # The engine searched to the end of the game: it never loses, and its rows came live.
    final = lab.room_state(lab.open_room("tictactoe", "", moves))
    assert final["terminal"] and final["winner"] != 0
    sync_api.expect(status).to_have_text(f"Game over: {final['result']}.")
    assert page.locator("#analysis tbody tr").count() >= 1
    assert page.locator("#board .cell.legal").count() == 0


def test_undo_takes_back_the_engines_reply_too(page: Any, server: str) -> None:
    page.goto(server + "/play?game=tictactoe&side1=engine&depth=2")
    page.locator('#board .cell[data-row="1"][data-col="1"]').click()
    _wait_for_person(page, 2)
    assert len(_moves(page)) == 2 and _moves(page)[0] == "5"
    page.click("#undo")
    sync_api.expect(page.locator("#history li")).to_have_count(0)
    sync_api.expect(page.get_by_test_id("status")).to_have_text("X to move.")
    assert page.locator("#board .cell.legal").count() == 9


def test_a_hint_is_shown_not_played(page: Any, server: str) -> None:
    # X can win at once on cell 3 (1 and 2 are X's).
    page.goto(server + "/play?game=tictactoe&side1=human&moves=1+4+2+5&depth=3")
    sync_api.expect(page.locator("#history li")).to_have_count(4)
    page.click("#hint")
    sync_api.expect(page.get_by_test_id("engine-note")).to_contain_text("Hint: 3 (depth")
    hinted = page.locator("#board .cell.hint")
    sync_api.expect(hinted).to_have_count(1)
    assert hinted.get_attribute("data-move") == "3"
    assert len(_moves(page)) == 4
    page.fill("#move-text", "4")  # typed, and taken: the game's own reason is shown
    page.click("#play")
    sync_api.expect(page.get_by_test_id("error")).to_have_text(
        "tictactoe: cannot play 4: the cell is taken"
    )
    hinted.click()
    sync_api.expect(page.get_by_test_id("status")).to_have_text("Game over: X wins.")


def test_connect4_by_clicking_columns_and_flipping(page: Any, server: str) -> None:
    page.goto(server + "/play?game=connect4&side0=human&side1=human")
    sync_api.expect(page.get_by_test_id("status")).to_have_text("X (red) to move.")
    for column, count in ((4, 1), (4, 2), (3, 3)):
        # Any cell of a column plays the column: here its top cell.
        page.locator(f'#board .cell[data-row="0"][data-col="{column - 1}"]').click()
        sync_api.expect(page.locator("#history li")).to_have_count(count)
    assert _moves(page) == ["4", "4", "3"]
    sync_api.expect(page.get_by_test_id("position")).to_have_value("443")
    bottom = page.locator('#board .cell[data-row="5"][data-col="3"] .piece')
    assert "p0" in (bottom.get_attribute("class") or "")  # X's disc fell to the bottom
    assert page.locator('#board .cell[data-row="5"][data-col="2"]').get_attribute("class") == (
        "cell legal last"
    )
    assert page.locator("#board .cell").first.get_attribute("data-row") == "0"
    page.click("#flip")
    first = page.locator("#board .cell").first
    assert (first.get_attribute("data-row"), first.get_attribute("data-col")) == ("5", "6")
    assert page.locator("#board .label").first.inner_text() == "7"


def test_load_and_copy_a_position(page: Any, server: str) -> None:
    page.goto(server + "/play?game=tictactoe&side1=human")
    sync_api.expect(page.get_by_test_id("status")).to_have_text("X to move.")
    page.click("#position-box summary")
    page.fill("#position", "xo./.x./...")
    page.click("#load")
    sync_api.expect(page.get_by_test_id("status")).to_have_text("O to move.")
    assert page.locator("#board .cell.legal").count() == 6
    page.fill("#position", "xx./.../...")  # two X and no O cannot arise
    page.click("#load")
    sync_api.expect(page.get_by_test_id("error")).to_contain_text("has 2 x and 0 o marks")
    page.fill("#position", "xo./.x./...")
    page.click("#load")
    sync_api.expect(page.get_by_test_id("error")).to_have_text("")
    page.locator('#board .cell[data-row="2"][data-col="2"]').click()  # O takes 9
    sync_api.expect(page.get_by_test_id("position")).to_have_value("xo./.x./..o")
    page.click("#copy")
    assert page.evaluate("navigator.clipboard.readText()") == "xo./.x./..o"
    sync_api.expect(page.get_by_test_id("export")).to_have_value("9")


def test_show_the_search_opens_the_position_in_the_tree_lab(page: Any, server: str) -> None:
    page.goto(server + "/play?game=tictactoe&side1=human&moves=5+1+9+3")
    link = page.get_by_test_id("show-search")
    sync_api.expect(link).to_be_visible()
    link.click()
    page.wait_for_url("**/?game=*")
    assert page.locator("#game").input_value() == "tictactoe:o.o/.x./..x"
    sync_api.expect(page.get_by_test_id("pv")).to_contain_text("2")
    sync_api.expect(page.get_by_test_id("value")).not_to_have_text("")


def test_the_room_fits_a_phone(browser: Any, server: str) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.goto(server + "/play?game=othello&side1=human")
    sync_api.expect(page.locator("#board .cell.legal")).to_have_count(4)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the page is {width} px wide at a 390 px viewport"
    context.close()


def test_the_stop_button_makes_the_engine_move_now(page: Any, server: str) -> None:
    page.goto(server + "/play?game=othello&side0=engine&side1=human&seconds=8")
    sync_api.expect(page.locator("#analysis tbody tr")).not_to_have_count(0)  # thinking, live
    sync_api.expect(page.locator("#stop")).to_be_enabled()
    page.click("#stop")
    # The engine plays what it found so far, long before its 8 seconds.
    sync_api.expect(page.locator("#history li")).to_have_count(1, timeout=5_000)
    sync_api.expect(page.get_by_test_id("engine-note")).to_contain_text("cut short")
    sync_api.expect(page.get_by_test_id("status")).to_have_text("O (white) to move.")
    sync_api.expect(page.locator("#stop")).to_be_disabled()


def test_two_engines_play_pig_with_the_dice(page: Any, server: str) -> None:
    page.goto(server + "/play?game=pig:target=5&side0=engine&side1=engine&depth=2")
    sync_api.expect(page.get_by_test_id("status")).to_contain_text("Game over", timeout=20_000)
    moves = _moves(page)
    final = lab.room_state(lab.open_room("pig:target=5", "", moves))
    assert final["terminal"] and "roll" in moves
    assert any(mover is None for mover in final["movers"])  # the dice were rolled
    sync_api.expect(page.get_by_test_id("board-text")).to_have_text(final["text"])


def test_games_without_a_board_are_played_with_buttons(page: Any, server: str) -> None:
    page.goto(server + "/play?game=nim&side1=human")  # depth 12: to the end
    sync_api.expect(page.get_by_test_id("board-text")).to_contain_text("heap 3:  5")
    assert page.locator("#board").is_hidden()
    assert page.locator("#strength").input_value() == "12"
    page.click("#hint")  # 3,4,5 has nim-sum 2: take 2 from the first heap
    sync_api.expect(page.locator("#moves .move.hint")).to_have_text("1:2")
    page.click("#moves .move.hint")
    sync_api.expect(page.get_by_test_id("board-text")).to_contain_text("heap 1:  1")
    sync_api.expect(page.get_by_test_id("position")).to_have_value("1,4,5")


# -- chess and checkers, played by clicking pieces ---------------------------------------


def _square(page: Any, name: str) -> Any:
    return page.locator(f'#board .cell[data-square="{name}"]')


def _squares(page: Any, kind: str) -> set[str]:
    """The squares (names or numbers) of the board's cells of class ``kind``."""
    cells = page.locator(f"#board .cell.{kind}")
    return {cells.nth(i).get_attribute("data-square") for i in range(cells.count())}


def test_chess_by_clicks_with_castling_a_promotion_and_the_pgn(page: Any, server: str) -> None:
    pytest.importorskip("chess")
    import io

    import chess.pgn

    fen = "4k3/1P6/8/8/8/8/8/R3K2R w KQ - 0 1"
    page.goto(server + "/play?game=chess&side0=human&side1=human&depth=1&position=" + fen)
    status = page.get_by_test_id("status")
    sync_api.expect(status).to_have_text("White to move.")
    assert page.locator("#board .glyph").count() == 5 and _squares(page, "legal") == set()
    _square(page, "e1").click()  # the king: its squares, castling both ways among them
    king = {m.uci()[2:] for m in chess.Board(fen).legal_moves if m.uci().startswith("e1")}
    assert _squares(page, "legal") == king and {"c1", "g1"} <= king
    _square(page, "e5").click()  # nowhere the king goes: the king is put back
    assert _squares(page, "legal") == set()
    _square(page, "e1").click()
    _square(page, "c1").click()
    sync_api.expect(status).to_have_text("Black to move.")
    assert _squares(page, "last") == {"e1", "c1"}
    assert _square(page, "d1").locator(".glyph").count() == 1  # the rook came along
    _square(page, "e8").click()
    _square(page, "d7").click()  # the rook on d1 guards it: nothing is played
    assert _squares(page, "legal") == set() and len(_moves(page)) == 1
    _square(page, "e8").click()
    _square(page, "e7").click()
    sync_api.expect(page.locator("#history li")).to_have_count(2)
    _square(page, "b7").click()
    _square(page, "b8").click()  # a promotion: which piece?
    chooser = page.get_by_test_id("chooser")
    sync_api.expect(chooser).to_be_visible()
    assert page.locator("#chooser [data-promotion]").count() == 4
    page.click('#chooser [data-promotion="n"]')  # a knight, not the queen
    sync_api.expect(page.locator("#history li")).to_have_count(3)
    sync_api.expect(chooser).to_be_hidden()
    assert _square(page, "b8").locator(".glyph.p0").inner_text().startswith("\u265e")
    page.fill("#move-text", "Ke6")  # the text box still plays
    page.click("#play")
    sync_api.expect(page.locator("#history li")).to_have_count(4)
    numbers = page.locator("#history li").evaluate_all("items => items.map(i => i.dataset.number)")
    assert numbers == ["1.", "", "2.", ""]  # numbered in pairs, as chess players write
    page.fill("#move-text", "Rde1+")  # check: the king's square says so
    page.click("#play")
    sync_api.expect(page.locator("#board .cell.check")).to_have_count(1)
    assert page.locator("#board .cell.check").get_attribute("data-square") == "e6"
    page.click("#undo")
    sync_api.expect(page.locator("#history li")).to_have_count(4)
    page.click("#hint")  # shown on the board: the piece and where it goes
    sync_api.expect(page.locator("#board .cell.hint")).to_have_count(2)
    page.click("#flip")
    assert page.locator("#board .cell").first.get_attribute("data-square") == "h1"
    page.click("#position-box summary")
    game = chess.pgn.read_game(io.StringIO(page.get_by_test_id("export").input_value()))
    assert game is not None and not game.errors
    board, sans = game.board(), []
    for move in game.mainline_moves():
        sans.append(board.san(move))
        board.push(move)
    assert sans == ["O-O-O", "Ke7", "b8=N", "Ke6"] == _moves(page)
    assert game.headers["FEN"] == fen and game.headers["White"] == "person"
    assert game.headers["Event"] == "plies game room"
    page.click("#undo")
    sync_api.expect(page.locator("#history li")).to_have_count(3)


def test_checkers_captures_by_clicks(page: Any, server: str) -> None:
    page.goto(server + "/play?game=checkers&side0=human&side1=human&position=B:W14,22,30:B9,1")
    sync_api.expect(page.get_by_test_id("status")).to_have_text("Black to move.")
    assert _squares(page, "movable") == {"9"}  # a capture is compulsory: only 9 moves
    _square(page, "1").click()
    assert _squares(page, "selected") == set()
    _square(page, "9").click()
    assert (_squares(page, "legal"), _squares(page, "step")) == ({"25"}, {"18"})
    _square(page, "25").click()  # the whole double jump
    sync_api.expect(page.locator("#history li")).to_have_count(1)
    assert _moves(page) == ["9x18x25"]
    assert _squares(page, "last") == {"9", "18", "25"}
    assert _square(page, "14").locator(".piece").count() == 0  # taken
    assert _square(page, "25").locator(".piece.p0").count() == 1


def test_checkers_jumps_that_end_alike_are_told_apart_by_their_way(page: Any, server: str) -> None:
    position = "B:W26,19,27,18,10,12:B15"
    page.goto(server + f"/play?game=checkers&side0=human&side1=human&position={position}")
    sync_api.expect(page.get_by_test_id("status")).to_have_text("Black to move.")
    _square(page, "15").click()
    assert _squares(page, "legal") == {"31"} and _squares(page, "step") == {"22", "24"}
    _square(page, "31").click()  # two captures end there
    sync_api.expect(page.get_by_test_id("error")).to_contain_text("Several captures end there")
    _square(page, "24").click()  # the way through 24: one capture left, played
    sync_api.expect(page.locator("#history li")).to_have_count(1)
    assert _moves(page) == ["15x24x31"]
    page.click("#position-box summary")
    export = page.get_by_test_id("export").input_value()
    assert '[GameType "21"]' in export and "\n1. 15x24x31 " in export
    # A king's round trip and its single jump both end on 6: the square clicked next
    # after the king tells them apart.
    for second, played in (("6", "15x6"), ("22", "15x22x31x24x15x6")):
        page.goto(server + "/play?game=checkers&side1=human&position=B:W26,19,27,18,10,12:BK15,1")
        sync_api.expect(page.get_by_test_id("status")).to_have_text("Black to move.")
        _square(page, "15").click()
        assert _squares(page, "legal") == {"6"} and _squares(page, "step") == {"22"}
        _square(page, second).click()
        sync_api.expect(page.locator("#history li")).to_have_count(1)
        assert _moves(page) == [played]


@pytest.mark.parametrize("url", ["game=chess&moves=e4+e5", "game=checkers&moves=11-15"])
def test_chess_and_checkers_boards_fit_a_phone(browser: Any, server: str, url: str) -> None:
    page = guarded_page(browser, origin=server, width=390, height=844)
    page.goto(server + "/play?side1=human&" + url)
    sync_api.expect(page.locator("#board .cell")).to_have_count(64)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the page is {width} px wide at a 390 px viewport"
    box = page.locator("#board").bounding_box()
    cell = page.locator("#board .cell").first.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 390
    assert cell["width"] >= 40, "squares big enough to tap"
    assert page.errors == [] and page.outside == []
    page.context.close()
