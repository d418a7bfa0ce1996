"""The head start of a split solve on a local cluster: the serial solve, run here
while the cluster is not there yet.

A local cluster takes about a second to start (its workers forked, its kernel loaded),
so :func:`~plies.cluster.solve_parallel` first solves the position serially, in a
thread of this process: an easy position is solved before any cluster is started, and
a hard one keeps being searched while the cluster starts (on the table the workers
will share, for Connect Four), so that this second is not lost.
"""

from __future__ import annotations

import threading
import time
from typing import Any

from plies.engine import Limits, SolveResult, StopRequest, solve
from plies.engine.solver import stop_callable
from plies.errors import SearchError
from plies.game import BaseGame

__all__ = ["HeadStart"]


class HeadStart:
    """:func:`~plies.engine.solve` of ``state`` in a thread of its own, started at
    once, until it solves the position or :meth:`stop` is called; ``solve_options``
    are :func:`~plies.engine.solve`'s (``limits``, ``progress``, ``moves``, ...)."""

    def __init__(
        self,
        game: BaseGame[Any, Any],
        state: Any,
        stop: StopRequest | None,
        **solve_options: Any,
    ) -> None:
        self.limits: Limits = solve_options.get("limits") or Limits()
        self._asked = stop_callable(stop)
        self._over = threading.Event()
        self._outcome: list[Any] = []  # the result, or the exception that ended the solve
        self._ended_by_stop = False
        self.started = time.monotonic()
        self._thread = threading.Thread(
            target=self._solve,
            args=(game, state, solve_options),
            name="plies-head-start",
            daemon=True,
        )
        self._thread.start()

    def _solve(self, game: BaseGame[Any, Any], state: Any, options: dict[str, Any]) -> None:
        try:
            self._outcome.append(solve(game, state, stop=self._stopped, **options))
        except BaseException as exc:  # raised again by result(), in the caller's thread
            self._ended_by_stop = isinstance(exc, SearchError) and self._over.is_set()
            self._outcome.append(exc)

    def _stopped(self) -> bool:
        return self._over.is_set() or (self._asked is not None and self._asked())

    def wait(self, seconds: float) -> bool:
        """Wait at most ``seconds`` for the solve to end; whether it has."""
        self._thread.join(seconds)
        return self.done()

    def done(self) -> bool:
        """Whether the solve has ended (solved, or stopped)."""
        return not self._thread.is_alive()

    def stop(self) -> None:
        """Stop the solve, if it still runs, and wait for it (a few milliseconds)."""
        self._over.set()
        self._thread.join()

    def result(self) -> SolveResult | None:
        """Once the solve has ended: its result, or None if :meth:`stop` ended it;
        the error of a limit of the solve or of a stop request is raised."""
        outcome = self._outcome[0]
        if isinstance(outcome, SolveResult):
            return outcome
        if self._ended_by_stop and (self._asked is None or not self._asked()):
            return None  # stopped for the cluster, not by a limit or a request
        raise outcome

    def finish(self) -> SolveResult | None:
        """:meth:`stop`, then :meth:`result`."""
        self.stop()
        return self.result()

    def limits_left(self) -> Limits:
        """The solve's limits less what the head start took (its time counts)."""
        limits = self.limits
        if limits.time is None:
            return limits
        left = max(0.001, limits.time - (time.monotonic() - self.started))
        return Limits(nodes=limits.nodes, time=left)
