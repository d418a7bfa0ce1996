"""``plies complexity``: a table by default, JSON lines, CSV, SVG and PNG files, and
one-line errors for bad input."""

from __future__ import annotations

import csv
import io
import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from cli_errors import assert_one_line_error, run
from plies.cli import main
from plies.lab import ComplexityOptions, measure_complexity

SMALL = ["complexity", "--branching", "3", "--depths", "2-4", "--seeds", "3"]


def test_the_table_shows_every_search_and_reference(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, *SMALL)
    assert status == 0 and err == ""
    assert "Branching 3: mean (min-max) over 3 trees a depth" in out
    for text in (
        "Knuth-Moore minimum",
        "b^(3d/4)",
        "minimax",
        "alpha-beta best",
        "alpha-beta worst",
    ):
        assert text in out
    best_at_4 = next(line for line in out.splitlines()[::-1] if "alpha-beta best" in line)
    assert "17" in best_at_4.split()  # 3^2 + 3^2 - 1


def test_json_gives_one_row_a_line_with_the_means_and_the_spread(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, _ = run(capsys, *SMALL, "--json")
    rows = [json.loads(line) for line in out.splitlines()]
    assert status == 0 and len(rows) == 2 * 4 * 3
    expected = measure_complexity(ComplexityOptions.of(branching=3, depths="2-4", seeds=3))
    assert rows == expected.records()
    for row in rows:
        assert {"algorithm", "order", "depth", "leaves", "nodes"} <= set(row)
        assert row["leaves_min"] <= row["leaves"] <= row["leaves_max"]
    best = {
        r["depth"]: r["leaves"]
        for r in rows
        if (r["algorithm"], r["order"]) == ("alphabeta", "best")
    }
    assert best == {2: 5, 3: 11, 4: 17}


@pytest.mark.parametrize("suffix", ["svg", "png", "csv"])
def test_out_writes_the_chart_or_the_table(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, suffix: str
) -> None:
    if suffix == "png":
        pytest.importorskip("resvg_py")
    path = tmp_path / f"complexity.{suffix}"
    status, out, err = run(capsys, *SMALL, "--out", str(path), "--dpi", "96")
    assert status == 0 and err == f"wrote {path}\n" and "alpha-beta best" in out
    data = path.read_bytes()
    if suffix == "svg":
        root = ET.fromstring(data)
        values = {c.get("data-y") for c in root.iter("{http://www.w3.org/2000/svg}circle")}
        assert {"5", "11", "17"} <= values
    elif suffix == "png":
        assert data.startswith(b"\x89PNG")
    else:
        rows = list(csv.DictReader(io.StringIO(data.decode())))
        assert len(rows) == 24 and rows[0]["algorithm"] == "minimax"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--branching", "0"], "the branching must be at least 2, not 0"),
        (["--depths", "6-1"], "run backwards"),
        (["--depths", "x"], "depths must be FIRST-LAST"),
        (["--branching", "10", "--depths", "1-6"], "over the cap of 100,000"),
        (["--seeds", "0"], "at least 1"),
        (["--noise", "-0.5"], "noise must be 0 or more"),
        (["--noise", "lots"], "expected a number"),
        (["--out", "chart.pdf"], "write .svg, .png or .csv"),
    ],
)
def test_bad_input_is_one_line_and_exit_1(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    assert message in one_line_error(capsys, ["complexity", *argv])


def one_line_error(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    """The one ``error:`` line of ``plies ARGV`` (exit 1, nothing on stdout)."""
    assert_one_line_error(capsys, argv)
    try:  # again, for the line itself (assert_one_line_error read it)
        status = main(argv)
    except SystemExit as exit_info:
        status = int(exit_info.code or 0)
    out, err = capsys.readouterr()
    assert (status, out) == (1, "")
    return err


def test_the_error_names_the_cap(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "complexity", "--branching", "10", "--depths", "1-6")
    assert (status, out) == (1, "")
    assert err == (
        "error: a tree of branching 10 and depth 6 has 1,000,000 leaves, over the cap of "
        "100,000: lower the branching or the last depth\n"
    )


def test_an_unwritable_out_is_one_line(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    err = one_line_error(capsys, [*SMALL, "--out", str(tmp_path / "missing" / "c.csv")])
    assert err.startswith(f"error: cannot write {tmp_path / 'missing' / 'c.csv'}")
