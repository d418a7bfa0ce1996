"""The checkers board as the game room and the tree lab draw it: 8 rows of 8 squares,
Black's side (squares 1-4) at the top as the squares are numbered, the numbers on the
dark squares, and each move's squares landed on and the pieces it captures."""

from __future__ import annotations

from itertools import pairwise
from typing import Any

from plies.game import Board, Cell
from plies.games.checkers._rules import CheckersState, square_bit

__all__ = ["PLAYER_NAMES", "checkers_board", "checkers_cell", "checkers_rows"]

#: What the room calls the two sides.
PLAYER_NAMES = ("Black", "White")


def checkers_cell(square: int) -> Cell:
    """The (row, column) of checkers square 1-32: 1-4 on row 0 (Black's side), square 1
    in column 1."""
    row, index = divmod(square - 1, 4)
    return row, 2 * index + (1 if row % 2 == 0 else 0)


def checkers_rows(state: CheckersState) -> list[str]:
    """The board as 8 rows of 8 characters: ``b``/``w`` men, ``B``/``W`` kings, ``.``
    an empty dark square, ``-`` a light one."""
    rows = [["-"] * 8 for _ in range(8)]
    for square in range(1, 33):
        row, column = checkers_cell(square)
        bit = 1 << square_bit(square)
        piece = "b" if state.black & bit else "w" if state.white & bit else "."
        rows[row][column] = piece.upper() if state.kings & bit else piece
    return ["".join(row) for row in rows]


def _square_numbers() -> list[list[str]]:
    numbers = [[""] * 8 for _ in range(8)]
    for square in range(1, 33):
        row, column = checkers_cell(square)
        numbers[row][column] = str(square)
    return numbers


def move_detail(move: Any) -> dict[str, Any]:
    """A move's ``path`` (the squares it stands on and lands on) and the ``captured``
    cells (the squares jumped over)."""
    path = [checkers_cell(square) for square in move]
    captured = [
        [(r1 + r2) // 2, (c1 + c2) // 2]
        for (r1, c1), (r2, c2) in pairwise(path)
        if abs(r1 - r2) == 2
    ]
    return {"path": [list(cell) for cell in path], "captured": captured}


def checkers_board(state: CheckersState) -> Board:
    """The board of ``state`` with the square numbers and each move's path."""
    return Board(checkers_rows(state), "checkers", detail_of=move_detail, numbers=_square_numbers())
