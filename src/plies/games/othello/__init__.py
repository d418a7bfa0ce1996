"""Othello's home: its rules and its native port.

* :mod:`._rules`: the game on two 64-bit bitboards (:class:`Othello`);
* :mod:`._native`: the rules in the native game protocol (loaded, with Numba, when
  :meth:`Othello.native` is first called);
* :mod:`._view`: the board the game room draws (:meth:`Othello.board`).
"""

from plies.games.othello._rules import PASS, Othello, OthelloState, format_square, parse_square

__all__ = ["PASS", "Othello", "OthelloState", "format_square", "parse_square"]
