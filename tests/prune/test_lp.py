"""Megiddo's 2-D LP agrees with vertex enumeration and with SciPy, degenerate cases included."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings

from plies.prune import LinearProgram, LPResult, parse_lp, solve_lp
from prune.lp_reference import by_scipy, by_vertices, programs


def check_answer(program: LinearProgram, result: LPResult) -> None:
    """The point is feasible and has the value reported."""
    if result.status == "optimal":
        assert result.x is not None and result.y is not None
        assert all(c.holds(result.x, result.y) for c in program.constraints)
        assert result.value == program.objective.value(result.x, result.y)
    else:
        assert result.x is None and result.value is None


@settings(max_examples=2000)
@given(programs())
def test_agrees_with_vertex_enumeration(program: LinearProgram) -> None:
    result = solve_lp(program)
    check_answer(program, result)
    assert (result.status, result.value) == by_vertices(program)


@settings(max_examples=200)
@given(programs(most=60))
def test_rounds_discard_only_constraints_in_play(program: LinearProgram) -> None:
    result = solve_lp(program)
    in_play: set[int] | None = None
    for round_ in result.rounds:
        now = set(round_.upper) | set(round_.lower)
        if in_play is not None:
            assert now == in_play
        assert set(round_.discarded) <= now
        in_play = now - set(round_.discarded)
        if not round_.is_last:
            assert round_.discarded, "every round that goes on discards something"


CASES = {
    "textbook": ("max x + y\nx + 2y <= 4\n3x + y <= 6\nx >= 0\ny >= 0", "optimal", "14/5"),
    "single point": ("min 3x - y\nx <= 1\nx >= 1\ny >= 2\ny <= 2", "optimal", "1"),
    "parallel": ("max y\ny <= 3\ny <= 2\n2y <= 8\nx >= 0\nx <= 1", "optimal", "2"),
    "coincident": ("max x\nx + y <= 2\n2x + 2y <= 4\ny >= 0\ny >= 0", "optimal", "2"),
    "redundant": ("max x + y\nx <= 1\ny <= 1\nx + y <= 10\nx + y <= 3", "optimal", "2"),
    "unbounded": ("max x + y\nx >= 0\ny >= 0", "unbounded", None),
    "unbounded strip": ("max x\ny <= 1\ny >= 0", "unbounded", None),
    "bounded strip": ("min x\nx >= 2\ny <= 1\ny >= 0", "optimal", "2"),
    "infeasible": ("max x\nx + y <= 1\nx + y >= 2", "infeasible", None),
    "infeasible parallel": ("max y\ny >= 3\ny <= 2", "infeasible", None),
    "infeasible triangle": ("max x\nx >= 1\ny >= 1\nx + y <= 1", "infeasible", None),
    "no constraints": ("min x", "unbounded", None),
    "constant objective": ("max 0x\nx + y >= 10\nx <= 3", "optimal", "0"),
    "constant, infeasible": ("min 0x\n0x + 0y >= 1", "infeasible", None),
    "line of optima": ("max x + y\nx + y <= 5\nx >= 0\ny >= 0", "optimal", "5"),
    "only x": ("max 2x\nx + y <= 4\nx - y <= 2\ny <= 10", "optimal", "6"),
}


@pytest.mark.parametrize("name", CASES)
def test_degenerate_cases(name: str) -> None:
    text, status, value = CASES[name]
    program = parse_lp(text)
    result = solve_lp(program)
    check_answer(program, result)
    assert result.status == status
    assert result.value == (None if value is None else Fraction(value))
    assert by_vertices(program) == (status, result.value)
    assert by_scipy(program)[0] == status


def test_a_round_discards_a_quarter_or_more_of_many_constraints() -> None:
    tangents = range(-50, 51)  # of y = 10 - x^2 from above, of y = x^2 - 100 from below
    lines = ["max y"] + [f"{2 * t}x + y <= {t * t + 10}" for t in tangents]
    lines += [f"{-2 * t}x + y >= {-t * t - 100}" for t in tangents]
    result = solve_lp(parse_lp("\n".join(lines)))
    assert (result.status, result.value) == ("optimal", 10)  # on y = 10, |x| <= 1/2
    assert len(result.rounds) >= 4
    for kept, round_ in zip(result.kept_fractions, result.rounds, strict=False):
        assert kept <= 0.75 + 2 / round_.size


def test_the_test_line_is_vertical_when_the_search_moves_along_x() -> None:
    result = solve_lp(parse_lp("max y\n-x + y <= 0\nx + y <= 4\n3x + y <= 10\n-x + y <= 2"))
    first = result.rounds[0]
    assert result.u_name == "x"
    assert first.test is not None
    assert result.test_line(first) == (1, 0, first.test)
    assert (result.x, result.y) == (2, 2)
