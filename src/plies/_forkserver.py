"""The process's one multiprocessing fork server, shared by the parts of plies that
fork workers from it (a local Dask cluster's, the web lab's): whether it runs, and
stopping it. Standard library only.

Python keeps one fork server per process, whatever preloads each user asks for; the
first to start it decides what it loads, and a later user's workers import what they
miss themselves.
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading

__all__ = ["STARTING", "fork_server_running", "stop_fork_server"]

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
