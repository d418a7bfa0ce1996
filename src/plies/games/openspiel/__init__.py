"""OpenSpiel's games' home: the adapter of any OpenSpiel game (needs ``pyspiel``).

* :mod:`._rules`: the adapter (:class:`OpenSpielGame`) and :func:`load`.
"""

from plies.games.openspiel._rules import (
    MARKOV_TEXT,
    MAX_ACTIONS,
    MAX_GAME_LENGTH,
    OpenSpielGame,
    SpielState,
    load,
)

__all__ = ["MARKOV_TEXT", "MAX_ACTIONS", "MAX_GAME_LENGTH", "OpenSpielGame", "SpielState", "load"]
