"""What every ``--batch`` shares: reading the lines, the output file and ``--resume``,
the progress bar, and running the lines here or on a Dask cluster (``--workers``,
``--scheduler``) through :func:`plies.cluster.run_lines`.

A command supplies a *line job* (:class:`plies.cluster.LineJob`): the one function
from a line to its output line, run the same way serially and on a cluster.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, TextIO

from plies.cli._args import whole_number
from plies.cli._progress import stop_on_interrupt
from plies.errors import LimitError, PliesError

if TYPE_CHECKING:  # plies.cluster is imported when a batch runs, not by --help or a solve
    from plies.cluster import LineJob, LineResult

__all__ = [
    "add_cluster_arguments",
    "batch_items",
    "batch_progress",
    "read_batch",
    "run_batch",
    "tls_configured",
]

Item = tuple[int, str]


def add_cluster_arguments(parser: argparse.ArgumentParser) -> None:
    """``--workers``, ``--scheduler``, ``--out`` and ``--resume`` of a batch command, in
    their own groups ("cluster", "TLS"), listed by ``--help`` after the command's own
    (add them last)."""
    cluster = parser.add_argument_group(
        "cluster", "run a batch (solve: or one position's search) on a Dask cluster; resume it"
    )
    where = cluster.add_mutually_exclusive_group()
    where.add_argument(
        "--workers",
        type=whole_number(1, 1024),
        metavar="N",
        help="run the batch (solve: or split one position's search; Connect Four's "
        "workers on one machine then share one table, in /dev/shm) on a local Dask "
        "cluster of N worker processes (needs plies[cluster]); meanwhile lines are solved "
        "here, on N threads where they run in the native kernel, and a batch done before a "
        "cluster is worth it starts none; the output is the serial one",
    )
    where.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="run it on the Dask cluster whose scheduler is at ADDRESS "
        "(tcp://HOST:PORT, or tls://HOST:PORT with Dask's TLS configuration or the --tls "
        "files); the cluster must be trusted: it unpickles what it is sent. Give the "
        "address here only, never from a file or a web page you do not control",
    )
    tls = parser.add_argument_group(
        "TLS",
        "for --scheduler tls://HOST:PORT; by default Dask's own configuration "
        "(distributed.comm.tls.ca-file, .client.cert, .client.key in its YAML files or "
        "DASK_DISTRIBUTED__COMM__TLS__... variables); these options replace it for this run",
    )
    tls.add_argument("--tls-ca", metavar="FILE", help="the CA certificate (PEM) to trust")
    tls.add_argument("--tls-cert", metavar="FILE", help="this client's certificate (PEM)")
    tls.add_argument("--tls-key", metavar="FILE", help="this client's private key (PEM)")
    out = cluster.add_mutually_exclusive_group()
    out.add_argument("--out", metavar="FILE", help="write the batch's output to FILE")
    out.add_argument(
        "--resume",
        metavar="FILE",
        help="like --out FILE, but keep the lines an interrupted run of the same batch "
        "wrote there, skip their input lines and append the rest",
    )


#: The longest line a batch may have, in bytes: a position with its moves is a few
#: kilobytes at most, and a line without an end (``/dev/zero``) must not take the memory.
MAX_LINE_BYTES = 1 << 20
#: The most a batch may hold, in bytes and in lines (blank lines and comments too):
#: every position is kept until the batch ends (its text and about 150 bytes beside
#: it: 1,000,000 short lines peaked at 0.27 GB), as ``tree --batch`` reads at most
#: 128 MB. Counting every line bounds the time too: 1,000,000 lines are read in 0.3 s,
#: 128 MB of blank lines took 80 s.
MAX_BATCH_BYTES = 128 << 20
MAX_BATCH_LINES = 1_000_000


def read_batch(source: str) -> list[Item]:
    """The work items of a batch file (``-``: standard input; a leading ``@`` is
    dropped): ``(line number, stripped text)`` of every line that is neither blank nor
    a ``#`` comment (see :func:`batch_items`).

    Read line by line, so that an input without end fails early: a line longer than
    :data:`MAX_LINE_BYTES`, more than :data:`MAX_BATCH_LINES` lines or more than
    :data:`MAX_BATCH_BYTES` in all is a :class:`~plies.errors.LimitError`, text that is
    not UTF-8 a :class:`~plies.errors.PliesError`, each naming the line.
    """
    if source == "-":
        stream: IO[Any] = getattr(sys.stdin, "buffer", sys.stdin)  # a test's StringIO
        return _read_items(stream, "standard input")
    path = Path(source.removeprefix("@"))
    try:
        with path.open("rb") as stream:
            return _read_items(stream, f"batch file {path}")
    except FileNotFoundError:
        raise PliesError(f"batch file not found: {path}") from None
    except IsADirectoryError:
        raise PliesError(f"cannot read batch file {path}: it is a directory") from None
    except OSError as exc:
        raise PliesError(f"cannot read batch file {path}: {exc.strerror or exc}") from None


def _read_items(stream: IO[Any], what: str) -> list[Item]:
    """The items of a batch read from ``stream`` (bytes, or text from a test), with
    :func:`read_batch`'s limits. Lines are numbered as ``str.splitlines`` splits them."""
    items: list[Item] = []
    number = read = 0
    while raw := stream.readline(MAX_LINE_BYTES + 1):
        read += len(raw)
        if len(raw) > MAX_LINE_BYTES and raw[-1:] not in ("\n", b"\n"):
            raise LimitError(
                f"{what}: line {number + 1} is longer than {MAX_LINE_BYTES >> 20} MB "
                "(a batch holds one position a line)"
            )
        if read > MAX_BATCH_BYTES:
            raise LimitError(
                f"{what} is larger than {MAX_BATCH_BYTES >> 20} MB, the most a batch may "
                "take; split it into several batches"
            )
        lines = _decoded(raw, what, number + 1, first=number == 0).splitlines()
        items += ((number + count, text) for count, text in batch_items(lines))
        number += len(lines)
        if number > MAX_BATCH_LINES:
            raise LimitError(
                f"{what} has more than {MAX_BATCH_LINES:,} lines, the most a batch may "
                "take; split it into several batches"
            )
    return items


def _decoded(raw: bytes | str, what: str, number: int, *, first: bool) -> str:
    """A line's text (without the byte order mark a first line may begin with)."""
    if isinstance(raw, str):
        return raw.removeprefix("\ufeff") if first else raw
    try:
        return raw.decode("utf-8-sig" if first else "utf-8")
    except UnicodeDecodeError:
        raise PliesError(f"cannot read {what}: line {number} is not UTF-8 text") from None


def batch_items(lines: list[str]) -> list[Item]:
    """The work items of a batch: ``(line number, stripped text)`` of every line that
    is neither blank nor a ``#`` comment."""
    items = []
    for number, raw in enumerate(lines, start=1):
        text = raw.strip()
        if text and not text.startswith("#"):
            items.append((number, text))
    return items


def run_batch(
    args: argparse.Namespace,
    items: list[Item],
    job: LineJob,
    *,
    label: str,
    on_result: Callable[[LineResult], None],
) -> bool:
    """Run ``job`` on ``items`` as ``args`` say (here, ``--workers``, ``--scheduler``),
    write each output line (stdout, ``--out`` or ``--resume``) with a progress bar, and
    call ``on_result`` for each result in input order. True when Ctrl-C stopped it."""
    from plies.cluster import check_scheduler_address, run_lines

    scheduler = check_scheduler_address(args.scheduler) if args.scheduler else None
    with (
        _output(args, items, job) as (write, todo),
        stop_on_interrupt() as stop,
        batch_progress(len(todo), label) as advance,
    ):

        def emit(result: LineResult) -> None:
            if result.output is not None:
                write(result.output)
            on_result(result)
            advance()

        with tls_configured(args, scheduler):
            run_lines(todo, job, emit=emit, stop=stop, workers=args.workers, scheduler=scheduler)
    return stop.is_set()


def tls_configured(args: argparse.Namespace, scheduler: str | None) -> Any:
    """A context in which Dask takes ``--tls-ca``/``--tls-cert``/``--tls-key`` as its
    TLS configuration (:func:`plies.cluster.tls_files`); a :class:`PliesError` if they
    are given without a ``tls://`` scheduler or a file is missing."""
    from plies.cluster import tls_files

    files = (args.tls_ca, args.tls_cert, args.tls_key)
    if any(files) and (scheduler is None or not scheduler.startswith("tls://")):
        raise PliesError("--tls-ca, --tls-cert and --tls-key need --scheduler tls://HOST:PORT")
    return tls_files(*files)


@contextmanager
def _output(
    args: argparse.Namespace, items: list[Item], job: LineJob
) -> Iterator[tuple[Callable[[str], None], list[Item]]]:
    """Where output lines go, and the items still to run (all, unless ``--resume``)."""
    if args.resume is None and args.out is None:

        def to_stdout(line: str) -> None:
            try:
                print(line, flush=True)
            except BrokenPipeError:  # piped into 'head': the command line's to say
                raise
            except OSError as exc:  # > /dev/full
                raise PliesError(f"cannot write to standard output: {exc.strerror}") from None

        yield to_stdout, items
        return
    path = Path(args.resume or args.out)
    todo = items
    if args.resume is not None:
        from plies.cluster import resume_items

        todo = resume_items(items, _complete_lines(path), job)
    try:
        stream: TextIO = path.open("a" if args.resume is not None else "w", encoding="utf-8")
    except OSError as exc:
        raise PliesError(f"cannot write {path}: {exc}") from None

    def to_file(line: str) -> None:
        try:
            stream.write(line + "\n")
            stream.flush()
        except OSError as exc:  # a full disk, /dev/full
            raise PliesError(f"cannot write {path}: {exc.strerror}") from None

    try:
        yield to_file, todo
    finally:
        with contextlib.suppress(OSError):  # every line was flushed, or its error said
            stream.close()


def _complete_lines(path: Path) -> list[str]:
    """The complete lines of an output file (none if it does not exist yet); a last
    line cut short by a kill is removed from the file. Only a regular file is read
    (``--resume /dev/zero`` would never end)."""
    if path.exists() and not path.is_file():
        raise PliesError(f"cannot resume from {path}: not a regular file")
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return []
    except OSError as exc:
        raise PliesError(f"cannot read {path}: {exc}") from None
    complete = data[: data.rfind(b"\n") + 1]
    if len(complete) < len(data):
        with path.open("r+b") as stream:
            stream.truncate(len(complete))
    try:
        return complete.decode("utf-8").splitlines()
    except UnicodeDecodeError:
        raise PliesError(f"cannot resume: {path} is not a batch's output (not UTF-8)") from None


@contextmanager
def batch_progress(total: int, label: str = "solving") -> Iterator[Any]:
    """A rich progress bar on stderr (when it is a terminal); yields the advance function."""
    if not sys.stderr.isatty():
        yield lambda: None
        return
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    with Progress(
        label,
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        transient=True,
        # Results printed while the bar runs: into the file stdout goes to, untouched;
        # on a terminal, above the bar (rich redraws it below them).
        redirect_stdout=sys.stdout.isatty(),
        redirect_stderr=False,
    ) as progress:
        task = progress.add_task("lines", total=total)
        yield lambda: progress.advance(task)
