"""Pig's home: the dice game's rules (a chance game: no native port).

* :mod:`._rules`: the game (:class:`Pig`), chance nodes for the die.
"""

from plies.games.pig._rules import HOLD, ROLL, Pig, PigMove, PigState

__all__ = ["HOLD", "ROLL", "Pig", "PigMove", "PigState"]
