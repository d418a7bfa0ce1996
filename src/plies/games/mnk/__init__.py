"""The m,n,k-games' home (tic-tac-toe is 3,3,3): their rules and native port.

* :mod:`._rules`: the games on bitboards (:class:`MNKGame`);
* :mod:`._native`: the rules in the native game protocol, boards of up to 63 cells
  (loaded, with Numba, when :meth:`MNKGame.native` is first called);
* :mod:`._view`: the board the game room draws (:meth:`MNKGame.board`).
"""

from plies.games.mnk._rules import MNKGame, MNKState

__all__ = ["MNKGame", "MNKState"]
