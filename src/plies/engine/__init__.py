"""The game-search engine: search any :class:`~plies.game.BaseGame`.

One call, :func:`search`, runs iterative deepening with the chosen algorithm (PVS by
default; also negamax alpha-beta, MTD(f), and the textbook minimax/expectiminimax and
alpha-beta) and returns a :class:`SearchResult`. :func:`iterate` yields one result per
completed depth; :func:`solve` returns the exact value with the distance to the end,
by the Python solver or, for games with a native port (Connect Four, m,n,k, Nim,
Othello, checkers), a compiled one (``backend=``; see :mod:`plies.engine.native`).

:func:`mcts` searches by Monte-Carlo tree search instead (UCT with MCTS-Solver and
chance nodes, seeded) and returns an :class:`MctsResult` with each root move's visits
and value.

Games of more than two players (``num_players``) are searched by :func:`maxn`,
:func:`paranoid` and :func:`best_reply` (Best-Reply Search), which return a
:class:`MultiResult`; :func:`search` and :func:`solve` take two-player games only.

>>> from plies.engine import Limits, search, solve
>>> from plies.games import get_game
>>> game = get_game("tictactoe")
>>> solve(game, game.initial_state()).result
'draw'
>>> search(game, game.parse_position("1 2 5 9"), limits=Limits(depth=3)).score_text
'win in 3'

A result's ``score`` is a :class:`Score`: what the number means (a heuristic value,
a win or loss in N plies, a draw, or an expected utility in games with chance), with
its text, order, UCI form and JSON form.
"""

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from plies.engine._context import CHECK_EVERY, CHECK_GAP, StopRequest
    from plies.engine._limits import Limits
    from plies.engine._mcts import (
        DEFAULT_ITERATIONS,
        PLAYOUTS,
        MctsMove,
        MctsOptions,
        MctsResult,
        MctsTree,
        mcts,
    )
    from plies.engine._mcts import native_problem as mcts_native_problem
    from plies.engine._multi import (
        MULTI_ALGORITHMS,
        MultiResult,
        best_reply,
        choose_multi_backend,
        format_multi_value,
        iterate_multi,
        maxn,
        multi_search,
        paranoid,
    )
    from plies.engine._negamax import CHANCE_MODES
    from plies.engine._result import SearchResult, SearchStats, SolveResult
    from plies.engine._scores import (
        SCORE_KINDS,
        WIN,
        WIN_THRESHOLD,
        Score,
        ScoreKind,
        describe_score,
        score_distance,
        score_outcome,
    )
    from plies.engine._search import (
        ALGORITHMS,
        BACKENDS,
        DEFAULT_ALGORITHM,
        MAX_PLY,
        choose_backend,
        fallback_reason,
        iterate,
        search,
        solve,
        table_for,
        warm_up,
    )
    from plies.engine._table import TranspositionTable
    from plies.engine.native import NativeTable

__all__ = [
    "ALGORITHMS",
    "BACKENDS",
    "CHANCE_MODES",
    "CHECK_EVERY",
    "CHECK_GAP",
    "DEFAULT_ALGORITHM",
    "DEFAULT_ITERATIONS",
    "MAX_PLY",
    "MULTI_ALGORITHMS",
    "PLAYOUTS",
    "SCORE_KINDS",
    "WIN",
    "WIN_THRESHOLD",
    "Limits",
    "MctsMove",
    "MctsOptions",
    "MctsResult",
    "MctsTree",
    "MultiResult",
    "NativeTable",
    "Score",
    "ScoreKind",
    "SearchResult",
    "SearchStats",
    "SolveResult",
    "StopRequest",
    "TranspositionTable",
    "best_reply",
    "choose_backend",
    "choose_multi_backend",
    "describe_score",
    "fallback_reason",
    "format_multi_value",
    "iterate",
    "iterate_multi",
    "maxn",
    "mcts",
    "mcts_native_problem",
    "multi_search",
    "paranoid",
    "score_distance",
    "score_outcome",
    "search",
    "solve",
    "table_for",
    "warm_up",
]

#: Every name by the module that makes it, imported on first use (PEP 562): so that
#: ``import plies.engine`` (and ``plies.engine.native``, which imports its parent first)
#: loads no search, and a one-off solve loads the solver's modules, not MCTS's or the
#: N-player searches' (0.03 s of a fresh process's start-up).
_LAZY_MODULES: dict[str, tuple[str, ...]] = {
    "plies.engine._context": (
        "CHECK_EVERY",
        "CHECK_GAP",
        "StopRequest",
    ),
    "plies.engine._limits": ("Limits",),
    "plies.engine._mcts": (
        "DEFAULT_ITERATIONS",
        "PLAYOUTS",
        "MctsMove",
        "MctsOptions",
        "MctsResult",
        "MctsTree",
        "mcts",
    ),
    "plies.engine._multi": (
        "MULTI_ALGORITHMS",
        "MultiResult",
        "best_reply",
        "choose_multi_backend",
        "format_multi_value",
        "iterate_multi",
        "maxn",
        "multi_search",
        "paranoid",
    ),
    "plies.engine._negamax": ("CHANCE_MODES",),
    "plies.engine._result": (
        "SearchResult",
        "SearchStats",
        "SolveResult",
    ),
    "plies.engine._scores": (
        "SCORE_KINDS",
        "WIN",
        "WIN_THRESHOLD",
        "Score",
        "ScoreKind",
        "describe_score",
        "score_distance",
        "score_outcome",
    ),
    "plies.engine._search": (
        "ALGORITHMS",
        "BACKENDS",
        "DEFAULT_ALGORITHM",
        "MAX_PLY",
        "choose_backend",
        "fallback_reason",
        "iterate",
        "search",
        "solve",
        "table_for",
        "warm_up",
    ),
    "plies.engine._table": ("TranspositionTable",),
    "plies.engine.native": ("NativeTable",),
}
_LAZY = {name: (module, name) for module, names in _LAZY_MODULES.items() for name in names}
_LAZY["mcts_native_problem"] = ("plies.engine._mcts", "native_problem")


def __getattr__(name: str) -> Any:
    """A name of :data:`_LAZY`, its module imported when first asked for."""
    if name not in _LAZY:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    module, attribute = _LAZY[name]
    value = getattr(importlib.import_module(module), attribute)
    globals()[name] = value  # asked once
    return value
