"""The work a split solve sends to a Dask worker: null-window probes and lines.

A *probe* is one null-window search ``(t, t + 1)`` of a position below the root of a
split solve (:mod:`plies.cluster._split`): its fail-soft score, a lower bound above
``t`` or an upper bound at most ``t``. Each worker keeps one solver (game and
transposition table) per split solve and thread, so the bounds one probe proves help
the next probes it runs.

Scores come on one of two scales, the serial solver's own:

* ``"pons"`` (a native port that declares threshold probes, see
  :mod:`plies.engine.solver`: Connect Four's, Pons' scores): scores that depend on
  the position only (not on the root), probed by the port's kernel;
* ``"engine"`` (every other game, on the Python exact solver): the engine's scores
  relative to the root of the split solve, the position being ``ply`` plies below it.

Both negate from a child to its parent, so the client's tree needs no more.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from plies.cluster._shared import release, shared_table
from plies.engine import Limits
from plies.engine.solver import ExactProber, ProbeStopped, threshold_port
from plies.game import BaseGame

__all__ = ["ENGINE", "PONS", "ProbeJob", "Probed", "pons_table", "work_done"]

#: The scale of Connect Four on the native kernel (see the module's docstring).
PONS = "pons"
#: The scale of the Python exact solver.
ENGINE = "engine"


@dataclass(frozen=True, slots=True)
class Probed:
    """What a probe or a line gave: ``score`` (a probe's fail-soft score) or
    ``line`` (moves), the nodes and seconds it took, and ``stopped``, the reason a
    limit or a stop request ended it (then nothing else counts)."""

    score: int = 0
    line: tuple[Any, ...] = ()
    nodes: int = 0
    seconds: float = 0.0
    stopped: str | None = None


@dataclass(frozen=True)
class ProbeJob:
    """One split solve's work on a worker: the game, the scale, the table size,
    ``token`` (the solve's name: a worker keeps one solver per token and thread), and
    ``shared``: whether the Connect Four tables of one machine's workers are one
    (:mod:`plies.cluster._shared`)."""

    game: BaseGame[Any, Any]
    scale: str
    table_size: int | None
    token: str
    shared: bool = False

    def warm(self) -> None:
        """Make the solver (and load the native kernel) before the first probe."""
        solver = _solver(self)
        with contextlib.suppress(ProbeStopped):  # the node limit: it is warm all the same
            solver.probe(self.game.initial_state(), 0, 0, Limits(nodes=1), None)

    def probe(
        self, state: Any, ply: int, threshold: int, limits: Limits, *, seed: int = 0
    ) -> Probed:
        """The fail-soft score of ``state`` (``ply`` plies below the root) in the
        window ``(threshold, threshold + 1)``; a ``seed`` (odd), a helper's: the same
        search in another move order, on a shared table (Connect Four only)."""
        started = time.perf_counter()
        solver = _solver(self)
        try:
            score, nodes = solver.probe(state, ply, threshold, limits, self._stop(), seed=seed)
        except ProbeStopped as exc:
            return self._counted(
                Probed(nodes=exc.nodes, seconds=time.perf_counter() - started, stopped=str(exc))
            )
        return self._counted(
            Probed(score=score, nodes=nodes, seconds=time.perf_counter() - started)
        )

    def line(self, state: Any, ply: int, value: int, limits: Limits) -> Probed:
        """The serial solver's optimal line from ``state`` (of exact ``value``, on the
        scale; ``ply`` plies below the root): its first move in order that keeps the
        value, at every step to the end of the game."""
        started = time.perf_counter()
        solver = _solver(self)
        try:
            line, nodes = solver.line(state, ply, value, limits, self._stop())
        except ProbeStopped as exc:
            return self._counted(
                Probed(nodes=exc.nodes, seconds=time.perf_counter() - started, stopped=str(exc))
            )
        return self._counted(Probed(line=line, nodes=nodes, seconds=time.perf_counter() - started))

    def _counted(self, probed: Probed) -> Probed:
        """``probed``, its nodes and seconds added to this process's work on the
        solve (:func:`work_done`: stopped and cancelled tasks count too)."""
        with _WORK_LOCK:
            nodes, seconds = _WORK.get(self.token, (0, 0.0))
            _WORK.clear()  # one solve at a time, as the solvers
            _WORK[self.token] = (nodes + probed.nodes, seconds + probed.seconds)
        return probed

    def _stop(self) -> Callable[[], bool] | None:
        """A stop request that says when the client no longer wants this task (it
        cancelled it, or let it go): Dask cancels a running task on a worker in name
        only, the code runs on unless it looks."""
        try:
            from distributed import get_worker

            worker = get_worker()
        except (ImportError, ValueError):  # run outside a worker (tests, serially)
            return None
        key = worker.get_current_task()
        tasks = worker.state.tasks

        def stopped() -> bool:
            task = tasks.get(key)
            return task is None or task.state in ("cancelled", "released", "forgotten")

        return stopped


_SOLVERS = threading.local()
#: token -> (nodes, seconds) of every probe and line this process ran for that solve.
_WORK: dict[str, tuple[int, float]] = {}
_WORK_LOCK = threading.Lock()


def work_done(token: str) -> tuple[int, float]:
    """The nodes and seconds this process's probes and lines of the split solve
    ``token`` took, all of them (cancelled and stopped ones too); run by the client
    on every worker at the end of a solve (``Client.run``)."""
    with _WORK_LOCK:
        return _WORK.get(token, (0, 0.0))


def _solver(job: ProbeJob) -> Any:
    """This thread's solver of ``job``'s split solve (one at a time: the tables of
    earlier solves are let go)."""
    made: dict[str, Any] = _SOLVERS.__dict__.setdefault("made", {})
    if job.token not in made:
        if made:
            release()  # the earlier solve's shared table, if it had one
        made.clear()
        made[job.token] = (
            _PonsSolver(job.game, job.table_size, job.token if job.shared else None)
            if job.scale == PONS
            else _EngineSolver(job.game, job.table_size)
        )
    return made[job.token]


class _EngineSolver:
    """Probes and lines by the Python exact solver, on one table (scores relative to
    the split solve's root: see :class:`~plies.engine.solver.ExactProber`)."""

    def __init__(self, game: BaseGame[Any, Any], table_size: int | None) -> None:
        self.prober = ExactProber(game, table_size)
        self.table = self.prober.table

    def probe(
        self,
        state: Any,
        ply: int,
        threshold: int,
        limits: Limits,
        stop: Callable[[], bool] | None,
        *,
        seed: int = 0,  # helpers are for the shared native table: ignored
    ) -> tuple[int, int]:
        probed = self.prober.probe(state, threshold, ply=ply, limits=limits, stop=stop)
        return probed.score, probed.nodes

    def line(
        self,
        state: Any,
        ply: int,
        value: int,
        limits: Limits,
        stop: Callable[[], bool] | None,
    ) -> tuple[tuple[Any, ...], int]:
        line = self.prober.line(state, value, ply=ply, limits=limits, stop=stop)
        return line.moves, line.nodes


def pons_table(game: BaseGame[Any, Any], table_size: int | None, shared: str | None) -> Any:
    """A table for the threshold probes of ``game``'s native port in this process: the
    machine's table of the split solve ``shared`` (its token) if given and it can be
    mapped (:func:`~plies.cluster._shared.shared_table`), else one of its own."""
    port = threshold_port(game)
    table = port.probe_table(table_size)
    if shared is not None:
        shared_table(shared, table, port.table_key_bits)
    return table


class _PonsSolver:
    """Probes and lines by a native port's kernel (the capability
    :data:`~plies.engine.solver.THRESHOLD_PROBE`: Connect Four's, Pons' scores), on
    one native table (see :func:`pons_table`)."""

    def __init__(
        self, game: BaseGame[Any, Any], table_size: int | None, shared: str | None = None
    ) -> None:
        self.game = game
        self.port = threshold_port(game)
        self.table = pons_table(game, table_size, shared)

    def probe(
        self,
        state: Any,
        ply: int,
        threshold: int,
        limits: Limits,
        stop: Callable[[], bool] | None,
        *,
        seed: int = 0,
    ) -> tuple[int, int]:
        probed = self.port.probe(
            state, threshold, table=self.table, limits=limits, stop=stop, seed=seed
        )
        return probed.score, probed.nodes

    def line(
        self,
        state: Any,
        ply: int,
        value: int,
        limits: Limits,
        stop: Callable[[], bool] | None,
    ) -> tuple[tuple[Any, ...], int]:
        line = self.port.principal_line(state, value, table=self.table, limits=limits, stop=stop)
        return line.moves, line.nodes
