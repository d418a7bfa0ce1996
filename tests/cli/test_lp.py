"""``plies lp``: a program from a file or standard input, its JSON, rounds and drawing,
and one-line errors."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from cli_errors import assert_one_line_error, run
from plies.prune import format_exact, parse_lp
from prune.lp_reference import by_vertices

PROGRAM = "# the textbook\nmax x + y\nx + 2y <= 4\n3x + y <= 6\nx >= 0\ny >= 0\n"


@pytest.fixture
def program(tmp_path: Path) -> Path:
    path = tmp_path / "farm.lp"
    path.write_text(PROGRAM)
    return path


def test_prints_the_optimum(capsys: pytest.CaptureFixture[str], program: Path) -> None:
    status, out, _ = run(capsys, "lp", str(program))
    assert status == 0
    assert out.splitlines()[0] == "optimal: 2.8 at x = 1.6, y = 1.2 (1 round)"


def test_json_has_status_value_point_and_rounds(
    capsys: pytest.CaptureFixture[str], program: Path
) -> None:
    record = json.loads(run(capsys, "lp", str(program), "--json")[1])
    assert {k: record[k] for k in ("status", "value", "x", "y")} == {
        "status": "optimal",
        "value": 2.8,
        "x": 1.6,
        "y": 1.2,
    }
    assert isinstance(record["rounds"], list)


def test_reads_standard_input(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("min x\nx >= 1\nx <= 1\ny >= 2\ny <= 2\n"))
    record = json.loads(run(capsys, "lp", "-", "--json")[1])
    assert (record["status"], record["x"], record["y"]) == ("optimal", 1, 2)


@pytest.mark.parametrize(
    ("text", "status"),
    [("max x\nx + y <= 1\nx + y >= 2\n", "infeasible"), ("max x + y\nx >= 0\n", "unbounded")],
)
def test_no_optimum_is_an_answer_not_an_error(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, text: str, status: str
) -> None:
    path = tmp_path / "p.lp"
    path.write_text(text)
    code, out, _ = run(capsys, "lp", str(path), "--json")
    assert code == 0
    record = json.loads(out)
    assert (record["status"], record["value"], record["x"], record["y"]) == (
        status,
        None,
        None,
        None,
    )


def test_steps_narrate_the_rounds(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "lp", "--random", "25", "--seed", "1", "--steps")
    assert status == 0
    lines = out.splitlines()
    setup = next(i for i, line in enumerate(lines) if line.startswith("v = "))
    program = parse_lp("\n".join(lines[:setup]))  # the random program comes first
    assert len(program.constraints) == 25
    assert any(line.startswith("Round 1: ") for line in lines)
    assert any(line.startswith("  Test line x = ") for line in lines)
    assert any(line.startswith("  Discarded ") for line in lines)
    assert "measured a = " in lines[-1]


def test_random_programs_agree_with_vertex_enumeration(capsys: pytest.CaptureFixture[str]) -> None:
    from plies.lab import random_lp

    for seed in range(15):
        record = json.loads(run(capsys, "lp", "--random", "12", "--seed", str(seed), "--json")[1])
        status, value = by_vertices(parse_lp(random_lp(12, seed)))
        assert record["status"] == status
        assert record["exact"]["value"] == (None if value is None else format_exact(value))


def test_out_draws_the_search(
    capsys: pytest.CaptureFixture[str], program: Path, tmp_path: Path
) -> None:
    out = tmp_path / "lp.svg"
    status, _, _ = run(capsys, "lp", str(program), "--out", str(out))
    assert status == 0
    assert "optimal, 2.8" in out.read_text()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "error: {path}: empty program: the first line must be 'max ...' or 'min ...'"),
        ("max x\nx + y <== 3\n", "error: {path}: expected a number at line 2, column 9, found '='"),
        ("max x\nx + q <= 3\n", "error: {path}: unknown variable (the variables are x and y) "
         "at line 2, column 5, found 'q'"),
        ("maximise x\n", "error: {path}: expected 'max' or 'min' first at column 1, "
         "found 'maximise'"),
    ],
)  # fmt: skip
def test_a_bad_program_is_one_line_naming_the_file(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, text: str, message: str
) -> None:
    path = tmp_path / "bad.lp"
    path.write_text(text)
    assert_one_line_error(capsys, ["lp", str(path)])
    assert run(capsys, "lp", str(path))[2] == message.format(path=path) + "\n"


@pytest.mark.parametrize(
    "argv",
    [
        ["lp", "/no/such/file.lp"],
        ["lp"],
        ["lp", "x.lp", "--random", "3"],
        ["lp", "--random", "0"],
    ],
)
def test_bad_command_lines_are_one_line(
    capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    assert_one_line_error(capsys, argv)


def test_an_endless_file_is_refused_not_read_to_the_end(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert run(capsys, "lp", "/dev/zero")[2] == (
        "error: /dev/zero is larger than 16 MB, the most a program may take\n"
    )
    monkeypatch.setattr("sys.stdin", io.StringIO("x" * (16 * 2**20 + 1)))
    assert_one_line_error(capsys, ["lp", "-"])


def test_a_drawing_of_an_unknown_kind_is_one_line(
    capsys: pytest.CaptureFixture[str], program: Path, tmp_path: Path
) -> None:
    assert_one_line_error(capsys, ["lp", str(program), "--out", str(tmp_path / "lp.pdf")])
