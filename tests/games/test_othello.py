"""Othello: perft counts from the start, flips, passes, the end, notation."""

from __future__ import annotations

import pytest

from plies.engine import Limits, search
from plies.errors import IllegalMoveError, ParseError
from plies.games.othello import PASS, Othello, OthelloState, format_square, parse_square

GAME = Othello()


def perft(state: OthelloState, depth: int) -> int:
    """Leaf count at ``depth`` plies; a pass is a ply, a finished game a leaf."""
    moves = GAME.legal_moves(state)
    if depth == 0 or not moves:
        return 1
    if depth == 1:
        return len(moves)
    return sum(perft(GAME.play(state, move), depth - 1) for move in moves)


@pytest.mark.parametrize(
    ("depth", "leaves"),
    [(1, 4), (2, 12), (3, 56), (4, 244), (5, 1396), (6, 8200), (7, 55092)],
)
def test_perft_from_the_start(depth: int, leaves: int) -> None:
    assert perft(GAME.initial_state(), depth) == leaves


def board(rows: list[str], side: str) -> OthelloState:
    """A state from 8 ranks of 8 characters (rank 1 first) and the side to move."""
    return GAME.parse_position("/".join(rows) + " " + side)


EMPTY = "--------"


def test_start_and_first_moves() -> None:
    start = GAME.initial_state()
    assert GAME.disc_counts(start) == (2, 2)
    assert [GAME.format_move(start, m) for m in GAME.legal_moves(start)] == [
        "d3",
        "c4",
        "f5",
        "e6",
    ]
    after = GAME.play(start, parse_square("d3"))
    assert GAME.disc_counts(after) == (4, 1)
    assert GAME.to_move(after) == 1


def test_a_move_flips_only_outflanked_lines() -> None:
    state = board(["X-X-----", "OO------", "X-------", *[EMPTY] * 5], "X")
    # c3 outflanks b2 (towards a1); a2 is not on a line from c3, b1 is not white.
    assert "c3" in {GAME.format_move(state, m) for m in GAME.legal_moves(state)}
    after = GAME.play(state, parse_square("c3"))
    assert GAME.format_position(after).startswith("X-X-----" + "OX------" + "X-X-----")
    assert GAME.disc_counts(after) == (5, 1)


def test_flips_along_three_lines_at_once() -> None:
    state = board(
        [
            "X--X--X-",
            "-O-O-O--",
            "--OOO---",
            "XOO-OOOX",
            "--OOO---",
            "-O-O-O--",
            "X--X--X-",
            EMPTY,
        ],
        "X",
    )
    after = GAME.play(state, parse_square("d4"))
    black, white = GAME.disc_counts(after)
    # All 17 white discs lie on the eight lines from d4 to a black disc.
    assert (black, white) == (8 + 1 + 17, 0)
    assert GAME.is_terminal(after)
    assert GAME.utility(after, 0) == 1.0
    assert GAME.terminal_value(after) == -1.0  # white is to move and has lost


def test_pass_only_when_nothing_else() -> None:
    # O on a1, X on b1: X has nothing to flip, O can take c1.
    state = board(["OX------", *[EMPTY] * 7], "X")
    assert GAME.legal_moves(state) == [PASS]
    assert not GAME.is_terminal(state)
    with pytest.raises(IllegalMoveError, match=r"c1 \(it flips no disc; legal: pass\)"):
        GAME.parse_move(state, "c1")
    passed = GAME.play(state, GAME.parse_move(state, "pass"))
    assert GAME.to_move(passed) == 1
    assert GAME.legal_moves(passed) == [parse_square("c1")]
    with pytest.raises(IllegalMoveError, match="a pass is only legal without another move"):
        GAME.parse_move(passed, "PASS")


def test_game_ends_when_neither_side_can_move() -> None:
    state = board([*["XXXXXXXX"] * 4, *["OOOOOOOO"] * 3, "OOOOOOO-"], "O")
    assert GAME.legal_moves(state) == [PASS]  # white cannot use h8, black can
    black_to_move = GAME.play(state, PASS)
    assert GAME.legal_moves(black_to_move) == [parse_square("h8")]
    end = GAME.play(black_to_move, parse_square("h8"))
    assert GAME.is_terminal(end)
    assert GAME.legal_moves(end) == []
    assert GAME.disc_counts(end) == (39, 25)  # h8 flips h5-h7 and e5-f6-g7, not rank 8
    assert GAME.utility(end, 0) == 1.0
    draw = board([*["XXXXXXXX"] * 4, *["OOOOOOOO"] * 4], "X")
    assert GAME.is_terminal(draw)
    assert GAME.utility(draw, 0) == GAME.utility(draw, 1) == 0.0
    with pytest.raises(IllegalMoveError, match="the game is over"):
        GAME.parse_move(draw, "pass")


def test_an_early_wipe_out_ends_the_game() -> None:
    # A known 9-move game in which black captures every white disc.
    state = GAME.parse_position("e6 f4 e3 f6 g5 d6 e7 f5 c5")
    assert GAME.is_terminal(state)
    assert GAME.disc_counts(state) == (13, 0)
    assert GAME.utility(state, 0) == 1.0


def test_notation() -> None:
    assert format_square(0) == "a1"
    assert format_square(63) == "h8"
    assert parse_square("D3") == 19
    assert format_square(PASS) == "pass"
    with pytest.raises(ParseError, match="square a1-h8"):
        parse_square("i9")
    compact = GAME.parse_position("f5d6c3d3c4")
    spaced = GAME.parse_position("F5, d6 c3 d3 c4")
    assert compact == spaced
    text = GAME.format_position(compact)
    assert len(text) == 66
    assert text.endswith(" O")
    assert GAME.parse_position(text) == compact
    assert GAME.parse_position("") == GAME.initial_state()


def test_position_errors() -> None:
    with pytest.raises(IllegalMoveError, match="move 2 of the POSITION"):
        GAME.parse_position("f5 f5")
    with pytest.raises(ParseError, match="expected a square"):
        GAME.parse_position("f5 zz")
    with pytest.raises(ParseError, match="64 characters"):
        GAME.parse_position("XO-- X")
    with pytest.raises(ParseError, match="64 characters"):
        GAME.parse_position("-" * 64)  # no side to move


def test_render() -> None:
    lines = GAME.render(GAME.initial_state()).splitlines()
    assert lines[0] == "  a b c d e f g h"
    assert lines[4] == "4 . . . O X . . ."
    assert lines[5] == "5 . . . X O . . ."
    assert lines[-1] == "X 2 - O 2, X (black) to move"


def test_evaluation_values_corners_and_is_zero_sum() -> None:
    corner = board(["X-------", "-O------", "--OX----", *[EMPTY] * 5], "O")
    no_corner = board(["--------", "-O------", "--OX----", "X-------", *[EMPTY] * 4], "O")
    assert GAME.evaluate(corner, 0) > GAME.evaluate(no_corner, 0)
    state = GAME.parse_position("f5d6")
    assert GAME.evaluate(state, 0) == -GAME.evaluate(state, 1)


def test_corners_come_first_in_move_order() -> None:
    state = board(["-OOOOOX-", *["--------"] * 6, "--------"], "X")
    moves = GAME.legal_moves(state)
    assert moves[0] == parse_square("a1")


def test_the_engine_takes_a_free_corner() -> None:
    state = board(["-OOOOOX-", "--------", *[EMPTY] * 6], "X")
    result = search(GAME, state, limits=Limits(depth=2))
    assert result.best_move == parse_square("a1")
