"""Run a batch's lines on a Dask cluster: the one module of plies that imports Dask.

The lines go out in *chunks* (a few consecutive lines in one task), so that a thousand
easy lines do not pay Dask's few milliseconds per task each: the first chunks hold one
line, then each chunk is sized to take about :data:`CHUNK_SECONDS` at the mean time per
line measured so far, and near the end no more than a share of what is left (so the
last lines spread over every worker). At most two chunks per worker are out at a time, one
running and one waiting, so sizes follow the measurements and results come back in
about input order. A worker that dies mid-chunk loses nothing: the scheduler runs the
chunk again on another worker (``distributed.scheduler.allowed-failures`` times), and
every line is emitted once, from the one result the future holds.
"""

from __future__ import annotations

import contextlib
import logging
import signal
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from plies.cluster._lines import NEEDS_DASK, Item, LineJob, LineResult
from plies.errors import PliesError

__all__ = [
    "CHUNK_SECONDS",
    "MIN_CHUNK_SECONDS",
    "cluster_client",
    "run_on_cluster",
    "warm_workers",
    "worker_count",
]

#: The time one chunk should take on a worker, in seconds: long beside Dask's cost
#: per task (a few ms), short enough to keep results flowing and the tail short.
CHUNK_SECONDS = 0.25
#: The time of the shortest chunk worth sending on its own, in seconds.
MIN_CHUNK_SECONDS = 0.1
#: Lines in one chunk at most.
MAX_CHUNK = 2000
#: Seconds to wait for a scheduler to answer, and for its first worker.
CONNECT_SECONDS = 10
#: Seconds between two looks at the stop request while a local cluster starts.
STOP_GAP = 0.1


def run_on_cluster(
    items: Sequence[Item],
    job: LineJob,
    *,
    emit: Callable[[LineResult], None],
    stop: threading.Event,
    workers: int | None,
    scheduler: str | None,
) -> None:
    """:func:`plies.cluster.run_lines` on a new local cluster of ``workers``
    processes, or on the scheduler at ``scheduler``."""
    try:
        with cluster_client(workers, scheduler, stop.is_set) as client:
            _Run(client, items, job, emit, stop).run()
    except StartStopped:
        return  # the caller sees stop set


@contextmanager
def cluster_client(
    workers: int | None, scheduler: str | None, stop: Callable[[], bool] | None = None
) -> Iterator[Any]:
    """A Dask client of a new LocalCluster of ``workers`` single-threaded processes,
    or of the scheduler at ``scheduler`` (with Dask's TLS settings for ``tls://``).

    ``stop`` (Ctrl-C) is read while the LocalCluster starts (seconds): when it says
    so, :class:`StartStopped` is raised at once, and the cluster is closed as soon as
    it is up (in the background, or by Dask when Python exits, which waits for it)."""
    try:
        from distributed import Client
    except ImportError:
        raise PliesError(NEEDS_DASK) from None
    if scheduler is None:
        import dask

        # Worker processes forked from a server started with SIGINT ignored ignore it
        # too, however this process handles it meanwhile (see _start_forkserver).
        with dask.config.set({"distributed.worker.multiprocessing-method": "forkserver"}):
            _start_forkserver()
            cluster = _start_local_cluster(workers, stop)
            try:
                with Client(cluster) as client:  # type: ignore[no-untyped-call]
                    yield client
            finally:
                cluster.close()
        return
    security = _security(scheduler)
    try:
        client = Client(  # type: ignore[no-untyped-call]
            scheduler, security=security, timeout=CONNECT_SECONDS
        )
    except (OSError, TimeoutError, TypeError, ValueError) as exc:  # TypeError: bad TLS
        raise PliesError(f"cannot reach the Dask scheduler at {scheduler}: {exc}") from None
    with client:
        yield client


class StartStopped(Exception):
    """A stop request came while the local cluster started."""


def _start_local_cluster(workers: int | None, stop: Callable[[], bool] | None) -> Any:
    """A new LocalCluster, started in a thread while this one watches ``stop``."""
    from distributed import LocalCluster

    box: list[Any] = []
    abandoned = threading.Event()

    def start() -> None:
        try:
            cluster = LocalCluster(  # type: ignore[no-untyped-call]
                n_workers=workers,
                threads_per_worker=1,
                processes=True,
                dashboard_address="127.0.0.1:0",  # None still took port 8787 if free
                silence_logs=logging.ERROR,
            )
        except BaseException as exc:  # raised again in the caller's thread
            box.append(exc)
            return
        box.append(cluster)
        if abandoned.is_set():
            with contextlib.suppress(BaseException):  # the interpreter may be exiting
                cluster.close()

    starter = threading.Thread(target=start, name="plies-cluster-start", daemon=True)
    starter.start()
    while starter.is_alive():
        starter.join(STOP_GAP)
        if stop is not None and stop() and starter.is_alive():
            abandoned.set()
            # The cluster is closed when it is up, or when Python exits (Dask waits for
            # its start then: seconds); what its close logs then is noise.
            logging.getLogger("distributed").setLevel(logging.CRITICAL)
            raise StartStopped
    if isinstance(box[0], BaseException):
        raise box[0]
    return box[0]


def _start_forkserver() -> None:
    """Start multiprocessing's fork server (once per process) with SIGINT ignored, so
    that the worker processes it forks ignore it: Ctrl-C at a terminal, sent to every
    process of the group, then stops the work in this process only (a worker's
    KeyboardInterrupt was a traceback on the terminal). Python installs no handler of
    its own for a signal it starts ignoring, and the server gives its children the
    handlers it started with. Only the start of the server (milliseconds) ignores
    SIGINT here: a Ctrl-C while the cluster starts is seen (it was lost while every
    worker process was spawned with SIGINT ignored)."""
    import multiprocessing
    from multiprocessing import forkserver

    context = multiprocessing.get_context("forkserver")
    # Workers start without importing these (see plies.cluster._preload).
    context.set_forkserver_preload(["distributed", "plies.cluster._preload"])
    with _sigint_ignored():
        forkserver.ensure_running()


@contextmanager
def _sigint_ignored() -> Iterator[None]:
    """SIGINT ignored while the block runs (in the main thread)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def _security(address: str) -> Any:
    """Dask's TLS settings (``distributed.comm.tls.*`` in its configuration: files or
    ``DASK_DISTRIBUTED__COMM__TLS__...`` variables) for a ``tls://`` address."""
    if not address.startswith("tls://"):
        return None
    from distributed.security import Security

    security = Security()  # type: ignore[no-untyped-call]
    if getattr(security, "tls_ca_file", None) is None:  # set from the configuration
        raise PliesError(
            f"{address} needs TLS settings: Dask's distributed.comm.tls.ca-file, "
            ".client.cert and .client.key (or --tls-ca, --tls-cert and --tls-key)"
        )
    return security


def _run_chunk(job: LineJob, chunk: Sequence[Item]) -> tuple[list[LineResult], float]:
    """On a worker: the results of consecutive lines and the seconds they took."""
    started = time.perf_counter()
    results = [job(number, text) for number, text in chunk]
    return results, time.perf_counter() - started


def _warm(job: Any) -> None:
    """On a worker: load what every line needs before the clock starts."""
    job.warm()


def warm_workers(client: Any, job: Any) -> list[Any]:
    """Warm every worker of ``client`` up (``job.warm()``, see :meth:`LineJob.warm`)
    in the thread that runs its tasks, first of all its tasks (so that no task's
    timing pays for it); workers that join later warm up on their first task. The
    futures, to keep until the end (a future let go is forgotten by the scheduler)."""
    addresses = list(client.scheduler_info(n_workers=-1)["workers"])
    return [
        client.submit(
            _warm,
            job,
            workers=[address],
            allow_other_workers=True,  # a worker that left: another warms up twice
            priority=1,
            pure=False,
        )
        for address in addresses
    ]


def worker_count(client: Any, *, wait_for_one: bool = False) -> int:
    """The number of workers of ``client``'s cluster now (at least 1), first waiting
    :data:`CONNECT_SECONDS` at most for one if asked (else a :class:`PliesError`)."""
    if wait_for_one:
        try:
            client.wait_for_workers(1, timeout=CONNECT_SECONDS)
        except TimeoutError:
            message = f"the Dask scheduler has no worker after {CONNECT_SECONDS} s"
            raise PliesError(message) from None
    return max(1, len(client.scheduler_info(n_workers=-1)["workers"]))


class _Run:
    """One batch on one client: hands out chunks, collects and emits in order."""

    def __init__(
        self,
        client: Any,
        items: Sequence[Item],
        job: LineJob,
        emit: Callable[[LineResult], None],
        stop: threading.Event,
    ) -> None:
        self.client = client
        self.items = items
        self.job = job
        self.emit = emit
        self.stop = stop
        self.next_item = 0  # the first item not yet sent
        self.next_emit = 0  # the first item not yet emitted
        self.done: dict[int, LineResult] = {}  # finished, waiting for earlier lines
        self.pending: dict[Any, tuple[int, int]] = {}  # future -> its items [start, end)
        self.per_line: float | None = None  # seconds a line takes, lately

    def run(self) -> None:
        """Send chunks, collect results until every line is emitted or ``stop``."""
        from distributed import wait

        workers = worker_count(self.client, wait_for_one=True)
        counted = time.monotonic()
        warming = warm_workers(self.client, self.job)
        try:
            while self.next_emit < len(self.items) and not self.stop.is_set():
                while self.next_item < len(self.items) and len(self.pending) < 2 * workers:
                    self._submit(workers)
                try:  # a short wait, so that Ctrl-C is seen soon
                    finished, _ = wait(  # type: ignore[no-untyped-call]
                        list(self.pending), timeout=0.2, return_when="FIRST_COMPLETED"
                    )
                except TimeoutError:
                    finished = set()
                for future in finished:
                    self._collect(future)
                if time.monotonic() - counted > 1:  # workers come and go: count again
                    workers, counted = worker_count(self.client), time.monotonic()
        finally:
            self.client.cancel([*warming, *self.pending])

    def _chunk_size(self, workers: int) -> int:
        """Lines in the next chunk: one until a chunk was timed, then about
        :data:`CHUNK_SECONDS` of lines, and near the end no more than a share of what
        is left per worker (unless that share is quicker than :data:`MIN_CHUNK_SECONDS`,
        where Dask's cost per task would outweigh the better balance)."""
        if self.per_line is None:
            return 1
        per_line = max(self.per_line, 1e-6)
        left = len(self.items) - self.next_item
        share = max(left // (2 * workers), int(MIN_CHUNK_SECONDS / per_line))
        return max(1, min(int(CHUNK_SECONDS / per_line), share, MAX_CHUNK))

    def _submit(self, workers: int) -> None:
        start = self.next_item
        end = min(len(self.items), start + self._chunk_size(workers))
        chunk = list(self.items[start:end])
        future = self.client.submit(_run_chunk, self.job, chunk, pure=False)
        self.pending[future] = (start, end)
        self.next_item = end

    def _collect(self, future: Any) -> None:
        start, end = self.pending.pop(future)
        try:
            results, seconds = future.result()
        except Exception as exc:  # a bug in the job, or a chunk that killed its workers
            first, last = self.items[start][0], self.items[end - 1][0]
            raise PliesError(
                f"lines {first}-{last} failed on the cluster: {type(exc).__name__}: {exc}"
            ) from None
        # The mean of the latest chunks, mostly: a worker's first lines are slower.
        latest = seconds / (end - start)
        self.per_line = latest if self.per_line is None else (self.per_line + latest) / 2
        for offset, result in enumerate(results):
            self.done[start + offset] = result
        while self.next_emit in self.done and not self.stop.is_set():
            self.emit(self.done.pop(self.next_emit))
            self.next_emit += 1
