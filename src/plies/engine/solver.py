"""The engine's parts, for programs that ask its questions their own way.

Two kinds of program build on them: the games' native ports and the generic kernel
(:mod:`plies.engine.native`), which need the engine's limits, stop requests, result
types and score scale; and programs that ask the exact solver's questions otherwise,
as :mod:`plies.cluster` spreads one solve over many workers. They import these names
from here, never from the engine's private modules, so the engine can rearrange its
modules without breaking them:

* limits and stopping: :class:`Limits`, :data:`MAX_PLY`, :data:`StopRequest`,
  :func:`stop_callable`, :func:`deadline_of`, :data:`CHECK_GAP` (the longest wished
  time between two looks at the clock);
* results and scores: :class:`SearchResult`, :class:`SearchStats`, :class:`SolveResult`,
  :data:`WIN`, :data:`WIN_THRESHOLD`, :func:`terminal_score`;
* the exact solver's narrowing: :func:`score_bounds` and :func:`narrow` (the exact
  value from null-window probes), :func:`overrides` (whether a game overrides a hook);
* :class:`ExactSolver` on a :class:`SearchContext` (the game, limits, deadline, stop
  request and table of one search), :func:`deep_recursion` to let it recurse;
  :func:`deep_table`, whether a search cuts on its table's earlier entries;
* :class:`ExactProber`: null-window *probes* ``(t, t + 1)`` and optimal lines of
  positions below a root, by the Python solver on one table kept between calls;
* :func:`best_moves_and_line`: which moves keep the value, and the line, as
  :func:`~plies.engine.solve` picks them for its ``moves`` option, asked through two
  callables (the serial solver's, or a cluster's);
* :func:`pons_threshold`: the threshold Pons' rule tests next, for ports whose
  scores are his;
* :func:`solve_result` and :func:`solve_stopped`: a solve's result, or the error of one
  a limit stopped, from their parts;
* what native ports offer besides :func:`~plies.engine.solve`: a port *declares* its
  capabilities (:attr:`ThresholdPort.capabilities`, asked by
  :func:`port_capabilities`), nobody asks for its type. :data:`THRESHOLD_PROBE`: the
  port answers probes and lines by its kernel on its own score scale (the
  :class:`ThresholdPort` protocol); :data:`SHARED_TABLE`: several processes may map one
  of its tables at once (each entry sealed, see :attr:`ThresholdPort.table_key_bits`).

>>> from plies.engine import Limits
>>> from plies.engine.solver import ExactProber
>>> from plies.games import get_game
>>> game = get_game("tictactoe")
>>> prober = ExactProber(game)
>>> prober.probe(game.initial_state(), 0, limits=Limits()).score <= 0  # no win
True
"""

from __future__ import annotations

from typing import Any, NamedTuple, Protocol, runtime_checkable

from plies.engine._context import (
    CHECK_GAP,
    SearchAborted,
    SearchContext,
    StopRequest,
    deadline_of,
    solve_stopped,
    stop_callable,
)
from plies.engine._exact import (
    ExactSolver,
    best_moves_and_line,
    engine_shift,
    narrow,
    pons_threshold,
    score_bounds,
)
from plies.engine._limits import MAX_PLY, Limits
from plies.engine._negamax import overrides
from plies.engine._result import SearchResult, SearchStats, SolveResult
from plies.engine._scores import WIN, WIN_THRESHOLD, terminal_score
from plies.engine._search import (
    SOLVE_MOVES,
    choose_backend,
    deep_recursion,
    deep_table,
    solve_result,
)
from plies.engine._table import TranspositionTable
from plies.engine.native import NativeTable, native_port
from plies.errors import SearchError
from plies.game import BaseGame

__all__ = [
    "CHECK_GAP",
    "MAX_PLY",
    "SHARED_TABLE",
    "SOLVE_MOVES",
    "THRESHOLD_PROBE",
    "WIN",
    "WIN_THRESHOLD",
    "ExactProber",
    "ExactSolver",
    "Limits",
    "Probe",
    "ProbeStopped",
    "ProbedLine",
    "SearchAborted",
    "SearchContext",
    "SearchResult",
    "SearchStats",
    "SolveResult",
    "StopRequest",
    "ThresholdPort",
    "best_moves_and_line",
    "deadline_of",
    "deep_recursion",
    "deep_table",
    "engine_shift",
    "narrow",
    "overrides",
    "pons_threshold",
    "port_capabilities",
    "score_bounds",
    "solve_result",
    "solve_stopped",
    "stop_callable",
    "terminal_score",
    "threshold_port",
]

#: A port's capability: it answers probes and lines by its kernel, on its own score
#: scale (the :class:`ThresholdPort` protocol).
THRESHOLD_PROBE = "threshold_probe"
#: A port's capability: processes may share one of its tables (a file mapped by each),
#: every entry sealed with its value so that a torn write is never read as an entry.
SHARED_TABLE = "shared_table"


class Probe(NamedTuple):
    """A probe's answer: its fail-soft ``score`` in the window ``(t, t + 1)`` (above
    ``t``: a lower bound; at most ``t``: an upper bound) and the ``nodes`` it took."""

    score: int
    nodes: int


class ProbedLine(NamedTuple):
    """An optimal line (``moves``, to the end of the game) and the ``nodes`` it took."""

    moves: tuple[Any, ...]
    nodes: int


class ProbeStopped(SearchError):
    """A limit or a stop request ended a probe or a line: ``reason`` names which
    (``"node limit"``, ``"time limit"``, ``"stop requested"``), ``nodes`` counts the
    nodes searched until then."""

    def __init__(self, reason: str, nodes: int) -> None:
        super().__init__(reason)
        self.reason = reason
        self.nodes = nodes


class ExactProber:
    """Probes and optimal lines of ``game``'s positions by the Python exact solver,
    on one :class:`TranspositionTable` of ``table_entries`` entries (default 2**20)
    kept between calls, so the bounds one probe proves serve the next. Scores are the
    engine's, relative to a root ``ply`` plies above the position asked about."""

    def __init__(self, game: BaseGame[Any, Any], table_entries: int | None = None) -> None:
        self.game = game
        self.table = TranspositionTable(table_entries or 1 << 20)
        self.table.claim("solve")

    def _solver(self, limits: Limits, stop: StopRequest | None) -> ExactSolver:
        return ExactSolver(SearchContext(self.game, limits=limits, stop=stop, table=self.table))

    def probe(
        self,
        state: Any,
        threshold: int,
        *,
        ply: int = 0,
        limits: Limits,
        stop: StopRequest | None = None,
    ) -> Probe:
        """The fail-soft score of ``state`` in the window ``(threshold, threshold +
        1)``; raises :class:`ProbeStopped` when ``limits`` or ``stop`` end it."""
        solver = self._solver(limits, stop)
        try:
            with deep_recursion(MAX_PLY):
                score = solver.search(state, threshold, threshold + 1, ply)
        except SearchAborted as exc:
            raise ProbeStopped(str(exc), solver.ctx.nodes) from None
        return Probe(score, solver.ctx.nodes)

    def line(
        self,
        state: Any,
        value: int,
        *,
        ply: int = 0,
        limits: Limits,
        stop: StopRequest | None = None,
    ) -> ProbedLine:
        """The serial solver's optimal line from ``state`` of exact score ``value``:
        at every step its first move in the game's order that keeps the value."""
        solver = self._solver(limits, stop)
        try:
            with deep_recursion(MAX_PLY):
                moves = solver.line(state, engine_shift(value, ply))
        except SearchAborted as exc:
            raise ProbeStopped(str(exc), solver.ctx.nodes) from None
        return ProbedLine(moves, solver.ctx.nodes)


@runtime_checkable
class ThresholdPort(Protocol):
    """What a native port with the capability :data:`THRESHOLD_PROBE` offers: the
    solve's questions, one null-window probe or one line at a time, by its kernel.

    Scores are on the port's own scale: integers that depend on the position only
    (not on a root) and negate from a child to its parent, as negamax has it (Connect
    Four's: Pons' scores). A port with :data:`SHARED_TABLE` too makes tables that
    several processes may map at once (:attr:`table_key_bits` bits per key).
    """

    capabilities: frozenset[str]
    table_key_bits: int

    def probe_table(self, entries: int | None = None) -> NativeTable:
        """A new table for probes of ``entries`` entries (None: the port's size)."""
        ...

    def score_range(self, state: Any, *, weak: bool) -> tuple[int, int]:
        """The least and greatest score ``state`` (not over, no win in one) may have;
        for ``weak``, the range a weak solve narrows (-1 to 1)."""
        ...

    def next_threshold(self, low: int, high: int) -> int:
        """The threshold the serial solver tests next when the score is known to be
        in ``[low, high]`` (``low < high``)."""
        ...

    def floor(self) -> int:
        """A score below every score of the game: a weak solve's target when any
        move will do."""
        ...

    def probe(
        self,
        state: Any,
        threshold: int,
        *,
        table: NativeTable,
        limits: Limits,
        stop: StopRequest | None = None,
        seed: int = 0,
    ) -> Probe:
        """The fail-soft score of ``state`` in ``(threshold, threshold + 1)`` on
        ``table``; ``seed`` (odd) searches in another move order (a helper's, on a
        shared table), 0 in the serial solver's. Raises :class:`ProbeStopped`."""
        ...

    def principal_line(
        self,
        state: Any,
        value: int,
        *,
        table: NativeTable,
        limits: Limits,
        stop: StopRequest | None = None,
    ) -> ProbedLine:
        """The serial solver's optimal line from ``state`` of exact score ``value``.
        Raises :class:`ProbeStopped`."""
        ...

    def solve_result(
        self,
        state: Any,
        score: int,
        best_moves: tuple[Any, ...],
        pv: tuple[Any, ...],
        stats: SearchStats,
        *,
        weak: bool,
        moves: str,
    ) -> SolveResult:
        """The :class:`SolveResult` the serial native solve gives for ``score``
        (``weak``: its sign), these moves and statistics."""
        ...


def port_capabilities(
    game: BaseGame[Any, Any], backend: str | None = None, state: Any = None
) -> frozenset[str]:
    """The capabilities of the native port :func:`~plies.engine.solve` runs for
    ``game`` (at ``state``) with ``backend``: empty when the Python solver runs, or
    the port declares none."""
    if choose_backend(game, backend, state=state) != "native":
        return frozenset()
    return frozenset(getattr(native_port(game), "capabilities", ()))


def threshold_port(game: BaseGame[Any, Any]) -> ThresholdPort:
    """``game``'s native port, which declares :data:`THRESHOLD_PROBE` (see
    :func:`port_capabilities`); raises :class:`SearchError` if it does not."""
    port = native_port(game)
    if THRESHOLD_PROBE not in getattr(port, "capabilities", ()):
        raise SearchError(f"{game.name}'s native port does not answer threshold probes")
    return port  # type: ignore[no-any-return]
