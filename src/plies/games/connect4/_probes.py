"""Connect Four's threshold probes: the solve's questions one null-window search at a
time, by Pons' kernel, for programs that drive a solve themselves (``plies.cluster``'s
split solve).

:class:`ThresholdProbes` gives :class:`._solve.Connect4Port` the capabilities
:data:`~plies.engine.solver.THRESHOLD_PROBE` and
:data:`~plies.engine.solver.SHARED_TABLE` of :mod:`plies.engine.solver` (the
:class:`~plies.engine.solver.ThresholdPort` protocol) on boards whose ``(height + 1) *
width`` bits fit one 64-bit word. Scores are Pons' (see :mod:`._pons`): they depend on
the position only and negate from a child to its parent. The kernel seals every
table entry with its value (:func:`._pons.seal`), so processes may share a table.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from plies.engine.native import DEFAULT_ENTRIES, KernelStopped, NativeTable
from plies.engine.solver import (
    SHARED_TABLE,
    THRESHOLD_PROBE,
    Limits,
    Probe,
    ProbedLine,
    ProbeStopped,
    SearchStats,
    SolveResult,
    StopRequest,
    pons_threshold,
)
from plies.games.connect4._rules import Connect4, Connect4State

__all__ = ["WALK_WIDTH", "ThresholdProbes", "narrowed_threshold", "root_threshold"]

#: The root's null-window searches follow Pons' threshold while the score range is
#: wider than this, then walk from a draw as ``c4`` does (:func:`narrowed_threshold`).
#: Counted ``c4``'s way, against the middle and then the sign (the rule before): 22%
#: fewer nodes on Test_L3_R1, 10% fewer on Test_L2_R2, 7% on Test_L1_R3's first 20
#: lines, 4% on the empty board and 5-10% on random positions; the same on Test_L2_R1
#: and Test_L1_R1, 6% more on Test_L1_R2's first 30 lines. Walking from a wider range
#: (18 and up) steps to Test_L2_R1's big scores one by one (2x its nodes); from 12 or
#: less, Test_L3_R1's first questions are far from its scores.
WALK_WIDTH = 14


def narrowed_threshold(low: int, high: int, wide: int) -> int:
    """The next null-window threshold for a root score known to lie in ``[low,
    high]`` (``low < high``), given Pons' threshold ``wide`` for it: ``wide`` while the
    range is wider than :data:`WALK_WIDTH`, then ``c4``'s walk from a draw: whether the
    side to move wins (a threshold of 0) while the range holds both signs, then
    always the score next to the bound the last search returned, towards the other
    bound. Plain integer code: the serial kernel compiles this same function
    (``_pons.root_threshold``)."""
    if high - low > WALK_WIDTH:
        return wide
    if low >= 0:
        return low
    return high - 1 if high <= 0 else 0


def root_threshold(low: int, high: int) -> int:
    """:func:`narrowed_threshold` with Pons' threshold
    (:func:`~plies.engine.solver.pons_threshold`): the root's rule, as the serial
    kernel's ``solve_root`` follows it."""
    return narrowed_threshold(low, high, pons_threshold(low, high))


class ThresholdProbes:
    """The :class:`~plies.engine.solver.ThresholdPort` methods of Connect Four's port
    (a mixin of :class:`._solve.Connect4Port`, which sets ``game`` and ``fits``)."""

    game: Connect4
    fits: bool

    @property
    def capabilities(self) -> frozenset[str]:
        """Threshold probes on a shared table, where Pons' kernel takes the board."""
        return frozenset({THRESHOLD_PROBE, SHARED_TABLE}) if self.fits else frozenset()

    @property
    def table_key_bits(self) -> int:
        """Bits of a position's key (the board's cells and a guard row)."""
        return self.game.width * (self.game.height + 1)

    def probe_table(self, entries: int | None = None) -> NativeTable:
        """A new table for probes of ``entries`` entries (default Pons' 2**23)."""
        return NativeTable(entries or DEFAULT_ENTRIES)

    def score_range(self, state: Connect4State, *, weak: bool) -> tuple[int, int]:
        """From a loss to the opponent's next stone to a win with our next one."""
        if weak:
            return -1, 1
        cells = self.game.size
        return -((cells - state.ply) // 2), (cells + 1 - state.ply) // 2

    def next_threshold(self, low: int, high: int) -> int:
        """The serial solve's rule (:func:`root_threshold`), as ``solve_root``."""
        return root_threshold(low, high)

    def floor(self) -> int:
        """Below every score of the board."""
        return -self.game.size

    def probe(
        self,
        state: Connect4State,
        threshold: int,
        *,
        table: NativeTable,
        limits: Limits,
        stop: StopRequest | None = None,
        seed: int = 0,
    ) -> Probe:
        """Pons' fail-soft score of ``state`` in ``(threshold, threshold + 1)``, by
        the kernel's ``negamax``; a finished game or a win in one costs no node."""
        from plies.games.connect4 import _pons as kernel
        from plies.games.connect4._solve import _Kernel

        if state.won or state.ply == self.game.size:  # over: no node
            return Probe(self.game.solver_score(state), 0)
        if self.game.winning_move(state) is not None:
            return Probe(self.game.exact_score(state, "win", 1), 0)
        run = _Kernel(self.game, table, limits, stop, None, seed=seed)
        position, mask = np.uint64(state.position), np.uint64(state.mask)
        try:
            score = run.run(kernel.negamax, position, mask, state.ply, threshold, threshold + 1)
        except KernelStopped as exc:
            raise ProbeStopped(str(exc), run.nodes) from None
        return Probe(int(score), run.nodes)

    def principal_line(
        self,
        state: Connect4State,
        value: int,
        *,
        table: NativeTable,
        limits: Limits,
        stop: StopRequest | None = None,
    ) -> ProbedLine:
        """The serial native solve's line from ``state`` of Pons' score ``value``."""
        from plies.games.connect4 import _pons as kernel
        from plies.games.connect4._solve import _column, _Kernel

        game = self.game
        if game.terminal_value(state) is not None:
            return ProbedLine((), 0)
        run = _Kernel(game, table, limits, stop, None)
        cells = np.zeros(game.size - state.ply, np.uint64)
        position, mask = np.uint64(state.position), np.uint64(state.mask)
        try:
            length = run.run(kernel.principal_line, position, mask, state.ply, value, cells)
        except KernelStopped as exc:
            raise ProbeStopped(str(exc), run.nodes) from None
        h1 = game.height + 1
        return ProbedLine(tuple(_column(int(cell), h1) for cell in cells[:length]), run.nodes)

    def solve_result(
        self,
        state: Connect4State,
        score: int,
        best_moves: tuple[Any, ...],
        pv: tuple[Any, ...],
        stats: SearchStats,
        *,
        weak: bool,
        moves: str,
    ) -> SolveResult:
        """The :class:`~plies.engine.SolveResult` the native solve gives for Pons'
        ``score`` (``weak``: its sign)."""
        from plies.games.connect4._solve import _result

        return _result(self.game, state, score, best_moves, pv, stats, weak=weak, moves=moves)
