"""Running a submission in a process of its own, one test at a time.

A Python submission (forms ``array``, ``node``, ``aima``) runs in
:mod:`plies.grade._child`, started as a script with ``python -I`` in an empty working
directory, with its address space limited (``RLIMIT_AS``); a ``program`` submission is
any command, driven through the line protocol of :mod:`plies.grade._protocol`, run in
the grader's folder with its data limited (``RLIMIT_DATA``: a JVM reserves gigabytes
of address space; see :class:`ProgramRunner`). Either way the grader never imports or
runs the submission in its own process. Each process also gets limits on file size
and core dumps and a new process group; each test a wall-clock time limit. A test
that runs past it, or a process that ends (``exit()``, a crash), costs that test its
marks: the process is killed and a fresh one is started for the next test.
"""

from __future__ import annotations

import contextlib
import json
import os
import resource
import select
import shlex
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from plies.errors import PliesError

__all__ = ["Limits", "ProgramRunner", "PythonRunner", "SubmissionError"]

CHILD = Path(__file__).with_name("_child.py")
#: Bytes of one answer line the grader reads at most (a list of reads, mostly).
MAX_ANSWER = 16 << 20
#: Bytes a submission may write to a file (it has no reason to write any).
MAX_FILE = 1 << 20


class SubmissionError(PliesError):
    """A submission that cannot be graded at all: it does not load, lacks the
    function, or its program does not start."""


@dataclass(frozen=True)
class Limits:
    """What one test may use: ``timeout`` seconds of wall-clock time and
    ``memory_mb`` megabytes of address space for the submission's process."""

    timeout: float = 3.0
    memory_mb: int = 1024


class _Died(Exception):
    """The submission's process ended while the grader waited for it."""


def _limit(address_mb: int, data_mb: int | None) -> None:  # in the child, before exec
    resource.setrlimit(resource.RLIMIT_AS, (address_mb << 20, address_mb << 20))
    if data_mb is not None:
        resource.setrlimit(resource.RLIMIT_DATA, (data_mb << 20, data_mb << 20))
    resource.setrlimit(resource.RLIMIT_FSIZE, (MAX_FILE, MAX_FILE))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


class _Lines:
    """Lines read from a pipe with a deadline (``select``, no thread)."""

    def __init__(self, fd: int) -> None:
        self.fd, self.buffer = fd, b""

    def read(self, deadline: float) -> str | None:
        """The next line, or None when the deadline passes first; :class:`_Died` at
        the end of the pipe."""
        while b"\n" not in self.buffer:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self.fd], [], [], left)[0]:
                return None
            chunk = os.read(self.fd, 1 << 16)
            if not chunk:
                raise _Died
            self.buffer += chunk
            if len(self.buffer) > MAX_ANSWER:
                raise _Died
        line, _, self.buffer = self.buffer.partition(b"\n")
        return line.decode("utf-8", errors="replace")


class _Process:
    """One process of a submission, killed with its whole group: its answers on a
    pipe of their own (``channel``) or its standard output; it runs in ``cwd`` (by
    default an empty folder of its own, also its ``HOME``) with ``limits.memory_mb``
    of address space, or that much data (``data_mb``) and ``address_mb`` of address
    space; its standard error goes to ``stderr`` (by default nowhere)."""

    def __init__(
        self,
        argv: list[str],
        limits: Limits,
        *,
        channel: bool,
        cwd: Path | None = None,
        stderr: IO[bytes] | None = None,
        data_mb: int | None = None,
    ) -> None:
        self.workdir = tempfile.TemporaryDirectory(prefix="plies-grade-")
        pass_fds: tuple[int, ...] = ()
        read_fd = write_fd = -1
        if channel:
            read_fd, write_fd = os.pipe()
            argv = [*argv, str(write_fd)]
            pass_fds = (write_fd,)
        env = {
            "PATH": os.environ.get("PATH", os.defpath),
            "LANG": "C.UTF-8",
            "HOME": self.workdir.name,
        }
        try:
            self.proc = subprocess.Popen(
                argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.DEVNULL if channel else subprocess.PIPE,
                stderr=stderr if stderr is not None else subprocess.DEVNULL,
                cwd=cwd if cwd is not None else self.workdir.name,
                env=env,
                pass_fds=pass_fds,
                start_new_session=True,
                preexec_fn=lambda: _limit(limits.memory_mb, data_mb),  # noqa: PLW1509  # no threads
            )
        except OSError as exc:
            self.workdir.cleanup()
            raise SubmissionError(
                f"cannot start {shlex.join(argv)}: {exc.strerror or exc}"
            ) from None
        finally:
            if channel:
                os.close(write_fd)
        assert self.proc.stdin is not None
        self.stdin: IO[bytes] = self.proc.stdin
        out = read_fd if channel else self.proc.stdout.fileno()  # type: ignore[union-attr]
        self.lines = _Lines(out)
        self._read_fd = read_fd

    def send(self, line: str) -> None:
        """Write a line to the process; :class:`_Died` if it is gone."""
        try:
            self.stdin.write(line.encode() + b"\n")
            self.stdin.flush()
        except (BrokenPipeError, ValueError):
            raise _Died from None

    def ended(self) -> str:
        """How the process ended (it has, or is about to)."""
        try:
            code = self.proc.wait(timeout=1)
        except subprocess.TimeoutExpired:
            self.kill()
            return "it stopped answering"
        if code < 0:
            try:
                name = signal.Signals(-code).name
            except ValueError:
                name = f"signal {-code}"
            return f"it was killed by {name}" + (
                " (out of memory?)" if -code in (signal.SIGKILL, signal.SIGSEGV) else ""
            )
        return f"it ended with exit status {code}"

    def kill(self) -> None:
        """Kill the process and its group; remove its working directory."""
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.proc.pid, signal.SIGKILL)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.proc.wait(timeout=5)
        for stream in (self.proc.stdin, self.proc.stdout):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()
        if self._read_fd >= 0:
            with contextlib.suppress(OSError):
                os.close(self._read_fd)
            self._read_fd = -1
        self.workdir.cleanup()


def _failure(error: str, where: str = "") -> dict[str, Any]:
    return {"ok": False, "error": error, "where": where, "printed": ""}


class PythonRunner:
    """A Python submission's process: loads ``path`` and runs tests in it
    (:mod:`plies.grade._child`). Use as a context manager."""

    def __init__(self, path: Path, function: str, limits: Limits) -> None:
        self.path, self.function, self.limits = path, function, limits
        self.parameters = -1
        self._process: _Process | None = None

    def __enter__(self) -> PythonRunner:
        self._start()
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def _start(self) -> None:
        argv = [sys.executable, "-I", str(CHILD), str(self.path.resolve()), self.function]
        process = _Process(argv, self.limits, channel=True)
        try:
            line = process.lines.read(time.monotonic() + self.limits.timeout)
        except _Died:
            why = process.ended()
            process.kill()
            raise SubmissionError(f"{self.path} cannot be loaded: {why}") from None
        if line is None:
            process.kill()
            raise SubmissionError(
                f"{self.path} cannot be loaded: its top-level code ran past the "
                f"{self.limits.timeout:g} s limit"
            )
        loaded = json.loads(line)
        if not loaded.get("loaded"):
            process.kill()
            where = f" ({loaded['where']})" if loaded.get("where") else ""
            raise SubmissionError(f"{self.path} cannot be loaded: {loaded['error']}{where}")
        self.parameters = loaded["parameters"]
        self._process = process

    def run(self, test: dict[str, Any]) -> dict[str, Any]:
        """The answer to one test (see :mod:`plies.grade._child`), or a failure
        saying it ran past the time limit or what ended the process."""
        if self._process is None:
            self._start()
        process = self._process
        assert process is not None
        try:
            process.send(json.dumps(test))
            line = process.lines.read(time.monotonic() + self.limits.timeout)
        except _Died:
            answer = _failure(f"the submission's process ended: {process.ended()}")
        else:
            if line is not None:
                return dict(json.loads(line))
            answer = _failure(
                f"it ran past the {self.limits.timeout:g} s limit (an endless loop or "
                "recursion?) and was stopped"
            )
        process.kill()
        self._process = None
        return answer

    def close(self) -> None:
        """Stop the process."""
        if self._process is not None:
            self._process.kill()
            self._process = None


class ProgramRunner:
    """A ``program`` submission: any command speaking the line protocol of
    :mod:`plies.grade._protocol`, one search per ``search`` line. Use as a context
    manager.

    Where it runs: in the folder the grader was started from (the working directory
    when the runner is made), as if the teacher had typed the command there, so
    ``./alphabeta`` and ``java -cp build AlphaBeta`` find their files; the program
    may read and write there (up to 1 MB a file), so grade untrusted code inside a
    container, as Gradescope's and PrairieLearn's graders do. Its environment holds
    only ``PATH``, ``LANG`` and ``HOME`` (an empty folder of its own).

    Its memory: ``limits.memory_mb`` bounds its data (``RLIMIT_DATA``: the private
    writable memory it maps, heap and thread stacks; Linux 4.7 and later), not its
    address space. A JVM reserves gigabytes it never touches (a heap of a quarter of
    the machine's memory, 1 GB of class space, the code cache): ``java`` does not
    start under 1024 MB of ``RLIMIT_AS`` (measured: 4 GB on a 24 GB machine without
    flags, 870 MB with ``-Xmx256m -XX:+UseSerialGC -XX:CompressedClassSpaceSize=64m``),
    and starts under 1024 MB of ``RLIMIT_DATA``, which counts only the heap it
    commits. A JVM commits 1/64 of the machine's memory at start, so on a machine of
    64 GB or more pass ``-Xmx256m`` (which also caps its initial heap).
    Address space stays bounded, at :attr:`ADDRESS_SPACE_MB` (or 4 x the limit).

    Its standard error: what it writes there during a search (an exception's stack
    trace, debugging output) is shown with that test, its first
    :attr:`STDERR_KEPT` characters; more than 1 MB in one search stops it.

    A command that cannot start, or a program that ends or falls silent before its
    first request, raises :class:`SubmissionError` (the teacher's one-line error); a
    program that fails later fails that test only, and is started again for the next.
    """

    #: Address space (MB) a program may map; its data is what ``memory_mb`` bounds.
    ADDRESS_SPACE_MB = 16 << 10
    #: Characters of a search's standard error shown with the test.
    STDERR_KEPT = 4000

    def __init__(self, command: str, limits: Limits) -> None:
        try:
            self.argv = shlex.split(command)
        except ValueError as exc:
            raise SubmissionError(f"cannot read the command {command!r}: {exc}") from None
        if not self.argv:
            raise SubmissionError("the program's command is empty")
        self.command, self.limits = command, limits
        self.folder = Path.cwd()
        self._need_program(self.argv[0])
        self._process: _Process | None = None
        self._errors: tempfile.TemporaryDirectory[str] | None = None
        self._answered = False  # a search got at least one line from the program
        self._heard = 0  # lines the program wrote in the last search
        self._died = False  # the last search ended with the program's process
        self._ended = ""  # how, then

    def _need_program(self, program: str) -> None:
        """Raise :class:`SubmissionError` unless ``program`` can be started."""
        import shutil

        start = f"cannot start {self.command}"
        if "/" in program:
            path = self.folder / program
            if not path.is_file():
                raise SubmissionError(f"{start}: there is no file {program} in {self.folder}")
            if not os.access(path, os.X_OK):
                raise SubmissionError(f"{start}: {program} is not executable")
        elif shutil.which(program, path=os.environ.get("PATH", os.defpath)) is None:
            here = f" (./{program} for the one in this folder)" if Path(program).is_file() else ""
            raise SubmissionError(f"{start}: no program {program!r} on PATH{here}")

    def __enter__(self) -> ProgramRunner:
        self._errors = tempfile.TemporaryDirectory(prefix="plies-grade-stderr-")
        self._stderr.touch()
        self._process = self._start()
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    @property
    def _stderr(self) -> Path:
        assert self._errors is not None, "use the runner as a context manager"
        return Path(self._errors.name) / "stderr"

    def _start(self) -> _Process:
        memory = self.limits.memory_mb
        space = Limits(self.limits.timeout, max(self.ADDRESS_SPACE_MB, 4 * memory))
        with self._stderr.open("ab") as stderr:  # the child keeps its own copy open
            return _Process(self.argv, space, channel=False, cwd=self.folder, stderr=stderr,
                            data_mb=memory)  # fmt: skip

    def run(self, test: dict[str, Any]) -> dict[str, Any]:
        """One search of ``test["tree"]`` through the protocol, with what the program
        wrote to standard error meanwhile as ``printed``."""
        fresh = self._process is None or self._process.proc.poll() is not None
        answer = self._search(test, fresh=fresh)
        if self._died and not self._heard and not fresh:
            # It exited after its last search (or was exiting when this one began).
            answer = self._search(test, fresh=True)
        if not self._answered and not self._heard:
            self.close()
            raise SubmissionError(self._silent(answer))
        self._answered = True
        return answer

    def _search(self, test: dict[str, Any], *, fresh: bool) -> dict[str, Any]:
        from plies.grade._protocol import converse

        if fresh or self._process is None:
            if self._process is not None:
                self._process.kill()
            self._process = self._start()
        process = self._process
        os.truncate(self._stderr, 0)  # the file is opened to append: writes follow
        self._heard, self._died = 0, False
        deadline = time.monotonic() + self.limits.timeout

        def read() -> str | None:
            line = process.lines.read(deadline)
            if line is not None:
                self._heard += 1
            return line

        try:
            answer = converse(test, process.send, read)
        except _Died:
            self._died, self._ended = True, process.ended()
            answer = _failure(f"the program ended before it answered: {self._ended}")
        if answer.get("timeout"):
            answer = _failure(self._late(process))
        answer["printed"] = self._errors_written(answer)
        if not answer["ok"]:
            process.kill()
            self._process = None
        return answer

    def _late(self, process: _Process) -> str:
        """Why a search ran out of time, with the line it began, if any."""
        limit = f"it ran past the {self.limits.timeout:g} s limit"
        begun = process.lines.buffer.decode("utf-8", errors="replace")
        if begun:
            return (f"{limit} and was stopped, waiting for the end of the line {begun[:80]!r} "
                    "(end each line with a newline)")  # fmt: skip
        return (f"{limit} (an endless loop, or output never flushed: end each line with "
                "std::endl in C++, or flush) and was stopped")  # fmt: skip

    def _errors_written(self, answer: dict[str, Any]) -> str:
        """The start of what the program wrote to standard error in this search."""
        with self._stderr.open("rb") as file:
            text = file.read(self.STDERR_KEPT).decode("utf-8", errors="replace")
        if not answer["ok"] and self._stderr.stat().st_size >= MAX_FILE:
            answer["error"] += " (it wrote 1 MB or more to standard error)"
        return text

    def _silent(self, answer: dict[str, Any]) -> str:
        """The one-line error for a program that never answered its first search."""
        if self._died:
            why = f"{self._ended} before its first request"
        else:
            why = (
                f"it wrote no request within the {self.limits.timeout:g} s limit after its "
                "first 'search' (does it read standard input, and flush its lines?)"
            )
        first = next((line.strip() for line in answer["printed"].splitlines() if line.strip()), "")
        said = f"; its standard error begins: {first[:200]}" if first else ""
        return f"cannot grade {self.command}: {why}{said}"

    def close(self) -> None:
        """Stop the program."""
        if self._process is not None:
            self._process.kill()
            self._process = None
        if self._errors is not None:
            self._errors.cleanup()
            self._errors = None
