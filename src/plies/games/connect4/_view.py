"""The Connect Four board as the game room draws it: its picture without the column
numbers, the columns numbered from 1, and a move (a column) standing for its cells."""

from __future__ import annotations

from typing import TYPE_CHECKING

from plies.game import Board, Cell
from plies.games.text import ROOM_CELLS, move_index

if TYPE_CHECKING:
    from plies.games.connect4._rules import Connect4, Connect4State

__all__ = ["PLAYER_NAMES", "connect4_board"]

#: What the room calls the two sides.
PLAYER_NAMES = ("X (red)", "O (yellow)")


def connect4_board(game: Connect4, state: Connect4State) -> Board:
    """The board of ``state`` (any size), top row first; each move is a column."""
    drawn = [row.replace(" ", "") for row in game.render(state).splitlines()]
    rows = [row.translate(ROOM_CELLS) for row in drawn if row and not row.isdigit()]
    width, height = len(rows[0]), len(rows)

    def column(move: str) -> list[Cell]:
        index = move_index(move)
        return [(row, index) for row in range(height)] if 0 <= index < width else []

    return Board(rows, "discs", [str(i + 1) for i in range(width)], cells_of=column)
