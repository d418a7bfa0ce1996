"""Work items, line results, the queue of a batch's lines and the runners that share it:
this process, serially or while a local cluster starts, and the thread that feeds the
cluster (Dask itself is imported in :mod:`plies.cluster._dask` only)."""

from __future__ import annotations

import importlib.util
import os
import re
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from plies.errors import PliesError

__all__ = [
    "HEAD_START",
    "LineJob",
    "LineQueue",
    "LineResult",
    "check_scheduler_address",
    "run_lines",
]

#: Seconds a single position is solved in this process before a local cluster is
#: started for it (:func:`plies.cluster.solve_parallel`; a cluster of two workers took
#: 1.5 to 3 s to start here, and 1 s to stop).
HEAD_START = 1.0

#: A batch on a local cluster starts the cluster once the lines left are expected to
#: take longer than this here, in seconds (the mean time of a line so far times the
#: lines left): a cluster of two workers took 1.5 to 3 s to start here, meanwhile this
#: process solves on, so only batches shorter than that are better left to it alone.
CLUSTER_WORTH = 1.5
#: ... and once the lines solved here took this long, in seconds (a mean of a few easy
#: lines is no estimate: the first lines of a batch are often slower).
SAMPLE_SECONDS = 0.2

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
    process and thread; ``threads()`` says whether lines may run on threads of one
    process at once; ``item_key``/``output_key`` name the item an output line belongs
    to, for ``--resume`` (:func:`plies.cluster.resume_items`).
    """

    def __call__(self, number: int, text: str, stop: threading.Event | None = None) -> LineResult:
        """The result of one line; ``stop`` (serial runs) abandons it."""
        ...

    def warm(self) -> None:
        """Load what every line needs, once per process and thread."""
        ...

    def threads(self) -> bool:
        """Whether lines gain from being solved on several threads of one process at
        once: their work runs in compiled code that releases the GIL."""
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
    ``workers`` processes. Starting one costs seconds, so the lines are solved here
    meanwhile: the cluster is started only once the lines left are worth it
    (:data:`CLUSTER_WORTH`), and this process hands the lines over to it when all its
    workers are ready, finishing the line it has begun (see :func:`_run_local`). A
    batch done here starts no cluster (nor imports Dask). ``stop`` (set by Ctrl-C)
    ends the run early: the lines not emitted by then are left out, never
    half-written.
    """
    if workers is None and scheduler is None:
        queue = LineQueue(items, emit, stop)
        _solve_here(queue, job, stop, lambda: False)
        return
    if importlib.util.find_spec("distributed") is None:  # say so before any line runs
        raise PliesError(NEEDS_DASK)
    queue = LineQueue(items, emit, stop)
    if scheduler is not None:
        from plies.cluster._dask import run_on_cluster

        run_on_cluster(queue, job, stop=stop, workers=None, scheduler=scheduler)
        return
    _run_local(queue, job, stop, workers or 1)


class LineQueue:
    """The items of a batch, shared by the runners that solve them (this process, a
    cluster): each claims the next few items and delivers their results, from any
    thread; :meth:`emit_due` emits them in input order, each as soon as every line
    before it is back, and only in the thread that made the queue (the caller of
    :func:`run_lines`, whose ``emit`` may write to a file or a database of its own).

    ``per_line()`` is the mean time of a line measured so far, by any runner.
    """

    def __init__(
        self, items: Sequence[Item], emit: Callable[[LineResult], None], stop: threading.Event
    ) -> None:
        self.items = items
        self._emit = emit
        self._stop = stop
        self._owner = threading.current_thread()
        self._lock = threading.Condition()
        self._next_claim = 0  # the first item not claimed yet
        self._next_emit = 0  # the first item not emitted yet
        self._done: dict[int, LineResult] = {}  # delivered, not emitted yet
        self._seconds = 0.0  # the solving time measured so far ...
        self._timed = 0  # ... and of how many lines

    def claim(self, most: int) -> tuple[int, int] | None:
        """The next ``most`` items (fewer at the end) as ``[start, end)`` indices, now
        this caller's to deliver; None when every item is claimed."""
        with self._lock:
            start = self._next_claim
            if start >= len(self.items):
                return None
            self._next_claim = min(len(self.items), start + max(1, most))
            return start, self._next_claim

    def left(self) -> int:
        """The number of items not claimed yet."""
        with self._lock:
            return len(self.items) - self._next_claim

    def per_line(self) -> float | None:
        """The mean seconds of a line so far (None before the first)."""
        with self._lock:
            return self._seconds / self._timed if self._timed else None

    def measured(self) -> float:
        """The solving seconds measured so far."""
        with self._lock:
            return self._seconds

    def deliver(self, start: int, results: Sequence[LineResult], seconds: float) -> None:
        """The results of the items claimed from ``start`` on, which took ``seconds``
        (and, in the queue's own thread, emits every result now due)."""
        with self._lock:
            self._seconds += seconds
            self._timed += len(results)
            for offset, result in enumerate(results):
                self._done[start + offset] = result
            self._lock.notify_all()
        self.emit_due()

    def emit_due(self) -> None:
        """In the queue's own thread: emit every result due, in input order (none once
        ``stop`` is set). Elsewhere: nothing."""
        if threading.current_thread() is not self._owner:
            return
        while not self._stop.is_set():
            with self._lock:
                result = self._done.pop(self._next_emit, None)
                if result is None:
                    return
                self._next_emit += 1
            self._emit(result)  # not holding the lock: the other runners deliver on

    def wait(self, seconds: float) -> None:
        """Wait for a delivery, ``seconds`` at most."""
        with self._lock:
            self._lock.wait(seconds)

    def finished(self) -> bool:
        """Whether every item is emitted."""
        with self._lock:
            return self._next_emit >= len(self.items)


def _solve_here(
    queue: LineQueue, job: LineJob, stop: threading.Event, handed_over: Callable[[], bool]
) -> None:
    """Solve the next items of ``queue`` in this process, one at a time, until none is
    left, ``stop`` is set, or ``handed_over()`` says a cluster takes the rest (a line
    begun is finished). The job is warmed first, as on a worker."""
    if queue.left():
        job.warm()
    while not stop.is_set() and not handed_over():
        claimed = queue.claim(1)
        if claimed is None:
            return
        number, text = queue.items[claimed[0]]
        started = time.perf_counter()
        result = job(number, text, stop)
        if result.abandoned:
            return
        queue.deliver(claimed[0], [result], time.perf_counter() - started)


def _run_local(queue: LineQueue, job: LineJob, stop: threading.Event, workers: int) -> None:
    """Run a batch here and on a local cluster of ``workers`` processes.

    Starting a cluster costs seconds, so this process solves the first lines
    meanwhile: on ``workers`` threads when the job's lines run without the GIL
    (:meth:`LineJob.threads`), else on this thread alone. The cluster's slowest part,
    the fork server its workers come from (a new interpreter importing Dask and loading
    the job's kernel), starts at once when a core is left for it, else once a cluster
    is worth it. Once the lines left are expected to take :data:`CLUSTER_WORTH` seconds
    here, a thread starts the cluster and feeds it the lines after the ones taken here;
    when all its workers are warm, this process takes no new line, so that at most
    ``workers`` lines are solved at once (but for the ones this process finishes). A
    batch done here starts no cluster."""
    from plies.cluster._forkserver import start_fork_server, stop_fork_server

    threads = workers if workers > 1 and job.threads() else 1
    server_at_once = threads < (os.cpu_count() or 1)
    cluster: _ClusterThread | None = None
    helpers: list[_Waited] = []  # solving lines beside this thread

    def handed_over() -> bool:  # this (the main) thread's: only it starts a cluster
        nonlocal cluster
        if any(helper.error is not None for helper in helpers):
            return True  # raised by its finish() below
        if cluster is None:
            if _worth_a_cluster(queue, threads):
                start_fork_server(job)  # at once, or now
                cluster = _ClusterThread(queue, job, stop, workers)
                cluster.start()
            return False
        return cluster.ready.is_set()

    over_here = threading.Event()  # set when this thread is done: so are its helpers

    def helper_handed_over() -> bool:
        return over_here.is_set() or (cluster is not None and cluster.ready.is_set())

    if server_at_once and queue.left() > 1:
        start_fork_server(job)
    helpers.extend(
        _Waited("plies-lines", queue, lambda: _solve_here(queue, job, stop, helper_handed_over))
        for _ in range(threads - 1)
    )
    try:
        for helper in helpers:
            helper.start()
        _solve_here(queue, job, stop, handed_over)
        for helper in helpers:
            helper.finish()
    finally:
        over_here.set()  # after an error: the helpers take no new line
        if cluster is None:
            stop_fork_server()  # not needed: done here
    if cluster is not None:
        cluster.finish()


def _worth_a_cluster(queue: LineQueue, threads: int = 1) -> bool:
    """Whether the lines left are worth starting a cluster for (see
    :data:`CLUSTER_WORTH`), solved here on ``threads`` threads."""
    per_line = queue.per_line()
    if per_line is None or queue.measured() < SAMPLE_SECONDS:
        return False
    return per_line * queue.left() / threads > CLUSTER_WORTH


class _Waited(threading.Thread):
    """A thread running ``work`` for a run whose caller waits for it with
    :meth:`finish`: meanwhile the caller emits the results delivered (and sees Ctrl-C);
    the thread's error is raised there."""

    def __init__(self, name: str, queue: LineQueue, work: Callable[[], None]) -> None:
        super().__init__(name=name, daemon=True)
        self.queue = queue
        self.work = work
        self.error: BaseException | None = None

    def run(self) -> None:
        """``work()``; an error is kept for :meth:`finish`."""
        try:
            self.work()
        except BaseException as exc:  # raised again in the caller's thread
            self.error = exc

    def finish(self) -> None:
        """Wait for the thread to end, emitting the results delivered meanwhile; raise
        its error."""
        while self.is_alive():
            self.queue.wait(0.1)
            self.queue.emit_due()
        self.join()
        self.queue.emit_due()
        if self.error is not None:
            raise self.error


class _ClusterThread(_Waited):
    """Starts a local cluster and runs the lines left of a queue on it
    (:func:`plies.cluster._dask.run_on_cluster`); ``ready`` is set once all its workers
    are warm (or the thread is over)."""

    def __init__(self, queue: LineQueue, job: LineJob, stop: threading.Event, workers: int) -> None:
        super().__init__("plies-cluster", queue, self._run_cluster)
        self.job = job
        self.stop = stop
        self.workers = workers
        self.ready = threading.Event()

    def _run_cluster(self) -> None:
        from plies.cluster._dask import run_on_cluster

        try:
            run_on_cluster(
                self.queue,
                self.job,
                stop=self.stop,
                workers=self.workers,
                scheduler=None,
                ready=self.ready,
            )
        finally:
            self.ready.set()


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
