"""The Othello board as the game room draws it: 8 rows from the position text, files
a-h and ranks 1-8, and the square each move (``d3``) stands for."""

from __future__ import annotations

from typing import TYPE_CHECKING

from plies.game import Board, Cell
from plies.games.text import ROOM_CELLS, move_index

if TYPE_CHECKING:
    from plies.games.othello._rules import Othello, OthelloState

__all__ = ["PLAYER_NAMES", "othello_board"]

#: What the room calls the two sides.
PLAYER_NAMES = ("X (black)", "O (white)")
FILES = [chr(ord("a") + i) for i in range(8)]
RANKS = [str(i + 1) for i in range(8)]


def othello_board(game: Othello, state: OthelloState) -> Board:
    """The board of ``state``, rank 1 on top as the position text has it."""
    text = game.format_position(state).split()[0].translate(ROOM_CELLS)
    rows = [text[i : i + 8] for i in range(0, 64, 8)]
    return Board(rows, "discs", FILES, RANKS, cells_of=square)


def square(move: str) -> list[Cell]:
    """The (row, column) a move's text names (``d3``: row 2, column 3), or none."""
    column = ord(move[:1] or "?") - ord("a")
    row = move_index(move[1:])
    return [(row, column)] if 0 <= row < 8 and 0 <= column < 8 else []
