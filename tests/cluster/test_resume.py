"""``--out`` and ``--resume`` of every batch command, serially (the cluster runs are in
test_dask.py): a resumed file equals an uninterrupted run's."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from plies.cli import main


def without_clocks(text: str) -> list[str]:
    """Output lines, the measured times of JSON lines ('time', 'nps') left out."""
    return [re.sub(r'"(time|nps)": [0-9.e-]+', "", line) for line in text.splitlines()]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize(
    ("command", "lines"),
    [
        (["tree", "--batch"], ["[1,[2,3]]", "[[3,12,8],[2,4", "[[3,12,8],[2,4,6],[14,5,2]]", "7"]),
        (["analyze", "tictactoe", "--depth", "3", "--batch"], ["5", "9 9", "1 2", "", "1"]),
        (["analyze", "tictactoe", "--depth", "3", "--json", "--batch"], ["5", "9 9", "1 2", "1"]),
        (["solve", "nim", "--batch"], ["1,2,3", "x", "3,4,5", "# note", "2,2", "1,2,3"]),
        (["solve", "nim", "--json", "--batch"], ["1,2,3", "x", "3,4,5", "2,2"]),
    ],
)
def test_resume_after_any_line_gives_the_uninterrupted_file(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, command: list[str], lines: list[str]
) -> None:
    source = tmp_path / "batch.txt"
    source.write_text("\n".join(lines) + "\n")
    given = f"@{source}" if command[0] == "tree" else str(source)
    whole = tmp_path / "whole.txt"
    status, out, _ = run(capsys, *command, given, "--out", str(whole))
    assert status == 1 and out == ""  # one bad line in each batch
    expected = whole.read_text()
    rows = expected.splitlines(keepends=True)
    for cut in range(len(rows) + 1):
        for partial in ("", rows[cut][:3] if cut < len(rows) else ""):
            part = tmp_path / "part.txt"
            part.write_text("".join(rows[:cut]) + partial)
            status, out, _ = run(capsys, *command, given, "--resume", str(part))
            assert out == "" and without_clocks(part.read_text()) == without_clocks(expected)
            assert part.read_text().endswith("\n")


def test_resume_starts_a_missing_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    source = tmp_path / "batch.txt"
    source.write_text("1,2,3\n3,4,5\n")
    out = tmp_path / "new.txt"
    assert run(capsys, "solve", "nim", "--batch", str(source), "--resume", str(out))[0] == 0
    assert out.read_text() == "1,2,3 loss:6\n3,4,5 win:11\n"


@pytest.mark.parametrize(
    "argv",
    [
        ["solve", "nim", "3,4,5", "--out", "x.txt"],
        ["solve", "nim", "3,4,5", "--resume", "x.txt"],
        ["analyze", "nim", "3,4,5", "--scheduler", "tcp://127.0.0.1:8786"],
        ["tree", "[1,2]", "--out", "x.txt"],
        ["analyze", "nim", "--batch", "-"],
        ["solve", "nim", "--batch", "-", "--scheduler", "http://example.org:80"],
        ["solve", "nim", "--batch", "-", "--workers", "0"],
        ["solve", "nim", "--batch", "-", "--out", "a", "--resume", "b"],
    ],
)
def test_cluster_options_out_of_place_are_one_error_line(
    capsys: pytest.CaptureFixture[str], argv: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import io
    import sys

    monkeypatch.setattr(sys, "stdin", io.StringIO("1,2\n"))
    status, out, err = run(capsys, *argv)
    assert status == 1 and out == ""
    assert len(err.splitlines()) == 1 and err.startswith("error: ")
