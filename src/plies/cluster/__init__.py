"""Batches of independent lines, run in this process or on a Dask cluster.

A batch is a list of work items, ``(line number, text)``, and a *line job*: a
picklable, pure callable ``job(number, text) -> LineResult`` that turns one line into
its output line (see :class:`LineJob`). :func:`run_lines` runs the job on every item
and hands the results to ``emit`` in input order, each as soon as it and every line
before it are done: serially in this process, or on a ``distributed.LocalCluster`` of
``workers`` single-threaded processes, or on an existing Dask scheduler. The output
never depends on where the lines ran.

Dask (``distributed``, the extra ``plies[cluster]``) is imported only by
:mod:`plies.cluster._dask`, and only when a batch runs on a cluster: serial batches and
``import plies.cluster`` never load it. Dask moves pickled objects between the client
and the workers, so a cluster must be trusted; a scheduler address comes from the
command line only (:func:`check_scheduler_address`); a ``tls://`` address takes
Dask's TLS configuration (``distributed.comm.tls.*``), or the files of :func:`tls_files`.

:func:`solve_parallel` solves one hard position on the workers of a cluster, with
exactly the serial solver's result (see :mod:`plies.cluster._split`).
"""

from __future__ import annotations

from plies.cluster._lines import LineJob, LineResult, check_scheduler_address, run_lines
from plies.cluster._resume import resume_items
from plies.cluster._split import solve_parallel
from plies.cluster._tls import tls_files

__all__ = [
    "LineJob",
    "LineResult",
    "check_scheduler_address",
    "resume_items",
    "run_lines",
    "solve_parallel",
    "tls_files",
]
