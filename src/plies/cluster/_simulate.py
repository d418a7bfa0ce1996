"""A split solve on simulated workers, in this process: the schedule's figures without
the machine's load.

:func:`simulate_split` runs the split solve of :mod:`plies.cluster._split` unchanged
(its tree, its questions, its choice of probes, the splitting of long ones) against
``workers`` simulated workers instead of a Dask cluster. Each simulated worker has its
own solver and table, as a real one; a task runs here, at once, and is charged
``nodes / rate`` simulated seconds on its worker's clock, plus :data:`TASK_SECONDS`.
The client waits by moving the simulated clock to the next task's end. So the
schedule, the nodes of every worker and the simulated wall time depend on the nodes
searched only: the same on an idle or a loaded machine, run after run.

A task runs to its end when it is sent, its worker's table saved first; if the
client cancels it before its simulated end, the table is put back and the task run
again with a node limit, the nodes it had searched by then: the worker's table ends
as a real worker's would (what a stopped search stored). What it leaves out: the
client's own time (choosing probes costs milliseconds).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Any

from plies.cluster._probe import PONS, Probed, ProbeJob, _EngineSolver, _PonsSolver
from plies.cluster._split import (
    DEFAULT_SPLIT,
    SplitReport,
    _run_line,
    _run_probes,
    _Split,
    probe_scale,
)
from plies.engine import Limits, SolveResult, choose_backend, solve
from plies.engine.solver import ProbeStopped, overrides
from plies.errors import PliesError
from plies.game import BaseGame

__all__ = ["RATE", "TASK_SECONDS", "simulate_split"]

#: Nodes a simulated worker searches per simulated second.
RATE = 2_000_000
#: Simulated seconds a task costs besides its nodes (Dask's cost per task).
TASK_SECONDS = 0.005


def simulate_split(
    game: BaseGame[Any, Any],
    state: Any,
    *,
    workers: int,
    moves: str = "all",
    weak: bool = False,
    split: int = DEFAULT_SPLIT,
    backend: str | None = None,
    rate: int = RATE,
    table_size: int | None = None,
    report: SplitReport | None = None,
) -> SolveResult:
    """The split solve of ``state`` on ``workers`` simulated workers (see the
    module's docstring): the result is :func:`~plies.cluster.solve_parallel`'s, and
    ``report`` (if given) gets the schedule's figures, its ``wall`` and seconds
    simulated (``nodes / rate``). ``table_size``: entries of each worker's table."""
    if workers < 1:
        raise PliesError(f"a simulated cluster needs at least 1 worker, not {workers}")
    winning = game.winning_move if overrides(game, "winning_move") else None
    if game.terminal_value(state) is not None or (
        winning is not None and winning(state) is not None
    ):  # as solve_parallel: solved here, no worker asked
        return solve(game, state, weak=weak, moves=moves, backend=backend)
    picked = choose_backend(game, backend, state=state)
    scale, _ = probe_scale(game, picked, state)  # tables not shared: one per worker
    job = ProbeJob(game, scale, table_size, "simulated")
    client = SimulatedClient(job, workers, rate)
    run = _SimulatedSplit(client, job, state, Limits(), None, None, split)
    if report is not None:
        run.report = report
    return run.solve(weak, moves)


class SimulatedFuture:
    """A task run on a simulated worker: its result, and when it starts and ends."""

    def __init__(  # noqa: PLR0917  # what a task is
        self,
        worker: str,
        start: float,
        end: float,
        results: list[Probed],
        task: tuple[Any, ...],
        saved: Any,
    ) -> None:
        self.worker = worker
        self.start = start
        self.end = end
        self.results = results
        self.task = task  # the function and its arguments, to run again if cancelled
        self.saved = saved  # the worker's table before the task, while it may be cancelled
        self.cancelled = False

    def result(self) -> list[Probed]:
        """The task's results (as ``distributed.Future.result``)."""
        return self.results


class SimulatedClient:
    """The part of a Dask client the split solve uses, over simulated workers."""

    def __init__(self, job: ProbeJob, workers: int, rate: int) -> None:
        self.job = job
        self.rate = rate
        self.now = 0.0
        self.names = [f"sim://{index}" for index in range(workers)]
        self.free_at = dict.fromkeys(self.names, 0.0)
        self.nodes = dict.fromkeys(self.names, 0)
        self.seconds = dict.fromkeys(self.names, 0.0)
        make = _PonsSolver if job.scale == PONS else _EngineSolver
        self.solvers = {name: make(job.game, job.table_size) for name in self.names}
        for solver in self.solvers.values():  # its table made before the first save
            with contextlib.suppress(ProbeStopped):
                solver.probe(job.game.initial_state(), 0, 0, Limits(nodes=1), None)

    def submit(self, function: Callable[..., Any], *args: Any, **options: Any) -> SimulatedFuture:
        """Run ``function``'s task now on the worker asked for (else the first free)."""
        asked = options.get("workers")
        worker = asked[0] if asked else min(self.names, key=self.free_at.__getitem__)
        saved = _save(self.solvers[worker])
        results = self._run(worker, function, args, None)
        nodes = sum(probed.nodes for probed in results)
        start = max(self.now, self.free_at[worker])
        end = start + nodes / self.rate + TASK_SECONDS
        self.free_at[worker] = end
        self.nodes[worker] += nodes
        self.seconds[worker] += end - start
        return SimulatedFuture(worker, start, end, results, (function, *args), saved)

    def _run(
        self, worker: str, function: Callable[..., Any], args: tuple[Any, ...], budget: int | None
    ) -> list[Probed]:
        """The task's results on ``worker``'s solver; with ``budget``, it stops
        after that many nodes (its results then do not count)."""
        solver = self.solvers[worker]
        results: list[Probed] = []
        if function is _run_probes:
            _, probes, limits = args
            for state, ply, threshold in probes:
                if budget is not None:
                    limits = Limits(nodes=budget)
                try:
                    score, nodes = solver.probe(state, ply, threshold, limits, None)
                except ProbeStopped:
                    return results
                results.append(Probed(score=score, nodes=nodes, seconds=nodes / self.rate))
                if budget is not None:
                    budget -= nodes
                    if budget <= 0:
                        return results
        elif function is _run_line:
            _, state, ply, value, limits = args
            if budget is not None:
                limits = Limits(nodes=budget)
            try:
                line, nodes = solver.line(state, ply, value, limits, None)
            except ProbeStopped:
                return results
            results.append(Probed(line=line, nodes=nodes, seconds=nodes / self.rate))
        else:
            raise PliesError(f"a simulated worker cannot run {function!r}")
        return results

    def cancel(self, futures: list[Any]) -> None:
        """Stop tasks not yet ended: their worker is charged up to now only."""
        for future in futures:
            if future.cancelled or future.end <= self.now:
                continue
            future.cancelled = True
            worker = future.worker
            saved = future.end - max(self.now, future.start)
            if self.free_at[worker] == future.end:
                self.free_at[worker] = max(self.now, future.start)
            self.seconds[worker] -= saved
            nodes = sum(probed.nodes for probed in future.results)
            ran = max(0, nodes - int(saved * self.rate))
            self.nodes[worker] -= nodes - ran
            if future.saved is not None:  # the table as the stopped task left it
                _restore(self.solvers[worker], future.saved)
                future.saved = None
                if ran > 0:
                    function, *args = future.task
                    self._run(worker, function, tuple(args), ran)

    def wait_first(self, futures: list[Any], timeout: float) -> set[Any]:
        """The tasks ended within ``timeout`` simulated seconds, the clock moved on to
        the first end (or by ``timeout``)."""
        pending = [future for future in futures if not future.cancelled]
        if not pending:
            return set()
        first = min(future.end for future in pending)
        self.now = max(self.now, min(first, self.now + timeout))
        ended = {future for future in pending if future.end <= self.now}
        for future in ended:
            future.saved = None  # it can no longer be cancelled
        return ended


def _save(solver: Any) -> Any:
    """A copy of ``solver``'s table (to put back if its task is cancelled)."""
    if isinstance(solver, _PonsSolver):
        return solver.table.keys.copy(), solver.table.values.copy()
    return dict(solver.table.entries)


def _restore(solver: Any, saved: Any) -> None:
    """Put ``solver``'s table back as :func:`_save` saw it."""
    if isinstance(solver, _PonsSolver):
        keys, values = saved
        solver.table.keys[:] = keys
        solver.table.values[:] = values
    else:
        solver.table.entries = saved


class _SimulatedSplit(_Split):
    """The split solve on a :class:`SimulatedClient`."""

    client: SimulatedClient

    def _start(self) -> list[Any]:
        self.addresses = list(self.client.names)
        return []

    def _now(self) -> float:
        return self.client.now

    def _wait(self) -> set[Any]:
        from plies.cluster._split import WAIT_SECONDS

        return self.client.wait_first(list(self.out), WAIT_SECONDS)

    def _worker_work(self) -> dict[str, tuple[int, float]]:
        client = self.client
        return {name: (client.nodes[name], client.seconds[name]) for name in client.names}
