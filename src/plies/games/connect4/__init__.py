"""Connect Four's home: its rules, its native port and Pons' solver.

* :mod:`._rules`: the game on bitboards, any width x height (:class:`Connect4`);
* :mod:`._native`: the rules in the native game protocol (the compiled search and
  exact solver of :mod:`plies.engine.native`, every board size);
* :mod:`._pons`: Pascal Pons' solver compiled with Numba, for boards of 64 bits or
  fewer, and :mod:`._solve`, the port (:class:`Connect4Port`) that solves by it;
* :mod:`._view`: the board the game room draws (:meth:`Connect4.board`).

Only :class:`Connect4` and :class:`Connect4State` are imported here; the native
modules (and Numba) load when :meth:`Connect4.native` is first called.
"""

from plies.games.connect4._rules import Connect4, Connect4State

__all__ = ["Connect4", "Connect4State"]
