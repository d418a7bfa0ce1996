"""The fork server that the worker processes of plies' local clusters are forked from.

Starting it is the slow part of a cluster's start-up: a new interpreter imports Dask,
Numba and plies (:mod:`plies.cluster._preload`) and loads the batch's compiled kernel
from Numba's disk cache, a second or two of one core. A batch, or one position's
split solve, started with ``--workers`` starts it first of all (:func:`start_fork_server`,
standard library only, so a batch or a solve done here never imports Dask), and the
workers forked later from it start with all of that done.

The job reaches the server pickled in the environment variable :data:`WARM_JOB`, set
for the server's start only: it is this process's own object, never read from
elsewhere.
"""

from __future__ import annotations

import base64
import os
import pickle
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from plies._forkserver import starting_without_sigint
from plies._forkserver import stop_fork_server as stop_server

__all__ = ["WARM_JOB", "start_fork_server", "stop_fork_server"]

#: The environment variable that hands the fork server the job to warm up.
WARM_JOB = "PLIES_CLUSTER_WARM_JOB"


def start_fork_server(job: Any = None) -> None:
    """Start multiprocessing's fork server for this process (once; later calls do
    nothing), preloading Dask and plies, and warming ``job`` up there (its
    ``warm()``, see :class:`plies.cluster.LineJob`) when one is given.

    The server and the workers it forks ignore SIGINT (see :mod:`plies._forkserver`):
    Ctrl-C at a terminal, sent to every process of the group, then stops the work in
    this process only."""
    import multiprocessing
    from multiprocessing import forkserver

    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(["distributed", "plies.cluster._preload"])
    with starting_without_sigint(), _job_in_environment(job):
        forkserver.ensure_running()


def stop_fork_server() -> None:
    """End the fork server if it runs (it starts again when needed): a batch that
    started none of its cluster has no use for it. It would otherwise live on until it
    has loaded all it preloads (seconds), holding this process's standard output and
    error open: a pipe reading them (``plies ... | cat``) waited for it."""
    stop_server()


@contextmanager
def _job_in_environment(job: Any) -> Iterator[None]:
    """:data:`WARM_JOB` set to ``job`` pickled while the block runs (not if None)."""
    if job is None:
        yield
        return
    try:
        encoded = base64.b64encode(pickle.dumps(job)).decode("ascii")
    except (pickle.PicklingError, TypeError, AttributeError):  # warmed on the workers
        yield
        return
    os.environ[WARM_JOB] = encoded
    try:
        yield
    finally:
        os.environ.pop(WARM_JOB, None)


def warm_job_from_environment() -> None:
    """In the fork server: warm up the job of :data:`WARM_JOB`, if any, in a thread of
    its own, so that what the job keeps per thread (a table) goes with the thread and
    only what every process shares (the loaded kernel) stays for the workers."""
    encoded = os.environ.pop(WARM_JOB, None)
    if not encoded:
        return
    job = pickle.loads(base64.b64decode(encoded))  # our parent process's own job
    warming = threading.Thread(target=job.warm, name="plies-warm")
    warming.start()
    warming.join()
