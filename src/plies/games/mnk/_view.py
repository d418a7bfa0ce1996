"""The m,n,k board as the game room draws it: cells row by row from the position
text, and the cell each move (a cell number, 1 at the top left) stands for."""

from __future__ import annotations

from typing import TYPE_CHECKING

from plies.game import Board, Cell

if TYPE_CHECKING:
    from plies.games.mnk._rules import MNKGame, MNKState

__all__ = ["PLAYER_NAMES", "mnk_board"]

#: What the room calls the two sides.
PLAYER_NAMES = ("X", "O")
#: The room's cell letters: ``x``, ``o`` and ``.`` for an empty cell.
_CELLS = str.maketrans("XO-", "xo.")


def mnk_board(game: MNKGame, state: MNKState) -> Board:
    """The board of ``state`` (any size), each move's one cell."""
    rows = [row.translate(_CELLS) for row in game.format_position(state).split("/")]
    width, height = len(rows[0]), len(rows)

    def cell(move: str) -> list[Cell]:
        index = int(move) - 1 if move.isascii() and move.isdigit() else -1
        return [divmod(index, width)] if 0 <= index < width * height else []

    return Board(rows, "marks", cells_of=cell)
