"""Run a batch's lines on a Dask cluster: the one module of plies that imports Dask.

The lines go out in *chunks* (a few consecutive lines in one task), so that a thousand
easy lines do not pay Dask's few milliseconds per task each: the first chunks hold one
line, then each chunk is sized to take about :data:`CHUNK_SECONDS` at the mean time per
line measured so far, and near the end no more than a share of what is left (so the
last lines spread over every worker). At most two chunks per worker are out at a time, one
running and one waiting, so sizes follow the measurements and results come back in
about input order. A worker that dies mid-chunk loses nothing: the scheduler runs the
chunk again on another worker (``distributed.scheduler.allowed-failures`` times), and
every line is delivered once, from the one result the future holds.

The lines come from a :class:`~plies.cluster._lines.LineQueue` that this process may
be solving too, while a local cluster starts (see :func:`plies.cluster.run_lines`).
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from plies.cluster._forkserver import start_fork_server
from plies.cluster._lines import NEEDS_DASK, Item, LineJob, LineQueue, LineResult
from plies.errors import PliesError

__all__ = [
    "CHUNK_SECONDS",
    "MIN_CHUNK_SECONDS",
    "QUIET_LOCAL_CLUSTER",
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
#: Dask settings of a local cluster (its workers get them from their nanny): its
#: periodic bookkeeping, which took about 13% of two cores beside a split solve
#: (py-spy), made rarer. A worker's statistical profiler samples its threads every
#: 10 ms (half its event loop's time), the scheduler checks its event loop every
#: 20 ms, and every process reads its system figures twice a second.
QUIET_LOCAL_CLUSTER = {
    "distributed.worker.profile.enabled": False,
    "distributed.admin.tick.interval": "1s",
    "distributed.admin.system-monitor.interval": "5s",
    "distributed.admin.system-monitor.gil.enabled": False,
}


def run_on_cluster(
    queue: LineQueue,
    job: LineJob,
    *,
    stop: threading.Event,
    workers: int | None,
    scheduler: str | None,
    ready: threading.Event | None = None,
) -> None:
    """The lines of ``queue`` not claimed yet, run on a new local cluster of
    ``workers`` processes, or on the scheduler at ``scheduler`` (see
    :func:`plies.cluster.run_lines`). A local cluster's start is abandoned when
    ``stop`` is set or no line is left to claim meanwhile; ``ready`` is set once
    ``workers`` workers are warm (see :class:`_Run`)."""

    def abandon() -> bool:
        return stop.is_set() or queue.left() == 0

    try:
        with cluster_client(workers, scheduler, abandon) as client:
            expected = workers if scheduler is None else None
            _Run(client, queue, job, stop, ready=ready, expected=expected).run()
    except StartStopped:
        return  # the caller sees stop set, or every line taken


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
        method = {"distributed.worker.multiprocessing-method": "forkserver"}
        with dask.config.set(QUIET_LOCAL_CLUSTER | method):
            start_fork_server()  # started already by a batch, with its job warm
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
                # plies' own cluster: a failing line reports its error itself, and what
                # Dask logs as an error is a traceback on the user's terminal (a worker's
                # heartbeat finding the scheduler gone as the cluster closes on Ctrl-C).
                silence_logs=logging.CRITICAL,
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
    """One batch on one client: claims chunks of the queue's lines, sends them out,
    delivers their results.

    ``expected``: a local cluster of that many workers, whose start this process
    spends solving lines itself: chunks go out only to workers already warm, and
    ``ready`` is set once that many are (the other process then takes no new line)."""

    def __init__(
        self,
        client: Any,
        queue: LineQueue,
        job: LineJob,
        stop: threading.Event,
        *,
        ready: threading.Event | None = None,
        expected: int | None = None,
    ) -> None:
        self.client = client
        self.queue = queue
        self.job = job
        self.stop = stop
        self.ready = ready
        self.expected = expected
        self.pending: dict[Any, tuple[int, int]] = {}  # future -> its items [start, end)

    def run(self) -> None:
        """Send chunks, deliver results until every line claimed is back or ``stop``."""
        from distributed import wait

        workers = worker_count(self.client, wait_for_one=True)
        counted = time.monotonic()
        warming = warm_workers(self.client, self.job)
        try:
            while not self.stop.is_set():
                capacity = self._capacity(workers, warming)
                while len(self.pending) < 2 * capacity and self._submit(workers):
                    pass
                waiting = [*self.pending, *(f for f in warming if not f.done())]
                if not self.pending and (self.queue.left() == 0 or not waiting):
                    break  # every line claimed is back (the rest: another runner's)
                try:  # a short wait, so that Ctrl-C is seen soon
                    finished, _ = wait(  # type: ignore[no-untyped-call]
                        waiting, timeout=0.2, return_when="FIRST_COMPLETED"
                    )
                except TimeoutError:
                    finished = set()
                for future in finished:
                    if future in self.pending:
                        self._collect(future)
                if time.monotonic() - counted > 1:  # workers come and go: count again
                    workers, counted = worker_count(self.client), time.monotonic()
        finally:
            self.client.cancel([*warming, *self.pending])

    def _capacity(self, workers: int, warming: list[Any]) -> int:
        """The workers to keep busy now: all of them, but on a local cluster whose
        start this process spends solving, only those warm already (``ready`` is set
        when all ``expected`` are)."""
        if self.expected is None:
            return workers
        warm = sum(1 for future in warming if future.done())
        if warm >= min(self.expected, len(warming)):
            if self.ready is not None:
                self.ready.set()
            return workers
        return warm

    def _chunk_size(self, workers: int) -> int:
        """Lines in the next chunk: one until a line was timed, then about
        :data:`CHUNK_SECONDS` of lines at the mean time of a line so far, and near the
        end no more than a share of what is left per worker (unless that share is
        quicker than :data:`MIN_CHUNK_SECONDS`, where Dask's cost per task would
        outweigh the better balance). The mean of every line so far, not of the latest
        chunk: a hard set's lines vary a hundredfold, and a chunk sized by a run of easy
        ones held the next hard lines on one worker while the other waited."""
        per_line = self.queue.per_line()
        if per_line is None:
            return 1
        per_line = max(per_line, 1e-6)
        left = self.queue.left()
        share = max(left // (2 * workers), int(MIN_CHUNK_SECONDS / per_line))
        return max(1, min(int(CHUNK_SECONDS / per_line), share, MAX_CHUNK))

    def _submit(self, workers: int) -> bool:
        """Send the next chunk out; False when no line is left to claim."""
        claimed = self.queue.claim(self._chunk_size(workers))
        if claimed is None:
            return False
        start, end = claimed
        chunk = list(self.queue.items[start:end])
        future = self.client.submit(_run_chunk, self.job, chunk, pure=False)
        self.pending[future] = claimed
        return True

    def _collect(self, future: Any) -> None:
        start, end = self.pending.pop(future)
        try:
            results, seconds = future.result()
        except Exception as exc:  # a bug in the job, or a chunk that killed its workers
            first, last = self.queue.items[start][0], self.queue.items[end - 1][0]
            raise PliesError(
                f"lines {first}-{last} failed on the cluster: {type(exc).__name__}: {exc}"
            ) from None
        self.queue.deliver(start, results, seconds)
