"""The Rolit board as the game room draws it: 8 rows of ``r``/``y``/``g``/``b`` discs
from the position text (rank 1 on top), files a-h and ranks 1-8, and the square each
move (``d3``) stands for."""

from __future__ import annotations

from typing import TYPE_CHECKING

from plies.game import Board, Cell
from plies.games.text import move_index

if TYPE_CHECKING:
    from plies.games.rolit._rules import Rolit, RolitState

__all__ = ["rolit_board", "square"]

FILES = [chr(ord("a") + i) for i in range(8)]
RANKS = [str(i + 1) for i in range(8)]

#: The room's cells: a colour's letter in lower case, ``.`` for an empty square.
_ROOM_CELLS = str.maketrans("RYGB-", "rygb.")


def rolit_board(game: Rolit, state: RolitState) -> Board:
    """The board of ``state``, rank 1 on top as the position text has it (drawn as
    letters: the room's discs know two colours)."""
    text = game.format_position(state).split()[0].translate(_ROOM_CELLS)
    rows = [text[i : i + 8] for i in range(0, 64, 8)]
    return Board(rows, "marks", FILES, RANKS, cells_of=square)


def square(move: str) -> list[Cell]:
    """The (row, column) a move's text names (``d3``: row 2, column 3), or none."""
    column = ord(move[:1] or "?") - ord("a")
    row = move_index(move[1:])
    return [(row, column)] if 0 <= row < 8 and 0 <= column < 8 else []
