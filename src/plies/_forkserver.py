"""The process's one multiprocessing fork server, shared by the parts of plies that
fork workers from it (a local Dask cluster's, the web lab's): whether it runs, and
stopping it. Standard library only.

Python keeps one fork server per process, whatever preloads each user asks for; the
first to start it decides what it loads, and a later user's workers import what they
miss themselves.

A Ctrl-C at a terminal reaches every process of the group: this one must stop, the
fork server and its workers must not (a worker's KeyboardInterrupt was a traceback on
the terminal). So the server starts with SIGINT blocked (:func:`starting_without_sigint`:
the calling thread blocks it, and a process inherits its creator's mask) and ignores it
first thing in its preload (:func:`ignore_sigint`), before it forks anyone: its workers
start ignoring it. This process never ignores SIGINT: an earlier way (ignoring it here
while the server started) lost a Ctrl-C about one time in five, taken by another thread
(NumPy's OpenBLAS starts one) while it was ignored.
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading
from collections.abc import Iterator

__all__ = [
    "STARTING",
    "fork_server_running",
    "ignore_sigint",
    "starting_without_sigint",
    "stop_fork_server",
]

#: Held while the fork server starts or stops.
STARTING = threading.Lock()


def fork_server_running() -> bool:
    """Whether this process's fork server runs now."""
    from multiprocessing import forkserver

    return getattr(forkserver._forkserver, "_forkserver_pid", None) is not None


def stop_fork_server() -> None:
    """End the fork server if it runs (it starts again when needed)."""
    from multiprocessing import forkserver

    server = forkserver._forkserver
    with STARTING:
        pid = getattr(server, "_forkserver_pid", None)
        if pid is None:
            return
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGTERM)
        stop = getattr(server, "_stop", None)  # closes its pipes, reaps it
        if stop is not None:
            with contextlib.suppress(OSError):
                stop()


@contextlib.contextmanager
def starting_without_sigint() -> Iterator[None]:
    """Hold :data:`STARTING` and block SIGINT in this thread while the block runs, so
    that a fork server started in it starts with SIGINT blocked. This process still
    takes a Ctrl-C that comes meanwhile: another thread's, or this one's once the
    block ends."""
    from multiprocessing import resource_tracker

    # The fork server starts multiprocessing's resource tracker first, which unblocks
    # SIGINT in the calling thread when it has started its own process: started now,
    # before SIGINT is blocked here, it is left running and that step is skipped.
    resource_tracker.ensure_running()
    with STARTING:
        blocked = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        try:
            yield
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, blocked)


def ignore_sigint() -> None:
    """In the fork server, first thing in its preload: ignore SIGINT from now on (a
    Ctrl-C that came while it started, held blocked, is dropped), so that the workers
    it forks, which take the handlers it had when it began serving, ignore it too."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
