"""The search context: one object holding everything a search shares.

Counters, the deadline and stop request, the transposition table, killer moves,
history scores and the progress hook live here; the node functions receive only what
changes from node to node (state, depth, window, ply). The node functions bind the
game's methods once (see :func:`plies.engine._negamax.make_negamax`), so the hot loops
never look them up.
"""

from __future__ import annotations

import threading
import time
from collections import defaultdict
from collections.abc import Callable, Hashable
from typing import Any

from plies.engine._limits import Limits
from plies.engine._result import SearchStats
from plies.engine._table import TranspositionTable
from plies.errors import SearchError
from plies.game import BaseGame

__all__ = [
    "CHECK_EVERY",
    "CHECK_GAP",
    "SearchAborted",
    "SearchContext",
    "StopRequest",
    "deadline_of",
    "solve_stopped",
    "stop_callable",
]

#: Most nodes between two looks at the clock and the stop request. At the engine's
#: 100-300k nodes per second this is well under 2 ms; checking every node would cost
#: about 5% of the speed (time.monotonic() is ~50 ns plus the call).
CHECK_EVERY = 256

#: Longest wished time between two looks, in seconds. Nodes are not all cheap: a Nim
#: position of two heaps of 100,000 has 200,000 moves, and 256 such nodes took 12 s.
#: So the interval adapts: it starts at one node, doubles while looks come faster
#: than half this gap, and falls to a quarter when one comes later (never above
#: :data:`CHECK_EVERY`). Limits and Ctrl-C then act within a few of these gaps
#: however slow a node is, as long as one node is faster than the gap.
CHECK_GAP = 0.01

#: A stop request: an Event (set it to stop) or any callable returning True to stop.
StopRequest = threading.Event | Callable[[], bool]


def deadline_of(limits: Limits) -> float:
    """The ``time.monotonic()`` reading at which ``limits.time`` runs out (inf: never)."""
    return time.monotonic() + limits.time if limits.time is not None else float("inf")


def stop_callable(stop: StopRequest | None) -> Callable[[], bool] | None:
    """A stop request as a callable returning True to stop (an Event's ``is_set``)."""
    return stop.is_set if isinstance(stop, threading.Event) else stop


class SearchAborted(Exception):
    """Raised inside the search when a limit is hit; the driver catches it."""


def solve_stopped(reason: str, *, proven: bool, moves: str) -> SearchError:
    """The error of a solve a limit or a stop request cut short (``reason``), before
    or after the value was ``proven`` (then while finding the ``moves`` asked for)."""
    if proven:
        return SearchError(
            f"solve stopped ({reason}) after proving the value, while finding "
            f"{'every best move' if moves == 'all' else 'the moves asked for'} "
            "(moves='best' or 'none' ask for less)"
        )
    return SearchError(f"solve stopped ({reason}) before the value was proven")


class SearchContext:
    """Counters, limits, the table, killers, history and the progress hook of one search."""

    def __init__(
        self,
        game: BaseGame[Any, Any],
        *,
        limits: Limits,
        stop: StopRequest | None,
        table: TranspositionTable | None,
        progress: Callable[[int], None] | None = None,
    ) -> None:
        self.game = game
        self.limits = limits
        self.table = table
        #: Called with the node count at every check (every CHECK_EVERY nodes).
        self.progress = progress
        self.started = time.perf_counter()
        self.deadline = deadline_of(limits)
        self.max_nodes = limits.nodes if limits.nodes is not None else -1
        self.stop_requested = stop_callable(stop)
        # Counters (see SearchStats).
        self.nodes = 0
        self.leaves = 0
        self.cutoffs = 0
        self.first_move_cutoffs = 0
        self.tt_probes = 0
        self.tt_hits = 0
        #: Nodes at the horizon (depth exhausted, state not terminal) in this iteration:
        #: zero means the iteration saw every line to its end, so its value is exact.
        self.horizon_hits = 0
        #: The deepest ply a quiescence search reached (0 if none ran).
        self.seldepth = 0
        #: Nodes between two checks (adaptive, see CHECK_GAP) and when the last ran.
        self.check_interval = 1
        self.last_check = time.monotonic()
        #: The node count at which :meth:`check` runs next.
        self.next_check = self._next_check()
        #: Added to the remaining depth in table entries: a new tag per search and
        #: iteration, so entries of an earlier iteration guide move ordering but never
        #: cut (values at a fixed depth stay exactly those of a fixed-depth search).
        self.depth_tag = 0
        #: The depth of the iteration running (extensions stay within twice it).
        self.root_depth = 0
        #: Killer moves per ply: the last two moves that caused a cut-off there
        #: (the node function fills and reads them; lists grow with the ply).
        self.killers: list[list[Any]] = []
        #: History heuristic: move -> accumulated depth**2 of the cut-offs it caused.
        #: A defaultdict so that sorting can use its C-level ``__getitem__`` as key.
        self.history: defaultdict[Hashable, int] = defaultdict(int)
        #: Best move found at the root by the last node function that ran there.
        self.root_move: Any = None

    def _next_check(self) -> int:
        upcoming = self.nodes + self.check_interval
        if 0 <= self.max_nodes < upcoming:
            return self.max_nodes
        return upcoming

    def check(self) -> None:
        """Raise :class:`SearchAborted` if a limit is reached; else schedule the next check."""
        if 0 <= self.max_nodes <= self.nodes:
            raise SearchAborted("node limit")
        now = time.monotonic()
        if now >= self.deadline:
            raise SearchAborted("time limit")
        if self.stop_requested is not None and self.stop_requested():
            raise SearchAborted("stop requested")
        if self.progress is not None:
            self.progress(self.nodes)
        gap = now - self.last_check
        self.last_check = now
        if gap > CHECK_GAP:
            self.check_interval = max(1, self.check_interval >> 2)
        elif gap < CHECK_GAP / 2 and self.check_interval < CHECK_EVERY:
            self.check_interval = min(CHECK_EVERY, self.check_interval << 1)
        self.next_check = self._next_check()

    def time_is_up(self) -> bool:
        """Whether the deadline has passed or a stop was requested (no counters).

        For loops inside one node that may run long (thousands of moves): they call
        it every few hundred steps and raise :class:`SearchAborted` if it says so.
        """
        if time.monotonic() >= self.deadline:
            return True
        return self.stop_requested is not None and self.stop_requested()

    def elapsed(self) -> float:
        """Seconds since the search started."""
        return time.perf_counter() - self.started

    def stats(self, ebf: float = 0.0) -> SearchStats:
        """A snapshot of the counters."""
        return SearchStats(
            nodes=self.nodes,
            leaves=self.leaves,
            cutoffs=self.cutoffs,
            first_move_cutoffs=self.first_move_cutoffs,
            tt_probes=self.tt_probes,
            tt_hits=self.tt_hits,
            time=self.elapsed(),
            ebf=ebf,
            seldepth=self.seldepth,
        )
