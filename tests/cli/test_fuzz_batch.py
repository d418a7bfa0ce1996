"""A corpus of bad command lines around batches, OpenSpiel games and opening books, each
run as ``plies`` would be, in a process of its own under a memory limit
(:data:`MEMORY_LIMIT`) and a time limit: it exits 1 with its error in one ``error:``
line (one per bad line in a batch that goes on), never a traceback, a hang or a
silent misreading.

The inputs: batch files that never end (``/dev/zero``, a pipe or a fifo fed for ever),
binary, UTF-16, a line of 2 MB, a directory, ``--resume`` from a device, output to a
full device, lines of every game's notation mixed, test-set lines with bad scores;
OpenSpiel specs that OpenSpiel refuses late or would take the memory with, bad
positions and moves; opening books that are other programs' SQLite databases, junk,
devices, or of another game. A seeded generator adds batches of random lines, each of
which must be answered exactly once, on stdout or as an error line.

Run against another checkout with ``PYTHONPATH=that/src`` (the processes inherit it).
"""

from __future__ import annotations

import contextlib
import os
import random
import resource
import sqlite3
import subprocess
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO

import pytest

#: Address space each run may take: an input read whole, or a board of 10**10
#: cells, fails under it instead of taking the machine's memory.
MEMORY_LIMIT = 2 << 30
#: Seconds a run may take (an input that never ends must be refused within them).
TIMEOUT = 90

#: What a run may print on stderr besides errors: the batch summary, notes, the book.
INFORMATIONAL = ("solved ", "note: ", "book: ")

HAS_SPIEL = (
    subprocess.run(
        [sys.executable, "-c", "import pyspiel"], capture_output=True, check=False, timeout=60
    ).returncode
    == 0
)


@dataclass(frozen=True)
class Case:
    """One command line of the corpus: ``argv`` after ``plies``, run in a folder holding
    ``files``; ``stdin`` is bytes, a file's name, or ``"endless:TEXT"`` (TEXT written
    for ever); ``errors`` is how many ``error:`` lines it must print (None: at least
    one), ``status`` its exit status; ``check`` looks at (stdout, folder) after."""

    name: str
    argv: tuple[str, ...]
    files: dict[str, bytes] = field(default_factory=dict)
    stdin: bytes | str | None = None
    errors: int | None = 1
    status: int = 1
    needs_spiel: bool = False
    check: Callable[[str, Path], None] | None = None


# -- the corpus --------------------------------------------------------------------------

# Two of Pons' test-set lines (Test_L3_R1: each solved in milliseconds).
PONS = b"7422341735647741166133573473242566 1\n2252576253462244111563365343671351441 -1\n"
UNRELATED_DB = "other.sqlite"  # made by the test: an SQLite file of another program


def _batch_sources(command: tuple[str, ...]) -> list[Case]:
    """Bad batch inputs for one command (``solve connect4`` or ``analyze connect4 ...``)."""
    word = command[0]
    rng = random.Random(24)
    binary = rng.randbytes(100_000)
    cases = [
        Case(f"{word}: /dev/zero", (*command, "--batch", "/dev/zero")),
        Case(f"{word}: stdin from /dev/zero", (*command, "--batch", "-"), stdin="/dev/zero"),
        Case(f"{word}: endless positions", (*command, "--batch", "-"), stdin="endless:4453\n"),
        Case(f"{word}: endless comments", (*command, "--batch", "-"), stdin="endless:# c\n"),
        Case(f"{word}: endless NULs", (*command, "--batch", "-"), stdin="endless:\0\0\0\0"),
        Case(f"{word}: a fifo fed for ever", (*command, "--batch", "fifo")),
        Case(f"{word}: binary", (*command, "--batch", "b.bin"), files={"b.bin": binary}),
        Case(f"{word}: binary from stdin", (*command, "--batch", "-"), stdin=binary),
        Case(
            f"{word}: a line of 2 MB",
            (*command, "--batch", "l.txt"),
            files={"l.txt": b"4" * (2 << 20)},
        ),
        Case(
            f"{word}: UTF-16",
            (*command, "--batch", "u.txt"),
            files={"u.txt": "4453\n44\n".encode("utf-16")},
        ),
        Case(f"{word}: a directory", (*command, "--batch", ".")),
        Case(f"{word}: a missing file", (*command, "--batch", "missing.txt")),
        Case(f"{word}: @ and a missing file", (*command, "--batch", "@missing.txt")),
        Case(
            f"{word}: --resume /dev/zero",
            (*command, "--batch", "p.txt", "--resume", "/dev/zero"),
            files={"p.txt": PONS},
        ),
        Case(
            f"{word}: --resume a directory",
            (*command, "--batch", "p.txt", "--resume", "."),
            files={"p.txt": PONS},
        ),
        Case(
            f"{word}: --resume another batch's output",
            (*command, "--batch", "p.txt", "--resume", "o.txt"),
            files={"p.txt": PONS, "o.txt": b"1234 5\n"},
        ),
        Case(
            f"{word}: --resume binary",
            (*command, "--batch", "p.txt", "--resume", "o.bin"),
            files={"p.txt": PONS, "o.bin": b"\xff\xfe\n"},
        ),
        Case(
            f"{word}: a position on the command line too",
            (*command, "44", "--batch", "p.txt"),
            files={"p.txt": PONS},
        ),
        Case(
            f"{word}: control characters and NULs, one error a line",
            (*command, "--batch", "c.txt"),
            files={"c.txt": b"\0\0\n\x1b[31m\n4\x0045\n\x7f\n"},
            errors=4,
        ),
        Case(
            f"{word}: bad scores are no scores, one error a line",
            (*command, "--batch", "s.txt"),
            files={"s.txt": b"4453 abc\n4453 " + b"9" * 30 + b"\n4453 \xef\xbc\x93\n"},
            errors=3,
        ),
    ]
    if Path("/dev/full").exists():
        cases.append(
            Case(
                f"{word}: --out /dev/full",
                (*command, "--batch", "p.txt", "--out", "/dev/full"),
                files={"p.txt": PONS},
            )
        )
    return cases


def _test_set_lines_read_as_positions(stdout: str, _: Path) -> None:
    """Every answer of the mixed batch starts with its line's POSITION, the score off."""
    positions = [line.split()[0] for line in stdout.splitlines()]
    assert positions == [
        "7422341735647741166133573473242566",
        "2252576253462244111563365343671351441",
        "2252576253462244111563",
    ], stdout


MIXED = (
    b"# Pons' lines, a FEN, Nim, a tree, JSON, a CS188 line, blank lines\n"
    + PONS
    + b"\n7k/8/5KQ1/8/8/8/8/8 w - - 0 1\n3,4,9\n[[3,12],[2,4]]\n"
    + b'{"moves": [4, 4]}\nwin_states: "a b"\n2252576253462244111563\n'
)


def _mixed() -> list[Case]:
    """Lines of other games' notations among good ones: each bad one its error line,
    each good one answered with its position read as a test set's."""
    return [
        Case(
            "solve: mixed formats",
            ("solve", "connect4", "--batch", "m.txt"),
            files={"m.txt": MIXED},
            errors=5,
            check=_test_set_lines_read_as_positions,
        ),
        Case(
            "analyze: mixed formats",
            ("analyze", "connect4", "--batch", "m.txt", "--depth", "2"),
            files={"m.txt": MIXED},
            errors=5,
            check=_test_set_lines_read_as_positions,
        ),
        Case(
            "solve: a wrong expected score",
            ("solve", "connect4", "--batch", "w.txt", "--weak"),
            files={"w.txt": b"7422341735647741166133573473242566 -1\n"},
        ),
    ]


SPIEL_SPECS = [
    "go(board_size=-1)",
    "go(board_size=0)",
    "go(board_size=30)",
    "go(board_size=99999999999999999999)",
    "hex(board_size=0)",
    "connect_four(rows=-3)",
    "connect_four(rows=100000,columns=100000)",
    "breakthrough(rows=100000,columns=100000)",
    "go(komi=abc)",
    "go(board_size=",
    "chess(fen=x)",
    "tic_tac_toe(foo=1)",
    "nosuch",
    "kuhn_poker",
    "",
    "\x01\x1b]0;x\x07",
]


def _spiel() -> list[Case]:
    """OpenSpiel specs, positions and moves OpenSpiel or plies refuses."""
    cases = []
    for spec in SPIEL_SPECS:
        game = f"openspiel:{spec}"
        cases += [
            Case(f"solve {game!r}", ("solve", game), needs_spiel=True),
            Case(f"analyze {game!r}", ("analyze", game, "--depth", "1"), needs_spiel=True),
        ]
    cases.append(
        Case(
            "solve --batch 'openspiel:go(board_size=-1)'",
            ("solve", "openspiel:go(board_size=-1)", "--batch", "p.txt"),
            files={"p.txt": b"0\n"},
            needs_spiel=True,
        )
    )
    for position in ("4 4", "99", "x(0,0)", "9" * 40, "-1", "0 3 1 4 2 5"):
        cases.append(
            Case(
                f"solve openspiel:tic_tac_toe {position!r}",
                ("solve", "openspiel:tic_tac_toe", position),
                needs_spiel=True,
            )
        )
    cases.append(
        Case(
            "solve --batch openspiel:tic_tac_toe, bad lines",
            ("solve", "openspiel:tic_tac_toe", "--batch", "t.txt"),
            files={"t.txt": b"4 4\n99\ne4\n\0\n4 0\n"},
            errors=4,
            needs_spiel=True,
        )
    )
    return cases


def _untouched(name: str, data: bytes) -> Callable[[str, Path], None]:
    def check(_: str, folder: Path) -> None:
        assert (folder / name).read_bytes() == data, f"{name} was changed"

    return check


def _books() -> list[Case]:
    """Opening books that are not books, or not of the game."""
    junk = b"not a database, not even close " * 100
    cases = [
        Case(
            "book build into another program's database",
            ("book", "build", "tictactoe", "--plies", "2", "--out", UNRELATED_DB),
            check=lambda out, folder: _other_db_untouched(folder),
        ),
        Case(
            "book build into a text file",
            ("book", "build", "tictactoe", "--plies", "2", "--out", "t.txt"),
            files={"t.txt": b"4453\n"},
            check=_untouched("t.txt", b"4453\n"),
        ),
        Case(
            "book build into a directory",
            ("book", "build", "tictactoe", "--plies", "2", "--out", "."),
        ),
        Case(
            "book build of a bad OpenSpiel game",
            ("book", "build", "openspiel:go(board_size=-1)", "--plies", "1", "--out", "b.sqlite"),
            needs_spiel=True,
        ),
        Case("book build without --plies", ("book", "build", "tictactoe", "--out", "b.sqlite")),
        Case("book stats of another program's database", ("book", "stats", UNRELATED_DB)),
        Case("book stats of junk", ("book", "stats", "j.sqlite"), files={"j.sqlite": junk}),
        Case("book stats of an empty file", ("book", "stats", "e.sqlite"), files={"e.sqlite": b""}),
        Case("book stats of /dev/zero", ("book", "stats", "/dev/zero")),
        Case("book stats of a directory", ("book", "stats", ".")),
        Case(
            "solve --book another program's database",
            ("solve", "connect4", "4453", "--book", UNRELATED_DB),
        ),
        Case(
            "solve --book junk",
            ("solve", "connect4", "4453", "--book", "j.sqlite"),
            files={"j.sqlite": junk},
        ),
        Case("solve --book /dev/zero", ("solve", "connect4", "4453", "--book", "/dev/zero")),
        Case(
            "solve --batch --book junk",
            ("solve", "connect4", "--batch", "p.txt", "--book", "j.sqlite"),
            files={"p.txt": PONS, "j.sqlite": junk},
        ),
        Case(
            "analyze --batch --book another program's database",
            ("analyze", "connect4", "--batch", "p.txt", "--depth", "2", "--book", UNRELATED_DB),
            files={"p.txt": PONS},
        ),
        Case(
            "analyze --book junk",
            ("analyze", "connect4", "44", "--depth", "2", "--book", "j.sqlite"),
            files={"j.sqlite": junk},
        ),
    ]
    return cases


def _make_other_db(folder: Path) -> None:
    with sqlite3.connect(folder / UNRELATED_DB) as connection:
        connection.execute("CREATE TABLE contacts (name TEXT, phone TEXT)")
        connection.execute("INSERT INTO contacts VALUES ('Ada', '555')")
    connection.close()


def _other_db_untouched(folder: Path) -> None:
    with sqlite3.connect(folder / UNRELATED_DB) as connection:
        tables = connection.execute("SELECT name FROM sqlite_master").fetchall()
        journal = connection.execute("PRAGMA journal_mode").fetchone()[0]
    connection.close()
    assert tables == [("contacts",)] and journal == "delete", (tables, journal)


CORPUS = [
    *_batch_sources(("solve", "connect4")),
    *_batch_sources(("analyze", "connect4", "--depth", "2")),
    *_mixed(),
    *_spiel(),
    *_books(),
]


# -- running a case ----------------------------------------------------------------------


def _limit_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))


def _feed_for_ever(stream: BinaryIO, text: bytes) -> None:
    """Write ``text`` to a pipe until its reader is gone."""
    chunk = text * max(1, 65536 // max(1, len(text)))
    with contextlib.suppress(OSError, ValueError):  # BrokenPipeError: the reader is gone
        while True:
            stream.write(chunk)
    with contextlib.suppress(OSError):
        stream.close()


def _feed_fifo(path: Path, text: bytes) -> None:
    """Write ``text`` to the fifo at ``path`` for ever (once a reader opens it)."""
    with contextlib.suppress(OSError), path.open("wb") as stream:
        _feed_for_ever(stream, text)


def _release_fifo(path: Path, feeder: threading.Thread) -> None:
    """End ``feeder``: open the fifo as a reader and close it again (a run that never
    opened it leaves the feeder waiting for a reader), until the feeder is gone."""
    for _ in range(100):
        if not feeder.is_alive():
            return
        reader = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
        feeder.join(0.05)
        os.close(reader)
        feeder.join(0.05)


def run_plies(case: Case, folder: Path) -> tuple[int, str, str]:
    """Run ``plies`` as ``case`` says, bounded in memory and time."""
    for name, data in case.files.items():
        (folder / name).write_bytes(data)
    feeder = None
    if "fifo" in case.argv:
        os.mkfifo(folder / "fifo")
        feeder = threading.Thread(target=_feed_fifo, args=(folder / "fifo", b"4453\n"))
        feeder.start()
    stdin: object = subprocess.DEVNULL
    endless = isinstance(case.stdin, str) and case.stdin.startswith("endless:")
    if isinstance(case.stdin, str) and not endless:
        stdin = open(case.stdin, "rb")  # noqa: SIM115  # closed below
    elif case.stdin is not None:
        stdin = subprocess.PIPE
    out_path, err_path = folder / "stdout.txt", folder / "stderr.txt"
    with out_path.open("wb") as out, err_path.open("wb") as err:
        process = subprocess.Popen(
            [sys.executable, "-m", "plies", *case.argv],
            stdin=stdin,  # type: ignore[arg-type]
            stdout=out,
            stderr=err,
            cwd=folder,
            # The threads of this process only write to pipes; the child execs at once.
            preexec_fn=_limit_memory,  # noqa: PLW1509
        )
        if process.stdin is not None:
            text = case.stdin.removeprefix("endless:").encode() if endless else case.stdin
            if endless:
                threading.Thread(
                    target=_feed_for_ever, args=(process.stdin, text), daemon=True
                ).start()
            else:
                _feed_once(process.stdin, text)  # type: ignore[arg-type]
        try:
            status = process.wait(timeout=TIMEOUT)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
            status = -999  # a hang
        finally:
            if hasattr(stdin, "close"):
                stdin.close()  # type: ignore[union-attr]
            if feeder is not None:
                _release_fifo(folder / "fifo", feeder)
    return (
        status,
        out_path.read_text(errors="replace"),
        err_path.read_text(errors="replace"),
    )


def _feed_once(stream: BinaryIO, data: bytes) -> None:
    with contextlib.suppress(OSError):  # BrokenPipeError: it stopped reading
        stream.write(data)
        stream.close()


def problems(case: Case, status: int, stdout: str, stderr: str, folder: Path) -> list[str]:
    """What is wrong with a run of ``case`` (nothing: it held)."""
    found = []
    if status == -999:
        found.append(f"no answer within {TIMEOUT} s")
    if "Traceback" in stderr or "Exception ignored" in stderr:
        found.append("a traceback")
    if status != case.status:
        found.append(f"exit status {status}, not {case.status}")
    lines = stderr.splitlines()
    errors = [line for line in lines if line.startswith("error: ")]
    others = [line for line in lines if not line.startswith(("error: ", *INFORMATIONAL))]
    if others:
        found.append(f"stderr lines that are no error line: {others[:3]}")
    if case.errors is not None and len(errors) != case.errors:
        found.append(f"{len(errors)} error lines, not {case.errors}")
    if case.errors is None and not errors:
        found.append("no error line")
    if case.check is not None and not found:
        try:
            case.check(stdout, folder)
        except AssertionError as exc:
            found.append(f"check: {exc}")
    return found


@pytest.mark.parametrize("case", CORPUS, ids=[case.name for case in CORPUS])
def test_bad_input_is_one_error_line(case: Case, tmp_path: Path) -> None:
    if case.needs_spiel and not HAS_SPIEL:
        pytest.skip("OpenSpiel is not installed")
    _make_other_db(tmp_path)
    status, stdout, stderr = run_plies(case, tmp_path)
    found = problems(case, status, stdout, stderr, tmp_path)
    assert not found, f"{case.name}: {found}\nstderr: {stderr[-2000:]}"


# -- random batches: every line answered once --------------------------------------------

GOOD_LINES = [
    "4453",
    "44",
    "2252576253462244111563365343671351441 -1",
    "7422341735647741166133573473242566 1",
    "1,2,3",
]
PIECES = [
    *"01234567890 ,-+#\t",
    "\0",
    "\x1b",
    "é",
    "\u2028",
    "\x85",
    "９",
    "-3",
    " 18",
    "[[3]]",
    "9" * 30,
]


def random_batch(seed: int) -> tuple[bytes, int]:
    """A batch of 30 lines of good and mutated positions; its items (lines that are
    neither blank nor comments, as ``str.splitlines`` splits them)."""
    rng = random.Random(seed)
    lines = []
    for _ in range(30):
        line = rng.choice(GOOD_LINES)
        for _ in range(rng.randrange(3)):
            at = rng.randrange(len(line) + 1)
            line = line[:at] + rng.choice(PIECES) + line[at + rng.randrange(2) :]
        lines.append(line)
    text = "\n".join(lines) + "\n"
    items = [
        line for line in text.splitlines() if line.strip() and not line.strip().startswith("#")
    ]
    return text.encode("utf-8"), len(items)


SEEDS = range(12)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize(
    "command",
    [("solve", "connect4", "--weak", "--nodes", "20000"), ("analyze", "connect4", "--depth", "1")],
)
def test_every_line_of_a_random_batch_is_answered_once(
    seed: int, command: tuple[str, ...], tmp_path: Path
) -> None:
    data, items = random_batch(seed)
    case = Case(
        f"random {seed}", (*command, "--batch", "r.txt"), files={"r.txt": data}, errors=None
    )
    status, stdout, stderr = run_plies(case, tmp_path)
    assert status in (0, 1) and "Traceback" not in stderr, stderr[-2000:]
    errors = [line for line in stderr.splitlines() if line.startswith("error: line ")]
    differ = any("scores differ" in line for line in stderr.splitlines())
    assert len(stdout.splitlines()) + len(errors) == items, (stdout, stderr)
    assert status == (1 if errors or differ else 0)
