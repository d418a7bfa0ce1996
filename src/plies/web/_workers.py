"""Worker processes that do the web lab's work, so that no request can run away with
the server.

Every request's work (parsing a tree, searching it, drawing it, a game room's engine
search) runs in one of a few worker processes forked from a fork server that has
plies loaded, compiled kernels included (:mod:`plies.web._preload`). The server's own
process only reads requests and writes replies. A worker is **stopped**, not
abandoned: past its deadline, or above its memory budget (its resident size is
watched every :data:`WATCH_SECONDS`), it is killed and a fresh one forked in its place,
so neither CPU nor memory outlives the request that asked for it. A streamed search
is asked to stop first (a stop flag its loops check) and killed only if it does not
end within :data:`STOP_GRACE` seconds.

:class:`WorkerPool` is used from worker threads of the event loop (every call blocks):
:meth:`WorkerPool.call` runs a function and returns its value, :meth:`WorkerPool.stream`
runs a generator function and yields what it yields. The functions must be
module-level (they are sent by name); they get plain data and return plain data.
plies' own errors come back as :class:`WorkerRefusal` with the message (and a parse
error's line and column); any other exception is a bug, raised as
:class:`WorkerCrash` with the worker's traceback.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import signal
import threading
import time
import traceback
from collections.abc import Callable, Generator, Iterator
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any

from plies._forkserver import (
    STARTING,
    fork_server_running,
    starting_without_sigint,
    stop_fork_server,
)
from plies.errors import LimitError, PliesError

__all__ = [
    "BusyError",
    "WorkerCrash",
    "WorkerPool",
    "WorkerRefusal",
    "WorkerTimeout",
]

#: How often the memory of busy workers is looked at.
WATCH_SECONDS = 0.05
#: How long a streamed search may take to end after it was asked to stop.
STOP_GRACE = 1.0
#: Requests that may wait for a worker, per worker, before the server answers busy.
WAITING_PER_WORKER = 8
#: The fork server's preload: plies, its compiled kernels, warmed (see the module).
PRELOAD = "plies.web._preload"
#: A worker's first message: plies is loaded, its resident size is its budget's base
#: (a fork server started by other work, without the preload, leaves the import to
#: the worker: tens of MB counted against its first request otherwise).
READY = ("ready", -1, None)
#: How long a new worker may take to load plies before it is given up.
READY_SECONDS = 120.0

_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096

#: The pools open now, and whether a pool started the fork server (then the last one
#: to close stops it, so that it outlives no server: a cluster started later in the
#: same process gets a fork server with its own preload).
_OPEN: set[WorkerPool] = set()
_STARTED_SERVER = [False]


class BusyError(PliesError):
    """Every worker is busy and too many requests wait: try again in a moment (429)."""


class WorkerTimeout(LimitError):
    """The work ran past its deadline and its worker was killed."""


class WorkerRefusal(PliesError):
    """plies refused the request in a worker: ``message`` in one line, and a parse
    error's ``line`` and ``column``."""

    def __init__(self, message: str, line: int | None = None, column: int | None = None) -> None:
        super().__init__(message)
        self.line = line
        self.column = column


class WorkerCrash(Exception):
    """A worker raised something that is not plies' error (a bug) or died: the
    worker's ``detail`` (its traceback) is for the server's log, not the client."""

    def __init__(self, detail: str) -> None:
        super().__init__("the server failed on this request")
        self.detail = detail


# -- in the worker --------------------------------------------------------------------


def _describe(exc: BaseException) -> dict[str, Any]:
    return {
        "message": " ".join(str(exc).split()),
        "line": getattr(exc, "line", None),
        "column": getattr(exc, "column", None),
    }


def _serve(conn: Connection) -> None:
    """A worker's life: run the jobs that come over ``conn``, one at a time, and send
    back what they return, yield or raise. A thread listens meanwhile for a stop
    request of the job under way. Ends when the server closes the connection."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the server's to handle
    __import__(PRELOAD)  # done already where the fork server preloaded it
    conn.send(READY)  # the server measures its memory budget's base from now on
    jobs: list[tuple[Any, ...]] = []
    have_job = threading.Condition()
    current = [-1]
    stop = threading.Event()
    sending = threading.Lock()

    def listen() -> None:
        try:
            while True:
                message = conn.recv()
                if message[0] == "stop":
                    if message[1] == current[0]:
                        stop.set()
                    continue
                with have_job:
                    jobs.append(message)
                    have_job.notify()
        except (EOFError, OSError):
            os._exit(0)  # the server is gone: so is its work

    def send(*message: Any) -> None:
        with sending:
            conn.send(message)

    threading.Thread(target=listen, name="plies-worker-listen", daemon=True).start()
    while True:
        with have_job:
            while not jobs:
                have_job.wait()
            _, job_id, function, args, kwargs, streamed = jobs.pop(0)
        stop.clear()
        current[0] = job_id
        try:
            if streamed:
                for item in function(*args, stop=stop, **kwargs):
                    send("item", job_id, item)
                send("done", job_id, None)
            else:
                send("done", job_id, function(*args, **kwargs))
        except PliesError as exc:
            send("refused", job_id, _describe(exc))
        except MemoryError:
            with contextlib.suppress(Exception):
                send("memory", job_id, None)
            os._exit(1)  # what was half built is not worth keeping
        except Exception:
            send("crash", job_id, traceback.format_exc())
        current[0] = -1


# -- in the server --------------------------------------------------------------------


def _resident_bytes(pid: int) -> int | None:
    """A process's resident size (Linux: /proc/PID/statm), None where unknown."""
    try:
        with open(f"/proc/{pid}/statm", "rb") as statm:
            return int(statm.read().split()[1]) * _PAGE
    except (OSError, ValueError, IndexError):
        return None


def _ready(conn: Connection) -> bool:
    """Whether the worker at the other end of ``conn`` said :data:`READY` in time."""
    try:
        return bool(conn.poll(READY_SECONDS)) and conn.recv() == READY
    except (EOFError, OSError):
        return False


@dataclass(eq=False)
class _Worker:
    process: Any
    conn: Connection
    #: Resident bytes when it started: its budget comes on top.
    base: int = 0
    busy: bool = False
    #: Why it was killed, if it was ("time" or "memory").
    killed: str | None = None
    #: How long its start took, until its first job: a fork server that starts with
    #: it loads and warms plies first (seconds, more with Numba's cache cold), which
    #: that job's time limit does not count.
    starting: float = 0.0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def kill(self, why: str) -> None:
        with self.lock:
            if self.killed is None:
                self.killed = why
            with contextlib.suppress(OSError, ValueError, AttributeError):
                self.process.kill()

    def reap(self) -> None:
        with contextlib.suppress(Exception):
            self.process.join(2)
        with contextlib.suppress(OSError):
            self.conn.close()


class WorkerPool:
    """Up to ``size`` worker processes, each allowed ``memory`` bytes above its
    size at start (None: unwatched), doing ``what`` (for messages). Workers start
    when first needed (or with :meth:`start`) and live until :meth:`close`."""

    def __init__(
        self, *, size: int, memory: int | None, name: str = "plies-web", what: str = "requests"
    ) -> None:
        if size < 1:
            raise ValueError(f"a pool needs at least one worker, not {size}")
        self.size = size
        self.memory = memory
        self.name = name
        self.what = what
        self._idle: list[_Worker] = []
        self._busy: set[_Worker] = set()
        self._starting = 0
        self._waiting = 0
        self._changed = threading.Condition()
        self._ids = itertools.count()
        self._closed = False
        self._watcher: threading.Thread | None = None

    # Workers coming and going -------------------------------------------------------

    def start(self, count: int | None = None) -> None:
        """Start ``count`` workers now (default: all), waiting until they run: the
        fork server loads and warms plies first, so the first request finds it ready."""
        count = self.size if count is None else min(count, self.size)
        with self._changed:
            missing = count - len(self._idle) - len(self._busy) - self._starting
            self._starting += max(0, missing)
        for _ in range(max(0, missing)):
            worker = self._spawn()
            worker.starting = 0.0  # started ahead of any request
            with self._changed:
                self._starting -= 1
                self._idle.append(worker)
                self._changed.notify()

    def _spawn(self) -> _Worker:
        import multiprocessing
        from multiprocessing import forkserver

        began = time.monotonic()
        context = multiprocessing.get_context("forkserver")
        with starting_without_sigint():
            if not fork_server_running():
                context.set_forkserver_preload([PRELOAD])
                forkserver.ensure_running()
                _STARTED_SERVER[0] = True
            _OPEN.add(self)
        ours, theirs = context.Pipe()
        process = context.Process(target=_serve, args=(theirs,), name=self.name, daemon=True)
        process.start()
        theirs.close()
        if not _ready(ours):
            process.kill()
            raise LimitError(f"a worker did not start within {READY_SECONDS:g} s")
        worker = _Worker(process, ours, starting=time.monotonic() - began)
        worker.base = _resident_bytes(process.pid or 0) or 0
        self._watch()
        return worker

    def _watch(self) -> None:
        if self.memory is None or self._watcher is not None:
            return
        self._watcher = threading.Thread(target=self._watching, name="plies-watch", daemon=True)
        self._watcher.start()

    def _watching(self) -> None:
        """Kill a busy worker whose resident size grew past its budget (until the
        pool closes: then this thread is no longer its watcher)."""
        assert self.memory is not None
        while self._watcher is threading.current_thread():
            with self._changed:
                busy = list(self._busy)
            for worker in busy:
                size = _resident_bytes(worker.process.pid or 0)
                if size is not None and size > worker.base + self.memory:
                    worker.kill("memory")
            time.sleep(WATCH_SECONDS)

    def close(self) -> None:
        """Stop every worker (busy ones too: their requests are answered busy). The
        pool can be used again: workers start when next needed."""
        with self._changed:
            self._closed = True
            workers = [*self._idle, *self._busy]
            self._idle.clear()
            self._watcher = None
            self._changed.notify_all()
        for worker in workers:
            worker.kill("closed")
        for worker in workers:
            worker.reap()
        with self._changed:
            self._closed = False
        with STARTING:
            _OPEN.discard(self)
            last = not _OPEN and _STARTED_SERVER[0]
            _STARTED_SERVER[0] = _STARTED_SERVER[0] and not last
        if last:
            stop_fork_server()

    def pids(self) -> list[int]:
        """The process ids of the workers alive now."""
        with self._changed:
            return [w.process.pid for w in [*self._idle, *self._busy]]

    def _acquire(self, deadline: float, *, patient: bool = True) -> _Worker:
        with self._changed:
            if self._closed:
                raise BusyError("the server is shutting down")
            full = len(self._busy) + self._starting >= self.size
            if not self._idle and full and not patient:
                raise BusyError(
                    f"{self.what}: this server runs at most {self.size} at once, and they "
                    "all run now; try again when one has ended"
                )
            if not self._idle and self._waiting >= WAITING_PER_WORKER * self.size:
                raise BusyError(
                    f"the server is busy ({self._waiting} requests wait); try again in a moment"
                )
            self._waiting += 1
            try:
                while not self._idle:
                    alive = len(self._busy) + self._starting
                    if alive < self.size:
                        self._starting += 1
                        break
                    left = deadline - time.monotonic()
                    if left <= 0 or self._closed:
                        raise BusyError("the server was busy for this request's whole time limit")
                    self._changed.wait(left)
                else:
                    worker = self._idle.pop()
                    worker.busy = True
                    self._busy.add(worker)
                    return worker
            finally:
                self._waiting -= 1
        try:  # a new worker, started outside the lock
            worker = self._spawn()
        finally:
            with self._changed:
                self._starting -= 1
        with self._changed:
            worker.busy = True
            self._busy.add(worker)
        return worker

    def _release(self, worker: _Worker, *, keep: bool) -> None:
        with self._changed:
            self._busy.discard(worker)
            worker.busy = False
            if keep and worker.killed is None and not self._closed:
                self._idle.append(worker)
            self._changed.notify()
        if not keep or worker.killed is not None:
            worker.kill("retired")
            worker.reap()

    # Work ---------------------------------------------------------------------------

    def call(
        self,
        function: Callable[..., Any],
        *args: Any,
        deadline: float,
        patient: bool = True,
        **kwargs: Any,
    ) -> Any:
        """``function(*args, **kwargs)`` in a worker; its value. Past ``deadline``
        (``time.monotonic()``) the worker is killed and :class:`LimitError` raised.
        With every worker busy, waits for one (until ``deadline``) if ``patient``,
        else raises :class:`BusyError` at once."""
        run = self._run(function, args, kwargs, deadline, patient=patient, streamed=False)
        try:
            for kind, payload in run:
                if kind == "done":
                    return payload
        finally:
            run.close()
        raise WorkerCrash("the worker sent nothing")  # pragma: no cover

    def stream(
        self,
        function: Callable[..., Iterator[Any]],
        *args: Any,
        deadline: float,
        stop: threading.Event,
        patient: bool = True,
        **kwargs: Any,
    ) -> Iterator[Any]:
        """The items ``function(*args, stop=..., **kwargs)`` yields in a worker, as
        they come. Setting ``stop`` asks the worker's generator to stop (through its
        own ``stop`` flag); one that has not ended :data:`STOP_GRACE` seconds later,
        or at ``deadline``, is killed (:class:`LimitError` at the deadline)."""
        run = self._run(function, args, kwargs, deadline, patient=patient, streamed=True, stop=stop)
        for kind, payload in run:
            if kind == "item":
                yield payload

    def _run(
        self,
        function: Callable[..., Any],
        args: tuple[Any, ...],
        kwargs: dict[str, Any],
        deadline: float,
        *,
        patient: bool,
        streamed: bool,
        stop: threading.Event | None = None,
    ) -> Generator[tuple[str, Any], None, None]:
        worker = self._acquire(deadline, patient=patient)
        deadline += worker.starting  # a worker started for this job: its start is free
        worker.starting = 0.0
        job_id = next(self._ids)
        keep = False
        try:
            worker.conn.send(("job", job_id, function, args, kwargs, streamed))
            stop_sent: float | None = None
            while True:
                now = time.monotonic()
                if stop is not None and stop.is_set() and stop_sent is None:
                    worker.conn.send(("stop", job_id))
                    stop_sent = now
                if stop_sent is not None and now > stop_sent + STOP_GRACE:
                    worker.kill("stopped")
                    return
                if now >= deadline:
                    worker.kill("time")
                    raise WorkerTimeout("the request ran past this server's time limit")
                wait = deadline - now
                if stop is not None:
                    wait = min(wait, 0.01)  # also look at the stop flag this often
                if not worker.conn.poll(wait):
                    continue
                kind, answered, payload = worker.conn.recv()
                if answered != job_id:  # pragma: no cover - one job at a time
                    raise WorkerCrash(f"worker answered job {answered}, not {job_id}")
                if kind == "done":
                    keep = True
                    yield kind, payload
                    return
                if kind == "item":
                    yield kind, payload
                    continue
                keep = kind == "refused"  # after a crash, a fresh worker
                if kind == "refused":
                    raise WorkerRefusal(payload["message"], payload["line"], payload["column"])
                if kind == "memory":
                    raise LimitError(self._memory_message())
                raise WorkerCrash(str(payload))
        except (EOFError, OSError):
            if worker.killed == "memory":
                raise LimitError(self._memory_message()) from None
            if worker.killed == "time":
                raise WorkerTimeout("the request ran past this server's time limit") from None
            if worker.killed == "stopped":
                return
            if worker.killed == "closed":
                raise BusyError("the server is shutting down") from None
            raise WorkerCrash("the worker died") from None
        finally:
            self._release(worker, keep=keep)

    def _memory_message(self) -> str:
        limit = "" if self.memory is None else f" of {self.memory // 2**20:,} MB"
        return f"the request needed more memory than this server's limit{limit} per request"
