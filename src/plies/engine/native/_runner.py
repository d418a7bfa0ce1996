"""Kernel calls under limits: node limits in the kernel, time and stop requests here.

The kernel counts nodes in ``control`` and stops itself at a node limit. Time and
stop requests need Python, which does not run while compiled code does, so a call
first runs in this thread for at most :data:`INLINE_NODES` nodes; one that needs more
starts again (on the table it has filled) in a worker thread, without the GIL, while
this thread watches the clock, the stop request and the progress hook (and the
runner's later calls start there at once: deeper iterations are longer). A kernel that
stops returns at once with ``control[STOP]`` set: 2 the node limit, 3 the time
limit, 4 a stop request, 1 an exception here (Ctrl-C).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable
from typing import Any

import numpy as np

from plies.engine.native._table import NODE_LIMIT, NODES, STOP
from plies.engine.solver import CHECK_GAP, Limits, StopRequest, deadline_of, stop_callable

__all__ = ["INLINE_NODES", "TIMED_INLINE_NODES", "KernelStopped", "Runner", "compiled", "load"]

#: Nodes a kernel call runs in the caller's thread before it moves to a worker that
#: can be stopped (~5 ms at the kernel's speed on small games; a thread costs ~0.1 ms
#: to start). The worker starts the call again on the table the inline part filled,
#: so a search that moves counts other nodes than one run through.
INLINE_NODES = 1 << 16
#: The inline part of a call with a time limit. Nothing stops the inline part: 2**16
#: nodes took chess 35-55 ms, so a UCI move of 0.1 s came up to 56 ms late; 2**12 take
#: it 2-3 ms. (A timed search's node counts depend on the clock anyway.)
TIMED_INLINE_NODES = 1 << 12

_NO_LIMIT = np.iinfo(np.int64).max


_ENTRIES: dict[Any, Any] = {}


def compiled(function: Any) -> Any:
    """The compiled entry of a kernel function once Numba has compiled it (one
    signature: every game passes the same types), else the function. Numba types
    every argument of every call (0.1-0.5 ms a call: on tic-tac-toe, more than the
    search itself); the entry is remembered, as reading ``signatures`` costs 0.1 ms."""
    entry = _ENTRIES.get(function)
    if entry is not None:
        return entry
    signatures = function.signatures
    if len(signatures) == 1:
        entry = _ENTRIES[function] = function.overloads[signatures[0]].entry_point
        return entry
    return function


def load(control: Any, calls: Iterable[tuple[Any, tuple[Any, ...]]]) -> bool:
    """Load the kernel functions of ``calls`` (``(function, arguments)``, the arguments
    of a real call, ``control`` among them) that this process has not loaded yet, before
    a search's clock starts: each is called once with a node limit of 0, so it stops at
    its first node, then ``control`` is restored. Returns whether any was loaded.

    Numba loads a function on its first call, from its cache (tens of ms) or, on a
    machine's first run, compiling it (seconds): counted in the search, the first
    search after install reported ``time 4.97 nps 2``."""
    todo = [(function, arguments) for function, arguments in calls if not function.signatures]
    if not todo:
        return False
    saved = control.copy()
    try:
        for function, arguments in todo:
            control[NODE_LIMIT] = 0
            function(*arguments)
    finally:
        control[:] = saved
    return True


class KernelStopped(Exception):
    """A limit or a stop request ended a kernel call; the message names which."""

    #: Whether the value was proven before the stop (while finding the moves).
    proven = False


class Runner:
    """Runs kernel functions whose last argument is ``control`` under the limits."""

    def __init__(
        self,
        control: Any,
        limits: Limits,
        stop: StopRequest | None,
        progress: Callable[[int], None] | None,
    ) -> None:
        self.control = control
        control[NODES] = 0
        self.max_nodes = limits.nodes if limits.nodes is not None else _NO_LIMIT
        self.deadline = deadline_of(limits)
        self.stop = stop_callable(stop)
        self.progress = progress
        self.watched = self.stop is not None or limits.time is not None or progress is not None
        self.inline_nodes = INLINE_NODES if limits.time is None else TIMED_INLINE_NODES
        #: A call of this runner outgrew the inline budget: the next calls (deeper
        #: iterations, longer still) start in a worker at once, not searching their
        #: first INLINE_NODES nodes twice.
        self.threaded = False

    @property
    def nodes(self) -> int:
        """Nodes counted so far."""
        return int(self.control[NODES])

    def run(self, function: Any, *args: Any) -> Any:
        """``function(*args)`` under the limits; raises :class:`KernelStopped` when
        one stops it (the kernel then stored nothing false and returned at once)."""
        control = self.control
        control[STOP] = 0
        # A stop requested already ends the call before its first node, as in Python
        # (the inline part below would not look for INLINE_NODES nodes).
        if self.stop is not None and self.stop():
            control[STOP] = 4
            self._check_stopped()
        # Each call looks at the clock first: calls that each end within the inline
        # budget never reach the watch below, and on a deep table every iteration of a
        # settled position can (a match's search ran 77,199 iterations of 17,831 nodes).
        if time.monotonic() >= self.deadline:
            control[STOP] = 3
            self._check_stopped()
        if not self.threaded:
            # Unwatched, the one call runs to the node limit in this thread.
            inline_limit = self.nodes + self.inline_nodes if self.watched else self.max_nodes
            control[NODE_LIMIT] = min(self.max_nodes, inline_limit)
            result = function(*args)
            if control[STOP] == 0:
                return result
            self._check_stopped(inline=True)
            if time.monotonic() >= self.deadline:  # the inline part used the time up:
                raise KernelStopped("time limit")  # not its nodes again, in a thread
            self.threaded = True
        # Longer than the inline budget: again, in a worker this thread can stop.
        control[STOP] = 0
        control[NODE_LIMIT] = self.max_nodes
        box: list[Any] = []
        worker = threading.Thread(target=lambda: box.append(function(*args)))
        worker.start()
        try:
            while worker.is_alive():
                # Woken at the deadline (within 1 ms), not up to CHECK_GAP after it.
                worker.join(max(0.001, min(CHECK_GAP, self.deadline - time.monotonic())))
                if self.progress is not None:
                    self.progress(self.nodes)
                if time.monotonic() >= self.deadline:
                    control[STOP] = 3
                elif self.stop is not None and self.stop():
                    control[STOP] = 4
        finally:
            if worker.is_alive():  # an exception here (KeyboardInterrupt): stop it
                control[STOP] = 1
                worker.join()
        self._check_stopped()
        return box[0]

    def _check_stopped(self, *, inline: bool = False) -> None:
        reason = int(self.control[STOP])
        if reason == 0 or (inline and reason == 2 and self.nodes < self.max_nodes):
            return
        raise KernelStopped({2: "node limit", 3: "time limit"}.get(reason, "stop requested"))
