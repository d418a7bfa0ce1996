"""``plies select``: the K-th smallest, its JSON, its rounds, and one-line errors."""

from __future__ import annotations

import contextlib
import io
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cli_errors import assert_one_line_error, run
from plies.cli import main


def test_prints_the_answer_and_the_recurrence(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "select", "3", "9", "1", "8", "2", "7")
    assert status == 0
    assert out.splitlines() == [
        "7: the 3rd smallest of 5 (0 rounds, median of medians)",
        "T(n) = T(a n) + O(n): no round was followed by another, so a is not measured "
        "(the search ended in its first round, or before any)",
    ]


def test_json_gives_the_value(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "select", "2", "2.5,1/3", "-4", "--json")
    assert status == 0
    record = json.loads(out)
    assert (record["value"], record["exact"]) == (pytest.approx(1 / 3), "1/3")


@settings(max_examples=60)
@given(
    st.lists(st.integers(-50, 50), min_size=1, max_size=40),
    st.sampled_from(["medians", "random"]),
    st.data(),
)
def test_json_value_is_the_kth_of_the_sorted_numbers(
    numbers: list[int], method: str, data: st.DataObject
) -> None:
    k = data.draw(st.integers(1, len(numbers)))
    argv = ["select", str(k), *map(str, numbers), "--method", method, "--seed", "5", "--json"]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(argv) == 0
    assert json.loads(out.getvalue())["value"] == sorted(numbers)[k - 1]


def test_steps_narrate_every_round(capsys: pytest.CaptureFixture[str]) -> None:
    numbers = [str(n) for n in range(40, 0, -1)]
    status, out, _ = run(capsys, "select", "10", *numbers, "--steps")
    assert status == 0
    lines = out.splitlines()
    rounds = [line for line in lines if line.startswith("Round ")]
    assert rounds[0] == "Round 1: 40 numbers, the 10th smallest sought."
    assert any(line.startswith("  Pivot ") for line in lines)
    assert any(line.startswith("  Kept ") for line in lines)
    assert lines[-2].startswith("10: the 10th smallest of 40")
    assert "measured a = " in lines[-1]


def test_random_numbers_from_a_seed(capsys: pytest.CaptureFixture[str]) -> None:
    first = run(capsys, "select", "5", "--random", "30", "--seed", "2", "--json")[1]
    again = run(capsys, "select", "5", "--random", "30", "--seed", "2", "--json")[1]
    other = run(capsys, "select", "5", "--random", "30", "--seed", "3", "--method", "random")
    assert first == again
    assert json.loads(first)["n"] == 30
    assert other[1].startswith("numbers: ")


@pytest.mark.parametrize(
    "argv",
    [
        ["select", "4", "1", "2", "3"],  # K out of range
        ["select", "0", "1", "2"],
        ["select", "x", "1", "2"],
        ["select", "1", "1", "two"],  # not a number
        ["select", "1", "1/0"],
        ["select", "1"],  # no numbers
        ["select", "1", "1", "--random", "3"],
        ["select", "1", "2", "--method", "fast"],
    ],
)
def test_bad_input_is_one_line(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    assert_one_line_error(capsys, argv)


def test_the_error_names_the_bad_number(capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run(capsys, "select", "1", "1", "two")
    assert status == 1
    assert err == "error: not a number (the 2nd value) at column 3, found 'two'\n"
    status, _, err = run(capsys, "select", "4", "1", "2", "3")
    assert err == "error: k must be between 1 and 3 (the count), not 4\n"
