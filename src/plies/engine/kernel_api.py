"""The engine's building blocks for compiled kernels and game ports.

:mod:`plies.engine.native` (the generic kernel, its runner) and the games' native
ports (Connect Four's Pons solver in its home ``games/connect4``, the rules of
Othello, checkers...) build on the Python engine: its limits, stop requests, result
types, score scale and the exact solver's narrowing. They import these names from
here, never from the engine's private modules, so the engine can rearrange its
modules without breaking a port:

* limits and stopping: :class:`Limits`, :data:`MAX_PLY`, :data:`StopRequest`,
  :func:`stop_callable`, :func:`deadline_of`, :data:`CHECK_GAP` (the longest wished
  time between two looks at the clock), :func:`solve_stopped` (the error of a solve
  cut short);
* results: :class:`SearchResult`, :class:`SearchStats`, :class:`SolveResult` and
  :func:`solve_result` (a solve's result from its value, moves and line, as either
  backend reports it);
* scores: :data:`WIN`, :data:`WIN_THRESHOLD`, :func:`terminal_score`;
* the exact solver: :func:`score_bounds` and :func:`narrow` (the exact value from
  null-window probes), :func:`best_moves_and_line` (which moves keep the value, and
  the line: the one rule every solver follows), :func:`overrides` (whether a game
  overrides a hook).

Importing this module imports no game and neither Numba nor NumPy.
"""

from plies.engine._context import CHECK_GAP, StopRequest, deadline_of, solve_stopped, stop_callable
from plies.engine._exact import best_moves_and_line, narrow, score_bounds
from plies.engine._limits import MAX_PLY, Limits
from plies.engine._negamax import overrides
from plies.engine._result import SearchResult, SearchStats, SolveResult
from plies.engine._scores import WIN, WIN_THRESHOLD, terminal_score
from plies.engine._search import solve_result

__all__ = [
    "CHECK_GAP",
    "MAX_PLY",
    "WIN",
    "WIN_THRESHOLD",
    "Limits",
    "SearchResult",
    "SearchStats",
    "SolveResult",
    "StopRequest",
    "best_moves_and_line",
    "deadline_of",
    "narrow",
    "overrides",
    "score_bounds",
    "solve_result",
    "solve_stopped",
    "stop_callable",
    "terminal_score",
]
