"""Nim: rules and notation."""

from __future__ import annotations

import pytest

from plies.errors import IllegalMoveError, ParseError, PliesError
from plies.games import get_game
from plies.games.nim import Nim, NimMove


def test_positions_are_heap_sizes() -> None:
    game = get_game("nim")
    assert game.parse_position("").heaps == (3, 4, 5)
    state = game.parse_position("1, 0 7")
    assert state.heaps == (1, 0, 7) and game.to_move(state) == 0
    assert game.format_position(state) == "1,0,7"


def test_moves_take_from_one_heap() -> None:
    game = get_game("nim")
    state = game.parse_position("3,4,5")
    move = game.parse_move(state, "2:3")
    assert move == NimMove(1, 3)
    child = game.play(state, move)
    assert child.heaps == (3, 1, 5) and game.to_move(child) == 1
    assert state.heaps == (3, 4, 5)
    assert game.format_move(state, move) == "2:3"
    assert len(game.legal_moves(state)) == 12


def test_taking_the_last_object_wins() -> None:
    game = get_game("nim")
    state = game.play(game.parse_position("0,2"), NimMove(1, 2))
    assert game.is_terminal(state) and game.legal_moves(state) == []
    assert game.utility(state, game.to_move(state)) == -1
    assert game.utility(state, 1 - game.to_move(state)) == 1
    assert game.winning_move(game.parse_position("0,4,0")) == NimMove(1, 4)
    assert game.winning_move(game.parse_position("1,4")) is None


@pytest.mark.parametrize(
    ("text", "error"), [("3:1", IllegalMoveError), ("1:9", IllegalMoveError), ("x", ParseError)]
)
def test_bad_moves(text: str, error: type[Exception]) -> None:
    game = get_game("nim")
    with pytest.raises(error):
        game.parse_move(game.parse_position("3,4"), text)


@pytest.mark.parametrize("text", ["3,-1", "a,b", "1.5"])
def test_bad_positions(text: str) -> None:
    with pytest.raises((ParseError, PliesError)):
        get_game("nim").parse_position(text)


def test_bad_heaps() -> None:
    with pytest.raises(PliesError):
        Nim(())
    with pytest.raises(PliesError):
        Nim((10**7,))
