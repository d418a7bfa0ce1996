"""Solving a position of a game, and what an opening book knows of one: as the shells
run them.

:func:`solve_position` finds the exact value of a position within a
:class:`SolveOptions` (with ``quick``, an easy position is answered by the Python
solver before the native one loads); :func:`solve_record` is its JSON form and
:func:`score_token` its one word in a batch. :func:`open_book`, :func:`book_answer`
and :func:`book_record` are the look-ups of ``--book``.

>>> from plies.lab import load_game
>>> game, state = load_game("tictactoe", "1 4 2 3")
>>> solved = solve_position(game, state, SolveOptions(moves="all"))
>>> record = solve_record(game, state, solved)
>>> record["result"], record["distance"], record["best_moves"]
('win', 3, ['5'])
>>> score_token(game, state, solved)
'win:3'
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from plies._arguments import need_bool, need_choice, need_int, need_object
from plies.engine import (
    BACKENDS,
    Limits,
    NativeTable,
    SolveResult,
    StopRequest,
    TranspositionTable,
    solve,
    table_for,
    warm_up,
)
from plies.engine.native import DEFAULT_ENTRIES as NATIVE_TABLE_ENTRIES
from plies.engine.native import SEARCH_ENTRIES, has_port
from plies.errors import SearchError
from plies.game import BaseGame
from plies.lab._text import format_line, format_score, score_of

if TYPE_CHECKING:  # plies.book (SQLite, and the cluster its builder uses): on first use
    from plies.book import Book

__all__ = [
    "DEFAULT_TABLE_ENTRIES",
    "MIN_TABLE_ENTRIES",
    "NATIVE_TABLE_ENTRIES",
    "QUICK_NODES",
    "SEARCH_ENTRIES",
    "SOLVE_MOVES",
    "SolveOptions",
    "SolveResult",
    "SolverTable",
    "book_answer",
    "book_record",
    "exact_score",
    "open_book",
    "score_token",
    "solve_position",
    "solve_record",
    "solver_table",
    "warm_solver",
]

#: Default transposition-table size of the Python solver, in entries (about 130
#: bytes each on CPython); the native backend's is Pons' (a prime near 2**23 for
#: Connect Four, :data:`NATIVE_TABLE_ENTRIES`; :data:`SEARCH_ENTRIES` for the others).
DEFAULT_TABLE_ENTRIES = 1 << 20
#: The smallest table a solver accepts.
MIN_TABLE_ENTRIES = 16
#: Nodes the Python solver is given on a single position before the native one loads
#: (about 10 ms; see :func:`solve_position`'s ``quick``).
QUICK_NODES = 2_000
#: What a solve finds besides the value (:attr:`SolveOptions.moves`).
SOLVE_MOVES = ("all", "line", "best", "none")

#: A solver's table, kept between the solves of a batch (:func:`solver_table`).
SolverTable = TranspositionTable | NativeTable


@dataclass(frozen=True)
class SolveOptions:
    """How to solve a position: ``weak`` decides only win, draw or loss; ``moves``
    what to find besides the value (one of :data:`SOLVE_MOVES`, see
    :func:`plies.engine.solve`); the ``backend`` (None: native where the game has a
    port) and its ``table_size`` in entries (None: the backend's default); ``nodes``
    and ``time`` give up on the position after that many nodes or seconds."""

    weak: bool = False
    moves: str = "line"
    backend: str | None = None
    table_size: int | None = None
    nodes: int | None = None
    time: float | None = None

    def __post_init__(self) -> None:
        need_bool(self.weak, "weak")
        need_choice(self.moves, "moves", SOLVE_MOVES)
        if self.backend is not None:
            need_choice(self.backend, "backend", BACKENDS)
        if self.table_size is not None:
            need_int(self.table_size, "table size", minimum=MIN_TABLE_ENTRIES)
        Limits(nodes=self.nodes, time=self.time)  # checks them

    @property
    def limits(self) -> Limits:
        """The node and time limits of each solve."""
        return Limits(nodes=self.nodes, time=self.time)


def solver_table(game: BaseGame[Any, Any], options: SolveOptions) -> SolverTable:
    """A new table of the backend ``options`` pick for ``game``, of their
    ``table_size`` (an explicit ``native`` for a game without a native port is a
    :class:`~plies.errors.SearchError`)."""
    need_object(options, SolveOptions, "options")
    return table_for(game, options.backend, options.table_size)


def warm_solver(game: BaseGame[Any, Any], table: SolverTable, options: SolveOptions) -> None:
    """Load what solving ``game`` on ``table`` needs, once per process
    (:func:`plies.engine.warm_up`)."""
    need_object(options, SolveOptions, "options")
    warm_up(game, table, weak=options.weak)


def solve_position(
    game: BaseGame[Any, Any],
    state: Any,
    options: SolveOptions | None = None,
    *,
    table: SolverTable | None = None,
    stop: StopRequest | None = None,
    progress: Callable[[int], None] | None = None,
    quick: bool = False,
) -> SolveResult:
    """The exact value of ``state`` within ``options`` (:func:`plies.engine.solve`),
    on ``table`` (default: a new :func:`solver_table`). ``quick``: where no backend,
    node limit or table size is given and Numba is not loaded yet (loading it and a
    kernel takes half a second), the Python solver tries :data:`QUICK_NODES` nodes
    first, so an easy position is answered at once. A limit or ``stop`` reached
    before the value is known raises :class:`~plies.errors.SearchError`."""
    options = SolveOptions() if options is None else options
    need_object(options, SolveOptions, "options")
    need_bool(quick, "quick")
    solved = _quick(game, state, options, stop) if quick else None
    if solved is not None:
        return solved
    return solve(
        game,
        state,
        table=table if table is not None else solver_table(game, options),
        limits=options.limits,
        stop=stop,
        progress=progress,
        weak=options.weak,
        moves=options.moves,
    )


def _quick(
    game: BaseGame[Any, Any], state: Any, options: SolveOptions, stop: StopRequest | None
) -> SolveResult | None:
    """The Python solver's answer within :data:`QUICK_NODES` nodes, or None (see
    :func:`solve_position`'s ``quick``)."""
    if options.backend or options.nodes or options.table_size or "numba" in sys.modules:
        return None
    if not has_port(game):  # Python solves it anyway: no head start to give
        return None
    try:
        return solve(
            game,
            state,
            limits=Limits(nodes=QUICK_NODES, time=options.time),
            stop=stop,
            weak=options.weak,
            moves=options.moves,
            backend="python",
        )
    except SearchError:  # too hard for a quick answer (or stopped: the caller sees it)
        return None


def exact_score(game: BaseGame[Any, Any], state: Any, solved: SolveResult) -> int | None:
    """The game's own score of a solved position (Connect Four's, Pons'; its sign for
    a weak solve), or None when the game keeps no score of its own. A draw's distance
    does not matter."""
    need_object(game, BaseGame, "game")
    need_object(solved, SolveResult, "solved")
    score = game.exact_score(state, solved.result, solved.distance or 0)
    if score is None or not solved.weak:
        return score
    return {"win": 1, "draw": 0, "loss": -1}[solved.result]


def score_token(game: BaseGame[Any, Any], state: Any, solved: SolveResult) -> str:
    """The one-word score of a solved position, as ``solve --batch`` writes it.

    The game's own score (Connect Four: Pons'), else ``win:N``, ``draw`` or ``loss:N``
    (N plies to the end); for a weak solve 1, 0 or -1 (or win, draw, loss).
    """
    score = exact_score(game, state, solved)
    if score is not None:
        return str(score)
    return format_score(solved.score, "token")


def solve_record(
    game: BaseGame[Any, Any], state: Any, solved: SolveResult, *, position: str = ""
) -> dict[str, Any]:
    """The JSON object of a solved position; ``position`` is the POSITION as typed
    (echoed as given: a game may rebuild another move order), else the game writes it."""
    need_object(solved, SolveResult, "solved")
    stats = solved.stats
    return {
        "game": game.name,
        "position": position or game.format_position(state),
        "result": solved.result,
        "distance": solved.distance,
        "score": exact_score(game, state, solved),
        "weak": solved.weak,
        "utility": solved.utility,
        "best_move": (
            game.format_move(state, solved.best_move) if solved.best_move is not None else None
        ),
        "best_moves": [game.format_move(state, move) for move in solved.best_moves],
        "pv": format_line(game, state, solved.pv),
        "backend": solved.backend,
        "nodes": stats.nodes,
        "nps": round(stats.nps),
        "time": round(stats.time, 6),
    }


# -- opening books ----------------------------------------------------------------------


def open_book(path: str | Path, game: BaseGame[Any, Any] | None = None) -> Book:
    """The opening book at ``path`` (:class:`plies.book.Book`), of ``game`` when given;
    a missing, corrupt or other game's book is a one-line :class:`~plies.errors.PliesError`."""
    from plies.book import Book

    return Book.open(path, game)


def book_answer(book: Book, state: Any, options: SolveOptions | None = None) -> SolveResult | None:
    """What ``book`` knows of ``state`` (or its mirror image) with ``options``'
    ``moves`` and ``weak``, or None where it does not hold it; counted in the book's
    ``asked`` and ``answered``."""
    from plies.book import Book

    need_object(book, Book, "book")
    options = SolveOptions() if options is None else options
    need_object(options, SolveOptions, "options")
    return book.answer(state, moves=options.moves, weak=options.weak)


def book_record(game: BaseGame[Any, Any], state: Any, book: Book) -> dict[str, Any] | None:
    """The JSON object of a position ``plies analyze --book`` answers (its exact score
    in :func:`~plies.lab.analysis_record`'s form, with the book's line and ``book``, its path),
    or None where the book does not know its best move."""
    from plies.book import Book

    need_object(book, Book, "book")
    solved = book.answer(state, moves="best")
    if solved is None:
        return None
    moves, _ = book.line(state)
    pv = format_line(game, state, moves)
    return {
        "depth": None,
        "score": solved.value + 0.0,
        "score_text": format_score(score_of(game, solved), "info"),
        "result": solved.result,
        "distance": solved.distance,
        "best_move": pv[0] if pv else None,
        "pv": pv,
        "nodes": 0,
        "book": str(book.path),
    }
