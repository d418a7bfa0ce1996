"""Tic-tac-toe and m,n,k-games: rules and notation."""

from __future__ import annotations

import pytest

from plies.errors import IllegalMoveError, ParseError, PliesError
from plies.games import get_game, parse_game_spec
from plies.games.mnk import MNKGame


def test_cells_are_numbered_row_by_row_from_the_top_left() -> None:
    game = get_game("tictactoe")
    state = game.parse_position("5 1 9")
    assert game.format_position(state) == "o../.x./..x"
    assert game.render(state) == "O 2 3\n4 X 6\n7 8 X"
    assert game.to_move(state) == 1
    assert game.parse_position("519") == state
    assert game.parse_position("5,1,9") == state


def test_board_notation_round_trips() -> None:
    game = get_game("tictactoe")
    for text in ("", "5", "5 1 9 3", "1 4 2 5 3"):
        state = game.parse_position(text)
        assert game.parse_position(game.format_position(state)) == state


def test_lines_win_and_full_board_draws() -> None:
    game = get_game("tictactoe")
    won = game.parse_position("1 4 2 5 3")  # x: 1 2 3
    assert game.is_terminal(won) and game.legal_moves(won) == []
    assert game.utility(won, 0) == 1 and game.utility(won, 1) == -1
    assert game.terminal_value(won) == -1  # o to move has lost
    drawn = game.parse_position("5 1 9 3 2 8 4 6 7")
    assert game.is_terminal(drawn) and game.utility(drawn, 0) == 0
    diagonal = game.parse_position("3 1 5 2 7")  # x: 3 5 7
    assert game.terminal_value(diagonal) == -1


def test_play_never_changes_the_parent() -> None:
    game = get_game("tictactoe")
    state = game.parse_position("5 1")
    before = tuple(state)
    game.play(state, 8)
    assert tuple(state) == before


def test_winning_move_and_ordering() -> None:
    game = get_game("tictactoe")
    assert game.legal_moves(game.initial_state())[0] == 4  # the centre first
    state = game.parse_position("1 4 2 5")
    assert game.winning_move(state) == 2  # cell 3
    assert game.winning_move(game.parse_position("5")) is None


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ("5 5", IllegalMoveError),
        ("0", IllegalMoveError),
        ("10", IllegalMoveError),
        ("a", ParseError),
        ("1 4 2 5 3 6", IllegalMoveError),  # after the game is over
        ("xx./.../...", IllegalMoveError),  # two x, no o
        ("xxx/ooo/...", IllegalMoveError),  # both have a line
        ("xo/..", ParseError),
        ("x?./.../...", ParseError),
    ],
)
def test_bad_positions(text: str, error: type[Exception]) -> None:
    with pytest.raises(error):
        get_game("tictactoe").parse_position(text)


def test_mnk_parameters() -> None:
    game = parse_game_spec("mnk:m=4,n=3,k=3")
    assert isinstance(game, MNKGame) and (game.m, game.n, game.k) == (4, 3, 3)
    state = game.parse_position("1 5 2 6 3")
    assert game.is_terminal(state)
    assert game.format_position(state) == "xxx./oo../...."
    with pytest.raises(PliesError):
        MNKGame(3, 3, 4)
    with pytest.raises(PliesError):
        parse_game_spec("mnk:m=0")
