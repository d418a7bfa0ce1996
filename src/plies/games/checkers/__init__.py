"""English draughts' home: its rules and its native port.

* :mod:`._rules`: the game on 32-square bitboards (:class:`Checkers`);
* :mod:`._native`: the rules in the native game protocol and a compiled perft (loaded,
  with Numba, when :meth:`Checkers.native` is first called);
* :mod:`._view`: the board the game room and the tree lab draw (:meth:`Checkers.board`,
  :meth:`Checkers.tree_picture`).
"""

from plies.games.checkers._rules import (
    DRAW_MOVES,
    Checkers,
    CheckersMove,
    CheckersState,
    format_path,
    square_bit,
)

__all__ = ["DRAW_MOVES", "Checkers", "CheckersMove", "CheckersState", "format_path", "square_bit"]
