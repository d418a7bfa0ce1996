"""``plies.cluster`` without Dask: scheduler addresses, the serial runner, ``--resume``'s
matching, that a serial batch never imports Dask, and the queue of lines that this
process and a cluster share."""

from __future__ import annotations

import random
import threading
import time
from dataclasses import dataclass, field

import pytest

from cluster_helpers import pons_lines, run_python
from plies.cli._solve import SolveLines
from plies.cli._tree import TreeLines
from plies.cluster import LineResult, check_scheduler_address, resume_items, run_lines
from plies.cluster._lines import CLUSTER_WORTH, SAMPLE_SECONDS, LineQueue, _worth_a_cluster
from plies.errors import PliesError
from plies.lab import LabOptions


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        ("tcp://127.0.0.1:8786", "tcp://127.0.0.1:8786"),
        ("127.0.0.1:8786", "tcp://127.0.0.1:8786"),
        ("tls://scheduler.example.org:8786", "tls://scheduler.example.org:8786"),
        ("tcp://[::1]:8786", "tcp://[::1]:8786"),
    ],
)
def test_scheduler_addresses(given: str, expected: str) -> None:
    assert check_scheduler_address(given) == expected


@pytest.mark.parametrize(
    "given",
    [
        "",
        "8786",
        "http://127.0.0.1:8786",
        "ws://h:1",
        "tcp://h:0",
        "tcp://h:99999",
        "a b:1",
        "tcp://h:1/path",
        "ucx://h:1",
    ],
)
def test_bad_scheduler_addresses_are_refused(given: str) -> None:
    with pytest.raises(PliesError, match="expected a scheduler address"):
        check_scheduler_address(given)


def test_serial_run_emits_every_line_in_order() -> None:
    job = SolveLines("nim")
    emitted: list[LineResult] = []
    items = [(1, "1,2,3"), (3, "bad"), (4, "3,4,5 1")]
    run_lines(items, job, emit=emitted.append, stop=threading.Event())
    assert [r.number for r in emitted] == [1, 3, 4]
    assert emitted[0].output == "1,2,3 loss:6" and emitted[0].error is None
    assert emitted[1].output is None and emitted[1].error  # a bad line: stderr only
    # Nim keeps no score: a last number is a heap, as plies solve nim '3,4,5 1' reads it.
    assert emitted[2].output == "3,4,5 1 win:11" and emitted[2].differs is None


def test_a_set_stop_runs_nothing() -> None:
    stop = threading.Event()
    stop.set()
    emitted: list[LineResult] = []
    run_lines([(1, "1,2,3")], SolveLines("nim"), emit=emitted.append, stop=stop)
    assert emitted == []


def test_resume_skips_what_the_output_answers() -> None:
    items = [(1, "44"), (2, "zz"), (4, "45"), (5, "46"), (6, "47")]
    job = SolveLines("connect4")
    # 44 answered, zz bad (no output line), 45 answered: 46 and 47 are left.
    assert resume_items(items, ["44 -1", "45 2"], job) == [(5, "46"), (6, "47")]
    assert resume_items(items, [], job) == items
    with pytest.raises(PliesError, match=r"output line 2 .* answers no line"):
        resume_items(items, ["44 -1", "33 2"], job)
    json_job = SolveLines("connect4", json=True)
    assert resume_items(items, ['{"line": 1}', '{"line": 2, "error": "x"}'], json_job) == items[2:]
    tree_job = TreeLines(LabOptions())
    assert resume_items(items, ['{"line":4,"value":3}'], tree_job) == items[3:]


def test_small_batches_never_import_dask() -> None:
    # Without --workers never; with it, not for a batch done within the head start.
    code = (
        "import sys, io; from plies.cli import main;"
        "sys.stdin = io.StringIO('2252576253462244111563\\n');"
        "status = main(['solve', 'connect4', '--batch', '-', '--workers', '2']);"
        "assert 'distributed' not in sys.modules and 'dask' not in sys.modules, 'dask loaded';"
        "sys.exit(status)"
    )
    done = run_python(code, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("2252576253462244111563 ")


def queue_of(count: int, stop: threading.Event | None = None) -> tuple[LineQueue, list[LineResult]]:
    """A LineQueue of ``count`` items and the list its results are emitted to."""
    emitted: list[LineResult] = []
    items = [(number, f"line {number}") for number in range(1, count + 1)]
    return LineQueue(items, emitted.append, stop or threading.Event()), emitted


def first(claimed: tuple[int, int] | None) -> int:
    """The first index of a claim (there must be one)."""
    assert claimed is not None
    return claimed[0]


def test_a_queue_emits_in_input_order_whoever_delivers() -> None:
    queue, emitted = queue_of(5)
    assert queue.claim(2) == (0, 2) and queue.claim(1) == (2, 3) and queue.left() == 2
    queue.deliver(2, [LineResult(3)], 0.5)  # waits for lines 1 and 2
    assert emitted == [] and queue.per_line() == 0.5
    queue.deliver(0, [LineResult(1), LineResult(2)], 0.1)
    assert [r.number for r in emitted] == [1, 2, 3]
    assert queue.per_line() == pytest.approx(0.2) and queue.measured() == pytest.approx(0.6)
    assert queue.claim(10) == (3, 5) and queue.claim(1) is None and not queue.finished()
    queue.deliver(3, [LineResult(4), LineResult(5)], 0.0)
    assert queue.finished() and [r.number for r in emitted] == [1, 2, 3, 4, 5]


def test_a_queue_shared_by_threads_answers_every_line_once_in_order() -> None:
    # Results come from any thread; they are emitted in the queue's own thread only
    # (a batch's output may be a database connection of that thread's).
    emitted: list[tuple[int, str]] = []
    items = [(number, "") for number in range(1, 2001)]

    def emit(result: LineResult) -> None:
        emitted.append((result.number, threading.current_thread().name))

    queue = LineQueue(items, emit, threading.Event())
    rng = random.Random(13)
    sizes = [[rng.randint(1, 40) for _ in range(400)] for _ in range(4)]

    def runner(chunks: list[int]) -> None:
        for size in chunks:
            claimed = queue.claim(size)
            if claimed is None:
                return
            start, end = claimed
            time.sleep(rng.random() / 2000)  # out of order, now and then
            queue.deliver(start, [LineResult(n) for n, _ in queue.items[start:end]], 0.0)

    threads = [threading.Thread(target=runner, args=(chunks,)) for chunks in sizes]
    for thread in threads:
        thread.start()
    while any(thread.is_alive() for thread in threads):
        queue.wait(0.01)
        queue.emit_due()
    queue.emit_due()
    assert emitted == [(number, "MainThread") for number in range(1, 2001)]
    assert queue.finished()


def test_a_stopped_queue_emits_nothing_more() -> None:
    stop = threading.Event()
    queue, emitted = queue_of(3, stop)
    queue.deliver(first(queue.claim(1)), [LineResult(1)], 0.0)
    stop.set()
    queue.deliver(first(queue.claim(2)), [LineResult(2), LineResult(3)], 0.0)
    assert [r.number for r in emitted] == [1]


def test_a_cluster_is_worth_starting_for_lines_left_that_take_long() -> None:
    queue, _ = queue_of(100)
    assert not _worth_a_cluster(queue)  # nothing measured
    queue.deliver(first(queue.claim(1)), [LineResult(1)], SAMPLE_SECONDS / 2)
    assert not _worth_a_cluster(queue)  # too little measured to say
    queue.deliver(first(queue.claim(1)), [LineResult(2)], SAMPLE_SECONDS)
    per_line = queue.per_line()
    assert per_line is not None and per_line * 98 > CLUSTER_WORTH
    assert _worth_a_cluster(queue)
    quick, _ = queue_of(1000)
    quick.deliver(first(quick.claim(500)), [LineResult(n) for n in range(500)], SAMPLE_SECONDS)
    assert SAMPLE_SECONDS / 500 * 500 < CLUSTER_WORTH
    assert not _worth_a_cluster(quick)  # 500 lines left of 0.4 ms each: done here


def test_easy_batches_end_the_fork_server_they_did_not_need() -> None:
    # The fork server starts first (it is the slow part of a cluster); a batch done here
    # ends it rather than leave it loading, holding stdout open (a pipe waited for it).
    lines = "\n".join(pons_lines("Test_L3_R1", 40))
    code = (
        "import sys, io; from multiprocessing import forkserver; from plies.cli import main\n"
        f"sys.stdin = io.StringIO({lines!r})\n"
        "status = main(['solve', 'connect4', '--batch', '-', '--workers', '2'])\n"
        "assert 'distributed' not in sys.modules, 'dask loaded'\n"
        "assert forkserver._forkserver._forkserver_pid is None, 'fork server left'\n"
        "sys.exit(status)\n"
    )
    done = run_python(code, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == pons_lines("Test_L3_R1", 40)


@dataclass(frozen=True)
class Sleepy:
    """A line job that sleeps ``seconds`` a line (releasing the GIL, like the native
    kernel) and says whether it ``may_thread``; ``seen`` gets each line's thread."""

    seconds: float
    may_thread: bool
    seen: list[str] = field(default_factory=list, hash=False, compare=False)

    def __call__(self, number: int, text: str, stop: threading.Event | None = None) -> LineResult:
        if text == "crash":
            raise RuntimeError("a bug")
        self.seen.append(threading.current_thread().name)
        time.sleep(self.seconds)
        return LineResult(number, output=text)

    def warm(self) -> None:
        """Nothing to load."""

    def threads(self) -> bool:
        return self.may_thread

    def item_key(self, number: int, text: str) -> str:
        return text

    def output_key(self, output: str) -> str:
        return output


@pytest.fixture
def no_fork_server(monkeypatch: pytest.MonkeyPatch) -> None:
    """No fork server started (a cluster would need one: these batches are too short
    for it)."""
    from plies.cluster import _forkserver

    monkeypatch.setattr(_forkserver, "start_fork_server", lambda job=None: None)


def run_local(job: Sleepy, items: list[tuple[int, str]]) -> list[str]:
    """The outputs of ``items`` run with ``--workers 2``."""
    emitted: list[LineResult] = []
    run_lines(items, job, emit=emitted.append, stop=threading.Event(), workers=2)
    return [result.output or "" for result in emitted]


@pytest.mark.usefixtures("no_fork_server")
def test_lines_that_release_the_gil_run_on_as_many_threads_as_workers() -> None:
    items = [(number, f"p{number}") for number in range(1, 13)]
    job = Sleepy(0.05, may_thread=True)
    started = time.perf_counter()
    assert run_local(job, items) == [text for _, text in items]
    assert 12 * 0.05 / 2 <= time.perf_counter() - started < 12 * 0.05  # two at a time
    assert len(set(job.seen)) == 2 and len(job.seen) == 12
    alone = Sleepy(0.01, may_thread=False)
    assert run_local(alone, items) == [text for _, text in items]
    assert set(alone.seen) == {"MainThread"}


@pytest.mark.usefixtures("no_fork_server")
def test_an_error_on_either_thread_is_raised_and_ends_the_run() -> None:
    items = [(number, "crash" if number == 3 else f"p{number}") for number in range(1, 41)]
    job = Sleepy(0.05, may_thread=True)
    with pytest.raises(RuntimeError, match="a bug"):
        run_local(job, items)
    assert len(job.seen) < 10  # the other thread took no line after it


def test_native_batches_are_solved_on_threads_and_python_ones_not() -> None:
    assert SolveLines("connect4").threads() and SolveLines("nim", backend="native").threads()
    assert not SolveLines("connect4", backend="python").threads()
    assert not TreeLines(LabOptions()).threads()


@pytest.mark.usefixtures("no_fork_server")
def test_a_stop_ends_the_threads_here_with_the_lines_emitted_so_far() -> None:
    items = [(number, f"p{number}") for number in range(1, 41)]
    stop = threading.Event()
    emitted: list[LineResult] = []

    def emit(result: LineResult) -> None:
        emitted.append(result)
        if len(emitted) == 5:
            stop.set()  # Ctrl-C

    run_lines(items, Sleepy(0.02, may_thread=True), emit=emit, stop=stop, workers=2)
    assert [result.output for result in emitted] == [text for _, text in items[:5]]
    assert not any(thread.name == "plies-lines" for thread in threading.enumerate())
