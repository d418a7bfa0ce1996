"""The native solve of a Connect Four position: the kernel's score, the moves, limits.

The value comes from Pons' search (:func:`._pons.solve_root`),
best moves and the line from null-window probes of the children on the same table.
Results are the engine's :class:`~plies.engine.SolveResult`, as the Python solver
gives them (the same value, distance, best moves and, in the same move order, line).

Limits and stop requests: see :class:`plies.engine.native.Runner`.
"""

from __future__ import annotations

import functools
import threading
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from plies.engine.native import (
    DEFAULT_ENTRIES,
    KEY_SPARE_BITS,
    SEARCH_ENTRIES,
    KernelStopped,
    NativeTable,
    Runner,
    load,
)
from plies.engine.solver import (
    WIN,
    Limits,
    SearchStats,
    SolveResult,
    StopRequest,
    best_moves_and_line,
    solve_result,
    solve_stopped,
)
from plies.errors import SearchError
from plies.games.connect4._objects import kernel_for, remember_compiled
from plies.games.connect4._probes import ThresholdProbes
from plies.games.connect4._rules import Connect4, Connect4State

__all__ = ["Connect4Port", "solve_connect4"]


class _Kernel:
    """The arrays of one solve and the runner of kernel calls under its limits;
    ``seed`` (odd): a helper's move order (see :mod:`._pons`)."""

    def __init__(
        self,
        game: Connect4,
        table: NativeTable,
        limits: Limits,
        stop: StopRequest | None,
        progress: Callable[[int], None] | None,
        *,
        seed: int = 0,
    ) -> None:
        keys, values, control = table.arrays(game.width * (game.height + 1))
        self.runner = Runner(control, limits, stop, progress)
        # The board's constants and the kernel's scratch rows are the same for every
        # solve of one board size: made once (an easy position's solve took 30 us, 10
        # of them making these).
        board = _board(game.width, game.height, int(keys.itemsize))
        if seed:
            from plies.games.connect4._pons import SEED

            board = board.copy()
            board[SEED] = seed
        #: Pons' kernel functions: plies' cached object code, or Numba's (``_pons``).
        self.kernel = kernel_for(keys, values)
        self.arrays = (keys, values, board, _scratch(game.width, game.height), control)

    @property
    def nodes(self) -> int:
        return self.runner.nodes

    def run(self, function: Any, *args: Any) -> Any:
        """``function(*args, keys, values, board, scratch, control)`` under the
        limits; raises :class:`KernelStopped` when one stops it."""
        return self.runner.run(function, *args, *self.arrays)


@functools.lru_cache(maxsize=32)
def _board(width: int, height: int, key_bytes: int) -> Any:
    """The kernel's read-only constants of a board size: the bottom row, the full
    board, the column height, cells, width, key mask, seed (0), the cells of even rows
    counted from 1 (none on a board of odd height: see ``_pons.claimeven_bound``) and
    column masks centre first."""
    h1 = height + 1
    bottom = sum(1 << (c * h1) for c in range(width))
    order = Connect4(width=width, height=height)
    columns = [((1 << height) - 1) << ((c - 1) * h1) for c in _centre_order(order)]
    key_mask = (1 << (8 * key_bytes - KEY_SPARE_BITS)) - 1
    evens = bottom * sum(2 << row for row in range(0, height, 2)) if height % 2 == 0 else 0
    full = bottom * ((1 << height) - 1)
    board = np.array(
        [bottom, full, h1, width * height, width, key_mask, 0, evens, *columns],
        dtype=np.uint64,
    )
    return board


_SCRATCH = threading.local()  # one set of scratch rows per thread and board size


def _scratch(width: int, height: int) -> Any:
    """The kernel's work rows (a sorter per ply) for this thread, made once."""
    rows: dict[tuple[int, int], Any] = _SCRATCH.__dict__.setdefault("rows", {})
    if (width, height) not in rows:
        rows[width, height] = np.zeros((width * height + 1, 5 * width), np.uint64)
    return rows[width, height]


def _centre_order(game: Connect4) -> tuple[int, ...]:
    """The columns, centre first (the order of legal moves on the empty board)."""
    return tuple(game.legal_moves(game.initial_state()))


def solve_connect4(
    game: Connect4,
    state: Connect4State,
    *,
    table: NativeTable | None,
    limits: Limits,
    stop: StopRequest | None,
    progress: Callable[[int], None] | None,
    weak: bool,
    moves: str,
) -> SolveResult:
    """:func:`plies.engine.solve` of a Connect Four position by the native kernel."""
    started = time.perf_counter()
    spare = table is None and _SPARE_LOCK.acquire(blocking=False)
    if table is None:
        table = _spare_table() if spare else NativeTable()
    if table.busy:
        raise SearchError("this native table is in use by another solve")
    table.busy = True
    try:
        run = _Kernel(game, table, limits, stop, progress)
        if _load(game, state, run, weak=weak):
            started = time.perf_counter()  # the clock counts solving only
        score, best_moves, pv = _search(game, state, run, weak=weak, moves=moves)
    except KernelStopped as exc:
        raise solve_stopped(str(exc), proven=exc.proven, moves=moves) from None
    finally:
        table.busy = False
        if spare:
            _SPARE_LOCK.release()
    stats = SearchStats(nodes=run.nodes, time=time.perf_counter() - started)
    return _result(game, state, score, best_moves, pv, stats, weak=weak, moves=moves)


#: The table array types (keys', values', keys writable) whose kernel functions this process has
#: loaded: asking Numba (``function.signatures``, three of them) cost every solve 9 us
#: of an easy position's 37.
_LOADED: set[tuple[str, str, bool]] = set()


#: The table of the solves given none, kept for the next such solve (one at a time,
#: the others make their own): a new table of 40 MB cost an easy position's one-off
#: solve 0.9 ms (its allocation and the page faults of its first writes), 30x the solve.
_SPARE: list[NativeTable] = []
_SPARE_LOCK = threading.Lock()


def _spare_table() -> NativeTable:
    """The kept table, emptied (made on first use); the caller holds ``_SPARE_LOCK``."""
    if not _SPARE:
        _SPARE.append(NativeTable())
    table = _SPARE[0]
    table.clear()
    return table


def _load(game: Connect4, state: Connect4State, run: _Kernel, *, weak: bool) -> bool:
    """Load Pons' kernel functions (see :func:`plies.engine.native.load`), with the types of
    the real calls, unless this process did for tables of these array types."""
    keys, values = run.arrays[0], run.arrays[1]
    types = (keys.dtype.str, values.dtype.str, bool(keys.flags.writeable))
    if getattr(run.kernel, "preloaded", False):  # mapped from plies' object cache
        fresh, run.kernel.fresh = run.kernel.fresh, False
        return bool(fresh)
    if types in _LOADED:
        return False
    loaded = _load_kernel(game, state, run, weak=weak)
    _LOADED.add(types)
    remember_compiled(keys)  # the next processes load it without Numba
    return loaded


def _load_kernel(game: Connect4, state: Connect4State, run: _Kernel, *, weak: bool) -> bool:
    """:func:`plies.engine.native.load` of the kernel functions a solve calls."""
    position, mask, ply = np.uint64(state.position), np.uint64(state.mask), state.ply
    line = np.zeros(max(game.size - ply, 1), np.uint64)
    found = np.zeros(game.width, np.uint64)
    arrays, kernel = run.arrays, run.kernel
    return load(
        arrays[-1],
        [
            (kernel.solve_root, (position, mask, ply, weak, *arrays)),
            (kernel.principal_line, (position, mask, ply, 0, line, *arrays)),
            (kernel.best_moves, (position, mask, ply, 0, True, found, *arrays)),
        ],
    )


def _search(
    game: Connect4, state: Connect4State, run: _Kernel, *, weak: bool, moves: str
) -> tuple[int, tuple[int, ...], tuple[int, ...]]:
    """``(Pons' score, best moves, line)``; a finished game scores 0 or a loss."""
    if state.won or state.ply == game.size:
        return game.solver_score(state), (), ()
    position, mask, ply = np.uint64(state.position), np.uint64(state.mask), state.ply
    score = int(run.run(run.kernel.solve_root, position, mask, ply, weak))
    try:
        return (score, *_moves(game, state, run, score, weak=weak, moves=moves))
    except KernelStopped as exc:
        exc.proven = True
        raise


def _moves(
    game: Connect4, state: Connect4State, run: _Kernel, score: int, *, weak: bool, moves: str
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """``(best moves, line)`` as ``moves`` asks, in the order the Python solver uses
    (:func:`plies.engine.solver.best_moves_and_line`'s rule on Pons' scores)."""
    position, mask, ply = np.uint64(state.position), np.uint64(state.mask), state.ply
    h1 = game.height + 1

    def line(value: int) -> tuple[int, ...]:
        cells = np.zeros(game.size - ply, np.uint64)
        length = run.run(run.kernel.principal_line, position, mask, ply, value, cells)
        return tuple(_column(int(cell), h1) for cell in cells[:length])

    def reaching(target: int, first_only: bool) -> tuple[int, ...]:
        found = np.zeros(game.width, np.uint64)
        count = run.run(run.kernel.best_moves, position, mask, ply, target, first_only, found)
        return tuple(_column(int(cell), h1) for cell in found[:count])

    # A weak score is a bound of the right sign, not always 1 for a win (fail-soft):
    # a weak best move reaches any win (1), any draw (0), or anything (-size).
    value = score if not weak else (score > 0) - (score < 0)
    return best_moves_and_line(
        value, weak=weak, moves=moves, floor=-game.size, line=line, reaching=reaching
    )


def _column(cell: int, h1: int) -> int:
    """The 1-based column of a one-bit cell."""
    return (cell.bit_length() - 1) // h1 + 1


def _result(  # noqa: PLR0917
    game: Connect4,
    state: Connect4State,
    score: int,
    best_moves: tuple[int, ...],
    pv: tuple[int, ...],
    stats: SearchStats,
    *,
    weak: bool,
    moves: str,
) -> SolveResult:
    """The :class:`SolveResult` the Python solver gives for Pons' ``score`` (``weak``:
    its sign): :func:`~plies.engine.solver.solve_result` of its engine value."""
    if weak:
        sign = (score > 0) - (score < 0)
        return solve_result(
            sign, best_moves, pv or best_moves[:1], stats, weak=True, moves=moves, backend="native"
        )
    if state.won:  # the game is over: lost, 0 plies away
        result, distance = "loss", 0
    elif state.ply == game.size:
        result, distance = "draw", 0
    else:
        result, distance = game.checked_result_of_score(state, score)
    value = 0 if result == "draw" else WIN - distance if result == "win" else distance - WIN
    return solve_result(value, best_moves, pv, stats, weak=False, moves=moves, backend="native")


class Connect4Port(ThresholdProbes):
    """Connect Four's native port: the exact solve by Pons' kernel where
    ``(height + 1) * width`` bits fit one 64-bit word; the protocol's compiled search
    (PVS, iterative deepening, table) on every board size, and its exact solver on the
    larger boards, through :class:`._native.Connect4Native`. That port is made
    on first use (loading its compiled rules cost a Connect Four solve 0.12 s of
    start-up), and it answers the rest of the protocol's API (``rules``, ``prepare``...).
    Where Pons' kernel takes the board, it declares threshold probes on shared tables
    (:class:`._probes.ThresholdProbes`, for ``plies.cluster``)."""

    tasks = ("search", "solve")

    def __init__(self, game: Connect4) -> None:
        self.game = game
        self.fits = (game.height + 1) * game.width <= 64
        # The entries of the table made when none is given: Pons' size (5 bytes each)
        # for his solver; the protocol's size (33 bytes each) for larger boards.
        self.table_entries = DEFAULT_ENTRIES if self.fits else SEARCH_ENTRIES
        self._rules: Any = None

    def rules_port(self) -> Any:
        """The protocol's port of the game (made once)."""
        if self._rules is None:
            from plies.games.connect4._native import Connect4Native

            self._rules = Connect4Native(self.game)
        return self._rules

    def problem(self, state: Connect4State | None) -> str | None:
        """Every board and position has a port."""
        return None

    def search(self, game: Connect4, state: Connect4State, **options: Any) -> Any:
        """The protocol's compiled search (see ``NativeGame.search``)."""
        return self.rules_port().search(game, state, **options)

    def solve(self, game: Connect4, state: Connect4State, **options: Any) -> SolveResult:
        """:func:`plies.engine.solve` by Pons' kernel, or the protocol's solver for
        boards of more than 64 bits."""
        if self.fits:
            return solve_connect4(game, state, **options)
        return self.rules_port().solve(game, state, **options)  # type: ignore[no-any-return]

    def __getattr__(self, name: str) -> Any:
        """The protocol port's other attributes (the conformance suite's ``rules``,
        ``prepare``, ``encode``...)."""
        if name.startswith("__") or name == "_rules":
            raise AttributeError(name)
        return getattr(self.rules_port(), name)
