"""Chinese Checkers' home: its rules on the star board and its native port.

* :mod:`._star`: the star board's holes, neighbours and corners;
* :mod:`._rules`: the game for 2, 3, 4 or 6 players (:class:`ChineseCheckers`);
* :mod:`._native`: the rules in the native game protocol (loaded, with Numba, when
  :meth:`ChineseCheckers.native` is first called).
"""

from plies.games.chinese_checkers._rules import (
    PASS,
    PLAYER_COUNTS,
    SEATS,
    ChineseCheckers,
    ChineseCheckersMove,
    ChineseCheckersState,
)

__all__ = [
    "PASS",
    "PLAYER_COUNTS",
    "SEATS",
    "ChineseCheckers",
    "ChineseCheckersMove",
    "ChineseCheckersState",
]
