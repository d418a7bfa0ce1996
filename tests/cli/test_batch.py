"""``solve --batch`` and ``analyze --batch``: a batch is read line by line within
limits, both commands read a test set's ``<moves> <score>`` lines alike (a last number
is a score only in a game that keeps one), and the summary says the time it took."""

from __future__ import annotations

import io
import json
import re
import sys
from pathlib import Path

import pytest

from cli_errors import run
from plies.cli import _batch
from plies.cli._batch import read_batch
from plies.cli._solve import SolveLines
from plies.cluster import LineResult
from plies.errors import LimitError, PliesError
from plies.lab import split_expected

# From Pons' Test_L1_R2: 34 stones, then the score 1 (the issue's example).
STONES = "7422341735647741166133573473242566"
SCORED = f"{STONES} 1"
FEN = "7k/8/5KQ1/8/8/8/8/8 w - - 0 1"  # mate in one; its last word, 1, is a move number


def write(tmp_path: Path, text: str | bytes, name: str = "batch.txt") -> str:
    path = tmp_path / name
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return str(path)


# -- a test set's lines, read alike ------------------------------------------------------


def test_analyze_reads_a_test_set_line_as_solve_does(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    source = write(tmp_path, f"{SCORED}\n2416615552 4\n")
    status, out, err = run(capsys, "analyze", "connect4", "--batch", source, "--depth", "6")
    assert (status, err) == (0, "")
    first, second = (line.split() for line in out.splitlines())
    # '<position> <score> <best move> <depth>' of the 34 stones (it read 35 stones before).
    assert first[0] == STONES and len(first) == 4
    assert second[0] == "2416615552" and len(second) == 4
    status, alone, _ = run(capsys, "analyze", "connect4", STONES, "--depth", "6")
    assert alone.splitlines()[-1] == f"bestmove {first[2]}"
    status, out, _ = run(capsys, "solve", "connect4", "--batch", source, "--weak")
    assert [line.split()[0] for line in out.splitlines()] == [first[0], second[0]]
    # JSON, and --resume matching output lines to input lines by that position.
    status, out, _ = run(capsys, "analyze", "connect4", "--batch", source, "--depth", "4", "--json")
    assert [json.loads(line)["position"] for line in out.splitlines()] == [first[0], second[0]]
    done = tmp_path / "done.txt"
    status, out, _ = run(
        capsys, "analyze", "connect4", "--batch", source, "--depth", "4", "--out", str(done)
    )
    kept = done.read_text()
    status, out, _ = run(
        capsys, "analyze", "connect4", "--batch", source, "--depth", "4", "--resume", str(done)
    )
    assert status == 0 and done.read_text() == kept  # both lines were answered


@pytest.mark.parametrize(
    ("text", "scored", "expected"),
    [
        (SCORED, True, (STONES, 1)),
        ("4453 -2", True, ("4453", -2)),
        ("4453", True, ("4453", None)),
        ("4453 x", True, ("4453 x", None)),
        ("4453 " + "9" * 20, True, ("4453 " + "9" * 20, None)),  # no score has 20 digits
        ("4453 ３", True, ("4453 ３", None)),  # a full-width digit is no score
        (FEN, False, (FEN, None)),
        ("3 4 5", False, ("3 4 5", None)),
    ],
)
def test_split_expected(text: str, scored: bool, expected: tuple[str, int | None]) -> None:
    assert split_expected(text, scored=scored) == expected


def test_a_last_number_is_part_of_the_position_in_a_game_without_a_score(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # A FEN ends with its move number: solve took it for an expected score (and failed
    # the line, 'expected 1, got win:1'); analyze would have read the same.
    source = write(tmp_path, f"{FEN}\n")
    status, out, err = run(capsys, "solve", "chess", "--batch", source, "--nodes", "100000")
    assert status == 0, err
    assert out == f"{FEN} win:1\n"
    status, out, _ = run(capsys, "analyze", "chess", "--batch", source, "--depth", "2")
    assert out.startswith(f"{FEN} win:1 Qg7# ")
    # Nim's heaps may be written with spaces: the last is a heap, never a score.
    source = write(tmp_path, "3 4 5\n1 2 3\n")
    status, out, _ = run(capsys, "solve", "nim", "--batch", source)
    assert out.splitlines() == ["3 4 5 win:11", "1 2 3 loss:6"]
    status, out, _ = run(capsys, "analyze", "nim", "--batch", source, "--depth", "3")
    assert [line.rsplit(" ", 3)[0] for line in out.splitlines()] == ["3 4 5", "1 2 3"]


# -- the summary -------------------------------------------------------------------------


def test_the_summary_gives_the_wall_time_not_the_summed_search_time(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Lines solved on several threads or workers at once add up to more than the run
    # took: each line here says it searched 10 s, and the run takes milliseconds.
    def ten_seconds(self: SolveLines, number: int, text: str, stop: object = None) -> LineResult:
        return LineResult(number, output=f"{text} 0", nodes=5, seconds=10.0)

    monkeypatch.setattr(SolveLines, "__call__", ten_seconds)
    source = write(tmp_path, "4\n44\n444\n")
    status, out, err = run(capsys, "solve", "connect4", "--batch", source)
    assert status == 0 and len(out.splitlines()) == 3
    found = re.fullmatch(
        r"solved 3 positions in (\S+) s \(30\.00 s of search summed over positions\), "
        r"5 nodes and 10000\.00 ms of search per position\n",
        err,
    )
    assert found, err
    assert float(found[1]) < 5.0


# -- reading, line by line, within limits ------------------------------------------------


def test_lines_are_numbered_and_kept_as_before(tmp_path: Path) -> None:
    text = "\ufeff44\r\n\r\n# a comment\r\n  45  \r46\n\n47"
    assert read_batch(write(tmp_path, text)) == [(1, "44"), (4, "45"), (5, "46"), (7, "47")]
    assert read_batch("@" + write(tmp_path, text)) == read_batch(write(tmp_path, text))
    assert read_batch(write(tmp_path, b"")) == []


def test_standard_input_is_read_as_bytes_or_text(monkeypatch: pytest.MonkeyPatch) -> None:
    raw = io.TextIOWrapper(io.BytesIO(b"44\n# c\n45\n"), encoding="utf-8")
    monkeypatch.setattr(sys, "stdin", raw)
    assert read_batch("-") == [(1, "44"), (3, "45")]
    monkeypatch.setattr(sys, "stdin", io.StringIO("46\n"))  # as tests give it
    assert read_batch("-") == [(1, "46")]


@pytest.mark.parametrize(
    "case",
    [
        ("MAX_LINE_BYTES", 64, "44\n45\n" + "4" * 100 + "\n", "line 3 is longer than"),
        ("MAX_LINE_BYTES", 64, "4" * 100, "line 1 is longer than"),  # no end of line
        ("MAX_BATCH_LINES", 5, "4\n" * 6, "has more than 5 lines"),
        ("MAX_BATCH_LINES", 5, "4\n" + "\n# c\n" * 3, "has more than 5 lines"),
        ("MAX_BATCH_BYTES", 100, "# comment\n" * 11, "is larger than"),
    ],
)
def test_a_batch_beyond_a_limit_is_refused_in_one_line(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    case: tuple[str, int, str, str],
) -> None:
    limit, value, text, says = case
    monkeypatch.setattr(_batch, limit, value)
    source = write(tmp_path, text)
    with pytest.raises(LimitError, match=says):
        read_batch(source)
    for command in (["solve", "connect4"], ["analyze", "connect4", "--depth", "1"]):
        status, out, err = run(capsys, *command, "--batch", source)
        assert (status, out) == (1, "")
        assert err.startswith("error: batch file ") and len(err.splitlines()) == 1, err


def test_a_line_of_exactly_the_longest_length_is_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(_batch, "MAX_LINE_BYTES", 64)
    assert read_batch(write(tmp_path, "4" * 63 + "\n")) == [(1, "4" * 63)]


@pytest.mark.parametrize(
    ("data", "says"),
    [
        (b"44\n\xff\xfe45\n", "line 2 is not UTF-8 text"),
        ("44\n45\n".encode("utf-16"), "line 1 is not UTF-8 text"),
    ],
)
def test_text_that_is_not_utf8_is_refused_naming_its_line(
    tmp_path: Path, data: bytes, says: str
) -> None:
    with pytest.raises(PliesError, match=says):
        read_batch(write(tmp_path, data))


def test_files_that_cannot_be_read(tmp_path: Path) -> None:
    with pytest.raises(PliesError, match="batch file not found"):
        read_batch(str(tmp_path / "missing.txt"))
    with pytest.raises(PliesError, match="it is a directory"):
        read_batch(str(tmp_path))


def test_output_that_cannot_be_written_or_resumed_is_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    source = write(tmp_path, f"{STONES}\n")
    # --resume /dev/zero: in tests/cli/test_fuzz_batch.py, under a memory limit.
    cases = [(["--resume", str(tmp_path)], f"cannot resume from {tmp_path}: not a regular file")]
    if Path("/dev/full").exists():
        cases.append((["--out", "/dev/full"], "cannot write /dev/full: No space left"))
    for options, says in cases:
        status, _, err = run(capsys, "solve", "connect4", "--batch", source, *options)
        assert status == 1 and says in err and len(err.splitlines()) == 1, err
