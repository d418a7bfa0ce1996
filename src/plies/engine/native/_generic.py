"""Searching and solving a native game (a :class:`NativeGame` port) with the kernel.

:class:`SearchRun` is the engine's iterative deepening (``plies.engine._search``:
aspiration windows around the previous value, a new table tag per iteration, the
principal variation from the table) driving :func:`_kernel.negamax` one iteration
at a time; :func:`solve_port` finds the exact value with :func:`_kernel.exact`, then
best moves and the line as the Python solver does (the first move in the game's order
that keeps the value). Both return what the Python engine returns. The kernel's
functions are mapped from plies' object cache where it loads (:mod:`._mapped`: no
Numba in the process), else Numba's, whose process writes that cache at exit.
"""

from __future__ import annotations

import itertools
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import Any

import numpy as np

from plies.engine import score_distance
from plies.engine.native import _control as kernel
from plies.engine.native import _mapped
from plies.engine.native._protocol import NativeGame, Prepared
from plies.engine.native._runner import KernelStopped, Runner, compiled, load
from plies.engine.native._table import SEARCH_ENTRIES, NativeTable
from plies.engine.solver import (
    MAX_PLY,
    WIN_THRESHOLD,
    Limits,
    SearchResult,
    SearchStats,
    StopRequest,
    best_moves_and_line,
    deep_table,
    narrow,
    overrides,
    score_bounds,
    solve_stopped,
    terminal_score,
)
from plies.errors import SearchError
from plies.game import BaseGame

__all__ = ["SearchRun", "solve_port"]


_search_ids = itertools.count(1)

INF = float("inf")

#: The depth a search's rows are first made for (:meth:`_Work.fit`); deeper
#: iterations grow them.
FIRST_ROWS_DEPTH = 32


class _Work:
    """The buffers of one native search or solve and the runner of its kernel calls."""

    def __init__(
        self,
        port: NativeGame[Any, Any],
        prepared: Prepared,
        *,
        plies: int,
        table: NativeTable,
        limits: Limits,
        stop: StopRequest | None,
        progress: Callable[[int], None] | None,
    ) -> None:
        self.rules = port.rules()
        self.consts = prepared.consts
        #: The kernel's functions: mapped from plies' object cache, else ``_kernel``'s.
        self.kernel = _kernel_functions()
        has_null, has_extension, has_quiet = port.pruning_hooks()
        self.prepared = prepared
        #: Extensions (of at most a ply a node, up to twice the depth) can make a line
        #: of three times the depth before the horizon.
        self.stretch = 3 if has_extension else 1
        self.states = np.zeros((0, prepared.state.size), np.int64)
        self.moves = np.zeros((0, max(prepared.max_moves, 1)), np.int64)
        self.killers = np.full((0, 2), -1, np.int64)
        self.fit(plies)
        self.history = np.zeros(max(prepared.move_space, 1), np.int64)
        #: The table's arrays are made by this search: no page of them is mapped yet.
        self.fresh_table = table.search is None
        self.native_table = table
        self.table = table.search_arrays()
        self.control = np.zeros(kernel.CONTROL_SIZE, np.int64)
        has_order, has_win, has_forced = port.hooks()
        self.control[kernel.HAS_ORDER] = has_order
        self.control[kernel.HAS_WIN] = has_win
        self.control[kernel.HAS_FORCED] = has_forced
        self.control[kernel.HAS_QUIESCENCE] = port.has_quiescence()
        self.control[kernel.HAS_NULL] = has_null
        self.control[kernel.HAS_EXTENSION] = has_extension
        self.control[kernel.HAS_QUIET] = has_quiet
        self.runner = Runner(self.control, limits, stop, progress)

    def rows_for(self, plies: int) -> int:
        """The state rows a search ``plies`` deep needs: its line with extensions and
        quiescence, within the game's longest line, and a child's row."""
        prepared = self.prepared
        return min(self.stretch * plies + prepared.quiescence_plies, prepared.max_plies) + 2

    def fit(self, plies: int) -> None:
        """Make the rows at least what a search ``plies`` deep needs (:meth:`rows_for`),
        keeping the root's state and the killers. A search without a depth limit grows
        them iteration by iteration: chess's bound for a whole game (13,000 rows, 42
        MB) cost 35 ms of a 50 ms move to allocate, on every move of a UCI game."""
        rows = self.rows_for(plies)
        old = self.states.shape[0]
        if rows <= old:
            return
        states = np.zeros((rows, self.states.shape[1]), np.int64)
        states[0] = self.prepared.state
        killers = np.full((rows, 2), -1, np.int64)
        killers[:old] = self.killers
        self.states, self.killers = states, killers
        self.moves = np.zeros((rows, self.moves.shape[1]), np.int64)

    def stats(self, started: float, ebf: float = 0.0) -> SearchStats:
        """The counters as the engine reports them."""
        c = self.control.tolist()  # one conversion, not one per counter (5 us a call)
        return SearchStats(
            nodes=c[kernel.NODES],
            leaves=c[kernel.LEAVES],
            cutoffs=c[kernel.CUTOFFS],
            first_move_cutoffs=c[kernel.FIRST_CUTOFFS],
            tt_probes=c[kernel.PROBES],
            tt_hits=c[kernel.HITS],
            seldepth=c[kernel.SELDEPTH],
            time=time.perf_counter() - started,
            ebf=ebf,
        )


def _kernel_functions() -> Any:
    """The kernel's functions a search or solve calls: mapped from plies' object
    cache (see :mod:`._mapped`), else ``_kernel``'s (Numba's, whose process then
    writes that cache at exit)."""
    mapped = _mapped.mapped_kernel()
    if mapped is not None:
        return mapped
    from plies.engine.native import _kernel

    _mapped.remember_kernel()
    return _kernel


def _entry(work: _Work, name: str) -> Any:
    """The kernel function ``name`` as the runner calls it: the mapped entry, or
    Numba's compiled entry point (see :func:`~._runner.compiled`)."""
    function = getattr(work.kernel, name)
    return function if isinstance(work.kernel, _mapped.MappedKernel) else compiled(function)


_DEFAULT = threading.local()  # this thread's default table, reused and cleared


def _claim(
    table: NativeTable | None, entries: int, port: NativeGame[Any, Any], prepared: Prepared
) -> NativeTable:
    """``table``, or this thread's default one, cleared (a fresh 35 MB table cost a
    page fault per entry first touched: 3 of the 4 ms of a tic-tac-toe search;
    emptying the reused one, one byte an entry: 0.05 ms), marked busy.

    A given table is cleared too when its entries were written under another key
    space: another port, or root constants that give keys and move ids other
    meanings (Nim packs the heaps in as many bits as the root's largest needs), so
    that a table kept between searches never answers with another position's entry."""
    space = (type(port), np.asarray(prepared.consts).tobytes(), prepared.move_space)
    if table is None:
        table = getattr(_DEFAULT, "table", None)
        if table is None or table.busy:  # none yet, or a paused search holds it
            table = NativeTable(entries)
        _DEFAULT.table = table
        table.clear()
    if table.busy:
        raise SearchError("this native table is in use by another search")
    if table.key_space != space:
        if table.key_space is not None:
            table.clear()
        table.key_space = space
    table.busy = True
    return table


class SearchRun:
    """One native iterative-deepening search (``_search._Run``): :meth:`iterations`
    yields a result per completed depth and sets :attr:`aborted` if a limit hit."""

    def __init__(
        self,
        game: BaseGame[Any, Any],
        state: Any,
        port: NativeGame[Any, Any],
        *,
        limits: Limits,
        algorithm: str,
        table: NativeTable | None,
        use_table: bool,
        ordering: bool,
        aspiration: float | None,
        stop: StopRequest | None,
        progress: Callable[[int], None] | None,
    ) -> None:
        self.game, self.state, self.port = game, state, port
        self.started = time.perf_counter()
        self.algorithm = algorithm
        self.aspiration = aspiration
        self.max_depth = limits.depth if limits.depth is not None else MAX_PLY
        self.options = (limits, stop, progress, use_table, ordering)
        self.table = table if use_table else NativeTable(3)
        self.aborted = False
        self.last: SearchResult | None = None
        self.work: _Work | None = None

    def iterations(self, *, every: bool = True) -> Iterator[SearchResult]:
        """Yield a result per completed depth (the engine's ``_Run.iterations``);
        with ``every`` off, only the last when no limit can cut the search short."""
        game, state, algorithm = self.game, self.state, self.algorithm
        outcome = game.terminal_value(state)
        if outcome is not None:
            stats = SearchStats(time=time.perf_counter() - self.started)
            self.last = SearchResult(
                terminal_score(outcome, 0), None, (), 0, True, True, algorithm, stats
            )
            yield self.last
            return
        limits, stop, progress, use_table, ordering = self.options
        prepared = self.port.prepare(state)
        table = _claim(self.table, SEARCH_ENTRIES, self.port, prepared)
        try:
            work = _Work(
                self.port, prepared, plies=min(self.max_depth, FIRST_ROWS_DEPTH), table=table,
                limits=limits, stop=stop, progress=progress,
            )  # fmt: skip
            self.work = work
            first = self.port.encode_move(prepared, game.legal_moves(state)[0])
            if _load_search(work, first):
                self.started = time.perf_counter()  # the clock counts searching only
            work.control[kernel.PVS] = algorithm == "pvs"
            work.control[kernel.USE_TABLE] = use_table
            work.control[kernel.DEEP_TABLE] = use_table and deep_table(table, algorithm)
            work.control[kernel.ORDERING] = ordering
            # Nothing can end the search before its last depth: the results of the
            # others (a principal variation, counters) need not be made (on
            # tic-tac-toe, 60 of the search's 290 us).
            last_only = not every and not work.runner.watched and limits.nodes is None
            yield from self._deepen(prepared, work, last_only)
        finally:
            table.busy = False

    def _deepen(self, prepared: Prepared, work: _Work, last_only: bool) -> Iterator[SearchResult]:
        control, port = work.control, self.port
        search_id = next(_search_ids) & 0x3FFF
        previous: float | None = None
        previous_nodes = 0
        for depth in range(1, self.max_depth + 1):
            control[kernel.DEPTH_TAG] = (search_id << 48) + (depth << 32)
            control[kernel.ROOT_DEPTH] = depth
            control[kernel.HORIZON] = 0
            control[kernel.ROOT_BEST] = -1
            if work.rows_for(depth) > work.states.shape[0]:
                work.fit(min(2 * depth, self.max_depth))  # doubled: few reallocations
            nodes_before = work.runner.nodes
            try:
                value = _aspirated(work, depth, previous, self.aspiration)
            except KernelStopped:
                self.aborted = True
                unfinished = self._unfinished(prepared, work, depth)
                if unfinished is not None:
                    self.last = unfinished
                    yield unfinished
                return
            iteration_nodes = work.runner.nodes - nodes_before
            ebf = (
                iteration_nodes / previous_nodes
                if previous_nodes
                else iteration_nodes ** (1 / depth)
            )
            exact = bool(control[kernel.HORIZON] == 0)
            if exact or depth == self.max_depth or not last_only:
                root_move = int(control[kernel.ROOT_MOVE])
                best_move = port.decode_move(prepared, root_move) if root_move >= 0 else None
                # A mate proven beyond the depth (an extension): its whole line.
                length = max(depth, score_distance(value) or 0)
                pv = _pv(port, prepared, work, root_move, length) if best_move is not None else ()
                self.last = SearchResult(
                    value, best_move, pv, depth, True, exact, self.algorithm,
                    work.stats(self.started, ebf),
                )  # fmt: skip
                yield self.last
                if exact:
                    return
            previous = value
            previous_nodes = iteration_nodes

    def _unfinished(self, prepared: Prepared, work: _Work, depth: int) -> SearchResult | None:
        """Iteration ``depth``, stopped, when a root move other than the last completed
        iteration's best raised alpha in it (a game with is_quiet; ``_Run._unfinished``)."""
        control = work.control
        move = int(control[kernel.ROOT_BEST])
        if control[kernel.HAS_QUIET] == 0 or move < 0:
            return None
        best_move = self.port.decode_move(prepared, move)
        last = self.last
        if last is not None and best_move == last.best_move:
            return None
        value = 0.0 + int(control[kernel.ROOT_SCORE]) / kernel.ROOT_SCORE_SCALE
        ebf = last.stats.ebf if last is not None else 0.0
        pv = _pv(self.port, prepared, work, move, depth)
        stats = work.stats(self.started, ebf)
        return SearchResult(value, best_move, pv, depth, False, False, self.algorithm, stats)

    def result(self) -> SearchResult:
        """Run every iteration; the last completed one (``completed=False`` if cut)."""
        for _ in self.iterations(every=False):
            pass
        stats = self.work.stats(self.started) if self.work is not None else SearchStats()
        last = self.last
        if last is None:
            last = _fallback(self.game, self.state, self.algorithm, stats)
        if self.aborted:
            return SearchResult(
                last.value, last.best_move, last.pv, last.depth, False, last.exact,
                self.algorithm, replace(stats, ebf=last.stats.ebf),
            )  # fmt: skip
        return last


def _mapping(work: _Work, calls: list[tuple[Any, tuple[Any, ...]]]) -> threading.Thread | None:
    """When ``calls`` are to be loaded (this process's first search) on a fresh table,
    a started thread mapping the table's pages (:meth:`NativeTable.touch`) while this
    one loads them, else None.

    A fresh table's memory is zeroed by the system page by page (2 MB pages for
    NumPy's large arrays) as the first stores reach it: for the 35 MB default table,
    5-6 ms of CPU inside the first few hundred nodes, as much as Othello's whole
    depth-10 search warm (51,385 nodes). Loading the kernel from Numba's cache takes
    longer than that, holding the GIL; the mapping runs beside it (NumPy's fill
    releases the GIL) instead of inside the search's clock."""
    if not work.fresh_table or all(function.signatures for function, _ in calls):
        return None
    mapper = threading.Thread(target=work.native_table.touch, daemon=True)
    mapper.start()
    return mapper


def _load_mapping(work: _Work, calls: list[tuple[Any, tuple[Any, ...]]]) -> bool:
    """:func:`~._runner.load` the ``calls``, mapping a fresh table meanwhile (see
    :func:`_mapping`); the table is mapped and empty when this returns."""
    if isinstance(work.kernel, _mapped.MappedKernel):
        # Mapped already: only a fresh table to map (see _mapping), before the clock.
        if not work.fresh_table:
            return False
        work.native_table.touch()
        return True
    mapper = _mapping(work, calls)
    try:
        return load(work.control, calls)
    finally:
        if mapper is not None:
            mapper.join()


def _load_search(work: _Work, first_move: int) -> bool:
    """Load the search's kernel functions (see :func:`~._runner.load`), with the
    types of the real calls; ``first_move`` is a legal move of the root. (Mapped
    from the object cache, they are loaded already.)"""
    functions = work.kernel
    line = np.zeros(2, np.int64)
    return _load_mapping(
        work,
        [
            (functions.negamax, (work.rules, work.consts, 0, 1, -INF, INF, work.states,
                              work.moves, work.history, work.killers, work.table, work.control)),
            (functions.principal_variation, (work.rules, work.consts, first_move, 1, work.states,
                                          work.moves, work.table, line)),
        ],
    )  # fmt: skip


def _load_solve(work: _Work, max_moves: int) -> bool:
    """Load the exact solver's kernel functions (see :func:`~._runner.load`)."""
    functions = work.kernel
    line = np.zeros(work.states.shape[0] - 1, np.int64)
    found = np.zeros(max(max_moves, 1), np.int64)
    tables = (work.states, work.moves, work.table, work.control)
    return _load_mapping(
        work,
        [
            (functions.exact, (work.rules, work.consts, 0, -INF, INF, *tables)),
            (functions.line, (work.rules, work.consts, 0.0, line, *tables)),
            (functions.best_moves, (work.rules, work.consts, 0, 0.0, True, found, *tables)),
        ],
    )


def _node(work: _Work, depth: int, alpha: float, beta: float) -> float:
    """One kernel search of the root."""
    return 0.0 + float(  # 0.0 + : a draw is 0.0, not -0.0
        work.runner.run(
            _entry(work, "negamax"),
            work.rules,
            work.consts,
            0,
            depth,
            alpha,
            beta,
            work.states,
            work.moves,
            work.history,
            work.killers,
            work.table,
            work.control,
        )
    )


def _aspirated(work: _Work, depth: int, previous: float | None, delta: float | None) -> float:
    """A window around the previous value, widened on failure (``_Run._aspirated``)."""
    if previous is None or not delta or abs(previous) >= WIN_THRESHOLD:
        return _node(work, depth, -INF, INF)
    alpha, beta = previous - delta, previous + delta
    while True:
        value = _node(work, depth, alpha, beta)
        if alpha < value < beta:
            return value
        delta *= 4
        if delta >= WIN_THRESHOLD:
            return _node(work, depth, -INF, INF)
        if value <= alpha:
            alpha = value - delta
        else:
            beta = value + delta


def _pv(
    port: NativeGame[Any, Any], prepared: Prepared, work: _Work, move: int, depth: int
) -> tuple[Any, ...]:
    """The best move, then the table's moves while legal (``_Run._pv``)."""
    if work.control[kernel.USE_TABLE] == 0:
        return (port.decode_move(prepared, move),)
    out = np.zeros(depth + 1, np.int64)
    length = _entry(work, "principal_variation")(
        work.rules, work.consts, move, min(depth, work.states.shape[0] - 2),
        work.states, work.moves, work.table, out,
    )  # fmt: skip
    return tuple(port.decode_move(prepared, int(m)) for m in out[:length])


def _fallback(
    game: BaseGame[Any, Any], state: Any, algorithm: str, stats: SearchStats
) -> SearchResult:
    """No iteration finished: the static evaluation and the first move."""
    moves = game.order_moves(state, game.legal_moves(state))
    best_move = moves[0] if moves else None
    value = game.evaluate(state, game.to_move(state))
    pv = (best_move,) if best_move is not None else ()
    return SearchResult(value, best_move, pv, 0, False, False, algorithm, stats)


def solve_port(
    game: BaseGame[Any, Any],
    state: Any,
    port: NativeGame[Any, Any],
    *,
    table: NativeTable | None,
    limits: Limits,
    stop: StopRequest | None,
    progress: Callable[[int], None] | None,
    weak: bool,
    moves: str,
) -> tuple[float, tuple[Any, ...], tuple[Any, ...], SearchStats]:
    """``(value, best moves, line, stats)`` of :func:`plies.engine.solve` by the
    kernel: the value in engine units (1, 0 or -1 for ``weak``)."""
    started = time.perf_counter()
    outcome = game.terminal_value(state)
    if outcome is not None:
        value = terminal_score(outcome, 0)
        return (float((value > 0) - (value < 0)) if weak else value), (), (), SearchStats()
    prepared = port.prepare(state)
    table = _claim(table, SEARCH_ENTRIES, port, prepared)
    proven = False
    try:
        work = _Work(
            port, prepared, plies=prepared.max_plies, table=table, limits=limits, stop=stop,
            progress=progress,
        )  # fmt: skip
        if _load_solve(work, prepared.max_moves):
            started = time.perf_counter()  # the clock counts solving only
        value = float(_value(game, state, work, weak=weak))
        proven = True
        best, pv = _solution(port, prepared, work, value, weak=weak, moves=moves)
    except KernelStopped as exc:
        raise solve_stopped(str(exc), proven=proven, moves=moves) from None
    finally:
        table.busy = False
    return value, best, pv, work.stats(started)


def _value(game: BaseGame[Any, Any], state: Any, work: _Work, *, weak: bool) -> int:
    """The exact score of ``state`` (not finished), or for ``weak`` its sign.

    Where only the last mover wins, and for any weak solve, from null-window kernel
    searches whose thresholds :func:`narrow` picks, as the Python solver's
    :meth:`~plies.engine._exact.ExactSolver.value` does; otherwise from one search with
    the whole window. (Checkers, two kings against one: 196k nodes narrowed against
    802k in one search; Othello, 12 empties: 82k in one search against 112k narrowed,
    whose scores are disc counts that take many windows to narrow.)"""
    worst, best, mover_wins = score_bounds(game)
    control = work.control
    control[kernel.WORST], control[kernel.BEST] = worst, best
    control[kernel.MOVER_WINS] = mover_wins
    if overrides(game, "winning_move") and game.winning_move(state) is not None:
        score = int(_exact(work, -1.0, 1.0))
        return (score > 0) - (score < 0) if weak else score
    if not (mover_wins or weak):
        return int(_exact(work, -INF, INF))
    remaining = game.remaining_plies(state) if overrides(game, "remaining_plies") else None
    return narrow(
        lambda alpha, beta: int(_exact(work, float(alpha), float(beta))),
        worst=worst,
        best=best,
        mover_wins=mover_wins,
        horizon=remaining,
        weak=weak,
    )


def _exact(work: _Work, alpha: float, beta: float) -> float:
    return 0.0 + float(
        work.runner.run(
            _entry(work, "exact"),
            work.rules,
            work.consts,
            0,
            alpha,
            beta,
            work.states,
            work.moves,
            work.table,
            work.control,
        )
    )


def _solution(
    port: NativeGame[Any, Any],
    prepared: Prepared,
    work: _Work,
    value: float,
    *,
    weak: bool,
    moves: str,
) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
    """``(best moves, line)`` as ``moves`` asks (the Python solver's choices, by
    :func:`plies.engine.solver.best_moves_and_line`'s rule)."""
    decode = port.decode_move

    def line(score: float) -> tuple[Any, ...]:
        out = np.zeros(work.states.shape[0] - 1, np.int64)
        length = work.runner.run(
            _entry(work, "line"), work.rules, work.consts, score, out,
            work.states, work.moves, work.table, work.control,
        )  # fmt: skip
        return tuple(decode(prepared, int(m)) for m in out[:length])

    def reaching(target: float, first_only: bool) -> tuple[Any, ...]:
        found = np.zeros(max(prepared.max_moves, 1), np.int64)
        count = work.runner.run(
            _entry(work, "best_moves"), work.rules, work.consts, 0, target, first_only, found,
            work.states, work.moves, work.table, work.control,
        )  # fmt: skip
        return tuple(decode(prepared, int(m)) for m in found[:count])

    # The floor is below every score: a window at -inf would prune nothing.
    floor = -2.0 * WIN_THRESHOLD * 1000
    return best_moves_and_line(
        float(value), weak=weak, moves=moves, floor=floor, line=line, reaching=reaching
    )
