"""Nim's home: its rules and its native port.

* :mod:`._rules`: the game (:class:`Nim`), any number of heaps;
* :mod:`._native`: the rules in the native game protocol (loaded, with Numba, when
  :meth:`Nim.native` is first called).
"""

from plies.games.nim._rules import Nim, NimMove, NimState

__all__ = ["Nim", "NimMove", "NimState"]
