"""The prune-and-search lab: text in, the result with its narrated and drawn rounds out."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from plies import lab
from plies.errors import ParseError, PliesError
from plies.prune import parse_lp
from prune.lp_reference import by_vertices


def test_select_lab_narrates_and_draws_every_round_then_the_answer() -> None:
    run = lab.select_lab("30 75 69 16 47 77 60 80 74 8 77 1 60 33 70 29 24", 5)
    assert run.result.value == 29
    assert len(run.steps) == len(run.result.rounds) + 1
    for step, round_ in zip(run.steps, run.result.rounds, strict=False):
        assert step.narration[0].startswith(f"Round {step.title.split()[1]}: {round_.size} numbers")
        assert f"Pivot {round_.pivot}:" in step.narration[1]
        assert step.svg.startswith("<svg")
    assert run.steps[-1].narration[0] == "The 5th smallest is 29."
    assert run.steps[-1].svg.startswith("<svg")


def test_the_recurrence_shows_the_largest_and_mean_fraction_kept() -> None:
    run = lab.select_lab(lab.random_numbers(300, 7), 100, drawings=False)
    kept = run.result.kept_fractions
    assert run.measured.largest == max(kept)
    assert run.measured.mean == pytest.approx(sum(kept) / len(kept))
    assert f"measured a = {max(kept):.2f} at most, {sum(kept) / len(kept):.2f} on average" in (
        run.recurrence
    )
    assert "T(n/5) + T(7n/10)" in run.recurrence


def test_select_record_is_json_with_the_value_first() -> None:
    run = lab.select_lab(["2.5", "1/3", "-4"], 2, method="random", seed=9, drawings=False)
    record = json.loads(json.dumps(run.record()))
    assert next(iter(record)) == "value"
    assert (record["value"], record["exact"], record["seed"]) == (pytest.approx(1 / 3), "1/3", 9)
    assert record["rounds"][0]["size"] == 3


def test_random_numbers_follow_the_seed() -> None:
    assert lab.random_numbers(20, 3) == lab.random_numbers(20, 3)
    assert lab.random_numbers(20, 3) != lab.random_numbers(20, 4)
    assert len(lab.read_numbers(lab.random_numbers(20, 3))) == 20


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("1 2 x3", "not a number (the 3rd value) at column 5, found 'x3'"),
        ("1, 2,, 1/0", "division by zero at column 8, found '1/0'"),
        ("  ", "no numbers given"),
    ],
)
def test_numbers_that_cannot_be_read_are_named(text: str, message: str) -> None:
    with pytest.raises(ParseError, match="^" + message.replace("(", r"\(").replace(")", r"\)")):
        lab.read_numbers(text)


def test_k_out_of_range_and_unknown_methods_are_refused() -> None:
    with pytest.raises(PliesError, match="k must be between 1 and 3"):
        lab.select_lab("1 2 3", 4)
    with pytest.raises(PliesError, match="unknown method 'fast'"):
        lab.select_lab("1 2 3", 1, method="fast")


PROGRAM = "max x + y\nx + 2y <= 4\n3x + y <= 6\nx >= 0\ny >= 0\n"


def test_lp_lab_answers_narrates_and_draws() -> None:
    text = lab.random_lp(20, 4)
    run = lab.lp_lab(text)
    assert (run.result.status, run.result.value) == by_vertices(parse_lp(text))
    assert len(run.steps) == len(run.result.rounds) + 1
    first = run.steps[0].narration
    assert first[0].startswith("v = ")  # how the constraints were sorted comes first
    size = run.result.rounds[0].size
    assert any(line.startswith(f"Round 1: {size} constraints in play") for line in first)
    for step, round_ in zip(run.steps, run.result.rounds, strict=False):
        discarded = [line for line in step.narration if line.startswith("Discarded ")]
        assert len(discarded) == len(round_.discarded)
        assert step.svg.count("<svg") == 1
    assert run.steps[-1].narration[-1].startswith(("Optimal:", "The program is"))


def test_lp_record_has_status_point_and_rounds() -> None:
    record = json.loads(json.dumps(lab.lp_lab(PROGRAM, drawings=False).record()))
    assert (record["status"], record["value"], record["x"], record["y"]) == (
        "optimal",
        2.8,
        1.6,
        1.2,
    )
    assert record["exact"] == {"value": "2.8", "x": "1.6", "y": "1.2"}
    assert record["rounds"][0]["upper"] == [1, 2]
    assert record["recurrence"]["a_max"] == lab.lp_lab(PROGRAM).measured.largest


@pytest.mark.parametrize(
    ("text", "status"),
    [("max x\nx + y <= 1\nx + y >= 2", "infeasible"), ("max x\ny <= 1", "unbounded")],
)
def test_lp_without_an_optimum_has_null_point(text: str, status: str) -> None:
    run = lab.lp_lab(text)
    record = run.record()
    assert (record["status"], record["value"], record["x"], record["y"]) == (
        status,
        None,
        None,
        None,
    )
    assert run.summary().startswith(status)


def test_random_programs_follow_the_seed_and_parse() -> None:
    assert lab.random_lp(8, 1) == lab.random_lp(8, 1)
    assert len(parse_lp(lab.random_lp(8, 1)).constraints) == 8


def test_the_drawing_is_written_as_svg_or_png(tmp_path: Path) -> None:
    run = lab.lp_lab(PROGRAM, drawings=False)
    svg = lab.write_lp_drawing(run, tmp_path / "lp.svg")
    assert svg.read_text().startswith("<svg")
    png = lab.write_lp_drawing(run, tmp_path / "lp.png")
    assert png.read_bytes().startswith(b"\x89PNG")
    with pytest.raises(PliesError, match=r"the drawing is \.svg or \.png"):
        lab.write_lp_drawing(run, tmp_path / "lp.pdf")


def test_summaries_give_exact_values_and_decimals() -> None:
    assert (
        lab.lp_lab("min x\n3x >= 1", drawings=False)
        .summary()
        .startswith("optimal: 1/3 (0.333333) at x = 1/3 (0.333333), y = 0")
    )
    assert lab.select_lab("5 1 4", 1, drawings=False).summary() == (
        "1: the 1st smallest of 3 (0 rounds, median of medians)"
    )
    assert Fraction(1, 3) == lab.read_numbers("1/3")[0]
