"""The m,n,k board as the game room draws it: cells row by row from the position
text, and the cell each move (a cell number, 1 at the top left) stands for."""

from __future__ import annotations

from typing import TYPE_CHECKING

from plies.game import Board, Cell
from plies.games.text import move_index

if TYPE_CHECKING:
    from plies.games.mnk._rules import MNKGame, MNKState

__all__ = ["PLAYER_NAMES", "mnk_board"]

#: What the room calls the two sides.
PLAYER_NAMES = ("X", "O")


def mnk_board(game: MNKGame, state: MNKState) -> Board:
    """The board of ``state`` (any size), each move's one cell (the position text's
    ``x``, ``o`` and ``.`` are the room's letters already)."""
    rows = game.format_position(state).split("/")
    width, height = len(rows[0]), len(rows)

    def cell(move: str) -> list[Cell]:
        index = move_index(move)
        return [divmod(index, width)] if 0 <= index < width * height else []

    return Board(rows, "marks", cells_of=cell)
