"""Work items, line results and the serial runner (no Dask here)."""

from __future__ import annotations

import importlib.util
import math
import re
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from plies.errors import PliesError

__all__ = ["HEAD_START", "LineJob", "LineResult", "check_scheduler_address", "run_lines"]

#: Seconds of a batch run in this process before a local cluster is started for the
#: rest (a cluster of two workers took 1.5 to 3 s to start here, and 1 s to stop).
HEAD_START = 1.0

#: The error of --workers or --scheduler without Dask installed.
NEEDS_DASK = "--workers and --scheduler need Dask: pip install 'plies[cluster]'"

#: A work item: the 1-based line number in the input and the line's text.
Item = tuple[int, str]


@dataclass(frozen=True, slots=True)
class LineResult:
    """What one line of a batch gave.

    ``output`` is the line written for it (without the newline), or None when the
    line writes nothing there (a bad line in a plain-text batch); ``error`` the message
    of a bad line (without ``error: line N:``), None when the line went well;
    ``differs`` says how an answer disagrees with the one the line expected;
    ``nodes`` and ``seconds`` are the search's work. ``abandoned``: stopped by Ctrl-C
    before it finished; such a result is never emitted.
    """

    number: int
    output: str | None = None
    error: str | None = None
    differs: str | None = None
    nodes: int = 0
    seconds: float = 0.0
    abandoned: bool = False


class LineJob(Protocol):
    """A batch's work on one line: a pure function of the line, picklable (a frozen
    dataclass of options), so that a Dask worker can run it and give the same answer.

    ``warm()`` loads what every line needs (a game, a table, a compiled kernel) once per
    process; ``item_key``/``output_key`` name the item an output line belongs to, for
    ``--resume`` (:func:`plies.cluster.resume_items`).
    """

    def __call__(self, number: int, text: str, stop: threading.Event | None = None) -> LineResult:
        """The result of one line; ``stop`` (serial runs) abandons it."""
        ...

    def warm(self) -> None:
        """Load what every line needs, once per process."""
        ...

    def item_key(self, number: int, text: str) -> str:
        """The key of a work item, equal to :meth:`output_key` of its output line."""
        ...

    def output_key(self, output: str) -> str:
        """The key of the item an output line answers."""
        ...


def run_lines(
    items: Sequence[Item],
    job: LineJob,
    *,
    emit: Callable[[LineResult], None],
    stop: threading.Event,
    workers: int | None = None,
    scheduler: str | None = None,
) -> None:
    """Run ``job`` on every item and ``emit`` the results in input order.

    Serially in this process when neither ``workers`` nor ``scheduler`` is given;
    else on the Dask scheduler at ``scheduler``, or on a new local cluster of
    ``workers`` processes. Starting one costs seconds, so the first lines are run
    here for up to :data:`HEAD_START` seconds first: a batch done by then starts no
    cluster (nor imports Dask). ``stop`` (set by Ctrl-C) ends the run early: the
    lines not emitted by then are left out, never half-written.
    """
    if workers is None and scheduler is None:
        _run_here(items, job, emit=emit, stop=stop)
        return
    if importlib.util.find_spec("distributed") is None:  # say so before any line runs
        raise PliesError(NEEDS_DASK)
    if scheduler is None:
        done = _run_here(items, job, emit=emit, stop=stop, seconds=HEAD_START)
        if done == len(items) or stop.is_set():
            return
        items = items[done:]
    from plies.cluster._dask import run_on_cluster

    run_on_cluster(items, job, emit=emit, stop=stop, workers=workers, scheduler=scheduler)


def _run_here(
    items: Sequence[Item],
    job: LineJob,
    *,
    emit: Callable[[LineResult], None],
    stop: threading.Event,
    seconds: float = math.inf,
) -> int:
    """Run the first items in this process, for ``seconds`` at most (a line begun is
    finished); the number of items emitted. The job is warmed first, as on a worker."""
    if items:
        job.warm()
    started = time.monotonic()
    for done, (number, text) in enumerate(items):
        if stop.is_set() or time.monotonic() - started >= seconds:
            return done
        result = job(number, text, stop)
        if result.abandoned:
            return done
        emit(result)
    return len(items)


_ADDRESS = re.compile(r"(?:(tcp|tls)://)?(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]{1,253}):(\d{1,5})")


def check_scheduler_address(address: str) -> str:
    """The Dask scheduler address ``address`` in full form (``tcp://host:port`` or
    ``tls://host:port``; a bare ``host:port`` is TCP), or a :class:`PliesError`.

    Only these two protocols and a plain host name or IP address are accepted: the
    address is typed on the command line by the person who runs plies, never read from a
    file or a request, since everything sent to a scheduler is unpickled by its workers.
    """
    match = _ADDRESS.fullmatch(address.strip())
    if match is None or not 0 < int(match[3]) < 65536:
        raise PliesError(
            f"expected a scheduler address tcp://HOST:PORT or tls://HOST:PORT, not {address!r}"
        )
    return f"{match[1] or 'tcp'}://{match[2]}:{match[3]}"
