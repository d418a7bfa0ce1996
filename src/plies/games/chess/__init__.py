"""Chess's home (needs the ``chess`` extra, python-chess): rules and evaluation.

* :mod:`._rules`: the game over python-chess's boards (:class:`Chess`);
* :mod:`._eval`: the pawn-structure and king-shield terms of its evaluation;
* :mod:`._reasons`: why a move text is not legal (for error messages only);
* :mod:`._view`: the board the game room draws (:meth:`Chess.board`).

Without python-chess the module still imports; :data:`MISSING` says why the game
cannot be made.
"""

from plies.games.chess._rules import MISSING, Chess, ChessState

__all__ = ["MISSING", "Chess", "ChessState"]
