"""The view hooks of the game protocol (player_names, board, tree_picture): every
built-in game with a board draws it in its home, the room and the tree lab only ask."""

from __future__ import annotations

from typing import Any

import pytest

from plies.game import BaseGame, Board
from plies.games import get_game
from plies.lab import Room, open_room, read_game_tree, room_state
from plies.testing import check_game

BOARDS = {
    "tictactoe": ("marks", ("X", "O")),
    "connect4": ("discs", ("X (red)", "O (yellow)")),
    "othello": ("discs", ("X (black)", "O (white)")),
    "chess": ("chess", ("White", "Black")),
    "checkers": ("checkers", ("Black", "White")),
}


@pytest.mark.parametrize("name", sorted(BOARDS))
def test_each_board_game_names_its_players_and_draws_its_board(name: str) -> None:
    game = get_game(name)
    kind, players = BOARDS[name]
    board = game.board(game.initial_state())
    assert board is not None
    assert (board.kind, game.player_names()) == (kind, players)
    assert len(set(map(len, board.rows))) == 1
    assert room_state(open_room(name))["players"] == list(players)


@pytest.mark.parametrize("name", ["nim", "pig"])
def test_games_without_a_board_say_none(name: str) -> None:
    game = get_game(name)
    state = game.initial_state()
    assert (game.player_names(), game.board(state), game.tree_picture(state)) == (None, None, None)
    document = room_state(open_room(name))
    assert (document["players"], document["board"]) == (["player 1", "player 2"], None)


def test_a_move_stands_for_its_cells_in_the_games_own_terms() -> None:
    connect4 = get_game("connect4")
    board = connect4.board(connect4.initial_state())
    assert board is not None
    assert list(board.cells_of("3")) == [(row, 2) for row in range(6)]
    assert list(board.cells_of("8")) == []
    othello = get_game("othello")
    board = othello.board(othello.initial_state())
    assert board is not None
    assert (list(board.cells_of("d3")), list(board.cells_of("pass"))) == ([(2, 3)], [])


def test_checkers_draws_its_own_tree_pictures() -> None:
    checkers = get_game("checkers")
    start = checkers.initial_state()
    board = checkers.board(start)
    assert board is not None
    assert checkers.tree_picture(start) == list(board.rows)
    assert read_game_tree("checkers", depth=1).pictures[0] == list(board.rows)


class Dots(BaseGame[tuple[int, ...], int]):
    """Two players fill three dots; who fills the last one wins."""

    name = "dots"

    def initial_state(self) -> tuple[int, ...]:
        return ()

    def to_move(self, state: tuple[int, ...]) -> int:
        return len(state) % 2

    def legal_moves(self, state: tuple[int, ...]) -> list[int]:
        return [] if len(state) == 3 else [d for d in (1, 2, 3) if d not in state]

    def play(self, state: tuple[int, ...], move: int) -> tuple[int, ...]:
        if move not in self.legal_moves(state):
            from plies.errors import IllegalMoveError

            raise IllegalMoveError(f"dots: {move!r} is not free")
        return (*state, move)

    def is_terminal(self, state: tuple[int, ...]) -> bool:
        return len(state) == 3

    def utility(self, state: tuple[int, ...], player: int) -> float:
        return 1.0 if player == 0 else -1.0  # the first player fills the third dot

    def player_names(self) -> tuple[str, str]:
        return ("Red", "Blue")

    def board(self, state: tuple[int, ...]) -> Board:
        row = "".join("xo"[state.index(d) % 2] if d in state else "." for d in (1, 2, 3))
        return Board([row], cells_of=lambda text: [(0, int(text) - 1)])


def test_a_game_of_ones_own_is_drawn_through_its_hooks() -> None:
    game: Any = Dots()
    check_game(game)
    document = room_state(Room(game, (game.play((), 2),), (), ()))
    assert document["players"] == ["Red", "Blue"]
    assert document["board"]["rows"] == [".x."]
    assert [entry["cells"] for entry in document["legal"]] == [[[0, 0]], [[0, 2]]]
