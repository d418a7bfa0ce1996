"""Rolit's home: four-player Othello.

* :mod:`._rules`: the game on four 64-bit bitboards (:class:`Rolit`);
* :mod:`._view`: the board the game room draws (:meth:`Rolit.board`).
"""

from plies.games.rolit._rules import (
    COLOURS,
    PLAYERS,
    Rolit,
    RolitState,
    format_square,
    parse_square,
)

__all__ = ["COLOURS", "PLAYERS", "Rolit", "RolitState", "format_square", "parse_square"]
